#!/usr/bin/env bash
# ctest `playground_test` (label browser): build the playground (web/build.sh, into BUILD_DIR) and
# drive it in Debian's headless Chromium (playground_test.mjs). Skipped (77) when emscripten,
# node, Chromium or web/node_modules (npm ci in web/) are missing, unless COTILE_REQUIRE_BROWSER=1.
#   run_playground_test.sh COTILE GOLDEN_DIR BUILD_DIR
set -euo pipefail
cotile=$1 golden=$2 build=$3
cd "$(dirname "$0")/../.."
missing=()
command -v em++ >/dev/null || missing+=("emscripten (apt-get install -y emscripten)")
command -v node >/dev/null || missing+=("node")
[ -x /usr/bin/chromium ] || missing+=("chromium (apt-get install -y chromium)")
[ -d web/node_modules/playwright-core ] || missing+=("playwright-core (cd web && npm ci)")
if [ ${#missing[@]} -gt 0 ]; then
  if [ "${COTILE_REQUIRE_BROWSER:-0}" = 1 ]; then
    echo "FAIL missing: ${missing[*]}"
    exit 1
  fi
  echo "skipped, missing: ${missing[*]}"
  exit 77
fi
BUILD="$build" JOBS=1 bash web/build.sh
node tests/web/playground_test.mjs "$cotile" "$golden"
