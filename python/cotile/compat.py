"""pycute's remaining public helpers, so that `from cotile import *` finds every name a pycute
script may use. The integer-tuple ones that are CuTe operations (slice_, crd2crd) are computed by
the engine; the others are one-line helpers on Python ints."""

import abc

from . import _cotile as _c


class LayoutBase(abc.ABC):
    """pycute's base of layouts: isinstance(x, LayoutBase) for Layout and ComposedLayout."""


LayoutBase.register(_c.Layout)
LayoutBase.register(_c.ComposedLayout)


def signum(a):
    return bool(a > 0) - bool(a < 0)


def tuple_max(a):
    """The largest leaf."""
    return max(tuple_max(x) for x in a) if isinstance(a, tuple) else a


def elem_scale(a, b):
    """a * b elementwise (an integer a scales by product(b), as pycute and CuTe's elem_scale)."""
    if isinstance(a, tuple):
        if not isinstance(b, tuple) or len(a) != len(b):
            raise _c_error("elem_scale", "a tuple a needs a tuple b of the same rank")
        return tuple(elem_scale(x, y) for x, y in zip(a, b))
    return a * (_c.product(b) if isinstance(b, tuple) else b)


def _c_error(op, rule):
    from ._types import LayoutError
    e = LayoutError(op + ": " + rule)
    e.op, e.rule = op, rule
    return e


def slice_(crd, trg):
    """The leaves of trg where crd has None ('_'): CuTe's slice on a tuple (the shape of the
    engine's slice of a layout with shape trg)."""
    if crd is None:
        return (trg,)
    if not isinstance(crd, tuple):
        return ()
    return tuple(_c.slice(crd, _c.Layout(trg, trg)).shape)


def crd2crd(crd, dst_shape, src_shape=None):
    """A coordinate of one shape as the coordinate of dst_shape with the same index (CuTe's
    crd2crd: idx2crd(crd2idx(crd, src_shape), dst_shape))."""
    if isinstance(crd, tuple) and isinstance(dst_shape, tuple) and len(crd) == len(dst_shape):
        return tuple(crd2crd(x, y) for x, y in zip(crd, dst_shape))
    if isinstance(crd, tuple):
        if src_shape is None:
            raise _c_error("crd2crd", "a tuple coordinate for an integer shape needs src_shape")
        return crd2idx_compact(crd, src_shape)
    if isinstance(dst_shape, tuple):
        return _c.idx2crd(crd, dst_shape)
    if crd >= dst_shape:
        raise _c_error("crd2crd", "coordinate %d out of range for shape %d" % (crd, dst_shape))
    return crd


def crd2idx_compact(crd, shape):
    return _c.crd2idx(crd, shape, _c.Layout(shape).stride)


def shiftr(a, s):
    return a >> s if s > 0 else shiftl(a, -s)


def shiftl(a, s):
    return a << s if s > 0 else shiftr(a, -s)


__all__ = ["LayoutBase", "signum", "tuple_max", "elem_scale", "slice_", "crd2crd", "shiftl", "shiftr"]
