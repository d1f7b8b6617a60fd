// Element-size changes and common vectors.
#pragma once

#include "../laws/cast.hpp"
#include "complement.hpp"
#include "composition.hpp"
#include "divide.hpp"

namespace cotile {

// upcast<N>(L): view L in units N times larger. Per leaf (s, d):
//   d a static _0:  unchanged
//   d static:       (ceil_div(s, ceil_div(N, |d|)), signum(d) * ceil_div(|d|, N))
//                   Requires d % N == 0 or N % d == 0
//   d dynamic:      (s, d / N)            (truncating, as CuTe: dynamic strides are assumed divisible)
// Law: stride(R) * N = stride(L) leaf by leaf where |d| >= N (laws/cast.hpp): a dynamic stride
// must be a multiple of N.
COTILE_HD constexpr Layout upcast(const Layout& l, int64_t n, Options opt = {}) {
  if (n <= 0) fail("upcast", "N must be positive", nullptr, arg("N", n));
  const Int N = static_int(n);
  Layout r = l;
  for (int k = 0; k < l.shape.num_leaves(); ++k) {
    const Int s = l.shape.leaf_at(k), d = l.stride.leaf_at(k);
    if (is_constant(d, 0)) continue;
    if (d.is_static && d.value % n != 0 && n % d.value != 0)
      fail("upcast", "divisibility violated: each static stride must divide N or be a multiple of it", nullptr,
           arg("layout", l), arg("N", n));
    if (d.is_static) {
      r.shape.leaf_at(k) = ceil_div(s, ceil_div(N, abs(d)));
      r.stride.leaf_at(k) = signum(d) * ceil_div(abs(d), N);
    } else {
      r.stride.leaf_at(k) = d / N;
    }
  }
  return lawful(
      opt, [&] { return laws::upcast(l, n, r); }, r);
}

// downcast<N>(L): view L in units N times smaller. CuTe's rule, per leaf: stride static +-1:
// (s * N, d); otherwise (s, d * N). Requires: some stride is a static _1 (adjacent elements exist).
// Law (laws/cast.hpp): sub-element j of L's element c at N L(c) + j, which holds when exactly one
// leaf of stride +1 takes the sub-elements. Where CuTe's rule expands more than one leaf or one of
// stride -1, the default mode expands only the first leaf of stride _1 (and multiplies the other
// strides, -1 included, by N): downcast((_8,_1):(_1,_1), _2) = (_16,_1):(_1,_2), where CuTe's
// (_16,_2):(_1,_1) has 32 sub-elements for 16; strict and as_cute keep CuTe's.
COTILE_HD constexpr Layout downcast(const Layout& l, int64_t n, Options opt = {}) {
  if (n <= 0) fail("downcast", "N must be positive", nullptr, arg("N", n));
  int first = -1;
  for (int k = 0; k < l.stride.num_leaves() && first < 0; ++k)
    if (is_constant(l.stride.leaf_at(k), 1)) first = k;
  if (first < 0)
    fail("downcast", "requires a static _1 stride (adjacent elements)", "give the contiguous mode the static stride _1",
         arg("layout", l));
  const bool cute_rule = opt.strict || opt.as_cute;
  const Int N = static_int(n);
  Layout r = l;
  for (int k = 0; k < l.shape.num_leaves(); ++k) {
    const Int s = l.shape.leaf_at(k), d = l.stride.leaf_at(k);
    const bool unit = is_constant(d, 1) || is_constant(d, -1);
    if (cute_rule ? unit : k == first) r.shape.leaf_at(k) = s * N;
    else r.stride.leaf_at(k) = d * N;
  }
  return lawful(
      opt, [&] { return laws::downcast(l, n, r); }, r);
}

namespace detail {
// The steps of max_common_layout (CuTe's): R = right_inverse(B) o layout<0>(C) with
// C = coalesce(A o right_inverse(B)) when mode 0 of C has a static shape and static stride _1,
// else _1:_0. The steps run unchecked; the law is checked on R (laws/cast.hpp), with the steps'
// own laws as its cheap proof.
struct MaxCommon {
  Layout r;         // the common layout (_1:_0 when none)
  Int n;            // its size as max_common_vector returns it (_1 when none)
  bool steps_hold;  // r comes from right_inverse and the two compositions, which satisfy their laws
};
COTILE_HD constexpr MaxCommon max_common(const Layout& a, const Layout& b, Options opt) {
  const Options inner{opt.strict, true, nullptr};
  const Layout inv_b = right_inverse(b, inner);
  const Layout ab = composition(a, inv_b, inner);
  const Layout c = coalesce(ab);
  const Int s0 = c.shape.mode_value(0), d0 = c.stride.mode_value(0);
  // The fallback _1:_0 does not come from the steps: its index 0 is checked point by point (an
  // empty A or B has none).
  if (!(s0.is_static && is_constant(d0, 1))) return {Layout{}, static_int(1), false};
  const Layout r = composition(inv_b, c.get(0), inner);
  auto holds = [](const LawReport& rep) { return rep.holds && !rep.deferred; };
  const bool steps = holds(laws::right_inverse(b, coalesce(b), inv_b)) &&
                     holds(laws::composition(a, coalesce_x(a), inv_b, ab)) &&
                     holds(laws::composition(inv_b, coalesce_x(inv_b), c.get(0), r));
  return {r, s0, steps};
}
}  // namespace detail

namespace detail {
// The common prefix of R = max_common_layout's steps where R runs past A or B (CuTe's steps never
// compare sizes: max_common_vector(_2:_1, _4:_1) is 4): with i0 the first index that breaks the
// law, the largest k <= i0 for which R o (k:_1) is a layout, k = s_0 ... s_(j-1) t with t a divisor
// of s_j (R's leaves s; any t <= s_j for the last), and that R. None (k = 0) where index 0 breaks
// it, or where R has more points than the law checks one by one.
COTILE_HD constexpr MaxCommon common_prefix(const MaxCommon& m, const Layout& a, const Layout& b) {
  const laws::Flat fr = laws::flat(m.r);
  if (fr.size() > laws::law_points()) return {Layout{}, static_int(0), false};
  const int64_t i0 = laws::first_uncommon(laws::flat(a), laws::flat(b), fr);
  if (i0 == 0) return {Layout{}, static_int(0), false};
  Int k = static_int(1);
  for (int l = 0; l < m.r.shape.num_leaves(); ++l) {
    const Int s = m.r.shape.leaf_at(l);
    if (s.value <= i0 / k.value) {
      k = k * s;
      continue;
    }
    int64_t t = i0 / k.value;
    while (l + 1 < m.r.shape.num_leaves() && t > 1 && s.value % t != 0) --t;  // the last leaf takes any t
    k = k * Int{t, s.is_static};
    break;
  }
  const Options inner{false, true, nullptr};
  return {composition(m.r, Layout{int_tuple(k), int_tuple(static_int(1))}, inner), k, false};
}

// The steps' result, or where by_value may answer and it breaks the law, the common prefix (when
// there is one: else the steps' result, which the operation's law then refuses). `held`: by_value
// checked the law on the steps' result and it held, so the operation's check takes that report
// instead of walking R's points again (law_report).
struct MaxCommonAnswer {
  MaxCommon m;
  bool checked = false;
  LawReport held;
  COTILE_HD constexpr LawReport law_report(const char* op, const Layout& a, const Layout& b,
                                           const Int* vector_n = nullptr) const {
    return checked ? held : laws::max_common_layout(op, a, b, m.r, m.steps_hold, vector_n);
  }
};
COTILE_HD constexpr MaxCommonAnswer max_common_answer(const char* op, const Layout& a, const Layout& b, Options opt) {
  const MaxCommon m = max_common(a, b, opt);
  if (!opt.by_value || opt.strict || opt.as_cute || !laws::known(a) || !laws::known(b)) return {m, false, {}};
  const LawReport rep = laws::max_common_layout(op, a, b, m.r, m.steps_hold);
  if (rep.holds) return {m, true, rep};
  const MaxCommon p = common_prefix(m, a, b);
  return {p.n.value > 0 ? p : m, false, {}};
}
}  // namespace detail

// max_common_vector(A, B): with C = coalesce(A o right_inverse(B)), the number of contiguous
// elements A and B agree on: shape<0>(C) if mode 0 of C has a static shape and static stride _1,
// else _1.
// Law: for i < N, with R = right_inverse(B): R(i) is an index of A and of B, and
// A(R(i)) = B(R(i)) = i (laws/cast.hpp).
// Where that N runs past A or B (their sizes differ), by_value answers the largest common prefix
// (detail::common_prefix): max_common_vector(_2:_1, _4:_1) = _2.
COTILE_HD constexpr Int max_common_vector(const Layout& a, const Layout& b, Options opt = {}) {
  const detail::MaxCommonAnswer ans = detail::max_common_answer("max_common_vector", a, b, opt);
  return lawful(
      opt, [&] { return ans.law_report("max_common_vector", a, b, &ans.m.n); }, ans.m.n);
}

// max_common_layout(A, B): right_inverse(B) o layout<0>(C) under the same condition, else _1:_0.
// Law: for i < size(R), R(i) is an index of A and of B, and A(R(i)) = B(R(i)) = i.
// by_value: the largest common prefix where R runs past A or B, as for max_common_vector.
COTILE_HD constexpr Layout max_common_layout(const Layout& a, const Layout& b, Options opt = {}) {
  const detail::MaxCommonAnswer ans = detail::max_common_answer("max_common_layout", a, b, opt);
  return lawful(
      opt, [&] { return ans.law_report("max_common_layout", a, b); }, ans.m.r);
}

// max_alignment(L): the largest N, judged from L's static parts, such that L's offsets come in
// aligned contiguous blocks of N, each the image of N indices (what upcast<N>(L) needs; CuTe's
// definition: a dynamic extent counts as 1, a dynamic stride as a large multiple of N, i.e. 0).
// With F = coalesce(L), its dynamic extents _1 and dynamic strides _0, and
// P = logical_divide(F, right_inverse(F)) = (the contiguous vector, the rest):
//   max_alignment(L) = gcd(size(P_0), every stride of P_1).   Always static.
// Examples: (_4,_8):(_1,_16) -> gcd(_4, _16) = _4;  (_4,_8):(_8,_1) -> _32;  (_4,n):(_1,ld) -> _4.
COTILE_HD constexpr Int max_alignment(const Layout& l) {
  const Options cute{false, true, nullptr};  // the algorithms' own results inside: no law is claimed
  Layout f = coalesce(l);
  for (int k = 0; k < f.shape.num_leaves(); ++k) {
    if (!f.shape.leaf_at(k).is_static) f.shape.leaf_at(k) = static_int(1);
    if (!f.stride.leaf_at(k).is_static) f.stride.leaf_at(k) = static_int(0);
  }
  const Layout p = logical_divide(f, right_inverse(f, cute), cute);
  Int r = size(p.get(0));
  const IntTuple rest = p.get(1).stride;
  for (int k = 0; k < rest.num_leaves(); ++k) r = gcd(r, rest.leaf_at(k));
  return r;
}

}  // namespace cotile
