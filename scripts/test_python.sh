#!/usr/bin/env bash
# The Python package: README's install command in a virtual environment (Debian's python3 with its
# packages: pybind11, setuptools, pytest, hypothesis, nbclient), then the Python tests: the golden
# corpus through Python, the laws, the errors, the verbs and the example notebook (executed).
set -euo pipefail
cd "$(dirname "$0")/.."
py=/usr/bin/python3
[ -x "$py" ] || py=python3
"$py" -m venv --system-site-packages build-py/venv
export PIP_DISABLE_PIP_VERSION_CHECK=1
build-py/venv/bin/python3 -m pip install --no-build-isolation .
# The notebook must run, not be skipped; explain/verify/draw are compared with the command when built.
export COTILE_REQUIRE_NOTEBOOK=1
[ -x build/bin/cotile ] && export COTILE_CLI="$PWD/build/bin/cotile"
# From a directory outside the source tree, so that the installed package is the one tested.
cd tests/python
../../build-py/venv/bin/python3 -m pytest -q -p no:cacheprovider .
