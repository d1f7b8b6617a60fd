"""Generated cases for the differential run against CuTe (run.py): random layouts, tuples, tiled
copies and MMAs, each a golden-corpus line's op and arguments (../shared/golden/README.md) with the
C++ that computes and prints it through CuTe's API. Nothing here is checked: CuTe refuses what it
refuses (run.py drops the cases that do not compile), and `cotile golden` judges the rest.

A value is a tree of tuples: ("int", n, static) | ("tuple", [...]) | ("layout", shape, stride) |
("tile", [...]) | ("underscore",) (a tile's "leave this mode alone"); text() spells it as CuTe prints it, cpp() as CuTe's C++ builds it (a dynamic leaf
through dyn(), which the compiler cannot see through)."""
import random

SIZES = [1, 2, 2, 2, 3, 4, 4, 4, 5, 6, 8, 8, 12, 16, 32]


def text(v):
    if isinstance(v, str):
        return v
    if v[0] == "underscore":
        return "_"
    if v[0] == "int":
        return ("_" if v[2] else "") + str(v[1])
    if v[0] == "layout":
        return text(v[1]) + ":" + text(v[2])
    return "(" + ",".join(text(e) for e in v[1]) + ")"


def cpp(v):
    if v[0] == "underscore":
        return "_"
    if v[0] == "int":
        return f"Int<{v[1]}>{{}}" if v[2] else f"dyn({v[1]})"
    if v[0] == "layout":
        return f"make_layout({cpp(v[1])}, {cpp(v[2])})"
    maker = "make_tile" if v[0] == "tile" else "make_shape"
    return maker + "(" + ", ".join(cpp(e) for e in v[1]) + ")"


def num(r, n, p_static):
    return ("int", n, r.random() < p_static)


def leaves(v):
    return [v] if v[0] == "int" else [x for e in v[1] for x in leaves(e)]


def rebuild(like, values):
    """`like`'s tree with its leaves replaced, in order, by `values`."""
    it = iter(values)

    def go(t):
        return next(it) if t[0] == "int" else ("tuple", [go(e) for e in t[1]])

    return go(like)


def size(v):
    n = 1
    for x in leaves(v[1] if v[0] == "layout" else v):
        n *= x[1]
    return n


def shape(r, depth, p_static):
    if depth == 0 or r.random() < 0.45:
        return num(r, r.choice(SIZES), p_static)
    return ("tuple", [shape(r, depth - 1, p_static) for _ in range(r.choice([1, 2, 2, 2, 3]))])


def stride_for(r, s, p_static, kind):
    """Strides for shape s: compact in a random mode order, the same with gaps, or arbitrary."""
    ls = leaves(s)
    if kind == "random":
        values = [r.choice([0, 1, 1, 2, 3, 4, 8, 16, 32]) for _ in ls]
    else:
        order = list(range(len(ls)))
        r.shuffle(order)
        values, acc = [0] * len(ls), 1
        for i in order:
            acc *= r.choice([1, 1, 2, 3]) if kind == "gappy" else 1
            values[i] = acc
            acc *= ls[i][1]
    return rebuild(s, [num(r, x, p_static) for x in values])


def layout(r, p_static, depth=2, kind=None):
    s = shape(r, depth, p_static)
    return ("layout", s, stride_for(r, s, p_static, kind or r.choice(["compact", "compact", "gappy", "random"])))


def coord_in(r, s, p_static):
    """A coordinate of shape s: congruent (each leaf below its extent), or one index."""
    if r.random() < 0.2:
        return num(r, r.randrange(max(1, size(s))), p_static)
    return rebuild(s, [num(r, r.randrange(x[1]), p_static) for x in leaves(s)])


def p_static(r):
    return r.choice([1.0, 1.0, 0.7, 0.3, 0.0])


def head(op, args):
    """C++ that prints a corpus line's start: `op<TAB>args<TAB>=>`."""
    return 'printf("' + "\\t".join([op] + [text(a) for a in args] + ["=>"]) + '");'


def print_body(op, args, expr):
    """C++ that prints `op<TAB>args<TAB>=><TAB>` and then CuTe's print of expr."""
    return head(op, args) + f' printf("\\t"); print({expr});'


# --- algebra: composition, complement, inverses, coalesce, divides, products ------------------------


def tile(r, a, ps):
    """A tile for layout a: one element a mode (up to its rank), each a layout, an integer or `_`."""
    modes = len(a[1][1]) if a[1][0] == "tuple" else 1

    def element():
        k = r.random()
        if k < 0.5:
            return layout(r, ps, 1, r.choice(["compact", "gappy"]))
        return num(r, r.choice(SIZES), ps) if k < 0.8 else ("underscore",)

    return ("tile", [element() for _ in range(r.randint(1, modes))])

ALGEBRA = ["composition", "complement", "complement", "right_inverse", "left_inverse", "coalesce", "filter",
           "logical_divide", "zipped_divide", "tiled_divide", "flat_divide", "logical_product", "zipped_product",
           "tiled_product", "blocked_product", "raked_product", "max_common_vector", "max_common_layout"]


def algebra_case(r):
    ps = p_static(r)
    op = r.choice(ALGEBRA)
    a = layout(r, ps)
    if op in ("right_inverse", "left_inverse", "filter"):
        args = [a]
    elif op == "complement":
        args = [a] if r.random() < 0.5 else [a, num(r, r.choice([size(a) * k for k in (1, 2, 3, 4)] + [4 * r.choice(SIZES)]), ps)]
    elif op == "coalesce":
        args = [a] if r.random() < 0.6 else [a, a[1]]  # by a profile: mode by mode
    elif r.random() < 0.3 and op not in ("max_common_vector", "max_common_layout"):  # by a tile, mode by mode
        args = [a, tile(r, a, ps)]
    else:
        args = [a, layout(r, ps, r.choice([0, 1, 2]))]
    return print_body(op, args, f"{op}({', '.join(cpp(x) for x in args)})")


# --- the int-tuple and layout families ----------------------------------------------------------------

SMALL = ["ceil_div", "shape_div", "crd2idx", "idx2crd", "idx2crd", "elem_less", "compatible", "congruent", "cosize",
         "size", "depth", "rank", "flatten", "product_each", "filter_zeros", "make_layout", "make_layout_right",
         "make_ordered_layout", "eval", "append", "make_layout_concat", "select", "group", "upcast", "downcast", "zip"]


def small_case(r):
    ps = p_static(r)
    op = r.choice(SMALL)
    a = layout(r, ps)
    s, d = a[1], a[2]
    modes = len(s[1]) if s[0] == "tuple" else 1
    if op in ("ceil_div", "shape_div"):
        t = shape(r, 1, ps)
        return print_body(op, [s, t], f"{op}({cpp(s)}, {cpp(t)})")
    if op == "crd2idx":
        c = coord_in(r, s, ps)
        return print_body(op, [c, s, d], f"crd2idx({cpp(c)}, {cpp(s)}, {cpp(d)})")
    if op == "idx2crd":
        i = num(r, r.randrange(max(1, size(s))), ps)
        args = [i, s] if r.random() < 0.5 else [i, s, d]
        return print_body(op, args, f"idx2crd({', '.join(cpp(x) for x in args)})")
    if op in ("elem_less", "compatible", "congruent"):
        t = coord_in(r, s, ps) if r.random() < 0.6 else shape(r, 2, ps)
        return print_body(op, [t, s], f"{op}({cpp(t)}, {cpp(s)})")
    if op in ("size", "depth", "rank", "flatten", "product_each") and r.random() < 0.5 or op == "product_each":
        return print_body(op, [s], f"{op}({cpp(s)})")
    if op in ("cosize", "size", "depth", "rank", "flatten", "filter_zeros", "zip"):
        return print_body(op, [a], f"{op}({cpp(a)})")
    if op == "make_layout":
        return print_body(op, [s], f"make_layout({cpp(s)})")
    if op == "make_layout_right":
        return print_body(op, [s], f"make_layout({cpp(s)}, LayoutRight{{}})")
    if op == "make_ordered_layout":
        order = list(range(len(leaves(s))))
        r.shuffle(order)
        o = rebuild(s, [("int", x, True) for x in order])
        return print_body(op, [s, o], f"make_ordered_layout({cpp(s)}, {cpp(o)})")
    if op == "eval":
        c = coord_in(r, s, ps)
        return print_body(op, [a, c], f"{cpp(a)}({cpp(c)})")
    if op in ("append", "make_layout_concat"):
        b = layout(r, ps, r.choice([0, 1]))
        return print_body(op, [a, b], f"{'append' if op == 'append' else 'make_layout'}({cpp(a)}, {cpp(b)})")
    if op == "select":
        keep = sorted(r.sample(range(modes), r.randint(1, modes)))
        return print_body(op, [a, ("tuple", [("int", k, True) for k in keep])],
                          f"select<{', '.join(map(str, keep))}>({cpp(a)})")
    if op == "group":
        b = r.randrange(modes + 1)
        e = r.randint(b, modes)
        return print_body(op, [a, ("tuple", [("int", b, True), ("int", e, True)])], f"group<{b}, {e}>({cpp(a)})")
    n = r.choice([2, 4, 8])  # upcast, downcast
    return print_body(op, [a, ("int", n, True)], f"{op}<{n}>({cpp(a)})")


FAMILIES = {"algebra": algebra_case, "small": small_case}  # atoms.py adds copy, mma and fmha_gen_q

HEADER = r'''#include <cute/layout.hpp>
#include <cute/layout_composed.hpp>
#include <cstdio>
#include <cstdlib>
using namespace cute;
static int dyn(int x) { volatile int v = x; return v; }
'''


def generate(family, count, seed):
    """`count` case bodies of one family; the same seed gives the same cases."""
    r = random.Random(f"{family}:{seed}")
    return [FAMILIES[family](r) for _ in range(count)]
