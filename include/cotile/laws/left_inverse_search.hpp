// A lawful left inverse where left_inverse's construction gives none. CuTe's left_inverse reads an
// offset by L's own strides, sorted; where they do not divide one another, or a mode reaches past
// the next stride, it cannot, though an injective L may still have a layout R with R(L(i)) = i for
// every i < size(L): (2,2):(2,3) reaches 0, 2, 3, 5, and R = (2,3):(1,1) reads them back. The
// refusals name such an R when a bounded search finds one (host only, at run time).
//
// R = (S_0, .., S_(m-1), M):(T_0, .., T_(m-1), T_m) reads x as mixed-radix digits
// x_k = (x / (S_0 .. S_(k-1))) % S_k, the last one x / (S_0 .. S_(m-1)) unbounded, and returns
// sum_k x_k T_k. Peeling its first mode, R(x) = (x % S_0) T_0 + R'(x / S_0). So, for the points
// (x, i) of L (x = L(i)):
//   - every x with the same x / S_0 must leave the same i - (x % S_0) T_0: two of residues
//     r1 != r2 fix T_0 = (i1 - i2) / (r1 - r2), which must be an integer (none: T_0 = 0);
//   - R' must invert the points (x / S_0, i - (x % S_0) T_0);
//   - the last mode R(x) = x T_m inverts points (x, i) when i = x T_m for each.
// Depth first over S_0 = 2, 3, .., max x + 1, at most kSearchNodes modes tried. Points sorted by x
// stay sorted by x / P for every prefix product P, so equal quotients are neighbours.
#pragma once

#include "flat.hpp"

namespace cotile::laws {

#if !defined(__CUDA_ARCH__)
struct LeftInverseSearch {
  static constexpr int64_t kMaxPoints = 512;     // size(L) searched at most
  static constexpr int64_t kSearchNodes = 4000;  // first modes tried at most
  const ValueIndex* pts = nullptr;               // (x = L(i), i), sorted by x, every x >= 0
  int64_t n = 0, nodes = 0;
  int m = 0;  // modes chosen so far
  int64_t s[kMaxLeaves] = {}, t[kMaxLeaves] = {};

  // x / P and i - sum of the chosen modes' digits times their strides, for point j (false where
  // that leaves 64 bits: no such R is searched).
  bool reduced(int64_t j, int64_t& x, int64_t& g) const {
    x = pts[j].value, g = pts[j].index;
    for (int k = 0; k < m; ++k) {
      int64_t part = 0;
      if (__builtin_mul_overflow(x % s[k], t[k], &part) || __builtin_sub_overflow(g, part, &g)) return false;
      x /= s[k];
    }
    return true;
  }
  // The last mode: i = x T for every reduced point; its stride in `last`.
  bool last_mode(int64_t& last) const {
    last = 0;
    bool fixed = false;
    for (int64_t j = 0; j < n; ++j) {
      int64_t x = 0, g = 0, xt = 0;
      if (!reduced(j, x, g)) return false;
      if (x == 0) {
        if (g != 0) return false;
      } else if (!fixed) {
        if (g % x != 0) return false;
        last = g / x, fixed = true;
      } else if (__builtin_mul_overflow(x, last, &xt) || g != xt) {
        return false;
      }
    }
    return true;
  }
  // The stride of a first mode of size S over the reduced points, if one inverts them.
  bool mode_stride(int64_t S, int64_t& T) const {
    T = 0;
    bool fixed = false;
    for (int pass = 0; pass < 2; ++pass) {
      int64_t run_q = -1, run_r = 0, run_g = 0;
      for (int64_t j = 0; j < n; ++j) {
        int64_t x = 0, g = 0;
        if (!reduced(j, x, g)) return false;
        const int64_t q = x / S, r = x % S;
        if (q != run_q) {
          run_q = q, run_r = r, run_g = g;
          continue;
        }
        if (pass == 0 && !fixed && r != run_r) {
          int64_t dg = 0;
          if (__builtin_sub_overflow(g, run_g, &dg) || dg % (r - run_r) != 0) return false;
          T = dg / (r - run_r), fixed = true;
        }
        int64_t a = 0, b = 0;
        if (pass == 1 && (__builtin_mul_overflow(r, T, &a) || __builtin_mul_overflow(run_r, T, &b) ||
                          __builtin_sub_overflow(g, a, &a) || __builtin_sub_overflow(run_g, b, &b) || a != b))
          return false;
      }
    }
    return true;
  }
  int64_t largest() const {  // (x / P of the largest x: reduced's quotient never overflows)
    int64_t x = pts[n - 1].value;
    for (int k = 0; k < m; ++k) x /= s[k];
    return x;
  }
  bool search() {
    int64_t last = 0;
    if (last_mode(last)) {
      s[m] = largest() + 1, t[m] = last;
      return true;
    }
    const int64_t top = largest();
    if (top == 0 || m + 2 >= kMaxLeaves) return false;
    for (int64_t S = 2; S <= top + 1 && nodes < kSearchNodes; ++S) {
      ++nodes;
      int64_t T = 0;
      if (!mode_stride(S, T)) continue;
      s[m] = S, t[m] = T, ++m;
      if (search()) return true;
      --m;
    }
    return false;
  }
};

// A layout R with R(L(i)) = i for every i < size(L), found by LeftInverseSearch, coalesced (its
// leaves static when L's are), in `r`; false where none was found, or L is not injective, has
// negative offsets or more than kMaxPoints indices. (Host only and not constexpr: see
// found_left_inverse for the engine's constexpr code.)
inline bool search_left_inverse(const Layout& l, Layout& r) {
  if (!known(l)) return false;
  const Flat f = flat(l);
  if (!f.positive_shapes() || f.size() > LeftInverseSearch::kMaxPoints) return false;
  const int64_t n = f.size();
  ValueIndex v[LeftInverseSearch::kMaxPoints] = {};
  for (int64_t j = 0; j < n; ++j) {
    v[j] = ValueIndex{f(j), j};
    if (v[j].value < 0) return false;
  }
  sort_values(v, size_t(n));
  for (int64_t j = 1; j < n; ++j)
    if (v[j].value == v[j - 1].value) return false;  // not injective
  LeftInverseSearch s;
  s.pts = v, s.n = n;
  if (!s.search()) return false;
  // Coalesced: modes of size 1 dropped (the last kept), neighbours with T_(k+1) = S_k T_k joined.
  int64_t rs[kMaxLeaves] = {}, rd[kMaxLeaves] = {};
  int k = 0;
  for (int j = 0; j <= s.m; ++j) {
    if (s.s[j] == 1 && j < s.m) continue;
    if (k > 0 && s.t[j] == rs[k - 1] * rd[k - 1]) rs[k - 1] *= s.s[j];
    else rs[k] = s.s[j], rd[k] = s.t[j], ++k;
  }
  bool all_static = true;
  for (int j = 0; j < l.shape.num_leaves(); ++j)
    all_static = all_static && l.shape.leaf_at(j).is_static && l.stride.leaf_at(j).is_static;
  const auto leaf = [&](int64_t x) { return all_static ? static_int(x) : dynamic_int(x); };
  IntTuple shape = IntTuple::tuple(), stride = IntTuple::tuple();
  for (int j = 0; j < k; ++j) {
    shape.push_back(int_tuple(leaf(rs[j])));
    stride.push_back(int_tuple(leaf(rd[j])));
  }
  r = k == 1 ? Layout{shape.get(0), stride.get(0)} : Layout{shape, stride};
  const Flat fr = flat(r);
  for (int64_t j = 0; j < n; ++j)
    if (fr(f(j)) != j) return false;  // (by construction it holds; a wrong R is never shown)
  return true;
}
#endif

// search_left_inverse where the engine runs on the host at run time; false at compile time and on
// the device (no search). Only for conditions and arguments: as the initializer of a const bool it
// would be folded as at compile time.
COTILE_HD constexpr bool found_left_inverse(const Layout& l, Layout& r) {
#if defined(__CUDA_ARCH__)
  (void)l, (void)r;
  return false;
#else
  if (__builtin_is_constant_evaluated()) return false;
  return search_left_inverse(l, r);
#endif
}

}  // namespace cotile::laws
