// The laws of a layout composed after a swizzle and of the inverses of swizzled layouts:
//
//   composition(L, Sw) = R:          R(x) = L(Sw(x))        for every x < size(L)
//   right_inverse(C) = R (C swizzled): C(R(i)) = i with R(i) an index of C, for every i < size(R)
//   left_inverse(C) = R:             C(R(C(i))) = C(i) with R(C(i)) an index of C, for every i < size(C)
//
// Each is checked point by point (up to law_points() points): R is a swizzle moved to the other
// side of L, which is right only when L carries the swizzle's bits one to one onto bits it adds.
#pragma once

#include "../swizzle.hpp"
#include "message.hpp"

namespace cotile::laws {

// "Sw<B,M,S>" and "Sw<B,M,S> o OFFSET o LAYOUT", as to_string prints them.
COTILE_HD constexpr Text text(const Swizzle& sw) {
  Text t;
  t.add("Sw<").num(sw.b).add(",").num(sw.m).add(",").num(sw.s).add(">");
  return t;
}
COTILE_HD constexpr Text text(const ComposedLayout& c) {
  Text t = text(c.swizzle);
  t.add(" o ").add(c.offset).add(" o ").add(c.layout);
  return t;
}

// C(x) for a swizzled layout with a known offset.
struct FlatSwizzled {
  Swizzle sw;
  int64_t offset = 0;
  Flat f;
  COTILE_HD constexpr int64_t operator()(int64_t x) const { return sw(cotile::detail::checked_add(offset, f(x))); }
};
COTILE_HD constexpr FlatSwizzled flat(const ComposedLayout& c) { return {c.swizzle, c.offset.value, flat(c.layout)}; }

inline constexpr const char* kLayoutAfterSwizzleLaw = "R(x) = L(Sw(x))";
inline constexpr const char* kSwizzledRightInverseLaw = "C(R(i)) = i with R(i) an index of C";
inline constexpr const char* kSwizzledLeftInverseLaw = "C(R(C(i))) = C(i) with R(C(i)) an index of C";

// The common ending of these reports: the inputs, CuTe's result, the fix.
COTILE_HD constexpr LawReport& swizzle_report(LawReport& f, const char* name, const Text& input,
                                              const ComposedLayout& r) {
  f.message.add("\n  ").add(name).add(" = ").add(input);
  f.message.add("\n  why: the layout does not carry the swizzle's bits one to one onto bits it adds");
  f.message.add("\n  CuTe 4.7 returns ").add(text(r)).add(" here");
  fix(f, "keep the swizzle outside the layout (Sw o L), or give the layout power-of-two strides on the swizzle's "
         "bits");
  return f;
}

COTILE_HD constexpr LawReport layout_after_swizzle(const Layout& l, const Swizzle& sw, const ComposedLayout& r) {
  LawReport rep = holding("composition", kLayoutAfterSwizzleLaw, known(l));
  if (rep.deferred) return rep;
  const Flat fl = flat(l);
  const FlatSwizzled fr = flat(r);
  const int64_t n = fl.size();
  Text input = text(sw);
  input.add(", L = ").add(l);
  if (n > law_points()) {
    LawReport f = unverified("composition", kLayoutAfterSwizzleLaw, n);
    return swizzle_report(f, "Sw", input, r);
  }
  for (int64_t x = 0; x < n; ++x)
    if (fr(x) != fl(sw(x))) {
      LawReport f = failed("composition", kLayoutAfterSwizzleLaw);
      f.message.add(" at x = ").num(x).add(" (R(x) = ").num(fr(x)).add(", L(Sw(x)) = ").num(fl(sw(x))).add(")");
      return swizzle_report(f, "Sw", input, r);
    }
  rep.points = n;
  return rep;
}

COTILE_HD constexpr LawReport swizzled_inverse(bool left, const ComposedLayout& c, const ComposedLayout& r) {
  const char* op = left ? "left_inverse" : "right_inverse";
  const char* law = left ? kSwizzledLeftInverseLaw : kSwizzledRightInverseLaw;
  LawReport rep = holding(op, law, known(c.layout) && is_known(c.offset));
  if (rep.deferred) return rep;
  for (int k = 0; k < r.layout.shape.num_leaves(); ++k)
    if (r.layout.shape.leaf_at(k).value < 0) {  // no layout has it (CuTe's steps can make one)
      LawReport f = failed(op, law);
      f.message.add(": the result has the negative extent ").add(r.layout.shape.leaf_at(k));
      return swizzle_report(f, "C", text(c), r);
    }
  const FlatSwizzled fc = flat(c), fr = flat(r);
  const int64_t n = left ? fc.f.size() : fr.f.size();
  if (n > law_points()) {
    LawReport f = unverified(op, law, n);
    return swizzle_report(f, "C", text(c), r);
  }
  for (int64_t i = 0; i < n; ++i) {
    // (R(i), R(C(i)) must be an index of C: C evaluated beyond its size, as crd2idx does,
    // reaches offsets C does not have, and the same offset again from a wrong index)
    const int64_t j = left ? fr(fc(i)) : fr(i);
    if (j < 0 || j >= fc.f.size()) {
      LawReport f = failed(op, law);
      f.message.add(" at i = ").num(i).add(left ? " (R(C(" : " (R(").num(i).add(left ? ")) = " : ") = ").num(j);
      f.message.add(", not an index of C: its size is ").num(fc.f.size()).add(")");
      return swizzle_report(f, "C", text(c), r);
    }
    const int64_t want = left ? fc(i) : i, got = left ? fc(fr(fc(i))) : fc(fr(i));
    if (got != want) {
      LawReport f = failed(op, law);
      f.message.add(" at i = ").num(i).add(" (").add(left ? "C(R(C(i)))" : "C(R(i))").add(" = ").num(got);
      f.message.add(", expected ").num(want).add(")");
      return swizzle_report(f, "C", text(c), r);
    }
  }
  rep.points = n;
  return rep;
}

}  // namespace cotile::laws
