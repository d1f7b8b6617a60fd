#!/usr/bin/env python3
"""Compile-fail tests with compiling twins: each file under compile_fail/ must compile as is, and
with -DCOTILE_FAIL must fail with the `expect:` text in its first error line (and every
`expect-anywhere:` text somewhere in the output). Run with every compiler given."""
import glob
import os
import subprocess
import sys

include = sys.argv[1]
compilers = [c for c in sys.argv[2:] if c]
here = os.path.dirname(os.path.abspath(__file__))
failures = checks = 0


def compile(compiler, path, fail):
    if os.path.basename(compiler).startswith("nvcc"):
        cmd = [compiler, "-std=c++20", "-arch=sm_90a", "--expt-relaxed-constexpr", "-x", "cu", "-I", include, "-c", path,
               "-o", os.devnull]
    else:
        cmd = [compiler, "-std=c++20", "-fsyntax-only", "-I", include, path]
    if fail:
        cmd.insert(1, "-DCOTILE_FAIL")
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout + p.stderr


for compiler in compilers:
    for path in sorted(glob.glob(os.path.join(here, "compile_fail", "*.cpp"))):
        name = os.path.basename(path)
        text = open(path).read()
        expect = [l.split("expect:", 1)[1].strip() for l in text.splitlines() if l.startswith("// expect:")]
        anywhere = [l.split("expect-anywhere:", 1)[1].strip() for l in text.splitlines() if l.startswith("// expect-anywhere:")]
        first_any = [l.split("expect-first-any:", 1)[1].strip().split("|") for l in text.splitlines()
                     if l.startswith("// expect-first-any:")]
        rc, out = compile(compiler, path, False)
        checks += 1
        if rc != 0:
            failures += 1
            print(f"FAIL {compiler} {name}: the compiling twin does not compile\n{out[:3000]}")
            continue
        rc, out = compile(compiler, path, True)
        checks += 1
        # The first diagnostic line that is an error (g++: "file:l:c: error:", nvcc: "file(l): error:");
        # g++ renders an apostrophe inside a template argument string as \'.
        errors = [l.replace("\\'", "'") for l in out.splitlines() if " error:" in l or ": error" in l]
        first = errors[0] if errors else ""
        ok = (rc != 0 and all(e in first for e in expect) and all(a in out for a in anywhere)
              and all(any(alt in first for alt in alts) for alts in first_any))
        if not ok:
            failures += 1
            print(f"FAIL {compiler} {name}: first error line:\n  {first}\nexpected to contain: {expect} {anywhere}")
        else:
            print(f"ok   {compiler} {name}: {len(errors)} error lines, {len(out.splitlines())} lines of output")
print(f"{checks - failures} passed, {failures} failed")
sys.exit(1 if failures else 0)
