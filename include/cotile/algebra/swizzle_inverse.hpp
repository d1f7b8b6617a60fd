// A layout after a swizzle, and the inverses of swizzled layouts (CuTe's rules, with their laws
// checked: laws/swizzle.hpp).
//
// A swizzle Sw<B,M,S> XORs its B source bits (mask yyy) into its B target bits (mask zzz). A
// layout L that carries each bit 2^k to one bit L(2^k), adding over disjoint bits, turns
// x -> L(Sw(x)) into Sw'(L(x)), Sw' the swizzle whose masks are L(yyy) and L(zzz):
//   composition(L, Sw) = Sw' o _0 o L.
// A swizzle is its own inverse, so the inverses of C = Sw o _0 o L are L's composed with Sw:
//   right_inverse(C) = composition(right_inverse(L), Sw),  left_inverse likewise,
// again swizzled layouts. Where L does not carry the bits so, that rewrite (what CuTe 4.7
// returns) is wrong: the laws are checked on every point and such inputs refused.
#pragma once

#include "../laws/swizzle.hpp"
#include "complement.hpp"
#include "options.hpp"

namespace cotile {

COTILE_HD constexpr int64_t swizzle_source_mask(const Swizzle& sw) {
  return ((int64_t(1) << sw.b) - 1) << (sw.m + (sw.s > 0 ? sw.s : 0));
}
COTILE_HD constexpr int64_t swizzle_target_mask(const Swizzle& sw) {
  return ((int64_t(1) << sw.b) - 1) << (sw.m + (sw.s < 0 ? -sw.s : 0));
}

namespace detail {
COTILE_HD constexpr int popcount64(int64_t x) {  // (unsigned: x - 1 of INT64_MIN would overflow)
  int n = 0;
  for (uint64_t u = uint64_t(x); u; u &= u - 1) ++n;
  return n;
}
COTILE_HD constexpr int lowest_bit(int64_t x) {
  int k = 0;
  while (x && !(x & 1)) x >>= 1, ++k;
  return k;
}
// The swizzle whose source bits are y and target bits z, into `sw`: 0, else why there is none
// (1: not two non-negative sets of B bits; 2: not B contiguous bits each, at least B apart).
COTILE_HD constexpr int swizzle_from_masks(int64_t y, int64_t z, Swizzle& sw) {
  if (y < 0 || z < 0) return 1;
  const int b = popcount64(y);
  if (popcount64(z) != b) return 1;
  sw = Swizzle{};
  if (b == 0) return 0;
  const int ly = lowest_bit(y), lz = lowest_bit(z);
  sw = Swizzle{b, ly < lz ? ly : lz, ly - lz};
  return (sw.s < 0 ? -sw.s : sw.s) < b || swizzle_source_mask(sw) != y || swizzle_target_mask(sw) != z ? 2 : 0;
}
}  // namespace detail

// The swizzle whose source bits are y and target bits z (CuTe's make_swizzle<Y, Z>): B bits,
// M = the lower of the two lowest bits, S = their distance. Requires: y and z the masks of one
// swizzle (B contiguous bits each, |S| >= B); `what` names them in the error.
COTILE_HD constexpr Swizzle swizzle_of_masks(int64_t y, int64_t z, const char* op = "make_swizzle",
                                             const char* what = "the masks") {
  Swizzle sw;
  const int why = detail::swizzle_from_masks(y, z, sw);
  if (why == 1)
    fail(op, "a swizzle's source and target masks are two non-negative sets of B bits", what, arg("source mask", y),
         arg("target mask", z));
  if (why == 2)
    fail(op, "a swizzle's source and target masks are B contiguous bits each, at least B apart", what,
         arg("source mask", y), arg("target mask", z));
  return sw;
}

// composition(L, Sw): x -> L(Sw(x)) as Sw' o _0 o L, Sw' the swizzle of L's images of Sw's masks.
// Law: R(x) = L(Sw(x)) for every x < size(L) (checked point by point).
// Requires: L's values on the masks known.
COTILE_HD constexpr ComposedLayout composition(const Layout& l, const Swizzle& sw, Options opt = {}) {
  const Int y = eval(l, int_tuple(static_int(swizzle_source_mask(sw)))),
            z = eval(l, int_tuple(static_int(swizzle_target_mask(sw))));
  if (!is_known(y) || !is_known(z) || (opt.strict && !(y.is_static && z.is_static)))
    fail("composition", "composition(L, Sw) needs L's values on the swizzle's bits (static: CuTe makes a swizzle type)",
         "make the layout's strides static", arg("layout", l));
  const ComposedLayout r{swizzle_of_masks(y.value, z.value, "composition",
                                          "composition(L, Sw) moves the swizzle to L's images of its masks; give L "
                                          "power-of-two strides on the swizzle's bits, or keep the swizzle outside "
                                          "the layout (Sw o L)"),
                         static_int(0), l};
  return lawful(
      opt, [&] { return laws::layout_after_swizzle(l, sw, r); }, r);
}

// right_inverse(Sw o _0 o L) = composition(right_inverse(L), Sw):  C(R(i)) = i for i < size(R).
// left_inverse(Sw o _0 o L) = composition(left_inverse(L), Sw):    C(R(C(i))) = C(i) for i < size(C).
// Requires: a _0 offset (CuTe's inverse of Sw o k o L is a composition of three functions).
COTILE_HD constexpr ComposedLayout swizzled_inverse(bool left, const ComposedLayout& c, Options opt) {
  const char* op = left ? "left_inverse" : "right_inverse";
  if (!is_constant(c.offset, 0))
    fail(op, "a swizzled layout's inverse needs a _0 offset (Sw o _0 o L)",
         "invert the layout without its offset and subtract the offset before the inverse", arg("offset", c.offset));
  // The law enforced is the result's own (point by point): CuTe's two steps can each break theirs
  // where the result keeps its own, e.g. C = Sw<1,0,1> o _0 o (1):(_3), one index at offset 0, whose
  // left inverse (_3,1):(_0,_1) sends 0 back to index 0 though left_inverse((1):(_3)) does not
  // send 3 to index 1. So the steps run as CuTe's arithmetic, their violations logged (in CuTe's
  // mode, to the caller's log); their refusals of inputs stay.
  LawLog steps_log;
  const Options steps = opt.as_cute ? opt : Options{opt.strict, true, &steps_log, opt.by_value};
  const Layout inv = left ? left_inverse(c.layout, steps) : right_inverse(c.layout, steps);
  // Where a broken inverse of L carries the swizzle's masks onto no swizzle's, there is no result
  // (CuTe's composition refuses too): the broken step's law says why better than the masks do.
  if (steps_log.count > 0) {
    const Int y = eval(inv, int_tuple(static_int(swizzle_source_mask(c.swizzle)))),
              z = eval(inv, int_tuple(static_int(swizzle_target_mask(c.swizzle))));
    Swizzle sw;
    if (is_known(y) && is_known(z) && detail::swizzle_from_masks(y.value, z.value, sw) != 0)
      fail_law(steps_log.kept[0]);
  }
  const ComposedLayout r = composition(inv, c.swizzle, steps);
  return lawful(
      opt, [&] { return laws::swizzled_inverse(left, c, r); }, r);
}
COTILE_HD constexpr ComposedLayout right_inverse(const ComposedLayout& c, Options opt = {}) {
  return swizzled_inverse(false, c, opt);
}
COTILE_HD constexpr ComposedLayout left_inverse(const ComposedLayout& c, Options opt = {}) {
  return swizzled_inverse(true, c, opt);
}

}  // namespace cotile
