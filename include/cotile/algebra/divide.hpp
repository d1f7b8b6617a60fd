// Divides: split a layout into (tile, rest) by a tiler.
#pragma once

#include "complement.hpp"
#include "composition.hpp"

namespace cotile {

// evenly_divides(S, T): the tiler T cuts the shape S into whole tiles, mode by mode:
//   T a tuple:      rank(T) <= rank(S) (else _0) and S_i evenly divided by T_i for every i < rank(T)
//                   (an integer S is its own only mode);
//   T an integer n: size(S) == n * size(ceil_div(S, n))  (n is split across S's modes left to
//                   right as ceil_div splits it, so no mode may be padded);
//   T a layout B:   size(S) == size(B) * size(complement(B, S))  (the tile times the rest mode);
//   T '_':          _1 (the mode is kept whole).
// Ensures: where it is _1, size(logical_divide(make_layout(S), T)) == size(S) (not conversely:
// (_4,_6) by _3 is _0, 3 not splitting the mode _4). Static where the leaves that decide it are.
// Examples: (_2,_8) by _4: 16 == 4 * size((_1,_4)), _1;  (_2,_8) by (_2,(_2,_4)): a rank-2 tiler
// under the integer _8, _0;  _32 by _8:_3: 32 != 8 * size((_3,_2)), _0.
COTILE_HD constexpr Int evenly_divides(const IntTuple& s, const Tile& t) {
  if (t.is_tuple()) {
    const int rank_s = s.is_leaf() ? 1 : s.rank();
    if (t.rank() > rank_s) return static_int(0);
    Int r = static_int(1);
    for (int i = 0; i < t.rank(); ++i) r = logical_and(r, evenly_divides(s.is_leaf() ? s : s.get(i), t.get(i)));
    return r;
  }
  const TileLeaf& x = t.value();
  switch (x.kind) {
    case TileLeaf::kUnderscore: return static_int(1);
    case TileLeaf::kInt: return equal(size(s), x.integer() * size(ceil_div(s, int_tuple(x.integer()))));
    default: return equal(size(s), size(x.layout) * size(complement(x.layout, s)));
  }
}
COTILE_HD constexpr Int evenly_divides(const IntTuple& s, const IntTuple& t) {
  return evenly_divides(s, tile_of_shape(t));
}

// domain_distribute(A, n): a tile of (at most) n elements of the domain of shape A, taken from A's
// leaves first to last, each giving what it shares with what is still wanted:
//   g_i = gcd(a_i, n_i), n_0 = n, n_(i+1) = n_i / g_i;  R = coalesce((g_0, g_1, ...):(compact
//   column-major strides of A's leaves)).
// Ensures: size(R) divides n (n_last = 1: size(R) == n); evenly_divides(A, R) == _1; R is
// strictly increasing (each g_i keeps the lowest indices of its leaf). Requires A and n static
// (their gcds decide the result's shape; CuTe requires it too), n >= 1.
// Example: (_15,_14) and _6: g = (_3, _2), R = (_3,_2):(_1,_15).
COTILE_HD constexpr Layout domain_distribute(const IntTuple& a, const Int& n) {
  const IntTuple flat = flatten(wrap(a));
  if (!is_static(flat) || !n.is_static)
    fail("domain_distribute", "the shape and the size must be static", "use static Int<N> extents and size",
         arg("shape", a), arg("size", int_tuple(n)));
  if (n.value < 1) fail("domain_distribute", "the size must be positive", nullptr, arg("size", int_tuple(n)));
  IntTuple shape = IntTuple::tuple();
  Int wanted = n;
  for (int i = 0; i < flat.rank(); ++i) {
    const Int g = gcd(flat.leaf_at(i), wanted);
    shape.push_back(int_tuple(g));
    wanted = wanted / g;
  }
  return coalesce(Layout{shape, compact_col_major(flat)});
}

// zip2_by(L, T): gather the rank-2 (tile, rest) modes found at the terminals of the tiler T into
// ((tile_0, tile_1, ...), (rest_0, rest_1, ..., modes of L beyond rank(T))).
COTILE_HD constexpr Layout zip2_by(const Layout& l, const Tile& guide) {
  if (guide.is_leaf()) {
    if (l.shape.is_leaf() || l.rank() != 2)
      fail("zipped_divide", "a tiled mode must have rank 2 (tile, rest)", nullptr, arg("mode", l));
    return l;
  }
  if (guide.rank() > l.rank())
    fail("zipped_divide", "the tile has more modes than the layout", nullptr, arg("layout", l), arg("tile", guide));
  LayoutList tiles, rests;
  for (int i = 0; i < guide.rank(); ++i) {
    const Layout split = zip2_by(l.get(i), guide.get(i));
    tiles.push_back(split.get(0));
    rests.push_back(split.get(1));
  }
  for (int i = guide.rank(); i < l.rank(); ++i) rests.push_back(l.get(i));
  return make_layout_concat(tiles.layout(), rests.layout());
}

// logical_divide(A, B) = A o (B, complement(B, shape(coalesce(A))))
// Result mode 0 is the tile (A restricted to B's elements), mode 1 the rest.
// Law: this definition, with the laws of complement and composition (each checked).
// A tile T divides mode by mode ('_' keeps a mode, an integer n means make_layout(n)); the modes
// of A beyond rank(T) are kept. Requires rank(T) <= rank(A).
COTILE_HD constexpr Layout logical_divide(const Layout& a, const Layout& b, Options opt = {}) {
  return composition(a, make_layout_concat(b, complement(b, coalesce(a).shape, opt)), opt);
}
COTILE_HD constexpr Layout logical_divide(const Layout& a, const Tile& t, Options opt = {}) {
  if (t.is_leaf()) {
    const TileLeaf& x = t.value();
    if (x.kind == TileLeaf::kUnderscore) return a;
    if (x.kind == TileLeaf::kInt) return logical_divide(a, make_layout(int_tuple(x.integer())), opt);
    return logical_divide(a, x.layout, opt);
  }
  if (t.rank() > a.rank())
    fail("logical_divide", "the tile has more modes than the layout", nullptr, arg("layout", a), arg("tile", t));
  LayoutList r;
  for (int i = 0; i < a.rank(); ++i) r.push_back(i < t.rank() ? logical_divide(a.get(i), t.get(i), opt) : a.get(i));
  return r.layout();
}

// zipped_divide(A, T) = ((tile modes), (rest modes))
COTILE_HD constexpr Layout zipped_divide(const Layout& a, const Tile& t, Options opt = {}) {
  return zip2_by(logical_divide(a, t, opt), t);
}

namespace detail {
// The modes a slice with '_' in every position keeps: a rank-1 mode stays whole, otherwise its
// top-level modes are unpacked.
COTILE_HD constexpr void unpack_into(LayoutList& r, const Layout& m) {
  if (m.rank() == 1) {
    r.push_back(m);
  } else {
    for (int i = 0; i < m.rank(); ++i) r.push_back(m.get(i));
  }
}
}  // namespace detail

// tiled_divide(A, T) = ((tile modes), rest_0, rest_1, ...)
COTILE_HD constexpr Layout tiled_divide(const Layout& a, const Tile& t, Options opt = {}) {
  const Layout z = zipped_divide(a, t, opt);
  LayoutList r;
  r.push_back(z.get(0));
  detail::unpack_into(r, z.get(1));
  return r.layout();
}

// flat_divide(A, T) = (tile_0, tile_1, ..., rest_0, rest_1, ...)
COTILE_HD constexpr Layout flat_divide(const Layout& a, const Tile& t, Options opt = {}) {
  const Layout z = zipped_divide(a, t, opt);
  LayoutList r;
  detail::unpack_into(r, z.get(0));
  detail::unpack_into(r, z.get(1));
  return r.layout();
}

}  // namespace cotile
