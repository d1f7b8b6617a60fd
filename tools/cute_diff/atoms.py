"""Generated cases of the atom families for the differential run against CuTe (run.py): copy atoms,
tiled copies and their partitions, MMA atoms, tiled MMAs and their partitions, and the FMHA
generation kernel's Q-load chain, printed field by field as the golden corpus has them."""
import itertools

import cases
from cases import FAMILIES, cpp, head, text

ELEM_BITS = {"half_t": 16, "bfloat16_t": 16, "float": 32, "float_e4m3_t": 8, "float_e5m2_t": 8}
# corpus name -> (CuTe's copy operation, bits a thread moves, threads of the atom)
COPY = {"copy.u32": ("UniversalCopy<uint32_t>", 32, 1), "copy.u64": ("UniversalCopy<uint64_t>", 64, 1),
        "copy.u128": ("UniversalCopy<uint128_t>", 128, 1),
        "cp.async.16B": ("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", 128, 1),
        "ldmatrix.x1": ("SM75_U32x1_LDSM_N", 32, 32), "ldmatrix.x2": ("SM75_U32x2_LDSM_N", 64, 32),
        "ldmatrix.x4": ("SM75_U32x4_LDSM_N", 128, 32)}


def _int(n, static=True):
    return ("int", n, static)


def _matrix(r, a, b):
    """An (a, b) layout of compact strides, column- or row-major; a mode of extent 1 has stride 0."""
    col = r.random() < 0.5
    sa, sb = (1, a) if col else (b, 1)
    return ("layout", ("tuple", [_int(a), _int(b)]), ("tuple", [_int(sa if a > 1 else 0), _int(sb if b > 1 else 0)]))


def _tensor(r, m, n):
    """An (m, n) tensor: static or run-time extents, a run-time leading stride, maybe padded."""
    static = r.random() < 0.5
    pad = r.choice([0, 0, 8])
    if r.random() < 0.5:
        return ("layout", ("tuple", [_int(m, static), _int(n, static)]), ("tuple", [_int(1), _int(m + pad, False)]))
    return ("layout", ("tuple", [_int(m, static), _int(n, static)]), ("tuple", [_int(n + pad, False), _int(1)]))


def _pow2(r, hi):
    return r.choice([x for x in (1, 2, 4, 8, 16, 32) if x <= hi])


def _fields(pairs):
    return " ".join(f'field("{k}", {v});' for k, v in pairs)


def copy_case(r):
    name = r.choice(list(COPY))
    op, bits, threads = COPY[name]
    elem = r.choice([e for e in ELEM_BITS if not (name.startswith("ldmatrix") and ELEM_BITS[e] != 16)])
    kind = r.choice(["copy_atom", "make_tiled_copy", "make_tiled_copy", "tiled_copy_partition", "tiled_copy_partition"])
    if kind == "copy_atom":
        t = f"Copy_Atom<{op}, {elem}>"
        tr = f"Copy_Traits<{op}>"
        return head(kind, [name, elem]) + _fields(
            [("ThrID", f"typename {t}::ThrID{{}}"), ("ValLayoutSrc", f"typename {t}::ValLayoutSrc{{}}"),
             ("ValLayoutDst", f"typename {t}::ValLayoutDst{{}}"), ("ValLayoutRef", f"typename {t}::ValLayoutRef{{}}"),
             ("SrcLayout_bits", f"typename {tr}::SrcLayout{{}}"), ("DstLayout_bits", f"typename {tr}::DstLayout{{}}"),
             ("RefLayout_bits", f"typename {tr}::RefLayout{{}}")])
    a = _pow2(r, 32)
    tm, tn = (a, 32 // a) if threads == 32 else (a, _pow2(r, 64 // a))
    tm *= r.choice([1, 1, 2]) if threads == 32 else 1
    per = max(1, bits // ELEM_BITS[elem])  # values a thread moves in one copy
    vm = r.choice([1, per, 2 * per])
    vn = max(1, per * r.choice([1, 2]) // vm) if vm <= per else 1
    thr, val = _matrix(r, tm, tn), _matrix(r, vm, vn)
    setup = f"auto tc = make_tiled_copy(Copy_Atom<{op}, {elem}>{{}}, {cpp(thr)}, {cpp(val)}); using TC = decltype(tc);"
    if kind == "make_tiled_copy":
        return head(kind, [name, elem, thr, val]) + setup + _fields(
            [("tiler", "typename TC::Tiler_MN{}"), ("layout_tv", "typename TC::TiledLayout_TV{}"),
             ("layoutS_TV", "tc.get_layoutS_TV()"), ("layoutD_TV", "tc.get_layoutD_TV()")])
    tensor = _tensor(r, tm * vm * r.choice([1, 2, 4]), tn * vn * r.choice([1, 2]))
    thread = _int(r.randrange(tm * tn), False)
    return head(kind, [name, elem, thr, val, tensor, thread]) + setup + (
        f" static {elem} buf[1 << 16]; auto t = make_tensor(make_gmem_ptr(buf), {cpp(tensor)});"
        f" auto th = tc.get_slice(dyn({thread[1]})); auto S = th.partition_S(t); auto D = th.partition_D(t);"
        ' field("S", S.layout()); printf("\\tS_offset=%d", int(S.data().get() - buf));'
        ' field("D", D.layout()); printf("\\tD_offset=%d", int(D.data().get() - buf));')


def _mma_atoms():
    """(corpus name, CuTe type, (M, N, K), threads) of the MMA atoms the corpus names, more N and majors."""
    out = []
    fp8 = [a + b for a, b in itertools.product(("E4M3", "E5M2"), repeat=2)]
    for e in ("F32F16F16F32", "F16F16F16F16", "F32BF16BF16F32"):
        out.append((f"SM80_16x8x16_{e}_TN", f"SM80_16x8x16_{e}_TN", (16, 8, 16), 32))
    for d, e in itertools.product(("F32", "F16"), fp8):
        out.append((f"SM89_16x8x32_{d}{e}{d}_TN", f"SM89_16x8x32_{d}{e}{d}_TN", (16, 8, 32), 32))
    for n in (8, 16, 32, 64, 128, 256):
        for e, ma, mb in itertools.product(("F32F16F16", "F16F16F16", "F32BF16BF16"), ("K", "MN"), ("K", "MN")):
            out.append((f"SM90_64x{n}x16_{e}_SS<{ma},{mb}>",
                        f"SM90::GMMA::MMA_64x{n}x16_{e}_SS<GMMA::Major::{ma}, GMMA::Major::{mb}>", (64, n, 16), 128))
        for d, e in itertools.product(("F32", "F16"), fp8):
            out.append((f"SM90_64x{n}x32_{d}{e}_SS_TN", f"SM90::GMMA::MMA_64x{n}x32_{d}{e}_SS_TN", (64, n, 32), 128))
    for m, n in itertools.product((64, 128), (64, 128, 256)):
        for a, ma in itertools.product(("half_t", "bfloat16_t"), ("K", "MN")):
            out.append((f"SM100_MMA_F16BF16_SS<{a},{a},float,{m},{n},{ma},K>",
                        f"SM100_MMA_F16BF16_SS<{a}, {a}, float, {m}, {n}, UMMA::Major::{ma}, UMMA::Major::K>",
                        (m, n, 16), 1))
        for a, b in (("float_e4m3_t", "float_e4m3_t"), ("float_e5m2_t", "float_e5m2_t"), ("float_e4m3_t", "float_e5m2_t")):
            out.append((f"SM100_MMA_F8F6F4_SS<{a},{b},float,{m},{n},K,K>",
                        f"SM100_MMA_F8F6F4_SS<{a}, {b}, float, {m}, {n}, UMMA::Major::K, UMMA::Major::K>",
                        (m, n, 32), 1))
    return out


MMA_ATOMS = _mma_atoms()


def mma_case(r):
    name, ctype, mnk, threads = r.choice(MMA_ATOMS)
    kind = r.choice(["mma_atom", "make_tiled_mma", "make_tiled_mma", "mma_partition_A", "mma_partition_B",
                     "mma_partition_C"])
    if kind == "mma_atom":
        t = f"MMA_Atom<{ctype}>"
        return head(kind, [name]) + _fields(
            [("Shape_MNK", f"typename {t}::Shape_MNK{{}}"), ("ThrID", f"typename {t}::ThrID{{}}"),
             ("ALayout", f"typename {t}::LayoutA_TV{{}}"), ("BLayout", f"typename {t}::LayoutB_TV{{}}"),
             ("CLayout", f"typename {t}::LayoutC_TV{{}}")])
    cap = 1 if threads == 1 else 4 if threads < 128 else 2
    am, an = _pow2(r, cap), _pow2(r, cap)
    sm, sn = (1, am) if r.random() < 0.5 else (an, 1)
    atoms = ("layout", ("tuple", [_int(am), _int(an), _int(1)]),
             ("tuple", [_int(sm if am > 1 else 0), _int(sn if an > 1 else 0), _int(0)]))
    setup = f"auto m = make_tiled_mma({ctype}{{}}, {cpp(atoms)});"
    if kind == "make_tiled_mma":
        return head(kind, [name, atoms]) + setup + _fields(
            [("tile_mnk", "tile_shape(m)"), ("thr_layout_vmnk", "m.get_thr_layout_vmnk()"),
             ("layoutA_TV", "m.get_layoutA_TV()"), ("layoutB_TV", "m.get_layoutB_TV()"),
             ("layoutC_TV", "m.get_layoutC_TV()")])
    x = kind[-1]
    rows, cols = {"A": (mnk[0] * am, mnk[2]), "B": (mnk[1] * an, mnk[2]), "C": (mnk[0] * am, mnk[1] * an)}[x]
    tensor = _tensor(r, rows * r.choice([1, 2]), cols * r.choice([1, 2, 4]))
    thread = _int(r.randrange(threads * am * an), False)
    return head(kind, [name, atoms, tensor, thread]) + setup + (
        f" static float buf[1 << 18]; auto t = make_tensor(make_gmem_ptr(buf), {cpp(tensor)});"
        f" auto p = m.get_slice(dyn({thread[1]})).partition_{x}(t);"
        f' field("thrfrg_{x}", m.thrfrg_{x}(t.layout())); field("partition_{x}", p.layout());'
        ' printf("\\toffset=%d", int(p.data().get() - buf));')


def fmha_gen_q_case(r):
    """The Q-load chain (docs/qload.md) for an element type, head dim D, tile rows M and copy TV layout."""
    elem = r.choice(["half_t", "bfloat16_t", "float_e4m3_t", "float_e5m2_t"])
    d, m = r.choice([64, 128, 256]), r.choice([64, 128])
    t1 = r.choice([1, 2, 4])
    t2 = r.choice([16, 32, 64]) // t1 * (2 if t1 == 1 else 1)
    v = r.choice([8, 16]) if ELEM_BITS[elem] == 16 else 16
    s1 = r.choice([v, 2 * v])
    atom = ("layout", ("tuple", [("tuple", [_int(t1), _int(t2)]), _int(v)]),
            ("tuple", [("tuple", [_int(s1 if t1 > 1 else 0), _int(s1 * t1)]), _int(1)]))
    umma = "F16BF16" if ELEM_BITS[elem] == 16 else "F8F6F4"
    return head("fmha_gen_q", [elem, _int(d), _int(m), atom]) + (
        f" static {elem} buf[{m * d}];"
        f" auto gQ = make_tensor(make_gmem_ptr(buf), make_layout(make_shape(Int<{m}>{{}}, Int<{d}>{{}}),"
        f" make_stride(dyn({d}), _1{{}})));"
        f" TiledMMA mma = make_tiled_mma(SM100_MMA_{umma}_SS<{elem}, {elem}, float, {m}, 64, UMMA::Major::K,"
        " UMMA::Major::K>{}); auto tSgQ = mma.get_slice(0).partition_A(gQ);"
        " auto st = stride(tSgQ.layout());"
        f" auto data = make_layout(shape(tSgQ.layout()), replace<0>(st, replace<0>(get<0>(st), Int<{d}>{{}})));"
        f" auto atom = {cpp(atom)}; auto inv = make_layout(left_inverse(data), Layout<_1, _0>{{}});"
        f" auto tc = make_cotiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, {elem}>{{}}, atom, data);"
        " using TC = decltype(tc); auto tiler = typename TC::Tiler_MN{};" + _fields(
            [("tSgQ", "tSgQ.layout()"), ("data_layout", "data"), ("coalesce_data_layout", "coalesce(data)"),
             ("left_inverse_data_layout", "left_inverse(data)"), ("inv_data_layout", "inv"),
             ("layout_tv_data", "composition(inv, atom)"), ("tiler", "tiler"),
             ("tile2data", "composition(make_layout(product_each(shape(data))), tiler)"),
             ("layout_tv", "typename TC::TiledLayout_TV{}"),
             ("partition_S_thr0", "tc.get_slice(0).partition_S(tSgQ).layout()")]))


FAMILIES.update({"copy": copy_case, "mma": mma_case, "fmha_gen_q": fmha_gen_q_case})

HEADER = r'''#include <cute/tensor.hpp>
#include <cute/atom/copy_atom.hpp>
#include <cute/atom/copy_traits_sm75.hpp>
#include <cute/atom/copy_traits_sm80.hpp>
#include <cute/atom/mma_traits_sm80.hpp>
#include <cute/atom/mma_traits_sm89.hpp>
#include <cute/atom/mma_traits_sm90_gmma.hpp>
#include <cute/atom/mma_traits_sm100.hpp>
#include <cstdio>
#include <cstdlib>
using namespace cute;
static int dyn(int x) { volatile int v = x; return v; }
template <class T> static void field(const char* name, T const& t) { printf("\t%s=", name); print(t); }
'''


# --- swizzles: the functor, swizzled layouts, tile_to_shape ---------------------------------------------


def _swizzle(r):
    b = r.randint(1, 3)
    return b, r.randint(0, 4), r.randint(b, 4)


def _values_at(expr, indices):
    """C++ printing `(expr(i0),expr(i1),...)`."""
    return ('printf("("); ' + ' printf(","); '.join(f'printf("%d", int({expr}(dyn({i}))));' for i in indices)
            + ' printf(")");')


def swizzle_case(r):
    b, m, s = _swizzle(r)
    sw, sw_cpp = f"Sw<{b},{m},{s}>", f"Swizzle<{b}, {m}, {s}>{{}}"
    kind = r.choice(["swizzle_apply", "swizzle_compose", "tile_to_shape", "tile_to_shape"])
    if kind == "swizzle_apply":
        xs = sorted(r.sample(range(1024), 16))
        return head(kind, [sw, "(" + ",".join(map(str, xs)) + ")"]) + 'printf("\\t");' + _values_at(sw_cpp, xs)
    if kind == "swizzle_compose":
        rows, cols = r.choice([1, 2, 4, 8, 16]), r.choice([8, 16, 32, 64])
        static = r.random() < 0.6
        lay = ("layout", ("tuple", [_int(rows, static), _int(cols, static)]),
               ("tuple", [_int(cols), _int(1)]) if r.random() < 0.5 else ("tuple", [_int(1), _int(rows)]))
        xs = sorted(r.sample(range(rows * cols), min(16, rows * cols)))
        return head(kind, [sw, lay, "(" + ",".join(map(str, xs)) + ")"]) + (
            f" auto c = composition({sw_cpp}, {cpp(lay)});" + ' printf("\\tlayout="); print(c); printf("\\toffsets=");'
            + _values_at("c", xs))
    rows, cols = r.choice([8, 16, 32, 64]), r.choice([8, 16, 32, 64])
    col = r.random() < 0.5
    atom = ("layout", ("tuple", [_int(rows), _int(cols)]), ("tuple", [_int(1), _int(rows)] if col else [_int(cols), _int(1)]))
    atom_text = f"{sw} o _0 o {text(atom)}"
    rank = r.choice([2, 3])
    target = [rows * r.choice([1, 2, 4]), cols * r.choice([1, 2])] + ([r.choice([1, 2, 4])] if rank == 3 else [])
    target = ("tuple", [_int(x, r.random() < 0.6) for x in target])
    order = list(range(rank))
    r.shuffle(order)
    order = ("tuple", [_int(x) for x in order])
    n = 1
    for x in target[1]:
        n *= x[1]
    xs = sorted(r.sample(range(n), min(16, n)))
    return head(kind, [atom_text, target, order]) + (
        f" auto t = tile_to_shape(composition({sw_cpp}, {cpp(atom)}), {cpp(target)}, {cpp(order)});"
        ' printf("\\tlayout="); print(t); printf("\\toffsets=");' + _values_at("t", xs))


FAMILIES["swizzle"] = swizzle_case
SWIZZLE_HEADER = "#include <cute/swizzle_layout.hpp>\n#include <cute/tensor.hpp>\n" + cases.HEADER
