import os
import sys

# Tests run against the installed package (pip install .); without one, against python/ built
# in place (python3 setup.py build_ext --inplace).
try:
    import cotile  # noqa: F401
except ImportError:
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))

GOLDEN_DIR = os.environ.get("COTILE_GOLDEN_DIR",
                            os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "golden"))
