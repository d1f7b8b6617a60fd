#!/usr/bin/env python3
"""Differential test of the typed layer against golden-corpus files.

Each case is turned into typed C++ (static leaves as Int<N>{}, dynamic leaves as run-time
int64_t values the compiler cannot see), compiled, run, and its printed result compared with
the expected text. Usage:

  gen_typed_tests.py --include DIR --out DIR [--cxx g++] [--chunk 150] [--limit N] FILE...

Prints one line per failing case and the closing line `N passed, N failed` (cases of ops the
typed layer does not take are counted as skipped, and listed by op)."""
import argparse
import os
import re
import subprocess
import sys
from collections import Counter

# --- a parser for CuTe's print format -------------------------------------------------------


class P:
    def __init__(self, s):
        self.s, self.i = s, 0

    def peek(self):
        return self.s[self.i] if self.i < len(self.s) else ""

    def expr(self):
        a = self.term()
        if self.peek() == ":":
            self.i += 1
            b = self.term()
            return ("layout", a, b)
        return a

    def term(self):
        c = self.peek()
        if c == "(":
            self.i += 1
            items = []
            if self.peek() == ")":
                self.i += 1
                return ("tuple", items)
            items.append(self.expr())
            while self.peek() == ",":
                self.i += 1
                items.append(self.expr())
            assert self.peek() == ")", self.s
            self.i += 1
            return ("tuple", items)
        m = re.compile(r"_?-?\d+").match(self.s, self.i)
        if m:
            self.i = m.end()
            t = m.group(0)
            return ("int", int(t.lstrip("_")), t.startswith("_"))
        if c == "_":
            self.i += 1
            return ("underscore",)
        m = re.compile(r"[A-Za-z][A-Za-z0-9_.<>,]*").match(self.s, self.i)
        if m:
            self.i = m.end()
            return ("name", m.group(0))
        raise ValueError(self.s)


def parse(s):
    p = P(s)
    v = p.expr()
    assert p.i == len(p.s), s
    return v


# --- C++ for values ---------------------------------------------------------------------------


def cpp(v):
    k = v[0]
    if k == "int":
        return f"Int<{v[1]}>{{}}" if v[2] else f"dyn({v[1]})"
    if k == "underscore":
        return "_"
    if k == "tuple":
        return "make_pack(" + ", ".join(cpp(e) for e in v[1]) + ")"
    if k == "layout":
        return f"make_layout({cpp(v[1])}, {cpp(v[2])})"
    raise ValueError(v)


def static_int(v):
    assert v[0] == "int" and v[2], v
    return v[1]


def int_list(v):
    assert v[0] == "tuple"
    return [static_int(e) for e in v[1]]


# op -> function building the C++ expression from parsed args (None: not supported)
def call(op, a):
    n = len(a)
    L = lambda i: cpp(a[i])
    simple1 = {"size", "rank", "depth", "product_each", "flatten", "cosize", "coalesce", "filter", "filter_zeros",
               "right_inverse", "left_inverse", "complement", "zip", "make_layout_right"}
    if op in simple1 and n == 1:
        return f"{op}({L(0)})"
    simple2 = {"shape_div", "ceil_div", "elem_less", "idx2crd", "congruent", "compatible", "make_ordered_layout",
               "composition", "complement", "coalesce", "logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
               "logical_product", "zipped_product", "tiled_product", "blocked_product", "raked_product",
               "max_common_vector", "max_common_layout", "append"}
    if op in simple2 and n == 2:
        return f"{op}({L(0)}, {L(1)})"
    if op == "crd2idx" and n == 3:
        return f"crd2idx({L(0)}, {L(1)}, {L(2)})"
    if op == "make_layout" and n == 1:
        return f"make_layout({L(0)})"
    if op == "make_layout_concat":
        return "make_layout(" + ", ".join(L(i) for i in range(n)) + ")"
    if op == "eval" and n == 2:
        return f"{L(0)}({L(1)})"
    if op == "select" and n == 2:
        return f"select<{', '.join(map(str, int_list(a[1])))}>({L(0)})"
    if op == "replace" and n == 3:
        return f"replace<{static_int(a[1])}>({L(0)}, {L(2)})"
    if op == "group" and n == 2:
        b, e = int_list(a[1])
        return f"group<{b}, {e}>({L(0)})"
    if op in ("upcast", "downcast") and n == 2:
        return f"{op}<{static_int(a[1])}>({L(0)})"
    return None


HEADER = """#include <cstdio>
#include <string>
#include "cotile/ct/ct.hpp"
using namespace cotile::ct;
static int64_t dyn(int64_t x) { volatile int64_t v = x; return v; }
static std::string str(int64_t x) { return std::to_string(x); }
template <int64_t N> static std::string str(Int<N> x) { return to_string(x); }
template <class T> static std::string str(const T& x) { return to_string(x); }
static int passed = 0, failed = 0;
static void check(const char* where, const std::string& got, const char* want) {
  if (got == want) { ++passed; return; }
  ++failed;
  std::printf("FAIL %s\\n  expected: %s\\n  got:      %s\\n", where, want, got.c_str());
}
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--include", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--cxx", default="g++")
    ap.add_argument("--chunk", type=int, default=150)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    cases, skipped = [], Counter()
    for path in args.files:
        for lineno, line in enumerate(open(path), 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            f = line.split("\t")
            arrow = f.index("=>")
            op, argv, want = f[0], f[1:arrow], f[arrow + 1:]
            if len(want) != 1 or "=" in want[0] or "Sw<" in line:
                skipped[op] += 1
                continue
            try:
                expr = call(op, [parse(x) for x in argv])
            except (ValueError, AssertionError):
                expr = None
            if expr is None:
                skipped[op] += 1
                continue
            cases.append((f"{os.path.basename(path)}:{lineno} {op}", expr, want[0]))
    if args.limit:
        cases = cases[: args.limit]
    chunks = [cases[i : i + args.chunk] for i in range(0, len(cases), args.chunk)]

    def run_chunk(k):
        chunk = chunks[k]
        src = os.path.join(args.out, f"typed_cases_{k}.cpp")
        with open(src, "w") as out:
            out.write(HEADER)
            for j, (where, expr, want) in enumerate(chunk):
                out.write(f"static void case{j}() {{ check({where!r}, str({expr}), {want!r}); }}\n".replace("'", '"'))
            out.write("int main() {\n")
            for j in range(len(chunk)):
                out.write(f"  case{j}();\n")
            out.write('  std::printf("chunk %d passed, %d failed\\n", passed, failed);\n  return 0;\n}\n')
        exe = src[:-4]
        p = subprocess.run([args.cxx, "-std=c++20", "-O1", "-I", args.include, src, "-o", exe], capture_output=True, text=True)
        if p.returncode != 0:
            return 0, len(chunk), f"FAIL chunk {k} did not compile:\n{p.stderr[:2000]}\n"
        r = subprocess.run([exe], capture_output=True, text=True)
        m = re.search(r"chunk (\d+) passed, (\d+) failed", r.stdout)
        if not m:
            return 0, len(chunk), f"FAIL chunk {k} crashed:\n{r.stdout[-2000:]}{r.stderr[-2000:]}\n"
        return int(m.group(1)), int(m.group(2)), "".join(l + "\n" for l in r.stdout.splitlines() if not l.startswith("chunk"))

    from concurrent.futures import ThreadPoolExecutor
    passed = failed = 0
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for p_, f_, text in pool.map(run_chunk, range(len(chunks))):
            passed += p_
            failed += f_
            sys.stdout.write(text)
    for op, n in sorted(skipped.items()):
        print(f"skipped {n} cases of {op} (not a typed-layer operation with one printed result)")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
