// The law of composition, and a condition on the inputs that implies it.
//
//   composition(A, B) = R:  size(R) = size(B) and R(c) = A(B(c)) for every c < size(B),
//   A evaluated as crd2idx evaluates it, also beyond its size (its last mode takes the rest).
//
// CuTe computes R leaf by leaf of B (right-distributivity) and checks divisibility only where
// both values are static; a leaf whose stride wraps unevenly around a mode of A, or leaves whose
// offsets add up past a mode boundary, give an R that is not A o B. `prove` decides from the
// values whether R is right without enumerating; when it cannot, `composition` evaluates both
// sides at every point (up to law_points()).
#pragma once

#include "message.hpp"

namespace cotile::laws {

// Whether R = composition(A, B) is A o B, decided from the values (no enumeration).
//
// Write flat(coalesce_x(A)) as modes s_j:d_j, j < r (the last unbounded), with place values
// P_0 = 1, P_(j+1) = P_j s_j: an integer x has digit x_j = (x / P_j) % s_j and A(x) = sum x_j d_j.
// Walk a leaf n:e of B (e > 0) over the modes as the algorithm does, with n' = n, e' = e:
//   e' % s_j == 0            the leaf skips mode j (e' /= s_j)
//   (n' - 1) e' < s_j        the rest of the leaf fits in mode j: digits 0, e', .., (n'-1) e'
//   s_j % e' == 0, (s_j / e') | n'   the leaf covers mode j (digits 0, e', .., s_j - e') and
//                            continues with n' /= s_j / e', e' = 1
//   otherwise                the leaf wraps unevenly: the algorithm's leaf is not A o (n:e)
// and what is left lands in the last mode. Each leaf of R is then A o (n:e) exactly. R is the sum
// of its leaves, A o B is A of the sum of B's leaves: the two agree when the digits never carry,
// i.e. for every mode j < r - 1 the leaves' largest digits add up to at most s_j - 1. Strides of
// one sign are required (A(-x) = -A(x)); static-_0-stride and size-1 leaves contribute nothing.
namespace detail {
COTILE_HD constexpr void leaf_text(Text& t, const Int& n, const Int& e) { t.add(n).add(":").add(e); }
}  // namespace detail

COTILE_HD constexpr Proof prove_composition(const Layout& flat_a, const Layout& b) {
  Proof p;
  // flat_a is flat: its leaves are its modes (a leaf when it has one).
  const IntTuple& as = flat_a.shape;
  const IntTuple& ad = flat_a.stride;
  const int r = as.num_leaves();
  int64_t digit_max[kMaxLeaves] = {};
  int sign = 0;
  for (int j = 0; j < r; ++j)
    if (as.leaf_at(j).value < 1) {
      p.why.add("A has a mode of size ").add(as.leaf_at(j)).add(": shapes must be positive");
      return p;
    }
  for (int k = 0; k < b.shape.num_leaves(); ++k) {
    const Int n = b.shape.leaf_at(k), e = b.stride.leaf_at(k);
    if (n.value < 1) {
      p.why.add("B has a mode of size ").add(n).add(": shapes must be positive");
      return p;
    }
    if (n.value == 1 || e.value == 0) continue;
    const int s = e.value > 0 ? 1 : -1;
    if (sign != 0 && s != sign) {
      p.why.add("B has strides of both signs (A(-x) = -A(x) does not add up across modes)");
      return p;
    }
    sign = s;
    int64_t rest = n.value, stride = e.value > 0 ? e.value : -e.value;
    for (int j = 0; j + 1 < r && rest > 1; ++j) {
      const Int sj = as.leaf_at(j);
      const int64_t size = sj.value;
      auto mode = [&](Text& t) {
        t.add("B's mode ");
        detail::leaf_text(t, n, e);
        t.add(" meets A's mode ");
        detail::leaf_text(t, sj, ad.leaf_at(j));
        t.add(" with stride ").num(stride);
      };
      if (stride % size == 0) {
        stride /= size;
      } else if (stride > size) {
        mode(p.why);
        p.why.add(", which is neither a multiple of its size ").num(size).add(" nor below it");
        return p;
      } else if ((rest - 1) * stride < size) {
        digit_max[j] += (rest - 1) * stride;
        rest = 1;
      } else if (size % stride == 0) {
        const int64_t per = size / stride;
        if (rest % per != 0) {
          mode(p.why);
          p.why.add(": it takes ")
              .num(per)
              .add(" of its elements there, which does not divide the ")
              .num(rest)
              .add(" it has left");
          return p;
        }
        digit_max[j] += size - stride;
        rest /= per;
        stride = 1;
      } else {
        mode(p.why);
        p.why.add(", which does not divide its size ")
            .num(size)
            .add(", and its elements run past it (the last at ")
            .num(rest - 1)
            .add(" * ")
            .num(stride)
            .add(" = ")
            .num((rest - 1) * stride)
            .add(" >= ")
            .num(size)
            .add(")");
        return p;
      }
    }
  }
  for (int j = 0; j + 1 < r; ++j)
    if (digit_max[j] >= as.leaf_at(j).value) {
      p.why.add("B's modes together run past A's mode ");
      detail::leaf_text(p.why, as.leaf_at(j), ad.leaf_at(j));
      p.why.add(": their largest offsets within it add up to ").num(digit_max[j]).add(" >= ").num(as.leaf_at(j).value);
      return p;
    }
  p.proven = true;
  return p;
}

inline constexpr const char* kCompositionLaw = "R(c) = A(B(c))";
inline constexpr const char* kCompositionFix =
    "give B strides that step over whole modes of A (multiples of their sizes) or within one mode (dividing its size), "
    "or reshape A so that its mode boundaries fall where B's modes end";

// The law for R = composition(A, B) (R computed by the algorithm; flat_a = coalesce_x(A)).
// exhaustive: check every point even when the condition proves the law (up to law_points()).
COTILE_HD constexpr LawReport composition(const Layout& a, const Layout& flat_a, const Layout& b, const Layout& r,
                                          bool exhaustive = false) {
  LawReport rep = holding("composition", kCompositionLaw, known(a) && known(b) && known(r));
  if (rep.deferred) return rep;
  const Proof p = prove_composition(flat_a, b);
  if (p.proven && !exhaustive) return proven(rep);
  const Flat fa = flat(a), fb = flat(b), fr = flat(r);
  const int64_t nb = fb.size(), nr = fr.size();
  if (p.proven && nb > law_points()) return proven(rep);
  auto finish = [&](LawReport& f) {
    line(f, "A", a);
    line(f, "B", b);
    why(f, p.why);
    cute(f, r);
    fix(f, kCompositionFix);
    return f;
  };
  if (nb != nr) {
    LawReport f = failed("composition", kCompositionLaw);
    f.message.add(": size(R) = ").num(nr).add(", size(B) = ").num(nb);
    return finish(f);
  }
  if (nb > law_points()) {
    LawReport f = unverified("composition", kCompositionLaw, nb);
    return finish(f);
  }
  for (int64_t c = 0; c < nb; ++c) {
    const int64_t x = fb(c), want = fa(x), got = fr(c);
    if (got != want) {
      LawReport f = failed("composition", kCompositionLaw);
      f.message.add(" at c = ")
          .num(c)
          .add(" (R(")
          .num(c)
          .add(") = ")
          .num(got)
          .add(", A(B(")
          .num(c)
          .add(")) = A(")
          .num(x)
          .add(") = ")
          .num(want)
          .add(")");
      return finish(f);
    }
  }
  rep.points = nb;
  return rep;
}

}  // namespace cotile::laws
