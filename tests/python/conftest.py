import os
import sys

# Tests run against the installed package (pip install .); without one, against python/ built
# in place (python3 setup.py build_ext --inplace).
try:
    import cotile  # noqa: F401
except ImportError:
    _python = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "python"))
    sys.path.insert(0, _python)
    # (and for the notebook's kernel, a child process)
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (_python, os.environ.get("PYTHONPATH")) if p)

GOLDEN_DIR = os.environ.get("COTILE_GOLDEN_DIR",
                            os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "golden"))
