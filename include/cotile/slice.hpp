// Slicing a layout with a coordinate that holds '_' (CuTe's L(c) when c has underscores).
//
//   slice(c, L): the modes of L where c is '_'. A top-level '_' keeps L whole; inside a tuple
//   coordinate each '_' keeps its mode as one element and the kept elements are concatenated:
//     slice((3,_,(_,_)), (A,B,(C,D))) = (B,C,D)
//   offset(c, L) = crd2idx(c, L) with every '_' counted as a static _0.
// A coordinate is a Tile whose leaves are integers and '_'.
#pragma once

#include "tile.hpp"

namespace cotile {

struct SlicedLayout {
  Layout layout;
  Int offset;
};

namespace detail {

COTILE_HD constexpr void lift_slice(const Tile& c, const Layout& l, LayoutList& out) {
  if (c.is_tuple()) {
    if (l.shape.is_leaf() || c.rank() != l.rank())
      fail("slice", "the coordinate's rank does not match the layout's", nullptr, arg("coord", c), arg("layout", l));
    for (int i = 0; i < c.rank(); ++i) lift_slice(c.get(i), l.get(i), out);
  } else if (c.value().kind == TileLeaf::kUnderscore) {
    out.push_back(l);
  }
}

// crd2idx with '_' as static _0; the same arithmetic (and staticness) as crd2idx otherwise.
COTILE_HD constexpr Int slice_offset(const Tile& c, const Layout& l) {
  if (c.is_leaf()) {
    const TileLeaf& x = c.value();
    if (x.kind == TileLeaf::kUnderscore) return static_int(0);
    if (x.kind != TileLeaf::kInt) fail("slice", "a coordinate holds integers and '_' only", nullptr, arg("coord", c));
    return crd2idx(int_tuple(x.integer()), l.shape, l.stride);
  }
  if (l.shape.is_leaf() || c.rank() != l.rank())
    fail("slice", "the coordinate's rank does not match the layout's", nullptr, arg("coord", c), arg("layout", l));
  if (c.rank() == 0) return static_int(0);
  Int r = slice_offset(c.get(0), l.get(0));
  for (int i = 1; i < c.rank(); ++i) r = r + slice_offset(c.get(i), l.get(i));
  return r;
}

}  // namespace detail

COTILE_HD constexpr SlicedLayout slice_and_offset(const Tile& c, const Layout& l) {
  const Int off = detail::slice_offset(c, l);
  if (c.is_leaf()) {
    if (c.value().kind == TileLeaf::kUnderscore) return {l, off};
    return {Layout{IntTuple::tuple(), IntTuple::tuple()}, off};
  }
  LayoutList out;
  detail::lift_slice(c, l, out);
  return {out.layout(), off};
}

// coord(...): a coordinate (or tile) tuple; each argument an Int (tile_int), tile_underscore()
// ('_'), or a Tile: coord(tile_underscore(), static_int(0)) is (_,_0).
COTILE_HD constexpr Tile as_tile(const Int& x) { return tile_int(x); }
COTILE_HD constexpr const Tile& as_tile(const Tile& t) { return t; }
template <class... Ts>
COTILE_HD constexpr Tile coord(const Ts&... xs) {
  Tile t = Tile::tuple();
  (t.push_back(as_tile(xs)), ...);
  return t;
}
// repeat<n>('_'): '_' when n == 1, else a tuple of n underscores (CuTe's repeat<N>(_)).
COTILE_HD constexpr Tile repeat_underscore(int n) {
  if (n == 1) return tile_underscore();
  Tile t = Tile::tuple();
  for (int i = 0; i < n; ++i) t.push_back(tile_underscore());
  return t;
}

}  // namespace cotile
