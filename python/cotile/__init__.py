"""cotile: CuTe's layout algebra with exact static/dynamic semantics.

    from cotile import *          # pycute's names and call forms
    L = Layout((4, 8))            # Python ints are dynamic: (4,8):(_1,4)
    A = parse("((_128,_32),_1,_4):((128,_1),_0,_32)")   # _128 is static (cotile.S(128))
    left_inverse(A)               # (_128,_128):(_128,_1)

Every operation is computed by the engine the `cotile` command runs (cotile._cotile); results
print in CuTe's format. docs/python.md lists where CuTe C++ and pycute differ (CuTe wins)."""

from . import _cotile as _c
from ._types import (ArgumentTypeError, IntTuple, Integer, LawError, LawWarning, LayoutError, Record, S,
                     is_static)

_c._bind(S, IntTuple, Record, LayoutError, LawError, ArgumentTypeError, LawWarning)

from ._cotile import (ComposedLayout, Layout, Swizzle, append, calc, call, ceil_div, coalesce, compatible,  # noqa: E402
                      complement, composition, congruent, copy_atom, cosize, depth, downcast, elem_less,
                      filter, filter_zeros, flat_divide, flatten, fmha_gen_q, get, group, idx2crd,
                      inner_product, left_inverse, logical_divide, logical_product, make_layout_right,
                      make_ordered_layout, max_common_layout, max_common_vector, mma_atom, blocked_product, nullspace,
                      operations, parse, prefix_product, prepend, product, product_each, raked_product, rank,
                      replace, right_inverse, select, shape, shape_div, size, slice_and_offset, stride, take,
                      tile_to_shape, tiled_divide, tiled_product, to_text, upcast, zip, zipped_divide,
                      zipped_product)
from ._cotile import slice  # noqa: E402,A001  (CuTe's slice(crd, layout); not in __all__: it would shadow the builtin)
from .atoms import (TiledCopy, TiledMMA, TVLayout, make_cotiled_copy, make_tiled_copy,  # noqa: E402
                    make_tiled_mma)
from .verbs import draw, explain, verify  # noqa: E402
from .compat import LayoutBase, crd2crd, elem_scale, shiftl, shiftr, signum, slice_, tuple_max  # noqa: E402
from . import notebook as _notebook  # noqa: E402,F401  (the notebook renderings)

__version__ = "0.1.0"


def _from_text(text):
    return parse(text)


# Values pickle (and deep-copy) as their CuTe text, which parse reads back exactly.
for _cls in (Layout, ComposedLayout, Swizzle):
    _cls.__reduce__ = lambda self: (_from_text, (to_text(self),))
del _cls

_ = None  # CuTe's underscore in tiles and coordinates: L(_, 3)


def make_layout(*layouts, **mode):
    """make_layout(shape, stride=None) as CuTe, or make_layout(L0, L1, ...) (also an iterable of
    layouts, as pycute): the layout whose modes are the given layouts."""
    if len(layouts) == 1 and not isinstance(layouts[0], (Layout, ComposedLayout, int, str, tuple)):
        items = tuple(layouts[0])
        layouts = items if items and all(isinstance(x, Layout) for x in items) else (items,)
    elif len(layouts) == 1 and isinstance(layouts[0], tuple) and layouts[0] and all(
            isinstance(x, Layout) for x in layouts[0]):
        layouts = layouts[0]
    return _c.call("make_layout", *layouts, **mode)


def crd2idx(crd, shape, stride=None, **mode):
    """The index of coordinate crd in shape:stride (stride=None: compact column-major, as CuTe)."""
    if stride is None:
        stride = Layout(shape).stride
    return _c.crd2idx(crd, shape, stride, **mode)


def is_int(x):
    return isinstance(x, int) and not isinstance(x, bool)


def is_tuple(x):
    return isinstance(x, tuple)


def is_layout(x):
    return isinstance(x, (Layout, ComposedLayout))


def has_none(a):
    if isinstance(a, tuple):
        return any(has_none(v) for v in a)
    return a is None


class cute_mode:
    """with cotile.cute_mode(): ...  -- every call returns what CuTe 4.7 returns (the command's
    --as-cute: also a result that violates its law, issued as a LawWarning). strict=True refuses
    dynamic values exactly where CuTe does (--strict)."""

    def __init__(self, as_cute=True, strict=None):
        self._new = (as_cute, as_cute if strict is None else strict)

    def __enter__(self):
        self._old = _c.get_mode()
        _c.set_mode(*self._new)
        return self

    def __exit__(self, *exc):
        _c.set_mode(*self._old)
        return False


__all__ = [
    "Layout", "ComposedLayout", "Swizzle", "S", "Integer", "IntTuple", "Record", "LayoutError", "LawError",
    "ArgumentTypeError", "LawWarning", "is_static", "is_int", "is_tuple", "is_layout", "has_none",
    "make_layout", "make_layout_right", "make_ordered_layout", "size", "cosize", "rank", "depth", "shape",
    "stride", "product", "product_each", "inner_product", "prefix_product", "shape_div", "ceil_div", "flatten",
    "crd2idx", "idx2crd", "elem_less", "congruent", "compatible", "coalesce", "filter", "filter_zeros", "nullspace",
    "select", "group", "take", "append", "prepend", "replace", "get", "slice_and_offset",
    "composition", "complement", "left_inverse", "right_inverse", "logical_divide", "zipped_divide",
    "tiled_divide", "flat_divide", "logical_product", "zipped_product", "tiled_product", "blocked_product",
    "raked_product", "max_common_vector", "max_common_layout", "upcast", "downcast", "tile_to_shape",
    "copy_atom", "mma_atom", "make_tiled_copy", "make_cotiled_copy", "make_tiled_mma", "TiledCopy",
    "TiledMMA", "TVLayout", "fmha_gen_q", "explain", "verify", "draw", "parse", "to_text", "calc", "call",
    "operations", "cute_mode",
    "LayoutBase", "signum", "tuple_max", "elem_scale", "slice_", "crd2crd", "shiftl", "shiftr",
]
