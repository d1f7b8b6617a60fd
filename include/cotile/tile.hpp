// Tiles: tuples whose elements are layouts, integers or '_' (CuTe's Tiler).
//
// Mode k of a layout is combined with element k of the tile; '_' leaves the mode alone; an
// integer n keeps its staticness and means the layout n:_1 where an operation needs a layout.
// Elements may themselves be tuples (nested tilers).
#pragma once

#include "layout.hpp"

namespace cotile {

struct TileLeaf {
  enum Kind : uint8_t { kUnderscore, kInt, kLayout };
  Kind kind = kUnderscore;
  Layout layout;  // kLayout: the layout; kInt: shape holds the integer

  COTILE_HD friend constexpr bool operator==(const TileLeaf& a, const TileLeaf& b) {
    return a.kind == b.kind && a.layout == b.layout;
  }
  COTILE_HD constexpr Int integer() const { return layout.shape.value(); }
};

using Tile = Tree<TileLeaf, kMaxTileLeaves, kMaxTileNodes>;

COTILE_HD constexpr Tile tile_underscore() { return Tile::leaf(TileLeaf{TileLeaf::kUnderscore, Layout{}}); }
COTILE_HD constexpr Tile tile_int(const Int& n) {
  return Tile::leaf(TileLeaf{TileLeaf::kInt, make_layout(int_tuple(n), int_tuple(static_int(1)))});
}
COTILE_HD constexpr Tile tile_layout(const Layout& l) { return Tile::leaf(TileLeaf{TileLeaf::kLayout, l}); }

// A shape used as a tiler: each integer n is the element n.
COTILE_HD constexpr Tile tile_of_shape(const IntTuple& s) {
  if (s.is_leaf()) return tile_int(s.value());
  Tile t = Tile::tuple();
  for (int i = 0; i < s.rank(); ++i) t.push_back(tile_of_shape(s.get(i)));
  return t;
}

inline std::string to_string(const TileLeaf& x) {
  switch (x.kind) {
    case TileLeaf::kUnderscore: return "_";
    case TileLeaf::kInt: return to_string(x.integer());
    default: return to_string(x.layout);
  }
}
inline std::string to_string(const Tile& t) {
  if (t.is_leaf()) return to_string(t.value());
  std::string s = "(";
  for (int i = 0; i < t.rank(); ++i) s += (i ? "," : "") + to_string(t.get(i));
  return s + ")";
}

}  // namespace cotile
