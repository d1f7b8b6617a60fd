// Compact layouts shaped like another (CuTe's make_layout_like, make_fragment_like): how a
// register tensor "like" a given tensor is laid out.
#pragma once

#include "product.hpp"

namespace cotile {

namespace detail {
// The order of d's leaves with ties broken by position: each static leaf becomes its rank among
// the static leaves by (value, position); dynamic leaves stay (compact_order places them after
// every static one, by position). Where d's static values are distinct, compact_order gives the
// same strides for this order as for d itself.
COTILE_HD constexpr IntTuple distinct_order(const IntTuple& d) {
  IntTuple r = d;
  const int n = d.num_leaves();
  for (int k = 0; k < n; ++k) {
    const Int x = d.leaf_at(k);
    if (!x.is_static) continue;
    int64_t rank = 0;
    for (int j = 0; j < n; ++j) {
      const Int y = d.leaf_at(j);
      rank += y.is_static && (y.value < x.value || (y.value == x.value && j < k)) ? 1 : 0;
    }
    r.leaf_at(k) = static_int(rank);
  }
  return r;
}
}  // namespace detail

// make_layout_like(L) = shape(L) : compact_order(filter_zeros(stride(L), shape(L)), order(L))
// Compact strides that increase in the order of L's strides (equal strides: by position); a mode
// whose stride is a static _0 counts as extent 1 and keeps the stride _0 (a broadcast stays one).
// Law: the same shape, and compact: filter_zeros(R) maps its domain onto [0, size) one to one.
// CuTe orders by the strides alone, so equal strides (e.g. (_4,_2):(_8,_8)) give it aliasing
// modes, (_4,_2):(_1,_1) there; ties broken by position give (_4,_2):(_1,_4), and the same
// strides as CuTe's wherever CuTe's are compact.
COTILE_HD constexpr Layout make_layout_like(const Layout& l) {
  return Layout{l.shape, compact_order(filter_zeros(l.stride, l.shape), detail::distinct_order(l.stride))};
}

// make_fragment_like(L): for a static shape of rank > 1, mode 0 compact column-major (static _0
// strides kept: the values of one copy or MMA atom stay contiguous) and the other modes compact
// after it in the order of their strides:
//   tiled_product(s0 : compact_col_major(filter_zeros(d0, s0)), make_ordered_layout(s1.., d1..))
// else compact column-major over shape(L), with equal strides ordered by position as in
// make_layout_like (CuTe gives (_4,_4,_2):(_0,_1,_1), two modes on the same registers, for
// (_4,_4,_2):(_0,_0,_0); here (_4,_4,_2):(_0,_1,_4)). Law: the same size and rank, and compact
// as make_layout_like's.
COTILE_HD constexpr Layout make_fragment_like(const Layout& l) {
  if (l.rank() < 2 || !is_static(l.shape)) return make_layout(l.shape);
  const Layout atom{l.shape.get(0), compact_col_major(filter_zeros(l.stride.get(0), l.shape.get(0)))};
  const Layout rest = take(l, 1, l.rank());
  return tiled_product(atom, tile_layout(make_ordered_layout(rest.shape, detail::distinct_order(rest.stride))));
}

}  // namespace cotile
