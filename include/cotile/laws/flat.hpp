// A layout's function on integer indices, for checking laws point by point.
//
// For an integer i, crd2idx walks the leaves of the shape colexicographically: the coordinate of
// leaf k is (i / (s_0 ... s_(k-1))) % s_k, and the last leaf takes the whole remainder (so a
// layout is defined beyond its size). With C++'s truncating division the same holds for negative
// i (L(-i) = -L(i)). Flat keeps the leaves as plain integers and evaluates that directly: the
// same numbers as eval(L, i), without building coordinate trees.
#pragma once

#include "../algebra/sort.hpp"
#include "report.hpp"

namespace cotile::laws {

// Every leaf of t has a known value (static, or an ordinary run-time value; not symbolic).
COTILE_HD constexpr bool known(const IntTuple& t) {
  for (int k = 0; k < t.num_leaves(); ++k)
    if (!is_known(t.leaf_at(k))) return false;
  return true;
}
COTILE_HD constexpr bool known(const Layout& l) { return known(l.shape) && known(l.stride); }

struct Flat {
  int n = 0;
  int64_t s[kMaxLeaves] = {}, d[kMaxLeaves] = {};

  // L(i) for any integer i.
  COTILE_HD constexpr int64_t operator()(int64_t i) const {
    int64_t r = 0;
    for (int k = 0; k + 1 < n; ++k) {
      if (s[k] == 0)
        fail("a law's check", "the layout has an extent 0: it is empty, so it has no value at any index",
             "give every mode an extent >= 1");
      cotile::detail::check_divisor(i, s[k], "division by zero in a % b");
      r = cotile::detail::checked_add(r, cotile::detail::checked_mul(i % s[k], d[k]));
      i /= s[k];
    }
    return n == 0 ? 0 : cotile::detail::checked_add(r, cotile::detail::checked_mul(i, d[n - 1]));
  }
  COTILE_HD constexpr int64_t size() const {
    int64_t p = 1;
    for (int k = 0; k < n; ++k) p = cotile::detail::checked_mul(p, s[k]);
    return p;
  }
  // Every shape is at least 1.
  COTILE_HD constexpr bool positive_shapes() const {
    for (int k = 0; k < n; ++k)
      if (s[k] < 1) return false;
    return true;
  }
};

// A condition for injectivity and order that needs no enumeration. Take the modes of extent > 1
// by increasing stride (`as_written`: in their own order, which must then be increasing) and
// require every stride positive and larger than the span sum_j (s_j - 1) d_j of the modes before
// it. Then an offset determines its coordinates from the last mode down (digits of a mixed radix
// with gaps): L is injective, and, taken as written, ordered (L(i-1) < L(i): the last coordinate
// that differs decides). `span` receives the whole sum, cosize(L) - 1.
COTILE_HD constexpr bool spread_apart(const Flat& f, bool as_written, int64_t* span = nullptr) {
  int64_t d[kMaxLeaves] = {};
  int idx[kMaxLeaves] = {}, n = 0;
  for (int k = 0; k < f.n; ++k) {
    if (f.s[k] < 1) return false;
    if (f.s[k] == 1) continue;
    d[n] = f.d[k];
    idx[n++] = k;
  }
  if (!as_written) cotile::detail::exchange_sort(d, idx, n);
  int64_t below = 0;
  for (int k = 0; k < n; ++k) {
    const int64_t s = f.s[idx[k]];
    if (d[k] <= below || !cotile::detail::mul_fits(s - 1, d[k])) return false;
    const int64_t part = (s - 1) * d[k];
    if (part > cotile::detail::kIntMax - below) return false;
    below += part;
  }
  if (span) *span = below;
  return true;
}

// Requires known(l).
COTILE_HD constexpr Flat flat(const Layout& l) {
  Flat f;
  f.n = l.shape.num_leaves();
  for (int k = 0; k < f.n; ++k) {
    f.s[k] = l.shape.leaf_at(k).value;
    f.d[k] = l.stride.leaf_at(k).value;
  }
  return f;
}

// How many points a law may be checked on by enumeration: fewer during constant evaluation,
// where every step is interpreted.
inline constexpr int64_t kLawPoints = int64_t(1) << 20;
inline constexpr int64_t kLawPointsAtCompileTime = int64_t(1) << 14;
COTILE_HD constexpr int64_t law_points() {
  return __builtin_is_constant_evaluated() ? kLawPointsAtCompileTime : kLawPoints;
}

// A pair of indices with equal values, if any: the first (in j) repeated value of f over [0, n).
struct Collision {
  bool found = false;
  int64_t first = 0, second = 0, value = 0;
};
// How many points first_collision takes: pairwise comparison (2^10 points at compile time, 2^12
// on the device), or sorting (on the host, up to law_points()).
COTILE_HD constexpr int64_t collision_points() {
  if (__builtin_is_constant_evaluated()) return int64_t(1) << 10;
#if defined(__CUDA_ARCH__)
  return int64_t(1) << 12;
#else
  return kLawPoints;
#endif
}
#if !defined(__CUDA_ARCH__)
// first_collision on the host, by sorting (value, index) pairs (a heap sort on one buffer: no
// <algorithm> or <vector> in every file that includes the engine).
struct ValueIndex {
  int64_t value, index;
  constexpr bool operator<(const ValueIndex& o) const { return value != o.value ? value < o.value : index < o.index; }
};
inline void sift_down(ValueIndex* v, size_t root, size_t n) {
  for (size_t child; (child = 2 * root + 1) < n; root = child) {
    if (child + 1 < n && v[child] < v[child + 1]) ++child;
    if (!(v[root] < v[child])) return;
    const ValueIndex t = v[root];
    v[root] = v[child];
    v[child] = t;
  }
}
// v[0 .. m) in increasing (value, index) order (a heap sort).
inline void sort_values(ValueIndex* v, size_t m) {
  for (size_t k = m / 2; k-- > 0;) sift_down(v, k, m);
  for (size_t end = m; end > 1; --end) {
    const ValueIndex t = v[0];
    v[0] = v[end - 1];
    v[end - 1] = t;
    sift_down(v, 0, end - 1);
  }
}
inline Collision first_collision_sorted(const Flat& f, int64_t n) {
  struct Buffer {
    ValueIndex* p;
    ~Buffer() { delete[] p; }
  } buf{new ValueIndex[size_t(n)]};
  ValueIndex* v = buf.p;
  const size_t m = size_t(n);
  for (size_t j = 0; j < m; ++j) v[j] = ValueIndex{f(int64_t(j)), int64_t(j)};
  sort_values(v, m);
  // Sorted by (value, index), a value's first two indices start its group: of those pairs, the
  // one whose later index is smallest.
  Collision c;
  for (size_t k = 1, group = 0; k < m; ++k) {
    if (v[k].value != v[k - 1].value) group = k;
    else if (k == group + 1 && (!c.found || v[k].index < c.second))
      c = Collision{true, v[group].index, v[k].index, v[k].value};
  }
  return c;
}
#endif
// Requires n <= collision_points().
COTILE_HD constexpr Collision first_collision(const Flat& f, int64_t n) {
#if !defined(__CUDA_ARCH__)
  if (!__builtin_is_constant_evaluated() && n > (int64_t(1) << 12)) return first_collision_sorted(f, n);
#endif
  int64_t seen[int64_t(1) << 12] = {};
  for (int64_t j = 0; j < n; ++j) {
    seen[j] = f(j);
    for (int64_t i = 0; i < j; ++i)
      if (seen[i] == seen[j]) return Collision{true, i, j, seen[j]};
  }
  return Collision{};
}

}  // namespace cotile::laws
