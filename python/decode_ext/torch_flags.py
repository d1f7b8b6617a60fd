"""Prints what CMake needs to build python/decode_ext against the PyTorch python3 imports:
include dirs (comma-separated) | library dirs | _GLIBCXX_USE_CXX11_ABI | extension suffix (exit 1 without PyTorch)."""
import os
import sys
import sysconfig

try:
    import torch
    import torch.utils.cpp_extension as ext
except ImportError:
    sys.exit(1)


def paths(fn):
    try:
        return fn(device_type="cuda")
    except TypeError:  # PyTorch before 2.5
        return fn(cuda=True)


include = paths(ext.include_paths) + [sysconfig.get_paths()["include"]]
if not os.path.exists(os.path.join(include[-1], "Python.h")):
    sys.exit(1)
print("|".join([",".join(include), ",".join(paths(ext.library_paths)), str(int(torch._C._GLIBCXX_USE_CXX11_ABI)),
                sysconfig.get_config_var("EXT_SUFFIX")]))
