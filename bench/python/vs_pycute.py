#!/usr/bin/env python3
"""Times each pycute operation in cotile and in pycute on the same inputs (plain Python ints and
tuples), and `import cotile`.

    python3 bench/python/vs_pycute.py [--cutlass PATH] [--repeat N]

pycute is imported from PATH/python/pycute (a CUTLASS checkout); without --cutlass the cotile
column is measured alone and the report says "pycute not given". Each time is the best of
`repeat` runs of a timeit loop, per call. `agree` compares the results as values (CuTe's and
pycute's layouts can differ where CuTe C++ and pycute differ: docs/python.md)."""

import argparse
import os
import subprocess
import sys
import timeit

# (name, pycute expression, cotile expression or None for the same); inputs below, plain ints
CASES = [
    ("Layout(shape, stride)", "Layout(((128, 32), 1, 4), ((128, 1), 0, 32))", None),
    ("L(i)", "D(1000)", None),
    ("L(m, n)", "T(3, 5)", None),
    ("size", "size(D)", None),
    ("cosize", "cosize(D)", None),
    ("coalesce", "coalesce(D)", None),
    ("coalesce(profile)", "coalesce(D, (1, 1, 1))", None),
    ("filter", "filter(D)", None),
    ("composition", "composition(INV, TV)", None),
    ("complement", "complement(TV, 4096)", None),
    ("left_inverse", "left_inverse(D)", None),
    ("right_inverse", "right_inverse(TV)", None),
    ("logical_divide", "logical_divide(T, X)", None),
    ("zipped_divide", "zipped_divide(T, (X, X))", None),
    ("tiled_divide", "tiled_divide(T, (X, X))", None),
    ("logical_product", "logical_product(X, T)", None),
    ("zipped_product", "zipped_product(T, (X, X))", None),
    ("tiled_product", "tiled_product(T, (X, X))", None),
    ("crd2idx", "crd2idx((3, 5), (8, 16), (16, 1))", None),
    ("idx2crd", "idx2crd(77, (8, 16))", None),
    ("shape_div", "shape_div((4, 5, 6), 40)", None),
    ("prefix_product", "prefix_product(((128, 32), 1, 4))", None),
    ("inner_product", "inner_product(((3, 5), 1, 2), ((128, 1), 0, 32))", None),
    ("product", "product(((128, 32), 1, 4))", None),
    ("flatten", "flatten(((128, 32), 1, 4))", None),
    ("str(L)", "str(D)", None),
]

SETUP = """
D = Layout(((128, 32), 1, 4), ((128, 1), 0, 32))
INV = Layout(((128, 128), 1), ((128, 1), 0))
TV = Layout(((2, 32), 16), ((16, 32), 1))
T = Layout((8, 16), (16, 1))
X = Layout(2, 1)
"""


# The same layouts with static leaves (cotile only): where CuTe can drop a static _1 or merge modes
# it cannot do so with run-time values, so these results are the ones pycute's resemble.
SETUP_STATIC = """
D = parse("((_128,_32),_1,_4):((_128,_1),_0,_32)")
INV = parse("((_128,_128),_1):((_128,_1),_0)")
TV = parse("((_2,_32),_16):((_16,_32),_1)")
T = parse("(_8,_16):(_16,_1)")
X = parse("_2:_1")
"""


def namespace(module, setup=SETUP):
    ns = {k: getattr(module, k) for k in dir(module) if not k.startswith("_")}
    exec(setup, ns)
    return ns


def best(expr, ns, repeat):
    timer = timeit.Timer(expr, globals=ns)
    number, _ = timer.autorange()
    return min(timer.repeat(repeat, number)) / number


def plain(v):
    # a result as nested tuples of ints: comparable across the two libraries
    if hasattr(v, "shape") and hasattr(v, "stride"):
        return ("layout", plain(v.shape), plain(v.stride))
    if isinstance(v, tuple):
        return tuple(plain(x) for x in v)
    if isinstance(v, int):
        return int(v)
    return str(v)


def import_time():
    code = "import time; t = time.perf_counter(); import cotile; print(time.perf_counter() - t)"
    runs = [float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
            for _ in range(5)]
    return min(runs)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cutlass", help="a CUTLASS checkout (pycute is PATH/python/pycute)")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()

    import cotile
    ours = namespace(cotile)
    static = namespace(cotile, SETUP_STATIC)
    theirs = None
    if args.cutlass:
        sys.path.insert(0, os.path.join(args.cutlass, "python"))
        import pycute
        theirs = namespace(pycute)
    else:
        print("pycute not given (--cutlass PATH): cotile alone")

    print("import cotile: %.1f ms (best of 5 fresh interpreters)" % (import_time() * 1e3))
    print("cotile: the inputs as pycute's (Python ints: dynamic); cotile _N: the same layouts with static leaves")
    print("%-22s %10s %10s %8s %8s %10s %8s %8s" % ("operation", "pycute us", "cotile us", "speedup", "agree",
                                                  "cotile _N", "speedup", "agree"))
    speedups = []
    for name, expr, ours_expr in CASES:
        mine = ours_expr or expr
        t_ours, t_static = best(mine, ours, args.repeat), best(mine, static, args.repeat)
        if theirs is None:
            print("%-22s %10s %10.2f %8s %8s %10.2f" % (name, "-", t_ours * 1e6, "", "", t_static * 1e6))
            continue
        t_theirs = best(expr, theirs, args.repeat)
        want = plain(eval(expr, theirs))
        agree = "yes" if plain(eval(mine, ours)) == want else "differs"
        agree_static = "yes" if plain(eval(mine, static)) == want else "differs"
        speedups.append((t_theirs / t_ours, name))
        print("%-22s %10.2f %10.2f %7.1fx %8s %10.2f %7.1fx %8s" % (
            name, t_theirs * 1e6, t_ours * 1e6, t_theirs / t_ours, agree, t_static * 1e6, t_theirs / t_static,
            agree_static))
    if speedups:
        low = min(speedups)
        print("slowest speedup: %.1fx (%s); operations at >= 20x: %d of %d"
              % (low[0], low[1], sum(1 for s, _ in speedups if s >= 20), len(speedups)))


if __name__ == "__main__":
    main()
