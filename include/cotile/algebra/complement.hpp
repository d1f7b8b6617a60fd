// Complement and inverses.
#pragma once

#include "../layout.hpp"

namespace cotile {

// Whether to follow CuTe exactly where it refuses dynamic values only because the result's
// structure would depend on them (left_inverse, complement of rank > 1). Off by default: cotile
// then computes the result from the run-time values and marks every leaf that depends on a
// dynamic value as dynamic.
struct Options {
  bool strict = false;
};

// What complement did (for explanation tools): the filtered layout, each mode taken in stride
// order with the gap before it, and the rest that continues to the cotarget.
struct ComplementTrace {
  Layout filtered;
  Int mode_shape[kMaxLeaves], mode_stride[kMaxLeaves], gap[kMaxLeaves], gap_stride[kMaxLeaves];
  int n = 0;
  IntTuple rest_shape, rest_stride;
  bool whole_cotarget = false;  // the layout is a single stride-0 mode
};

namespace detail {

// Index of the smallest stride (first one on ties), comparing run-time values.
COTILE_HD constexpr int argmin(const IntTuple& d) {
  int best = 0;
  for (int i = 1; i < d.rank(); ++i)
    if (d.get(i).value().value < d.get(best).value().value) best = i;
  return best;
}

}  // namespace detail

// complement(L, T): the layout C of the offsets in [0, T) that L does not reach, ordered:
//   with L filtered to modes (s_i:d_i) sorted by stride,
//   C = coalesce( (d_0/1, d_1/(s_0 d_0), ..., rest) : (1, s_0 d_0, s_1 d_1, ..., rest_stride) )
//   where rest = ceil_div(T, s_last*d_last) continues past the last mode.
// Ensures: C(i) < C(i+1); C(i) != L(j) for i >= 1; size(C) >= T / size(filter(L)).
// Requires: L injective (each quotient d_(i+1) / (s_i d_i) is non-zero); in strict mode, static
// strides when filter(L) has more than one mode.
COTILE_HD constexpr Layout complement(const Layout& l, const IntTuple& cotarget, Options opt = {},
                                      ComplementTrace* tr = nullptr) {
  const Layout f = filter(l);
  if (tr) tr->filtered = f;
  if (f.shape.is_leaf() && is_constant(f.stride.value(), 0)) {
    if (tr) tr->whole_cotarget = true;
    // Irreducible rank-1 stride-0 layout: the complement is the whole cotarget.
    return make_layout(coalesce_shape(cotarget));
  }
  IntTuple shape = wrap(f.shape), stride = wrap(f.stride);
  const int r = shape.rank();
  if (r > 1 && !is_static(stride) && opt.strict)
    fail("complement", "CuTe computes the complement of a rank > 1 layout only with static strides (strict mode)",
         "drop --strict to compute it from the run-time strides", arg("layout", l));

  IntTuple result_shape = IntTuple::tuple(), result_stride = make_tuple(I(S(1)));
  for (int i = 0; i < r - 1; ++i) {
    const int m = detail::argmin(stride);
    const Int min_stride = stride.get(m).value();
    const Int new_shape = min_stride / result_stride.get(i).value();
    const Int new_stride = min_stride * shape.get(m).value();
    if (is_constant(new_shape, 0))
      fail("complement", "the layout is not injective (two modes overlap)", "complement needs an injective layout",
           arg("layout", l));
    if (tr && tr->n < kMaxLeaves) {
      tr->mode_shape[tr->n] = shape.get(m).value();
      tr->mode_stride[tr->n] = min_stride;
      tr->gap[tr->n] = new_shape;
      tr->gap_stride[tr->n++] = result_stride.get(i).value();
    }
    shape = remove(shape, m);
    stride = remove(stride, m);
    result_shape.push_back(I(new_shape));
    result_stride.push_back(I(new_stride));
  }
  const Int last_d = stride.get(0).value(), last_s = shape.get(0).value();
  const Int new_shape = last_d / result_stride.get(r - 1).value();
  if (is_constant(new_shape, 0))
    fail("complement", "the layout is not injective (two modes overlap)", "complement needs an injective layout",
         arg("layout", l));
  if (tr && tr->n < kMaxLeaves) {
    tr->mode_shape[tr->n] = last_s;
    tr->mode_stride[tr->n] = last_d;
    tr->gap[tr->n] = new_shape;
    tr->gap_stride[tr->n++] = result_stride.get(r - 1).value();
  }
  result_shape.push_back(I(new_shape));
  const Int new_stride = last_d * last_s;
  if (new_stride.value <= 0)
    fail("complement", "the last mode must reach a positive offset (negative or run-time zero strides have no complement)", nullptr, arg("layout", l));
  // rest_shape = coalesce(ceil_div(cotarget, new_stride)); strides continue compactly from new_stride.
  const IntTuple rest = coalesce_shape(ceil_div(cotarget, I(new_stride)));
  const IntTuple rest_stride = compact_col_major(rest, new_stride);
  if (tr) {
    tr->rest_shape = rest;
    tr->rest_stride = rest_stride;
  }
  return coalesce(Layout{make_tuple(result_shape, rest), make_tuple(result_stride, rest_stride)});
}

// complement(L) = complement(L, cosize(filter(L))).
COTILE_HD constexpr Layout complement(const Layout& l, Options opt = {}, ComplementTrace* tr = nullptr) {
  return complement(l, I(cosize(filter(l))), opt, tr);
}

namespace detail {

// Exclusive prefix products (_1, s0, s1*s0, ...) of a flat shape, as CuTe computes them.
COTILE_HD constexpr IntTuple prefix_products(const IntTuple& s) {
  IntTuple p = make_tuple(I(S(1)));
  for (int i = 0; i < s.rank(); ++i) p.push_back(I(s.get(i).value() * p.get(i).value()));
  return p;
}

// Indices 0..n-1 sorted by key with CuTe's exchange sort (swap when a later key is smaller).
COTILE_HD constexpr void exchange_sort(int64_t* key, int* val, int n) {
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      if (key[j] < key[i]) {
        const int64_t tk = key[i];
        key[i] = key[j];
        key[j] = tk;
        const int tv = val[i];
        val[i] = val[j];
        val[j] = tv;
      }
}

}  // namespace detail

// right_inverse(L): R with L(R(i)) == i for all i < size(R), as large as the static strides of
// coalesce(L) allow. Following strides from 1: the mode with stride 1, then the one whose stride
// equals the size reached so far, and so on; R's strides are the prefix products of those modes.
// Dynamic strides are ignored.
COTILE_HD constexpr Layout right_inverse(const Layout& l) {
  const Layout c = coalesce(l);
  const IntTuple s = wrap(c.shape), d = wrap(c.stride);
  const IntTuple pre = detail::prefix_products(s);
  int64_t key[kMaxLeaves] = {};
  int idx[kMaxLeaves] = {};
  int n = 0;
  for (int i = 0; i < d.rank(); ++i)
    if (d.get(i).value().is_static) {
      key[n] = d.get(i).value().value;
      idx[n++] = i;
    }
  detail::exchange_sort(key, idx, n);
  IntTuple rs = make_tuple(I(S(1))), rd = make_tuple(I(S(0)));
  Int curr = S(1);
  for (int k = 0; k < n; ++k) {
    const int i = idx[k];
    const Int di = d.get(i).value();
    if (curr.is_static && di.value == curr.value) {
      rs.push_back(s.get(i));
      rd.push_back(pre.get(i));
      curr = s.get(i).value() * di;
    }
  }
  return coalesce(Layout{rs, rd});
}

// left_inverse(L): R with R(L(i)) == i for all i < size(L) when L is injective.
// With the modes of coalesce(L) sorted by stride (zero strides skipped), R has shape
// (d_0/1, d_1/size_so_far, ..., s_last) and strides (0, prefix products of L's shape).
// Requires: static strides (in strict mode; otherwise run-time strides are sorted by value and
// the dependent leaves become dynamic); each stride divisible by the size reached before it.
COTILE_HD constexpr Layout left_inverse(const Layout& l, Options opt = {}) {
  const Layout c = coalesce(l);
  const IntTuple s = wrap(c.shape), d = wrap(c.stride);
  for (int k = 0; k < d.num_leaves(); ++k)
    if (!d.leaf_at(k).is_static && opt.strict)
      fail("left_inverse", "CuTe requires static strides (strict mode)",
           "make the strides static (Int<N>), or drop --strict to invert the run-time values", arg("layout", l));
  const IntTuple pre = detail::prefix_products(s);
  int64_t key[kMaxLeaves] = {};
  int idx[kMaxLeaves] = {};
  const int n = d.rank();
  for (int i = 0; i < n; ++i) {
    key[i] = d.get(i).value().value;
    idx[i] = i;
  }
  detail::exchange_sort(key, idx, n);
  IntTuple rs = IntTuple::tuple(), rd = make_tuple(I(S(0)));
  for (int k = 0; k < n; ++k) {
    const int i = idx[k];
    const Int di = d.get(i).value();
    if (is_constant(di, 0) || (!di.is_static && di.value == 0)) continue;
    const Int sz = product(rs);
    if (sz.value <= 0) fail("left_inverse", "the layout has a mode of size <= 0", "shapes must be positive", arg("layout", l));
    if (di.value % sz.value != 0)
      fail("left_inverse", "divisibility violated: each stride must be a multiple of the size covered by smaller strides",
           "left_inverse needs an injective layout", arg("layout", l));
    rs.push_back(I(di / sz));
    rd.push_back(pre.get(i));
  }
  rs.push_back(s.get(idx[n - 1]));
  return coalesce(Layout{rs, rd});
}

}  // namespace cotile
