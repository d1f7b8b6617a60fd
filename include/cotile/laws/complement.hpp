// The law of complement, and a condition on the inputs that implies it.
//
//   complement(L, T) = C, with F = filter(L) (the modes complement works on):
//     (F, C) is injective            F(j) + C(i) are distinct for all (j, i)
//     C is ordered                   C(i-1) < C(i) for 0 < i < size(C)
//     the cotarget is covered        cosize((F, C)) >= size(T)
//   (CuTe's documented postconditions, with "disjoint" strengthened to "injective").
//
// CuTe fills the gaps below each of F's modes in stride order with truncating division; when a
// stride is not a multiple of the extent below it the fill is wrong (two modes overlap, or a gap
// of size 0 empties C). `prove_complement` decides from the values (two sufficient conditions);
// otherwise the law is evaluated point by point (up to law_points()).
#pragma once

#include "../algebra/sort.hpp"
#include "message.hpp"

namespace cotile::laws {

// F's modes in the order complement takes them (argmin of the remaining strides), with positive
// shapes and strides and s_i d_i dividing d_(i+1): then (F, C) is a bijection onto
// [0, size(F) size(C)), C is ordered, and the cotarget is covered when that range reaches size(T).
COTILE_HD constexpr Proof prove_complement_by_division(const Layout& f, const Layout& c, const IntTuple& cotarget) {
  Proof p;
  const Flat fc = flat(c);
  if (f.shape.is_leaf() && is_constant(f.stride.value(), 0)) {  // the whole cotarget
    p.proven = fc.positive_shapes();
    if (!p.proven) p.why.add("C has a mode of size < 1");
    return p;
  }
  IntTuple shape = wrap(f.shape), stride = wrap(f.stride);
  int64_t prev_extent = 1, size_f = 1;
  while (shape.rank() > 0) {
    const int m = cotile::detail::argmin(stride);
    const Int s = shape.mode_value(m), d = stride.mode_value(m);
    if (s.value < 1) {
      p.why.add("L has a mode of size ").add(s);
      return p;
    }
    if (d.value < 1) {
      p.why.add("L has the stride ")
          .add(d)
          .add(d.value == 0 ? " (a run-time 0: two coordinates share every offset)"
                            : " (negative: its offsets lie below 0)");
      return p;
    }
    if (d.value % prev_extent != 0) {
      p.why.add("L's mode ")
          .add(s)
          .add(":")
          .add(d)
          .add(" starts at stride ")
          .add(d)
          .add(", not a multiple of the extent ")
          .num(prev_extent)
          .add(" the modes below it cover");
      return p;
    }
    prev_extent = cotile::detail::checked_mul(s.value, d.value);
    size_f = cotile::detail::checked_mul(size_f, s.value);
    if (shape.rank() == 1) break;
    shape = remove(shape, m);
    stride = remove(stride, m);
  }
  for (int k = 0; k < fc.n; ++k)
    if (fc.s[k] < 1) {
      p.why.add("C has a mode of size ").num(fc.s[k]);
      return p;
    }
  const int64_t covered = cotile::detail::checked_mul(size_f, fc.size()), target = product(cotarget).value;
  if (covered < target) {
    p.why.add("(F, C) covers [0, ").num(covered).add("), less than size(T) = ").num(target);
    return p;
  }
  p.proven = true;
  return p;
}

// Where the strides do not divide: (F, C) spread apart (flat.hpp: injective), C spread apart as
// written (ordered), and their span reaching the cotarget, cosize((F, C)) = span + 1 >= size(T).
// CuTe's complement((_3,_9):(_64,_4), _2000000) = (_4,_10417):(_1,_192) is lawful this way.
COTILE_HD constexpr bool prove_complement_by_spread(const Layout& f, const Layout& c, const IntTuple& cotarget) {
  int64_t span = 0;
  if (!spread_apart(flat(make_layout_concat(f, c)), false, &span) || !spread_apart(flat(c), true)) return false;
  return span >= product(cotarget).value - 1;
}

// Either condition implies the law; `why` names the first's failing part when neither holds.
COTILE_HD constexpr Proof prove_complement(const Layout& f, const Layout& c, const IntTuple& cotarget) {
  Proof p = prove_complement_by_division(f, c, cotarget);
  if (!p.proven && prove_complement_by_spread(f, c, cotarget)) p.proven = true;
  return p;
}

inline constexpr const char* kComplementLaw = "(L, C) injective, C ordered, cosize((L, C)) >= size(T)";
inline constexpr const char* kComplementFix =
    "complement needs an injective layout whose modes, by increasing stride, each start at a multiple of the extent "
    "below them (s_i * d_i divides d_(i+1))";

// The law for C = complement(L, T) (C computed by the algorithm; f = filter(L)). `cute_refusal`:
// why CuTe refuses these inputs, or nullptr when it returns C.
COTILE_HD constexpr LawReport complement(const Layout& l, const Layout& f, const IntTuple& cotarget, const Layout& c,
                                         const char* cute_refusal = nullptr, bool exhaustive = false) {
  LawReport rep = holding("complement", kComplementLaw, known(l) && known(cotarget) && known(c));
  if (rep.deferred) return rep;
  const Proof p = prove_complement(f, c, cotarget);
  if (p.proven && (!exhaustive || flat(make_layout_concat(f, c)).size() > collision_points())) return proven(rep);
  auto finish = [&](LawReport& r) {
    line(r, "L", l);
    if (!(f == l)) line(r, "F = filter(L)", f);
    line(r, "T", cotarget);
    why(r, p.why);
    cute(r, c, cute_refusal);
    fix(r, kComplementFix);
    return r;
  };
  const Flat fc = flat(c);
  for (int k = 0; k < fc.n; ++k)
    if (fc.s[k] < 1) {
      LawReport r = failed("complement", kComplementLaw);
      r.message.add(": C has a mode of size ").num(fc.s[k]).add(", so (L, C) has no elements");
      return finish(r);
    }
  const Layout fcat = make_layout_concat(f, c);
  const Flat both = flat(fcat);
  const int64_t nf = flat(f).size(), nc = fc.size(), points = both.size();
  if (points > collision_points() || nc > law_points()) {
    LawReport r = unverified("complement", kComplementLaw, points);
    return finish(r);
  }
  for (int64_t i = 1; i < nc; ++i)
    if (!(fc(i - 1) < fc(i))) {
      LawReport r = failed("complement", kComplementLaw);
      r.message.add(": C is not ordered: C(")
          .num(i - 1)
          .add(") = ")
          .num(fc(i - 1))
          .add(" >= C(")
          .num(i)
          .add(") = ")
          .num(fc(i));
      return finish(r);
    }
  const Collision col = first_collision(both, points);
  if (col.found) {
    LawReport r = failed("complement", kComplementLaw);
    r.message.add(": (L, C) is not injective: F(")
        .num(col.first % nf)
        .add(") + C(")
        .num(col.first / nf)
        .add(") = F(")
        .num(col.second % nf)
        .add(") + C(")
        .num(col.second / nf)
        .add(") = ")
        .num(col.value);
    return finish(r);
  }
  const int64_t co = cosize(fcat).value, target = product(cotarget).value;
  if (co < target) {
    LawReport r = failed("complement", kComplementLaw);
    r.message.add(": the cotarget is not covered: cosize((L, C)) = ").num(co).add(" < size(T) = ").num(target);
    return finish(r);
  }
  rep.points = points;
  return rep;
}

}  // namespace cotile::laws
