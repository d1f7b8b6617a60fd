// The laws of right_inverse and left_inverse, and conditions on the inputs that imply them.
//
//   right_inverse(L) = R:  for every i < size(R), R(i) is an index of L and L(R(i)) = i (an empty
//                          L has no index, so R is empty)
//   left_inverse(L)  = R:  R is a layout (its extents >= 0) and, for every i < size(L),
//                          R(L(i)) = i when L is injective, else L(R(L(i))) = L(i) (CuTe's
//                          documented postcondition; L evaluated as crd2idx evaluates it, also
//                          beyond its size)
#pragma once

#include "../algebra/sort.hpp"
#include "left_inverse_search.hpp"
#include "message.hpp"

namespace cotile::laws {

// right_inverse follows a chain of modes of coalesce(L) whose strides are 1, s_0, s_0 s_1, ...
// and gives R those modes' shapes with the prefix products of L's shape as strides: R(i) is the
// index whose coordinates are i's digits on the chain, and L of it is i. That needs positive
// shapes only (with an extent 0, L has no index at all).
COTILE_HD constexpr Proof prove_right_inverse(const Layout& c) {
  Proof p;
  for (int k = 0; k < c.shape.num_leaves(); ++k)
    if (c.shape.leaf_at(k).value < 1) {
      p.why.add("L has a mode of size ").add(c.shape.leaf_at(k)).add(": shapes must be positive");
      return p;
    }
  p.proven = true;
  return p;
}

inline constexpr const char* kRightInverseLaw = "L(R(i)) = i with R(i) an index of L";

// (c = coalesce(L), as the algorithm has it.)
COTILE_HD constexpr LawReport right_inverse(const Layout& l, const Layout& c, const Layout& r,
                                            bool exhaustive = false) {
  LawReport rep = holding("right_inverse", kRightInverseLaw, known(l) && known(r));
  if (rep.deferred) return rep;
  const Proof p = prove_right_inverse(c);
  if (p.proven && !exhaustive) return proven(rep);
  const Flat fl = flat(l), fr = flat(r);
  if (p.proven && fr.size() > law_points()) return proven(rep);
  auto finish = [&](LawReport& f) {
    line(f, "L", l);
    why(f, p.why);
    cute(f, r);
    fix(f, "give every mode a positive size");
    return f;
  };
  const int64_t n = fr.size();
  if (n > law_points()) {
    LawReport f = unverified("right_inverse", kRightInverseLaw, n);
    return finish(f);
  }
  for (int64_t i = 0; i < n; ++i) {
    const int64_t j = fr(i);
    const bool index = j >= 0 && j < fl.size();
    if (index && fl(j) == i) continue;
    LawReport f = failed("right_inverse", kRightInverseLaw);
    f.message.add(" at i = ").num(i).add(" (R(").num(i).add(") = ").num(j);
    if (index) f.message.add(", L(").num(j).add(") = ").num(fl(j)).add(")");
    else f.message.add(", not an index of L: its size is ").num(fl.size()).add(")");
    return finish(f);
  }
  rep.points = n;
  return rep;
}

// left_inverse takes coalesce(L)'s modes of non-zero stride in exchange-sort order, d_0 < d_1 <
// ..., and reads coordinate k of an offset x as (x / d_k) % (d_(k+1) / d_k) (the last one
// unbounded). That is L's coordinate when every d_k > 0, d_k divides d_(k+1), and the mode's
// offsets stay below the next stride: s_k d_k <= d_(k+1). Modes of stride 0 read as 0, and L of
// the index is L(i) again.
COTILE_HD constexpr Proof prove_left_inverse(const Layout& c) {
  Proof p;
  // c is flat: its leaves are its modes.
  const IntTuple& s = c.shape;
  const IntTuple& d = c.stride;
  const int n = d.num_leaves();
  int64_t key[kMaxLeaves] = {};
  int idx[kMaxLeaves] = {};
  for (int i = 0; i < n; ++i) {
    key[i] = d.leaf_at(i).value;
    idx[i] = i;
    if (s.leaf_at(i).value < 1) {
      p.why.add("L has a mode of size ").add(s.leaf_at(i)).add(": shapes must be positive");
      return p;
    }
    if (key[i] < 0) {
      p.why.add("L has the negative stride ")
          .add(d.leaf_at(i))
          .add(": a layout R has R(-x) = -R(x), so it cannot send negative offsets back to indices >= 0");
      return p;
    }
  }
  cotile::detail::exchange_sort(key, idx, n);
  int prev = -1;
  for (int k = 0; k < n; ++k) {
    if (key[k] == 0) continue;
    if (prev >= 0) {
      const Int ps = s.leaf_at(idx[prev]), pd = d.leaf_at(idx[prev]), cd = d.leaf_at(idx[k]);
      if (key[k] % key[prev] != 0) {
        p.why.add("the stride ")
            .add(cd)
            .add(" is not a multiple of the next smaller stride ")
            .add(pd)
            .add(", so an offset does not tell the coordinate of the mode ")
            .add(ps)
            .add(":")
            .add(pd);
        return p;
      }
      if (cotile::detail::checked_mul(ps.value, pd.value) > key[k]) {
        const Int cs = s.leaf_at(idx[k]);
        if (key[k] == key[prev]) {
          p.why.add("the modes ")
              .add(ps)
              .add(":")
              .add(pd)
              .add(" and ")
              .add(cs)
              .add(":")
              .add(cd)
              .add(" share the stride ")
              .add(pd)
              .add(": left_inverse takes ")
              .add(ps)
              .add(":")
              .add(pd)
              .add(" first and reads its coordinate modulo 1, but it takes ")
              .num(ps.value)
              .add(" values");
          if (cs.value == 1 && !cs.is_static)
            p.why.add(" (a run-time size 1 stays a mode; a static _1 would be dropped)");
        } else {
          p.why.add("the mode ")
              .add(ps)
              .add(":")
              .add(pd)
              .add(" reaches ")
              .num(ps.value * pd.value)
              .add(", past the next stride ")
              .add(cd)
              .add(" (of the mode ")
              .add(cs)
              .add(":")
              .add(cd)
              .add("): left_inverse reads its coordinate modulo ")
              .num(key[k] / key[prev])
              .add(", but it takes ")
              .num(ps.value)
              .add(" values");
        }
        return p;
      }
    }
    prev = k;
  }
  p.proven = true;
  return p;
}

inline constexpr const char* kLeftInverseLaw = "L(R(L(i))) = L(i) with R(L(i)) an index of L";
inline constexpr const char* kLeftInverseInjectiveLaw = "R(L(i)) = i";
inline constexpr const char* kLeftInverseFix =
    "left_inverse inverts injective layouts whose strides, sorted, are positive, each divides the next and each mode "
    "ends below the next stride; use right_inverse, or reorder, split or drop the offending modes";

inline constexpr const char* kLeftInverseFixFound =
    "the R found above reads L's offsets back (CuTe's construction does not give it); else use right_inverse, or "
    "reorder, split or drop the offending modes";

// "\n  a lawful left inverse, found by search: R = ..." where search_left_inverse finds one for L.
COTILE_HD constexpr bool lawful_alternative(LawReport& f, const Layout& l) {
  Layout found{};
  if (!found_left_inverse(l, found)) return false;
  f.message.add("\n  a lawful left inverse, found by search: R = ")
      .add(found)
      .add(" has R(L(i)) = i for every i < ")
      .num(flat(l).size());
  return true;
}

// The law for R = left_inverse(L): R is a layout, and R(L(i)) = i when L is injective, else
// R(L(i)) is an index of L and L(R(L(i))) = L(i) (L evaluated beyond its size, as crd2idx does,
// reaches L's offsets again from indices L does not have). `cute_refusal`: why CuTe
// refuses these inputs (dynamic strides), or nullptr when it returns R. (c = coalesce(L), as the
// algorithm has it.)
COTILE_HD constexpr LawReport left_inverse(const Layout& l, const Layout& c, const Layout& r,
                                           const char* cute_refusal = nullptr, bool exhaustive = false) {
  LawReport rep = holding("left_inverse", kLeftInverseLaw, known(l) && known(r));
  if (rep.deferred) return rep;
  const Proof p = prove_left_inverse(c);
  if (p.proven && !exhaustive) return proven(rep);
  const Flat fl = flat(l), fr = flat(r);
  const int64_t n = fl.size();
  if (p.proven && n > collision_points()) return proven(rep);
  if (n > collision_points()) {
    LawReport f = unverified("left_inverse", kLeftInverseLaw, n);
    line(f, "L", l);
    why(f, p.why);
    cute(f, r, cute_refusal);
    fix(f, kLeftInverseFix);
    return f;
  }
  // An extent 0 before R's last mode leaves R no value at any offset (a run-time negative stride
  // makes one: its quotient by a larger one truncates to 0).
  for (int k = 0; n > 0 && k + 1 < fr.n; ++k)
    if (fr.s[k] == 0) {
      LawReport f = failed("left_inverse", kLeftInverseInjectiveLaw);
      f.message.add(": the result ").add(r).add(" has an extent 0, so it has no value at L(0) = ").num(fl(0));
      line(f, "L", l);
      why(f, p.why);
      cute(f, r, cute_refusal);
      fix(f, kLeftInverseFix);
      return f;
    }
  const Collision col = first_collision(fl, n);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t x = fl(i), j = fr(x);
    const bool index = j >= 0 && j < n;
    if (col.found ? index && fl(j) == x : j == i) continue;
    LawReport f = failed("left_inverse", col.found ? kLeftInverseLaw : kLeftInverseInjectiveLaw);
    f.message.add(" at i = ").num(i).add(" (L(").num(i).add(") = ").num(x).add(", R(").num(x).add(") = ").num(j);
    if (!col.found) f.message.add(", and L is injective)");
    else if (!index) f.message.add(", not an index of L: its size is ").num(n).add(")");
    else f.message.add(", L(").num(j).add(") = ").num(fl(j)).add(")");
    line(f, "L", l);
    Text t;
    if (col.found)
      t.add("L is not injective: L(")
          .num(col.first)
          .add(") = L(")
          .num(col.second)
          .add(") = ")
          .num(col.value)
          .add(", and R does not send ")
          .num(x)
          .add(" to an index with that offset");
    why(f, col.found ? t : p.why);
    cute(f, r, cute_refusal);
    fix(f, !col.found && lawful_alternative(f, l) ? kLeftInverseFixFound : kLeftInverseFix);
    return f;
  }
  // The values hold the law, but a negative stride first in the order made a negative quotient a
  // "shape", and C++'s division carried the law through it (R(-x) = -R(x)): no layout has it.
  for (int k = 0; k < r.shape.num_leaves(); ++k)
    if (r.shape.leaf_at(k).value < 0) {
      LawReport f;
      f.holds = false;
      f.op = "left_inverse";
      f.law = kLeftInverseLaw;
      f.message.add("left_inverse: the result ")
          .add(r)
          .add(" has the negative extent ")
          .add(r.shape.leaf_at(k))
          .add(", and a layout's extents count coordinates (>= 0)");
      line(f, "L", l);
      why(f, p.why);
      cute(f, r, cute_refusal);
      fix(f, kLeftInverseFix);
      return f;
    }
  rep.points = n;
  return rep;
}

}  // namespace cotile::laws
