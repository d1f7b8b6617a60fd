#!/usr/bin/env python3
"""The docs' examples run: every `$ cotile ...` line in a ```console block of README.md and
docs/*.md is run (with the built command) and its output, stdout and stderr together, compared
line for line with the lines under it up to the next `$` line or the block's end. A block whose
command fails must show the error the command prints. With --cxx, every ```cpp block that has an
`int main` is compiled against include/ and run; its output must equal the ```text block that
follows it.
    doc_examples_test.py COTILE_BINARY [--cxx COMPILER]"""
import glob
import os
import shlex
import subprocess
import sys
import tempfile

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
cotile = sys.argv[1]
cxx = sys.argv[sys.argv.index("--cxx") + 1] if "--cxx" in sys.argv else None


def run_program(source, where):
    """Compiles and runs one C++ example; returns its output lines."""
    with tempfile.TemporaryDirectory() as tmp:
        src, exe = os.path.join(tmp, "example.cpp"), os.path.join(tmp, "example")
        open(src, "w").write(source)
        inc = os.path.join(root, "include")
        c = subprocess.run([cxx, "-std=c++20", "-Wall", "-Wextra", "-Werror", "-I", inc, src, "-o", exe],
                           capture_output=True, text=True, timeout=600)
        if c.returncode:
            return ["(does not compile)"] + c.stderr.splitlines()[:20]
        r = subprocess.run([exe], capture_output=True, text=True, timeout=60)
        return (r.stdout + r.stderr).rstrip("\n").splitlines()
files = [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md")))
examples = failures = 0
for path in files:
    lines = open(path, encoding="utf-8").read().splitlines()
    in_block = False
    k = 0
    while k < len(lines):
        line = lines[k]
        if line.strip() == "```cpp" and cxx:
            end = k + 1
            while end < len(lines) and lines[end].strip() != "```":
                end += 1
            source = "\n".join(lines[k + 1:end]) + "\n"
            if "int main" in source:
                examples += 1
                where = f"{os.path.relpath(path, root)}:{k + 1}"
                j = end + 1
                while j < len(lines) and not lines[j].strip():
                    j += 1
                want = []
                if j < len(lines) and lines[j].strip() == "```text":
                    j += 1
                    while j < len(lines) and lines[j].strip() != "```":
                        want.append(lines[j])
                        j += 1
                got = run_program(source, where)
                if not want or got != want:
                    failures += 1
                    print(f"FAIL {where}: the C++ example (its output must follow in a ```text block)\n"
                          "  expected:\n    " + "\n    ".join(want) + "\n  got:\n    " + "\n    ".join(got))
            k = end + 1
            continue
        if line.strip() == "```console":
            in_block = True
        elif line.strip() == "```":
            in_block = False
        elif in_block and line.startswith("$ cotile "):
            want = []
            j = k + 1
            while j < len(lines) and not lines[j].startswith("$ ") and lines[j].strip() != "```":
                want.append(lines[j])
                j += 1
            args = shlex.split(line[len("$ cotile "):])
            r = subprocess.run([cotile] + args, capture_output=True, text=True, timeout=120)
            got = (r.stdout + r.stderr).rstrip("\n").splitlines()
            examples += 1
            where = f"{os.path.relpath(path, root)}:{k + 1}"
            if got != want:
                failures += 1
                print(f"FAIL {where}: {line}\n  expected:\n    " + "\n    ".join(want) + "\n  got:\n    " +
                      "\n    ".join(got))
            k = j
            continue
        k += 1
print(f"{examples - failures} of {examples} documented examples print what the docs say")
sys.exit(1 if failures or examples == 0 else 0)
