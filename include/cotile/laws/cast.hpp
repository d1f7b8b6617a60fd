// The laws of upcast and max_common_layout / max_common_vector.
//
//   upcast<N>(L) = R: each leaf (s, d) of L becomes (s', d') with d' * N = d when |d| >= N (whole
//   units of N elements per step; a stride below N, static and dividing N, merges N / |d| steps
//   into one unit of stride sign(d)). CuTe divides a dynamic stride by N with truncation: a
//   dynamic stride that is not a multiple of N gives an R that is not L in units of N.
//
//   max_common_layout(A, B) = R: for every i < size(R), R(i) is an index of A and of B, and
//   A(R(i)) = B(R(i)) = i. max_common_vector(A, B) = size of that R (at least 1).
#pragma once

#include "message.hpp"

namespace cotile::laws {

inline constexpr const char* kUpcastLaw = "stride(R) * N = stride(L)";

COTILE_HD constexpr LawReport upcast(const Layout& l, int64_t n, const Layout& r) {
  LawReport rep;
  rep.op = "upcast";
  rep.law = kUpcastLaw;
  if (!known(l)) {
    rep.deferred = true;
    return rep;
  }
  for (int k = 0; k < l.stride.num_leaves(); ++k) {
    const Int d = l.stride.leaf_at(k);
    if (d.is_static || d.value % n == 0) continue;
    LawReport f = failed("upcast", kUpcastLaw);
    f.message.add(" at leaf ").num(k).add(": the run-time stride ").add(d).add(" is not a multiple of N = ").num(n)
        .add(" (CuTe truncates ").add(d).add(" / ").num(n).add(" to ").add(r.stride.leaf_at(k)).add(")");
    line(f, "L", l);
    line(f, "N", n);
    cute(f, r);
    fix(f, "upcast layouts whose run-time strides are multiples of N (whole units), or make the stride static");
    return f;
  }
  return rep;
}

inline constexpr const char* kMaxCommonLaw = "A(R(i)) = B(R(i)) = i with R(i) an index of A and B";

// The part of the law the algorithm's checked steps do not give: R(i) < size(A) (R = right_inverse(B)
// restricted, so R(i) < size(B); A(R(i)) = i and B(R(i)) = i follow from the laws of composition,
// right_inverse and coalesce).
COTILE_HD constexpr LawReport max_common_layout(const char* op, const Layout& a, const Layout& b, const Layout& r) {
  LawReport rep;
  rep.op = op;
  rep.law = kMaxCommonLaw;
  if (!known(a) || !known(b) || !known(r)) {
    rep.deferred = true;
    return rep;
  }
  const Flat fr = flat(r);
  const int64_t na = flat(a).size(), nr = fr.size();
  // R's strides are positive (prefix products of B's shape), so its largest value is R(size(R) - 1).
  const int64_t last = nr > 0 ? fr(nr - 1) : 0;
  if (last < na) return rep;
  LawReport f = failed(op, kMaxCommonLaw);
  f.message.add(" at i = ").num(nr - 1).add(": R(").num(nr - 1).add(") = ").num(last).add(" is not an index of A (size(A) = ")
      .num(na).add(")");
  line(f, "A", a);
  line(f, "B", b);
  cute(f, r);
  fix(f, "compare layouts of the same size (the same tensor's elements)");
  return f;
}

}  // namespace cotile::laws
