// An evaluator of the algebra's laws that shares no code with the engine's checks
// (include/cotile/laws/): it reads a layout's leaves and evaluates the definitions directly, point
// by point. The law tests compare the engine's results (and refusals) with it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cotile/cotile.hpp"

namespace cotile::oracle {

// The leaves of a layout, colexicographic; L(i) for any integer i as crd2idx defines it: the
// coordinate of leaf k is (i / (s_0 .. s_(k-1))) % s_k with C++'s truncating division, the last
// leaf takes the remainder.
struct Fn {
  std::vector<int64_t> s, d;
  std::vector<bool> static_zero;  // the stride is a static _0
  explicit Fn(const Layout& l) {
    for (int k = 0; k < l.shape.num_leaves(); ++k) {
      s.push_back(l.shape.leaf_at(k).value);
      d.push_back(l.stride.leaf_at(k).value);
      static_zero.push_back(is_constant(l.stride.leaf_at(k), 0));
    }
  }
  int64_t operator()(int64_t i) const {
    int64_t r = 0;
    for (size_t k = 0; k + 1 < s.size(); ++k) {
      r += (i % s[k]) * d[k];
      i /= s[k];
    }
    return s.empty() ? 0 : r + i * d.back();
  }
  int64_t size() const {
    int64_t p = 1;
    for (int64_t x : s) p *= x;
    return p;
  }
  int64_t cosize() const {
    int64_t c = 1;
    for (size_t k = 0; k < s.size(); ++k) c += (s[k] - 1) * (d[k] < 0 ? -d[k] : d[k]);
    return c;
  }
};

template <class F>  // Fn, or ComposedFn (below)
bool injective(const F& f) {
  std::set<int64_t> seen;
  for (int64_t i = 0; i < f.size(); ++i)
    if (!seen.insert(f(i)).second) return false;
  return true;
}

// Each function returns "" when the law holds, else a witness.

// Every layout an operation returns is one: its extents are >= 0.
inline std::string extents(const Layout& r) {
  for (int k = 0; k < r.shape.num_leaves(); ++k)
    if (r.shape.leaf_at(k).value < 0) return "R has the negative extent " + to_string(r.shape.leaf_at(k));
  return "";
}

// composition: size(R) = size(B), R(c) = A(B(c)) for c < size(B).
inline std::string composition(const Layout& a, const Layout& b, const Layout& r) {
  const Fn fa(a), fb(b), fr(r);
  if (fr.size() != fb.size()) return "size(R) != size(B)";
  for (int64_t c = 0; c < fb.size(); ++c)
    if (fr(c) != fa(fb(c)))
      return "R(" + std::to_string(c) + ") = " + std::to_string(fr(c)) + " != A(B(c)) = " + std::to_string(fa(fb(c)));
  return "";
}

// complement(L, T) = C with F = L without its static-0-stride leaves (what filter keeps; static
// size-1 leaves contribute nothing either way): C's shapes >= 1, (F, C) injective, C ordered,
// cosize((F, C)) >= size(T).
inline std::string complement(const Layout& l, int64_t target, const Layout& c) {
  const Fn fl(l), fc(c);
  Fn both = fc;
  both.s.clear();
  both.d.clear();
  for (size_t k = 0; k < fl.s.size(); ++k)
    if (!fl.static_zero[k]) {
      both.s.push_back(fl.s[k]);
      both.d.push_back(fl.d[k]);
    }
  for (int64_t x : fc.s)
    if (x < 1) return "C has a mode of size " + std::to_string(x);
  both.s.insert(both.s.end(), fc.s.begin(), fc.s.end());
  both.d.insert(both.d.end(), fc.d.begin(), fc.d.end());
  for (int64_t i = 1; i < fc.size(); ++i)
    if (!(fc(i - 1) < fc(i))) return "C not ordered at " + std::to_string(i);
  if (!injective(both)) return "(F, C) not injective";
  if (both.cosize() < target)
    return "cosize((F, C)) = " + std::to_string(both.cosize()) + " < " + std::to_string(target);
  return "";
}

// left_inverse: R(L(i)) = i when L is injective, else R(L(i)) an index of L and L(R(L(i))) = L(i).
// (F, G: Fn, or ComposedFn for swizzled layouts.)
template <class F, class G>
std::string left_inverse_of(const F& fl, const G& fr) {
  const bool inj = injective(fl);
  for (int64_t i = 0; i < fl.size(); ++i) {
    const int64_t x = fl(i), j = fr(x);
    if (inj ? j != i : j < 0 || j >= fl.size() || fl(j) != x) return "at i = " + std::to_string(i);
  }
  return "";
}
inline std::string left_inverse(const Layout& l, const Layout& r) { return left_inverse_of(Fn(l), Fn(r)); }

// right_inverse: R(i) an index of L and L(R(i)) = i for i < size(R).
template <class F, class G>
std::string right_inverse_of(const F& fl, const G& fr) {
  for (int64_t i = 0; i < fr.size(); ++i)
    if (fr(i) < 0 || fr(i) >= fl.size() || fl(fr(i)) != i) return "at i = " + std::to_string(i);
  return "";
}
inline std::string right_inverse(const Layout& l, const Layout& r) { return right_inverse_of(Fn(l), Fn(r)); }

// coalesce: the same function on [0, size(L)), depth <= 1.
inline std::string coalesce(const Layout& l, const Layout& r) {
  const Fn fl(l), fr(r);
  if (fl.size() != fr.size()) return "size changed";
  if (depth_of(r.shape) > 1) return "depth > 1";
  for (int64_t i = 0; i < fl.size(); ++i)
    if (fl(i) != fr(i)) return "at i = " + std::to_string(i);
  return "";
}

// filter: the same image as L.
inline std::string filter(const Layout& l, const Layout& r) {
  const Fn fl(l), fr(r);
  std::set<int64_t> a, b;
  for (int64_t i = 0; i < fl.size(); ++i) a.insert(fl(i));
  for (int64_t i = 0; i < fr.size(); ++i) b.insert(fr(i));
  return a == b ? "" : "the image differs";
}

// max_common_layout: R(i) an index of A and of B, A(R(i)) = B(R(i)) = i.
inline std::string max_common_layout(const Layout& a, const Layout& b, const Layout& r) {
  const Fn fa(a), fb(b), fr(r);
  for (int64_t i = 0; i < fr.size(); ++i) {
    const int64_t j = fr(i);
    if (j < 0 || j >= fa.size() || j >= fb.size() || fa(j) != i || fb(j) != i) return "at i = " + std::to_string(i);
  }
  return "";
}

// upcast<N>: every stride d with |d| >= N (or run-time) becomes d / N exactly.
inline std::string upcast(const Layout& l, int64_t n, const Layout& r) {
  for (int k = 0; k < l.stride.num_leaves(); ++k) {
    const Int d = l.stride.leaf_at(k);
    const int64_t ad = d.value < 0 ? -d.value : d.value;
    if (d.value == 0 || (d.is_static && ad < n)) continue;
    if (r.stride.leaf_at(k).value * n != d.value) return "leaf " + std::to_string(k);
  }
  return "";
}

// downcast<N>(L) = R: sub-element j < N of each element c at N L(c) + j, so R reaches the offsets
// N L(c) + j, each as often as L reaches L(c) (compared as sorted lists).
inline std::string downcast(const Layout& l, int64_t n, const Layout& r) {
  const Fn fl(l), fr(r);
  if (fr.size() != n * fl.size())
    return "size(R) = " + std::to_string(fr.size()) + ", not N size(L) = " + std::to_string(n * fl.size());
  std::vector<int64_t> want, got;
  for (int64_t c = 0; c < fl.size(); ++c)
    for (int64_t j = 0; j < n; ++j) want.push_back(n * fl(c) + j);
  for (int64_t i = 0; i < fr.size(); ++i) got.push_back(fr(i));
  std::sort(want.begin(), want.end());
  std::sort(got.begin(), got.end());
  return want == got ? "" : "R's offsets are not N L(c) + j";
}

// nullspace(L) = K: the indices of L whose coordinate is 0 on every leaf of L but its static-_0-
// stride ones, each once (none when L is empty).
inline std::string nullspace(const Layout& l, const Layout& k) {
  const Fn fl(l), fk(k);
  std::set<int64_t> want, got;
  for (int64_t i = 0; i < fl.size(); ++i) {
    bool zero = true;
    int64_t rest = i;
    for (size_t j = 0; j < fl.s.size(); ++j) {
      if (!fl.static_zero[j] && rest % fl.s[j] != 0) zero = false;
      rest /= fl.s[j];
    }
    if (zero) want.insert(i);
  }
  for (int64_t i = 0; i < fk.size(); ++i)
    if (!got.insert(fk(i)).second) return "K(" + std::to_string(i) + ") repeats an index";
  return want == got ? ""
                     : "K's indices are not the nullspace's (" + std::to_string(got.size()) + " for " +
                           std::to_string(want.size()) + ")";
}

// Swizzled layouts, C(x) = Sw(offset + L(x)). Sw<B,M,S> from its definition, bit by bit: for
// j < B, bit M + max(S, 0) + j of x is xor-ed into bit M + max(S, 0) + j - S.
struct SwFn {
  int b, m, s;
  int64_t operator()(int64_t x) const {
    int64_t r = x;
    for (int j = 0; j < b; ++j) {
      const int src = m + (s > 0 ? s : 0) + j, dst = src - s;
      if ((x >> src) & 1) r ^= int64_t(1) << dst;
    }
    return r;
  }
};
struct ComposedFn {
  SwFn sw;
  int64_t offset;
  Fn l;
  explicit ComposedFn(const ComposedLayout& c)
      : sw{c.swizzle.b, c.swizzle.m, c.swizzle.s}, offset(c.offset.value), l(c.layout) {}
  int64_t operator()(int64_t x) const { return sw(offset + l(x)); }
  int64_t size() const { return l.size(); }
};

// composition(L, Sw) = R: size(R) = size(L), R(x) = L(Sw(x)) for x < size(L).
inline std::string layout_after_swizzle(const Layout& l, const Swizzle& sw, const ComposedLayout& r) {
  const Fn fl(l);
  const SwFn fs{sw.b, sw.m, sw.s};
  const ComposedFn fr(r);
  if (fr.size() != fl.size()) return "size(R) != size(L)";
  for (int64_t x = 0; x < fl.size(); ++x)
    if (fr(x) != fl(fs(x)))
      return "R(" + std::to_string(x) + ") = " + std::to_string(fr(x)) + " != L(Sw(x)) = " + std::to_string(fl(fs(x)));
  return "";
}

// The inverses of C = Sw o offset o L: the laws of left_inverse and right_inverse above, on C.
inline std::string swizzled_right_inverse(const ComposedLayout& c, const ComposedLayout& r) {
  return right_inverse_of(ComposedFn(c), ComposedFn(r));
}
inline std::string swizzled_left_inverse(const ComposedLayout& c, const ComposedLayout& r) {
  return left_inverse_of(ComposedFn(c), ComposedFn(r));
}

// The leaves of a layout as a sorted list of (shape, stride): equal for layouts that are the same
// modes rearranged.
inline std::vector<std::pair<int64_t, int64_t>> leaves(const Layout& l) {
  std::vector<std::pair<int64_t, int64_t>> v;
  for (int k = 0; k < l.shape.num_leaves(); ++k) v.emplace_back(l.shape.leaf_at(k).value, l.stride.leaf_at(k).value);
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace cotile::oracle
