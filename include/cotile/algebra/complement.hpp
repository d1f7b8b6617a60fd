// Complement and inverses. Each algorithm is CuTe's; its law (laws/complement.hpp,
// laws/inverse.hpp) is checked on the result unless Options say otherwise.
#pragma once

#include "../laws/complement.hpp"
#include "../laws/inverse.hpp"
#include "options.hpp"
#include "sort.hpp"

namespace cotile {

// What complement did (for explanation tools): the filtered layout, each mode taken in stride
// order with the gap before it, and the rest that continues to the cotarget.
struct ComplementTrace {
  Layout filtered;
  Int mode_shape[kMaxLeaves], mode_stride[kMaxLeaves], gap[kMaxLeaves], gap_stride[kMaxLeaves];
  int n = 0;
  IntTuple rest_shape, rest_stride;
  bool whole_cotarget = false;  // the layout is a single stride-0 mode
};

// complement(L, T): the layout C of the offsets in [0, T) that L does not reach, ordered:
//   with L filtered to modes (s_i:d_i) sorted by stride,
//   C = coalesce( (d_0/1, d_1/(s_0 d_0), ..., rest) : (1, s_0 d_0, s_1 d_1, ..., rest_stride) )
//   where rest = ceil_div(T, s_last*d_last) continues past the last mode.
// Law (F = filter(L)): (F, C) injective, C ordered (C(i-1) < C(i)), cosize((F, C)) >= size(T).
// It holds when F's modes by stride have positive shapes and strides and s_i d_i divides
// d_(i+1), or when they spread apart (each stride beyond the span below it); otherwise it is
// checked point by point (laws/complement.hpp).
// Requires: a static quotient d_(i+1) / (s_i d_i) is non-zero (CuTe's check); in strict mode,
// static strides when filter(L) has more than one mode (otherwise cotile sorts the run-time
// strides by value, and leaves out modes of run-time extent 1; by_value leaves those out of static
// strides too where CuTe's check refuses one).
namespace detail {
// drop_units: leave out modes of run-time extent 1 (cotile's own computation from run-time
// strides always does). unit_gap: where CuTe's algorithm meets a run-time extent 1 below the
// extent reached (check_gap), set it and return instead of refusing.
COTILE_HD constexpr Layout complement_algorithm(const Layout& l, const Layout& f, const IntTuple& cotarget, Options opt,
                                                ComplementTrace* tr, bool drop_units = false, bool* unit_gap = nullptr);
}  // namespace detail

COTILE_HD constexpr Layout complement(const Layout& l, const IntTuple& cotarget, Options opt = {},
                                      ComplementTrace* tr = nullptr) {
  const Layout f = filter(l);
  bool unit_gap = false;
  Layout c = detail::complement_algorithm(l, f, cotarget, opt, tr, false,
                                          opt.by_value && !opt.strict && !opt.as_cute ? &unit_gap : nullptr);
  if (unit_gap) {
    // CuTe refuses a run-time extent 1 below the extent reached; by_value leaves it out, as filter
    // drops a static _1: complement((_4,1):(_1,_1), _16) = _4:_4 as for (_4,_1):(_1,_1).
    if (tr) *tr = ComplementTrace{};
    c = detail::complement_algorithm(l, f, cotarget, opt, tr, true);
  }
  const bool cute_refuses = f.rank() > 1 && !is_static(wrap(f.stride));
  return lawful(
      opt,
      [&] {
        return laws::complement(
            l, f, cotarget, c,
            cute_refuses ? "CuTe computes the complement of a rank > 1 layout only with static strides" : nullptr);
      },
      c);
}

namespace detail {
// Refuses a gap of a static 0: the mode s:d starts below the extent the modes before it reach
// (CuTe's check). Two modes overlap, or s is a run-time 1, which covers nothing but stays a mode
// (then, given unit_gap, sets it and returns true instead).
COTILE_HD constexpr bool check_gap(const Layout& l, const Int& gap, const Int& s, const Int& d, const Int& extent,
                                   bool* unit_gap) {
  if (!is_constant(gap, 0)) return false;
  if (!s.is_static && known_equal(s, 1)) {
    if (unit_gap) return *unit_gap = true;
    fail("complement",
         "a mode of run-time extent 1 starts below the extent the modes before it reach (the gap between them is a "
         "static 0): it covers nothing, but only a static _1 is dropped",
         "make that extent a static _1", arg("layout", l), arg("mode", Layout{int_tuple(s), int_tuple(d)}),
         arg("extent below it", extent));
  }
  if (!s.is_static && !is_known(s))  // the typed layer, before the value is known
    // nvcc quotes only the first line of a failing constexpr call: the rule stays on it
    // clang-format off
    fail("complement", "a mode of run-time extent starts below the extent the modes before it reach: it overlaps them unless that extent is 1, and only a static _1 is dropped",
         "make that extent a static _1 where it is 1, or give the mode a stride at or beyond the extent below it",
         arg("layout", l), arg("mode", Layout{int_tuple(s), int_tuple(d)}), arg("extent below it", extent));
  // clang-format on
  fail("complement", "the layout is not injective (two modes overlap)", "complement needs an injective layout",
       arg("layout", l));
}
}  // namespace detail

COTILE_HD constexpr Layout detail::complement_algorithm(const Layout& l, const Layout& f, const IntTuple& cotarget,
                                                        Options opt, ComplementTrace* tr, bool drop_units,
                                                        bool* unit_gap) {
  if (tr) tr->filtered = f;
  for (int k = 0; k < f.shape.num_leaves(); ++k)  // (filter keeps an empty layout empty)
    if (known_equal(f.shape.leaf_at(k), 0))
      fail("complement", "the layout is empty (an extent 0): (L, C) has no elements, so no C reaches the cotarget",
           "complement a layout of extents >= 1", arg("layout", l));
  // A cotarget shape is divided mode by mode below (ceil_div folds the stride through its extents):
  // one of 0 is an empty cotarget, named here before that division's own "division by zero".
  if (cotarget.is_tuple())
    for (int k = 0; k < cotarget.num_leaves(); ++k)
      if (known_equal(cotarget.leaf_at(k), 0))
        fail("complement", "the cotarget shape has an extent 0: it is empty, so there is nothing for C to reach",
             "give the cotarget extents >= 1 (logical_divide and the products take it from the layout's shape)",
             arg("layout", l), arg("cotarget", cotarget));
  if (f.shape.is_leaf() && is_constant(f.stride.value(), 0)) {
    if (tr) tr->whole_cotarget = true;
    // Irreducible rank-1 stride-0 layout: the complement is the whole cotarget.
    return make_layout(coalesce_shape(cotarget));
  }
  IntTuple shape = wrap(f.shape), stride = wrap(f.stride);
  const bool own = shape.rank() > 1 && !is_static(stride);
  if (own && opt.strict)
    fail("complement", "CuTe computes the complement of a rank > 1 layout only with static strides (strict mode)",
         "drop --strict to compute it from the run-time strides", arg("layout", l));
  if (shape.rank() > 1 && (own || drop_units)) {
    // cotile's own computation from the run-time values (and drop_units): a run-time extent 1
    // covers nothing, and is dropped as filter drops a static _1 (kept, its stride would become a
    // link of the chain).
    IntTuple s = IntTuple::tuple(), d = IntTuple::tuple();
    for (int k = 0; k < shape.rank(); ++k)
      if (shape.mode_value(k).is_static || !decided_equal(shape.mode_value(k), 1)) {
        s.push_back(shape.get(k));
        d.push_back(stride.get(k));
      }
    if (s.rank() == 0) {  // L reaches offset 0 only: C is the whole cotarget
      if (tr) tr->whole_cotarget = true;
      return make_layout(coalesce_shape(cotarget));
    }
    shape = s, stride = d;
  }
  const int r = shape.rank();

  for (int k = 0; k < r; ++k)
    if (stride.mode_value(k).value == 0)
      fail("complement", "the layout has a run-time 0 stride: its coordinates along that mode share every offset",
           "use a static _0 stride for a broadcast mode (filter drops it), or a non-zero stride", arg("layout", l));
  IntTuple result_shape = IntTuple::tuple(), result_stride = make_tuple(static_int(1));
  for (int i = 0; i < r - 1; ++i) {
    const int m = argmin(stride);
    const Int min_stride = stride.mode_value(m);
    const Int new_shape = min_stride / result_stride.mode_value(i);
    const Int new_stride = min_stride * shape.mode_value(m);
    if (detail::check_gap(l, new_shape, shape.mode_value(m), min_stride, result_stride.mode_value(i), unit_gap))
      return Layout{};
    if (tr && tr->n < kMaxLeaves) {
      tr->mode_shape[tr->n] = shape.mode_value(m);
      tr->mode_stride[tr->n] = min_stride;
      tr->gap[tr->n] = new_shape;
      tr->gap_stride[tr->n++] = result_stride.mode_value(i);
    }
    shape = remove(shape, m);
    stride = remove(stride, m);
    result_shape.push_back(int_tuple(new_shape));
    result_stride.push_back(int_tuple(new_stride));
  }
  const Int last_d = stride.mode_value(0), last_s = shape.mode_value(0);
  const Int new_shape = last_d / result_stride.mode_value(r - 1);
  if (detail::check_gap(l, new_shape, last_s, last_d, result_stride.mode_value(r - 1), unit_gap)) return Layout{};
  if (tr && tr->n < kMaxLeaves) {
    tr->mode_shape[tr->n] = last_s;
    tr->mode_stride[tr->n] = last_d;
    tr->gap[tr->n] = new_shape;
    tr->gap_stride[tr->n++] = result_stride.mode_value(r - 1);
  }
  result_shape.push_back(int_tuple(new_shape));
  const Int new_stride = last_d * last_s;
  if (new_stride.value <= 0)
    // nvcc quotes only the first line of a failing constexpr call: the rule stays on it
    // clang-format off
    fail("complement", "the last mode must reach a positive offset (negative or run-time zero strides have no complement)", nullptr, arg("layout", l));
  // clang-format on
  // rest_shape = coalesce(ceil_div(cotarget, new_stride)); strides continue compactly from new_stride.
  const IntTuple rest = coalesce_shape(ceil_div(cotarget, int_tuple(new_stride)));
  const IntTuple rest_stride = compact_col_major(rest, new_stride);
  if (tr) {
    tr->rest_shape = rest;
    tr->rest_stride = rest_stride;
  }
  return coalesce(Layout{make_tuple(result_shape, rest), make_tuple(result_stride, rest_stride)});
}

// complement(L) = complement(L, cosize(filter(L))).
COTILE_HD constexpr Layout complement(const Layout& l, Options opt = {}, ComplementTrace* tr = nullptr) {
  return complement(l, int_tuple(cosize(filter(l))), opt, tr);
}

namespace detail {

// Exclusive prefix products (_1, s0, s1*s0, ...) of a flat shape, as CuTe computes them.
COTILE_HD constexpr IntTuple prefix_products(const IntTuple& s) {
  IntTuple p = make_tuple(static_int(1));
  for (int i = 0; i < s.rank(); ++i) p.push_back(int_tuple(s.mode_value(i) * p.mode_value(i)));
  return p;
}

}  // namespace detail

namespace detail {

// right_inverse's chain over the modes of c = coalesce(L): from stride 1, the mode whose stride
// equals the size reached so far, and so on; R's strides are the prefix products of those modes.
// CuTe follows static strides only (a run-time stride or shape ends the chain); `by_value`
// follows the run-time values too.
COTILE_HD constexpr Layout right_inverse_chain(const Layout& c, bool by_value) {
  const IntTuple s = wrap(c.shape), d = wrap(c.stride);
  const IntTuple pre = prefix_products(s);
  Int key[kMaxLeaves] = {};
  int idx[kMaxLeaves] = {};
  int n = 0;
  for (int i = 0; i < d.rank(); ++i)
    if (by_value || d.mode_value(i).is_static) {
      key[n] = d.mode_value(i);
      idx[n++] = i;
    }
  exchange_sort(key, idx, n);
  IntTuple rs = make_tuple(static_int(1)), rd = make_tuple(static_int(0));
  Int curr = static_int(1);
  for (int k = 0; k < n; ++k) {
    const int i = idx[k];
    const Int di = d.mode_value(i);
    if ((by_value || curr.is_static) && decided_equal(di, curr)) {
      rs.push_back(s.get(i));
      rd.push_back(pre.get(i));
      curr = s.mode_value(i) * di;
    }
  }
  return coalesce(Layout{rs, rd});
}

}  // namespace detail

// right_inverse(L): R with L(R(i)) == i for all i < size(R), as large as the static strides of
// coalesce(L) allow (CuTe's chain, detail::right_inverse_chain); dynamic strides are ignored.
// Law: L(R(i)) = i for i < size(R); it holds whenever L's shapes are positive (laws/inverse.hpp).
COTILE_HD constexpr Layout right_inverse(const Layout& l, Options opt = {}) {
  const Layout c = coalesce(l);
  const Layout r = detail::right_inverse_chain(c, false);
  return lawful(
      opt, [&] { return laws::right_inverse(l, c, r); }, r);
}

// The same chain following run-time strides and shapes by value (not CuTe's): make_tiled_copy's
// way past a chain that a run-time value stopped. Law as right_inverse's.
COTILE_HD constexpr Layout right_inverse_by_value(const Layout& l, Options opt = {}) {
  const Layout c = coalesce(l);
  const Layout r = detail::right_inverse_chain(c, true);
  return lawful(
      opt, [&] { return laws::right_inverse(l, c, r); }, r);
}

// left_inverse(L): R with R(L(i)) == i for all i < size(L) when L is injective.
// With the modes of coalesce(L) sorted by stride (zero strides skipped), R has shape
// (d_0/1, d_1/d_0, ..., d_k/d_(k-1), s_last) and strides (0, prefix products of L's shape).
// Law: for i < size(L), R(L(i)) is an index of L and L(R(L(i))) = L(i). It holds when the sorted
// non-zero strides are positive, each divides the next, and s_k d_k <= d_(k+1); otherwise it is
// checked point by point (laws/inverse.hpp).
// Requires: each static stride a multiple of the next smaller one (CuTe's check); in strict mode,
// static strides (otherwise run-time strides are sorted by value, modes of run-time extent 1 left
// out, and the dependent leaves become dynamic).
COTILE_HD constexpr Layout left_inverse(const Layout& l, Options opt = {}) {
  const Layout c = coalesce(l);
  const IntTuple s = wrap(c.shape), d = wrap(c.stride);
  const bool dynamic_strides = !is_static(d);
  if (dynamic_strides && opt.strict)
    fail("left_inverse", "CuTe requires static strides (strict mode)",
         "make the strides static (Int<N>), or drop --strict to invert the run-time values", arg("layout", l));
  const IntTuple pre = detail::prefix_products(s);
  Int key[kMaxLeaves] = {};
  int idx[kMaxLeaves] = {};
  // With run-time strides (cotile's own computation: CuTe refuses them), a mode of run-time
  // extent 1 covers nothing and is left out, as coalesce drops a static _1: kept, its stride
  // would tie with the others' or become the last mode. With every mode one, L reaches 0 only.
  auto unit = [&](int i) { return dynamic_strides && !s.mode_value(i).is_static && decided_equal(s.mode_value(i), 1); };
  int n = 0;
  for (int i = 0; i < d.rank(); ++i)
    if (!unit(i)) {
      key[n] = d.mode_value(i);
      idx[n++] = i;
    }
  if (n == 0) {
    const Layout r = make_layout(int_tuple(static_int(1)), int_tuple(static_int(0)));
    return lawful(
        opt, [&] { return laws::left_inverse(l, c, r, "left_inverse needs static strides"); }, r);
  }
  detail::exchange_sort(key, idx, n);
  IntTuple rs = IntTuple::tuple(), rd = make_tuple(static_int(0));
  for (int k = 0; k < n; ++k) {
    const int i = idx[k];
    const Int di = d.mode_value(i);
    if (is_constant(di, 0) || (!di.is_static && decided_equal(di, 0))) continue;
    const Int sz = product(rs);  // the next smaller stride (1 at first): the quotients multiply back to it
    if (sz.value == 0)
      // nvcc quotes only the first line of a failing constexpr call: the rule stays on it
      // clang-format off
      fail("left_inverse", "a stride is negative: a layout R has R(-x) = -R(x), so no R sends negative offsets back to "
                           "indices >= 0",
           "give every mode a positive stride (start the view at its lowest element)", arg("layout", l));
    // clang-format on
    if (di.is_static && sz.is_static && di.value % sz.value != 0 && (di.value < 0 || sz.value < 0))
      // nvcc quotes only the first line of a failing constexpr call: the rule stays on it
      // clang-format off
      fail("left_inverse", "a stride is negative: a layout R has R(-x) = -R(x), so no R sends negative offsets back to "
                           "indices >= 0",
           "give every mode a positive stride (start the view at its lowest element)", arg("layout", l));
    // clang-format on
    if (di.is_static && sz.is_static && di.value % sz.value != 0) {
      Layout found{};  // (a layout with R(L(i)) = i all the same, where a search finds one)
      if (laws::found_left_inverse(l, found))
        fail("left_inverse",
             "divisibility violated: a stride is not a multiple of the next smaller stride, so an offset does not "
             "tell that mode's coordinate",
             "left_inverse inverts layouts whose sorted strides each divide the next; the lawful left inverse above "
             "reads L's offsets back, or use right_inverse, or reorder or split the modes",
             arg("layout", l), arg("stride", di), arg("next smaller stride", sz),
             arg("a lawful left inverse, found by search", found));
      fail("left_inverse",
           "divisibility violated: a stride is not a multiple of the next smaller stride, so an offset does not tell "
           "that mode's coordinate",
           "left_inverse inverts layouts whose sorted strides each divide the next; use right_inverse, or reorder or "
           "split the modes",
           arg("layout", l), arg("stride", di), arg("next smaller stride", sz));
    }
    rs.push_back(int_tuple(di / sz));
    rd.push_back(pre.get(i));
  }
  rs.push_back(s.get(idx[n - 1]));
  const Layout r = coalesce(Layout{rs, rd});
  return lawful(
      opt, [&] { return laws::left_inverse(l, c, r, dynamic_strides ? "left_inverse needs static strides" : nullptr); },
      r);
}

}  // namespace cotile
