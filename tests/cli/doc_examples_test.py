#!/usr/bin/env python3
"""The docs' examples run: every `$ cotile ...` line in a ```console block of README.md and
docs/*.md is run (with the built command) and its output, stdout and stderr together, compared
line for line with the lines under it up to the next `$` line or the block's end. A block whose
command fails must show the error the command prints.
    doc_examples_test.py COTILE_BINARY"""
import glob
import os
import shlex
import subprocess
import sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
cotile = sys.argv[1]
files = [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md")))
examples = failures = 0
for path in files:
    lines = open(path, encoding="utf-8").read().splitlines()
    in_block = False
    k = 0
    while k < len(lines):
        line = lines[k]
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
