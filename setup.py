"""Builds the Python package cotile: python/cotile plus the extension cotile._cotile (the
pybind11 binding in python/ext and the command's sources in tools/cotile, C++20).

    python3 -m pip install --no-build-isolation .     (offline: setuptools and pybind11 from Debian)

pybind11's headers come from `import pybind11` when it is importable, else /usr/include
(Debian's pybind11-dev). Objects are kept under build-py/setuptools and recompiled only when
their source or a header is newer."""

import glob
import os

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))
TOOLS = ["ops.cpp", "ops_algebra.cpp", "ops_atom.cpp", "atoms.cpp", "golden.cpp", "describe.cpp", "explain.cpp",
         "flags.cpp", "verify.cpp", "draw.cpp", "laws.cpp"]
BINDING = ["module.cpp", "convert.cpp", "objects.cpp", "functions.cpp", "verbs.cpp"]


def pybind11_include():
    try:
        import pybind11
        return pybind11.get_include()
    except ImportError:
        if os.path.exists("/usr/include/pybind11/pybind11.h"):
            return "/usr/include"
        raise SystemExit("pybind11 not found: apt-get install -y python3-pybind11 pybind11-dev")


HEADERS = [os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "include/cotile/**/*.hpp"), recursive=True)
           + glob.glob(os.path.join(ROOT, "tools/cotile/*.hpp")) + glob.glob(os.path.join(ROOT, "python/ext/*.hpp"))]


class IncrementalBuildExt(build_ext):
    """Compiles one object per source, skipping objects newer than their source and every header
    (a build on 2 cores takes minutes; an edit of one file recompiles that file)."""

    def build_extension(self, ext):
        # the command's sources do not include the binding's headers
        engine_time = max(os.path.getmtime(h) for h in HEADERS if not h.startswith("python"))
        binding_time = max(os.path.getmtime(h) for h in HEADERS)
        objects = []
        for src in ext.sources:
            headers_time = binding_time if src.startswith("python") else engine_time
            obj = os.path.join(self.build_temp, os.path.splitext(src)[0] + ".o")
            objects.append(obj)
            if os.path.exists(obj) and os.path.getmtime(obj) >= max(os.path.getmtime(src), headers_time) and not self.force:
                continue
            os.makedirs(os.path.dirname(obj), exist_ok=True)
            self.compiler.compile([src], output_dir=self.build_temp, include_dirs=ext.include_dirs,
                                  extra_postargs=ext.extra_compile_args, depends=ext.depends)
        self.compiler.link_shared_object(objects, self.get_ext_fullpath(ext.name), libraries=ext.libraries,
                                         extra_postargs=ext.extra_link_args,
                                         target_lang=self.compiler.detect_language(ext.sources))


ext = Extension(
    "cotile._cotile",
    sources=[f"python/ext/{f}" for f in BINDING] + [f"tools/cotile/{f}" for f in TOOLS],
    include_dirs=["include", "tools/cotile", "python/ext", pybind11_include()],
    depends=HEADERS,
    language="c++",
    extra_compile_args=["-std=c++20", "-O2", "-g0", "-fvisibility=hidden"],
)

setup(
    name="cotile",
    version="0.1.0",
    description="CuTe's layout algebra with exact static/dynamic semantics",
    package_dir={"": "python"},
    packages=["cotile"],
    ext_modules=[ext],
    cmdclass={"build_ext": IncrementalBuildExt},
    options={"build": {"build_base": "build-py/setuptools"}, "egg_info": {"egg_base": "build-py"}},
    python_requires=">=3.9",
    zip_safe=False,
)
