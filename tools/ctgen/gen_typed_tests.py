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


# --- atoms: names in the corpus -> the typed layer's template arguments ---------------------

ELEMS = {"half_t": "Elem::kHalf", "bfloat16_t": "Elem::kBFloat16", "float_e5m2_t": "Elem::kE5M2",
         "float_e4m3_t": "Elem::kE4M3", "float": "Elem::kFloat"}
COPY_OPS = {"copy.u32": "CopyOp::kU32", "copy.u64": "CopyOp::kU64", "copy.u128": "CopyOp::kU128",
            "cp.async.16B": "CopyOp::kCpAsync16B", "ldmatrix.x1": "CopyOp::kLdsmX1",
            "ldmatrix.x2": "CopyOp::kLdsmX2", "ldmatrix.x4": "CopyOp::kLdsmX4"}
MMA_TYPES = {"F16F16": "Elem::kHalf", "BF16BF16": "Elem::kBFloat16", "E4M3E4M3": "Elem::kE4M3", "E5M2E5M2": "Elem::kE5M2"}


def name_of(v):
    if v[0] != "name":
        raise ValueError(v)
    return v[1]


def copy_targs(a):
    return f"{COPY_OPS[name_of(a[0])]}, {ELEMS[name_of(a[1])]}"


def mma_targs(a):
    """MmaAtom / make_tiled_mma template arguments for a corpus atom name."""
    s = name_of(a)
    m = re.fullmatch(r"SM80_16x8x16_F32(F16F16|BF16BF16)F32_TN", s)
    if m:
        e = MMA_TYPES[m.group(1)]
        return f"MmaFamily::kSm80_16x8x16, {e}, {e}, 16, 8"
    m = re.fullmatch(r"SM89_16x8x32_F32(E4M3E4M3|E5M2E5M2)F32_TN", s)
    if m:
        e = MMA_TYPES[m.group(1)]
        return f"MmaFamily::kSm89_16x8x32, {e}, {e}, 16, 8"
    m = re.fullmatch(r"SM90_64x(\d+)x(\d+)_F32([A-Z0-9]+?)(?:_SS<(K|MN),(K|MN)>|_SS_TN)", s)
    if m:
        e = MMA_TYPES[m.group(3)]
        ak, bk = (m.group(4) or "K") == "K", (m.group(5) or "K") == "K"
        return f"MmaFamily::kSm90_Gmma_SS, {e}, {e}, 64, {m.group(1)}, {str(ak).lower()}, {str(bk).lower()}"
    m = re.fullmatch(r"SM100_MMA_(?:F16BF16|F8F6F4)_SS<(\w+),(\w+),float,(\d+),(\d+),(K|MN),(K|MN)>", s)
    if m:
        return (f"MmaFamily::kSm100_Umma_SS, {ELEMS[m.group(1)]}, {ELEMS[m.group(2)]}, {m.group(3)}, {m.group(4)}, "
                f"{str(m.group(5) == 'K').lower()}, {str(m.group(6) == 'K').lower()}")
    raise ValueError(s)


def swizzle_cpp(text):
    m = re.fullmatch(r"Sw<(\d+),(\d+),(\d+)>", text)
    if not m:
        raise ValueError(text)
    return f"Swizzle<{m.group(1)}, {m.group(2)}, {m.group(3)}>{{}}"


def layout_or_composed_cpp(text):
    """A plain layout, or `Sw<B,M,S> o OFFSET o LAYOUT` (offset _0) as composition(Sw, L)."""
    parts = text.split(" o ")
    if len(parts) == 1:
        return cpp(parse(text))
    if len(parts) != 3 or parts[1] != "_0":
        raise ValueError(text)
    return f"composition({swizzle_cpp(parts[0])}, {cpp(parse(parts[2]))})"


def index_list(v):
    if v[0] != "tuple":
        raise ValueError(v)
    return "{" + ", ".join(str(e[1]) for e in v[1]) + "}"


# Swizzle family: arguments hold spaces (`Sw<..> o _0 o L`), so they are taken as text.
def call_swizzle(op, argv):
    if op == "swizzle_apply" and len(argv) == 2:
        return "", {"": f"map_str({swizzle_cpp(argv[0])}, {index_list(parse(argv[1]))})"}
    if op == "swizzle_compose" and len(argv) == 3:
        setup = f"const auto c = composition({swizzle_cpp(argv[0])}, {cpp(parse(argv[1]))});"
        return setup, {"layout": "c", "offsets": f"map_str(c, {index_list(parse(argv[2]))})"}
    if op == "tile_to_shape" and len(argv) in (2, 3):
        rest = ", ".join(cpp(parse(x)) for x in argv[1:])
        setup = f"const auto t = tile_to_shape({layout_or_composed_cpp(argv[0])}, {rest});"
        return setup, {"layout": "t", "offsets": "OFFSETS_AT_INCREASING_INDICES"}
    return None


def cpp_str(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def tensor(v):
    return f"make_tensor(OffsetIter{{}}, {cpp(v)})"


# op -> (setup statements, {field: C++ expression}) for cases with several named results
def call_record(op, a):
    n = len(a)
    if op == "copy_atom" and n == 2:
        t = f"CopyAtom<{copy_targs(a)}>"
        return "", {"ThrID": f"{t}::thr_id()", "ValLayoutSrc": f"{t}::val_layout_src()",
                    "ValLayoutDst": f"{t}::val_layout_dst()", "ValLayoutRef": f"{t}::val_layout_ref()",
                    "SrcLayout_bits": f"{t}::src_layout_bits()", "DstLayout_bits": f"{t}::dst_layout_bits()",
                    "RefLayout_bits": f"{t}::ref_layout_bits()"}
    if op in ("make_tiled_copy", "make_cotiled_copy", "tiled_copy_partition", "cotiled_copy_partition"):
        maker = "make_tiled_copy" if "cotiled" not in op else "make_cotiled_copy"
        setup = f"const auto tc = {maker}<{copy_targs(a)}>({cpp(a[2])}, {cpp(a[3])});"
        if op.startswith("make_") and n == 4:
            return setup, {"tiler": "tile_str(decltype(tc)::value.tiler)", "layout_tv": "layout_tv(tc)",
                           "layoutS_TV": "get_layoutS_TV(tc)", "layoutD_TV": "get_layoutD_TV(tc)"}
        if n == 6:
            setup += (f" const auto tn = {tensor(a[4])}; const auto thr = dyn({a[5][1]});"
                      " const auto s = get_slice(tc, thr).partition_S(tn); const auto d = partition_D(tc, tn, thr);")
            return setup, {"S": "s.layout()", "S_offset": "*s.data()", "D": "d.layout()", "D_offset": "*d.data()"}
    if op == "mma_atom" and n == 1:
        t = f"MmaAtom<{mma_targs(a[0])}>"
        return "", {"Shape_MNK": f"{t}::shape_mnk()", "ThrID": f"{t}::thr_id()", "ALayout": f"{t}::layout_a()",
                    "BLayout": f"{t}::layout_b()", "CLayout": f"{t}::layout_c()"}
    if op.startswith("make_tiled_mma") and n == 2:
        setup = f"const auto m = make_tiled_mma<{mma_targs(a[0])}>({cpp(a[1])});"
        return setup, {"tile_mnk": "tile_shape(m)", "thr_layout_vmnk": "thr_layout_vmnk(m)",
                       "layoutA_TV": "get_layoutA_TV(m)", "layoutB_TV": "get_layoutB_TV(m)", "layoutC_TV": "get_layoutC_TV(m)"}
    if op.startswith("mma_partition_") and n == 4:
        x = op[-1]
        setup = (f"const auto m = make_tiled_mma<{mma_targs(a[0])}>({cpp(a[1])}); const auto tn = {tensor(a[2])};"
                 f" const auto p = get_slice(m, dyn({a[3][1]})).partition_{x}(tn);")
        return setup, {f"thrfrg_{x}": f"thrfrg_{x}(m, {cpp(a[2])})", f"partition_{x}": "p.layout()", "offset": "*p.data()"}
    if op == "fmha_gen_q" and n == 4:
        e, d, mt = ELEMS[name_of(a[0])], static_int(a[1]), static_int(a[2])
        # The kernel's chain (qload.md §5-§8) in typed code: partition_A of gQ, the two replace<0>, the
        # cotiled copy and thread 0's source partition.
        setup = (f"const auto mma = make_tiled_mma<MmaFamily::kSm100_Umma_SS, {e}, {e}, {mt}, 64>();"
                 f" const auto gQ = make_tensor(OffsetIter{{}}, make_layout(make_shape(Int<{mt}>{{}}, Int<{d}>{{}}), make_stride(dyn({d}), _1{{}})));"
                 " const auto tSgQ = partition_A(mma, gQ, dyn(0));"
                 " const auto st = stride(tSgQ.layout());"
                 f" const auto data = make_layout(shape(tSgQ.layout()), replace<0>(st, replace<0>(get<0>(st), Int<{d}>{{}})));"
                 f" const auto tc = make_cotiled_copy<CopyOp::kCpAsync16B, {e}>({cpp(a[3])}, data);"
                 " const auto inv = make_layout(left_inverse(data), make_layout(_1{}, _0{}));")
        return setup, {"tSgQ": "tSgQ.layout()", "data_layout": "data", "coalesce_data_layout": "coalesce(data)",
                       "left_inverse_data_layout": "left_inverse(data)", "inv_data_layout": "inv",
                       "layout_tv_data": f"composition(inv, {cpp(a[3])})", "tiler": "tile_str(decltype(tc)::value.tiler)",
                       "tile2data": "tile2data(tc, data)", "layout_tv": "layout_tv(tc)",
                       "partition_S_thr0": "partition_S(tc, tSgQ, dyn(0)).layout()"}
    return None


HEADER = """#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string>
#include "cotile/ct/ct.hpp"
#include "cotile/text/value.hpp"
using namespace cotile::ct;
using cotile::CopyOp;
using cotile::Elem;
using cotile::MmaFamily;
static int64_t dyn(int64_t x) { volatile int64_t v = x; return v; }
template <class F> static std::string map_str(const F& f, std::initializer_list<int64_t> xs) {
  std::string r = "(";
  for (int64_t x : xs) r += (r.size() > 1 ? "," : "") + std::to_string(f(dyn(x)));
  return r + ")";
}
// Offsets listed at indices the corpus does not print: each must be the value at some index,
// at strictly increasing indices (the golden README's rule for tile_to_shape).
template <class L> static std::string offsets_at_increasing_indices(const L& l, const char* want) {
  int64_t n = 0;
  if constexpr (is_composed_layout<L>::value) n = int64_t(size(l.layout));
  else n = int64_t(size(l));
  int64_t at = 0;
  for (const char* p = want + 1; *p && *p != ')';) {
    const int64_t v = std::strtoll(p, const_cast<char**>(&p), 10);
    while (at < n && l(dyn(at)) != v) ++at;
    if (at == n) return "offset " + std::to_string(v) + " not found at an increasing index";
    ++at;
    if (*p == ',') ++p;
  }
  return "ok";
}
static std::string tile_str(const cotile::Tile& t) { return cotile::text::to_string(cotile::text::of_tile(t)); }
static std::string str(int64_t x) { return std::to_string(x); }
static std::string str(const std::string& x) { return x; }
template <int64_t N> static std::string str(Int<N> x) { return to_string(x); }
template <class T> static std::string str(const T& x) { return to_string(x); }
static int passed = 0, failed = 0;
static bool bad = false;
static void check(const char* where, const std::string& got, const char* want) {
  if (got == want) return;
  bad = true;
  std::printf("FAIL %s\\n  expected: %s\\n  got:      %s\\n", where, want, got.c_str());
}
static void refused_missing(const char* where) {  // a case CuTe answers against its law
  bad = true;
  std::printf("FAIL %s\\n  expected a cotile::LawError (CuTe's result violates its law)\\n", where);
}
static void run(void (*one_case)()) {  // a case passes when all its checks do
  bad = false;
  one_case();
  ++(bad ? failed : passed);
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
    ap.add_argument("--cli", help="the cotile command: its golden --json lists the cases whose CuTe result violates "
                                  "their law, which the typed layer must refuse")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    cases, skipped = [], Counter()
    # Cases whose CuTe result violates its law: with a dynamic leaf the typed layer throws
    # cotile::LawError at run time; with static leaves only it does not compile (the compile_fail
    # tests check that path), so those are not compiled here.
    # Cases the default mode answers with another, lawful result (golden's `lawful`): the typed
    # layer must give that one.
    refused, refused_static, lawful = set(), 0, {}
    if args.cli:
        import json
        g = subprocess.run([args.cli, "golden", "--json", *args.files], capture_output=True, text=True)
        report = json.loads(g.stdout)
        refused = {(os.path.basename(r["file"]), r["line"]) for r in report["refused"]}
        lawful = {(os.path.basename(r["file"]), r["line"]): r["cotile"] for r in report["lawful"]}
    for path in args.files:
        for lineno, line in enumerate(open(path), 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            f = line.split("\t")
            arrow = f.index("=>")
            op, argv, want = f[0], f[1:arrow], f[arrow + 1:]
            where = f"{os.path.basename(path)}:{lineno} {op}"
            is_refused = (os.path.basename(path), lineno) in refused
            if (os.path.basename(path), lineno) in lawful:
                if len(want) != 1 or "=" in want[0]:
                    skipped[op] += 1  # (a record: only single results are answered otherwise so far)
                    continue
                want = [lawful[(os.path.basename(path), lineno)]]
            if is_refused and not re.search(r"(^|[(,:\t])-?\d", "\t".join(argv)):
                refused_static += 1  # every leaf static: a compile error
                continue
            if op in ("swizzle_apply", "swizzle_compose", "tile_to_shape"):
                try:
                    rec = call_swizzle(op, argv)
                except (ValueError, AssertionError):
                    rec = None
                if rec is None:
                    skipped[op] += 1
                    continue
                setup, fields = rec
                checks = []
                for w in want:
                    k, v = w.split("=", 1) if "=" in w else ("", w)
                    e = fields[k]
                    if e == "OFFSETS_AT_INCREASING_INDICES":  # indices not given (golden README)
                        checks.append(("offsets_at_increasing_indices(t, " + cpp_str(v) + ")", "ok"))
                    else:
                        checks.append((e, v))
                cases.append((where, setup, checks))
                continue
            try:
                parsed = [parse(x) for x in argv]
                if len(want) == 1 and "=" not in want[0]:
                    expr = call(op, parsed)
                    if expr is not None:
                        cases.append((where, "", [(expr, None if is_refused else want[0])]))
                        continue
                rec = call_record(op, parsed)
            except (ValueError, AssertionError, KeyError):
                rec = None
            if rec is None or any("=" not in w for w in want):
                skipped[op] += 1
                continue
            setup, fields = rec
            wanted = dict(w.split("=", 1) for w in want)
            if set(wanted) != set(fields):
                skipped[op] += 1
                continue
            cases.append((where, setup, [(fields[k], None if is_refused else wanted[k]) for k in fields]))
    if args.limit:
        cases = cases[: args.limit]
    chunks = [cases[i : i + args.chunk] for i in range(0, len(cases), args.chunk)]

    def run_chunk(k):
        chunk = chunks[k]
        src = os.path.join(args.out, f"typed_cases_{k}.cpp")
        with open(src, "w") as out:
            out.write(HEADER)
            for j, (where, setup, checks) in enumerate(chunk):
                if checks and checks[0][1] is None:  # refused: the law's error, at run time
                    body = "".join(f" (void)str({e});" for e, _ in checks)
                    w = repr(where).replace("'", '"')
                    out.write(f"static void case{j}() {{ try {{ {setup}{body} refused_missing({w}); }} "
                              f"catch (const cotile::LawError&) {{}} }}\n")
                    continue
                body = "".join(f" check({where!r}, str({e}), {w!r});".replace("'", '"') for e, w in checks)
                out.write(f"static void case{j}() {{ {setup}{body} }}\n")
            out.write("int main() {\n")
            for j in range(len(chunk)):
                out.write(f"  run(case{j});\n")
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
    if refused:
        print(f"{len(refused)} cases whose CuTe result violates its law: refused ({refused_static} with static leaves only, "
              "a compile error, not compiled here; the others checked to throw cotile::LawError)")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
