// The laws of upcast and max_common_layout / max_common_vector.
//
//   upcast<N>(L) = R: each leaf (s, d) of L becomes (s', d') with d' * N = d when |d| >= N (whole
//   units of N elements per step; a stride below N, static and dividing N, merges N / |d| steps
//   into one unit of stride sign(d)). CuTe divides a dynamic stride by N with truncation: a
//   dynamic stride that is not a multiple of N gives an R that is not L in units of N.
//
//   downcast<N>(L) = R: below.
//
//   max_common_layout(A, B) = R: for every i < size(R), R(i) is an index of A and of B, and
//   A(R(i)) = B(R(i)) = i. max_common_vector(A, B) = size of that R. With A or B empty only
//   N = 0 holds: no index is common to both.
#pragma once

#include "message.hpp"

namespace cotile::laws {

inline constexpr const char* kUpcastLaw = "stride(R) * N = stride(L)";

COTILE_HD constexpr LawReport upcast(const Layout& l, int64_t n, const Layout& r) {
  LawReport rep = holding("upcast", kUpcastLaw, known(l));
  if (rep.deferred) return rep;
  for (int k = 0; k < l.stride.num_leaves(); ++k) {
    const Int d = l.stride.leaf_at(k);
    if (d.is_static || d.value % n == 0) continue;
    LawReport f = failed("upcast", kUpcastLaw);
    f.message.add(" at leaf ")
        .num(k)
        .add(": the run-time stride ")
        .add(d)
        .add(" is not a multiple of N = ")
        .num(n)
        .add(" (CuTe truncates ")
        .add(d)
        .add(" / ")
        .num(n)
        .add(" to ")
        .add(r.stride.leaf_at(k))
        .add(")");
    line(f, "L", l);
    line(f, "N", n);
    cute(f, r);
    fix(f, "upcast layouts whose run-time strides are multiples of N (whole units), or make the stride static");
    return f;
  }
  return rep;
}

// downcast<N>(L) = R: L in units N times smaller. Sub-element j < N of L's element at coordinate
// c lies at N L(c) + j: one leaf k of stride +1 takes the sub-elements (R's extent s_k N, its
// coordinate m N + j), every other leaf's stride is multiplied by N. Then
//   R(c with c_k = m N + j) = (m N + j) + sum_(l != k) c_l N d_l = N L(c with c_k = m) + j.
// CuTe multiplies the extent of every leaf of a static stride +-1: with two such leaves R has
// N^2 sub-elements an element (and a leaf of stride -1 would put sub-element j at -(N m + j)).
inline constexpr const char* kDowncastLaw = "R(c, j) = N L(c) + j";

COTILE_HD constexpr LawReport downcast(const Layout& l, int64_t n, const Layout& r) {
  LawReport rep = holding("downcast", kDowncastLaw, true);
  if (n == 1) return proven(rep);
  // The leaves that take the sub-elements: a static stride +-1 kept (not multiplied by N).
  int taken = 0, first = -1, second = -1;
  bool plus = true;
  for (int k = 0; k < l.stride.num_leaves(); ++k) {
    const Int d = l.stride.leaf_at(k);
    if (!(is_constant(d, 1) || is_constant(d, -1)) || r.stride.leaf_at(k).value != d.value) continue;
    ++taken;
    plus = plus && d.value > 0;
    if (first < 0) first = k;
    else if (second < 0) second = k;
  }
  if (taken == 1 && plus) return proven(rep);
  LawReport f = failed("downcast", kDowncastLaw);
  auto leaf = [&](int k) {
    f.message.add("leaf ").num(k).add(" (").add(l.shape.leaf_at(k)).add(":").add(l.stride.leaf_at(k)).add(")");
  };
  if (taken > 1) {
    f.message.add(": ");
    leaf(first);
    f.message.add(" and ");
    leaf(second);
    f.message.add(" both have stride +-1 and each takes N = ").num(n).add(" sub-elements an element, so R has N^2 = ");
    f.message.num(n * n).add(" sub-elements an element");
  } else {
    f.message.add(": no one leaf of stride +1 takes the N = ").num(n).add(" sub-elements of each element");
  }
  line(f, "L", l);
  line(f, "N", n);
  cute(f, r);
  fix(f, "coalesce L first, or write it with one leaf of stride _1 (the contiguous one; its extent takes the "
         "sub-elements)");
  return f;
}

inline constexpr const char* kMaxCommonLaw = "A(R(i)) = B(R(i)) = i with R(i) an index of A and B";

// The first i < size(R) at which the law breaks (R(i) not an index of both, or A(R(i)) or B(R(i))
// not i), else size(R): the law's point-by-point check, and where the calculator's common prefix
// of R ends (algebra/cast.hpp, common_prefix).
COTILE_HD constexpr int64_t first_uncommon(const Flat& fa, const Flat& fb, const Flat& fr) {
  const int64_t na = fa.size(), nb = fb.size(), nr = fr.size();
  for (int64_t i = 0; i < nr; ++i) {
    const int64_t j = fr(i);
    if (j < 0 || j >= na || j >= nb || fa(j) != i || fb(j) != i) return i;
  }
  return nr;
}

// The law for R = max_common_layout(A, B), or for its first `vector_n` = max_common_vector(A, B)
// indices (the result the messages name).
// `steps_hold`: the algorithm's steps (right_inverse(B), A o right_inverse(B), right_inverse(B)
// restricted) satisfy their laws; then A(R(i)) = B(R(i)) = i follows, and only R(i) < size(A) and
// R(i) < size(B) are left (composition evaluates right_inverse(B) beyond its size too: an empty B
// has an empty right inverse, which the composition still reads at 0, 1, ...). Otherwise every i is
// checked.
COTILE_HD constexpr LawReport max_common_layout(const char* op, const Layout& a, const Layout& b, const Layout& r,
                                                bool steps_hold, const Int* vector_n = nullptr) {
  LawReport rep = holding(op, kMaxCommonLaw, known(a) && known(b) && known(r));
  if (rep.deferred) return rep;
  const Flat fa = flat(a), fb = flat(b), fr = flat(r);
  // CuTe's result as the operation returns it: N for max_common_vector, R for max_common_layout.
  const auto name_cute = [&](LawReport& f) {
    if (vector_n) cute(f, *vector_n);
    else cute(f, r);
  };
  const int64_t na = fa.size(), nb = fb.size(), nr = fr.size();
  auto failure = [&](int64_t i, int64_t j) {
    LawReport f = failed(op, kMaxCommonLaw);
    f.message.add(" at i = ").num(i).add(" (R(").num(i).add(") = ").num(j);
    if (j < 0 || j >= na || j >= nb)
      f.message.add(", not an index of both A and B: sizes ").num(na).add(" and ").num(nb).add(")");
    else f.message.add(", A(").num(j).add(") = ").num(fa(j)).add(", B(").num(j).add(") = ").num(fb(j)).add(")");
    line(f, "A", a);
    line(f, "B", b);
    name_cute(f);
    if (na == 0 || nb == 0)
      fix(f, "A or B is empty, so no index is common to both (N = 0): test for an empty tensor before choosing "
             "a vector width");
    else fix(f, "compare layouts of the same tensor's elements (the same size)");
    return f;
  };
  if (steps_hold) {
    // R's strides are positive (prefix products of B's shape): its largest value is R(size(R) - 1).
    if (nr > 0 && (fr(nr - 1) >= na || fr(nr - 1) >= nb)) return failure(nr - 1, fr(nr - 1));
    return proven(rep);
  }
  if (nr > law_points()) {
    LawReport f = unverified(op, kMaxCommonLaw, nr);
    line(f, "A", a);
    line(f, "B", b);
    name_cute(f);
    return f;
  }
  if (const int64_t i = first_uncommon(fa, fb, fr); i < nr) return failure(i, fr(i));
  rep.points = nr;
  return rep;
}

}  // namespace cotile::laws
