"""Tiled copies and MMAs: the calculator's records (make_tiled_copy, make_cotiled_copy,
make_tiled_mma) with the options they were made with, so that they partition, explain, verify
and draw themselves."""

from . import _cotile as _c
from ._types import Record


class TVLayout:
    """A thread-value layout over a tile: (thread, value) -> index into the tile (column-major).
    Prints as its layout; renders as `cotile draw tv`."""

    __slots__ = ("layout", "tile")

    def __init__(self, layout, tile):
        self.layout = layout
        self.tile = tile

    def draw(self):
        from .verbs import draw
        return draw("tv", self.layout, tile=self.tile)

    def __str__(self):
        return str(self.layout)

    def __repr__(self):
        return "TVLayout(%s over %s)" % (self.layout, _c.to_text(self.tile))

    def __eq__(self, other):
        return isinstance(other, TVLayout) and (self.layout, self.tile) == (other.layout, other.tile)

    def __hash__(self):
        return hash((self.layout, self.tile))


def _tile_shape(tiler):
    # The shape a tiler covers: each mode's size (a layout's size, or the integer itself).
    return tuple(_c.size(t) if isinstance(t, _c.Layout) else t for t in tiler)


class TiledCopy(Record):
    """make_tiled_copy / make_cotiled_copy: fields tiler, layout_tv, layoutS_TV, layoutD_TV."""

    __slots__ = ("_flags", "_args")

    def __init__(self, record, flags, args):
        Record.__init__(self, record.keys(), record.values())
        object.__setattr__(self, "_flags", flags)
        object.__setattr__(self, "_args", args)

    @property
    def tv(self):
        return TVLayout(self.layout_tv, _tile_shape(self.tiler))

    def partition(self, tensor, thread, **mode):
        """This thread's source and destination partitions of `tensor` (fields S, S_offset, D,
        D_offset), as CuTe's partition_S / partition_D."""
        op = "cotiled_copy_partition" if self._flags["_kind"] == "cotiled-copy" else "tiled_copy_partition"
        return _c.call(op, *self._args, tensor, thread, **mode)


class TiledMMA(Record):
    """make_tiled_mma: fields tile_mnk, thr_layout_vmnk, layoutA_TV, layoutB_TV, layoutC_TV."""

    __slots__ = ("_args",)

    def __init__(self, record, args):
        Record.__init__(self, record.keys(), record.values())
        object.__setattr__(self, "_args", args)

    def partition(self, tensor, thread, operand="A", **mode):
        """thrfrg and this thread's partition of `tensor` as operand A, B or C."""
        if operand not in ("A", "B", "C"):
            raise ValueError("operand must be 'A', 'B' or 'C', not %r" % (operand,))
        return _c.call("mma_partition_" + operand, *self._args, tensor, thread, **mode)

    def tv(self, operand="A"):
        """The TV layout of operand A, B or C over its tile ((M,K), (N,K) or (M,N)); it renders
        itself in a notebook."""
        m, n, k = self.tile_mnk
        tiles = {"A": (m, k), "B": (n, k), "C": (m, n)}
        if operand not in tiles:
            raise ValueError("operand must be 'A', 'B' or 'C', not %r" % (operand,))
        return TVLayout(self["layout%s_TV" % operand], tiles[operand])

    def explain(self, tensor, thread=0, operand="A"):
        from .verbs import explain
        atom, atom_layout = self._args
        return explain("mma-partition", atom=atom, atom_layout=atom_layout, tensor=tensor, thread=thread, operand=operand)


def make_tiled_copy(atom, elem, thr_layout, val_layout, **mode):
    """CuTe's make_tiled_copy(Copy_Atom<atom, elem>, thr_layout, val_layout)."""
    record = _c.call("make_tiled_copy", atom, elem, thr_layout, val_layout, **mode)
    flags = {"_kind": "tiled-copy", "atom": atom, "elem": elem, "thr": thr_layout, "val": val_layout}
    return TiledCopy(record, flags, (atom, elem, thr_layout, val_layout))


def make_cotiled_copy(atom, elem, atom_tv_layout, data_layout, **mode):
    """CuTe's make_cotiled_copy(Copy_Atom<atom, elem>, atom_tv_layout, data_layout)."""
    record = _c.call("make_cotiled_copy", atom, elem, atom_tv_layout, data_layout, **mode)
    flags = {"_kind": "cotiled-copy", "atom": atom, "elem": elem, "atom_tv": atom_tv_layout, "data": data_layout}
    return TiledCopy(record, flags, (atom, elem, atom_tv_layout, data_layout))


def make_tiled_mma(atom, atom_layout, **mode):
    """CuTe's make_tiled_mma(MMA_Atom<atom>, atom_layout)."""
    return TiledMMA(_c.call("make_tiled_mma", atom, atom_layout, **mode), (atom, atom_layout))
