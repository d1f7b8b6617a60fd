// Laws of the algebra, checked at every coordinate on generated layouts: all small static
// layouts (exhaustively) and random layouts with dynamic leaves (seeded, reproducible).
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <set>
#include <vector>

#include "test_util.hpp"

using namespace cotile;

namespace {

int64_t at(const Layout& l, int64_t i) { return eval(l, int_tuple(dynamic_int(i))).value; }

bool injective(const Layout& l) {
  std::set<int64_t> seen;
  for (int64_t i = 0; i < size(l).value; ++i)
    if (!seen.insert(at(l, i)).second) return false;
  return true;
}

int64_t max_offset(const Layout& l) {
  int64_t m = 0;
  for (int64_t i = 0; i < size(l).value; ++i) m = std::max(m, at(l, i));
  return m;
}

Layout flat_layout(const std::vector<int64_t>& s, const std::vector<int64_t>& d, const std::vector<bool>& st) {
  IntTuple shape = IntTuple::tuple(), stride = IntTuple::tuple();
  for (size_t k = 0; k < s.size(); ++k) {
    shape.push_back(int_tuple(Int{s[k], bool(st[2 * k])}));
    stride.push_back(int_tuple(Int{d[k], bool(st[2 * k + 1])}));
  }
  return Layout{shape, stride};
}

// Every static layout of rank 1..2 with shapes in [1,4] and strides in [0,8].
std::vector<Layout> small_static_layouts() {
  std::vector<Layout> r;
  for (int64_t s0 = 1; s0 <= 4; ++s0)
    for (int64_t d0 = 0; d0 <= 8; ++d0) {
      r.push_back(flat_layout({s0}, {d0}, {true, true}));
      for (int64_t s1 = 1; s1 <= 4; ++s1)
        for (int64_t d1 = 0; d1 <= 8; ++d1) r.push_back(flat_layout({s0, s1}, {d0, d1}, {true, true, true, true}));
    }
  return r;
}

// A random layout of depth <= 2 with random staticness. With pow2, shapes and strides are
// powers of two, where CuTe's (weak) divisibility conditions make composition exact; otherwise
// composition may legitimately differ from A(B(c)) (CuTe accepts rest_stride < shape without
// requiring divisibility), so the composition laws use pow2 layouts.
Layout random_layout(std::mt19937& g, int max_rank = 3, bool pow2 = false) {
  std::uniform_int_distribution<int> rank(1, max_rank), st(0, 1), nest(0, 3);
  static const int64_t kShapes[] = {1, 2, 3, 4, 5, 6}, kShapes2[] = {1, 2, 4, 8, 2, 4};
  static const int64_t kStrides[] = {0, 1, 2, 3, 4, 6, 8, 12, 16, 32}, kStrides2[] = {0, 1, 2, 4, 8, 16, 32, 64, 1, 2};
  std::uniform_int_distribution<int> stride_pick(0, 9), shape_pick(0, 5);
  auto sz = [&](std::mt19937& gg) { return (pow2 ? kShapes2 : kShapes)[shape_pick(gg)]; };
  IntTuple shape = IntTuple::tuple(), stride = IntTuple::tuple();
  const int r = rank(g);
  for (int i = 0; i < r; ++i) {
    auto leaf = [&](IntTuple& s, IntTuple& d) {
      s.push_back(int_tuple(Int{sz(g), st(g) == 1}));
      d.push_back(int_tuple(Int{(pow2 ? kStrides2 : kStrides)[stride_pick(g)], st(g) == 1}));
    };
    if (nest(g) == 0) {
      IntTuple s = IntTuple::tuple(), d = IntTuple::tuple();
      leaf(s, d);
      leaf(s, d);
      shape.push_back(s);
      stride.push_back(d);
    } else {
      leaf(shape, stride);
    }
  }
  return Layout{shape, stride};
}

// An injective layout: a compact layout in a random mode order, with strides scaled by a gap.
Layout random_injective(std::mt19937& g, bool dynamic_shapes) {
  // Dynamic shapes avoid 1: a run-time size-1 mode survives coalesce and can tie with another
  // stride, where CuTe's left_inverse (which cotile reproduces) is not an inverse.
  std::uniform_int_distribution<int> rank(1, 4), sz(dynamic_shapes ? 2 : 1, 5), ord(0, 9), gap(1, 3);
  IntTuple shape = IntTuple::tuple(), order = IntTuple::tuple();
  const int r = rank(g);
  for (int i = 0; i < r; ++i) {
    shape.push_back(int_tuple(Int{sz(g), !dynamic_shapes}));
    order.push_back(int_tuple(static_int(ord(g))));
  }
  Layout l = make_ordered_layout(shape, order);
  // Ties in the order give equal strides; make them distinct by re-ordering with the index.
  IntTuple o2 = IntTuple::tuple();
  for (int i = 0; i < r; ++i) o2.push_back(int_tuple(static_int(order.get(i).value().value * 16 + i)));
  l = make_ordered_layout(shape, o2);
  const int64_t k = gap(g);
  for (int i = 0; i < l.stride.num_leaves(); ++i) l.stride.leaf_at(i) = l.stride.leaf_at(i) * static_int(k);
  return l;
}

}  // namespace

TEST(Laws, CoalescePreservesTheFunction) {
  std::mt19937 g(1);
  std::vector<Layout> ls = small_static_layouts();
  for (int n = 0; n < 2000; ++n) ls.push_back(random_layout(g));
  for (const Layout& l : ls) {
    const Layout c = coalesce(l);
    ASSERT_EQ(size(c).value, size(l).value) << to_string(l);
    ASSERT_LE(depth(c).value, 1) << to_string(l);
    for (int64_t i = 0; i < size(l).value; ++i) ASSERT_EQ(at(c, i), at(l, i)) << to_string(l) << " -> " << to_string(c);
  }
}

TEST(Laws, CoalesceXPreservesTheFunctionBeyondTheDomain) {
  std::mt19937 g(2);
  for (int n = 0; n < 2000; ++n) {
    const Layout l = random_layout(g);
    const Layout c = coalesce_x(l);
    for (int64_t i = 0; i < 2 * size(l).value; ++i)
      ASSERT_EQ(at(c, i), at(l, i)) << to_string(l) << " -> " << to_string(c);
  }
}

TEST(Laws, FilterKeepsTheImage) {
  std::mt19937 g(3);
  std::vector<Layout> ls = small_static_layouts();
  for (int n = 0; n < 2000; ++n) ls.push_back(random_layout(g));
  for (const Layout& l : ls) {
    const Layout f = filter(l);
    std::set<int64_t> a, b;
    for (int64_t i = 0; i < size(l).value; ++i) a.insert(at(l, i));
    for (int64_t i = 0; i < size(f).value; ++i) b.insert(at(f, i));
    ASSERT_EQ(a, b) << to_string(l) << " -> " << to_string(f);
  }
}

// nullspace(L) = K: K(i) distinct indices of L, L(K(i)) = 0, size(K) = the product of the static-0
// stride modes' shapes (size(L) / size(filter(L)) when L has no other zero).
TEST(Laws, NullspaceIsSentToZero) {
  std::mt19937 g(31);
  std::vector<Layout> ls = small_static_layouts();
  for (int n = 0; n < 2000; ++n) ls.push_back(random_layout(g));
  int with_kernel = 0;
  for (const Layout& l : ls) {
    const Layout k = nullspace(l);
    int64_t zero_modes = 1;
    for (int j = 0; j < l.stride.num_leaves(); ++j)
      if (is_constant(l.stride.leaf_at(j), 0)) zero_modes *= l.shape.leaf_at(j).value;
    ASSERT_EQ(size(k).value, zero_modes) << to_string(l) << " -> " << to_string(k);
    with_kernel += zero_modes > 1;
    std::set<int64_t> seen;
    for (int64_t i = 0; i < size(k).value; ++i) {
      const int64_t j = at(k, i);
      ASSERT_TRUE(j >= 0 && j < size(l).value && seen.insert(j).second) << to_string(l) << " -> " << to_string(k);
      ASSERT_EQ(at(l, j), 0) << to_string(l) << " -> " << to_string(k) << " at " << i;
    }
  }
  EXPECT_GT(with_kernel, 200);
}

TEST(Laws, CompositionIsPointwise) {
  std::mt19937 g(4);
  int checked = 0;
  const std::vector<Layout> small = small_static_layouts();
  for (const Layout& a : small) {
    for (int n = 0; n < 3; ++n) {
      const Layout b = small[g() % small.size()];
      auto pow2 = [](const Layout& l) {
        for (int k = 0; k < l.shape.num_leaves(); ++k) {
          const int64_t x = l.shape.leaf_at(k).value, y = l.stride.leaf_at(k).value;
          if ((x & (x - 1)) != 0 || (y & (y - 1)) != 0) return false;
        }
        return true;
      };
      if (!pow2(a) || !pow2(b)) continue;
      if (!injective(b)) continue;  // right-distributivity needs modes of B that do not overlap
      Layout r;
      try {
        r = composition(a, b);
      } catch (const Error&) {
        continue;  // the divisibility conditions do not hold for this pair
      }
      ASSERT_EQ(size(r).value, size(b).value);
      for (int64_t i = 0; i < size(b).value; ++i)
        ASSERT_EQ(at(r, i), at(a, at(b, i))) << to_string(a) << " o " << to_string(b) << " = " << to_string(r);
      ++checked;
    }
  }
  for (int n = 0; n < 5000; ++n) {
    const Layout a = random_layout(g, 3, true), b = random_layout(g, 2, true);
    if (!injective(b)) continue;
    Layout r;
    try {
      r = composition(a, b);
    } catch (const Error&) {
      continue;
    }
    for (int64_t i = 0; i < size(b).value; ++i)
      ASSERT_EQ(at(r, i), at(a, at(b, i))) << to_string(a) << " o " << to_string(b) << " = " << to_string(r);
    ++checked;
  }
  std::printf("composition checked on %d pairs\n", checked);
  EXPECT_GT(checked, 1000);
}

TEST(Laws, CompositionIsAssociative) {
  std::mt19937 g(5);
  int checked = 0;
  for (int n = 0; n < 20000; ++n) {
    const Layout a = random_layout(g, 3, true), b = random_layout(g, 2, true), c = random_layout(g, 2, true);
    // Both sides agree where C stays in B's domain and B's modes do not overlap.
    if (!injective(b) || !injective(c) || max_offset(c) >= size(b).value) continue;
    Layout ab_c, a_bc;
    try {
      ab_c = composition(composition(a, b), c);
      a_bc = composition(a, composition(b, c));
    } catch (const Error&) {
      continue;
    }
    for (int64_t i = 0; i < size(c).value; ++i)
      ASSERT_EQ(at(ab_c, i), at(a_bc, i)) << to_string(a) << " " << to_string(b) << " " << to_string(c);
    ++checked;
  }
  std::printf("associativity checked on %d triples\n", checked);
  EXPECT_GT(checked, 500);
}

TEST(Laws, RightInverseIsARightInverse) {
  std::mt19937 g(6);
  std::vector<Layout> ls = small_static_layouts();
  for (int n = 0; n < 2000; ++n) ls.push_back(random_layout(g));
  for (const Layout& l : ls) {
    const Layout r = right_inverse(l);
    for (int64_t i = 0; i < size(r).value; ++i) ASSERT_EQ(at(l, at(r, i)), i) << to_string(l) << " R=" << to_string(r);
  }
}

TEST(Laws, LeftInverseIsALeftInverseOnInjectiveLayouts) {
  std::mt19937 g(7);
  for (int n = 0; n < 3000; ++n) {
    const Layout l = random_injective(g, n % 2 == 1);
    const Layout r = left_inverse(l);
    for (int64_t i = 0; i < size(l).value; ++i) ASSERT_EQ(at(r, at(l, i)), i) << to_string(l) << " R=" << to_string(r);
  }
}

TEST(Laws, ComplementIsDisjointAndOrdered) {
  std::mt19937 g(8);
  for (int n = 0; n < 3000; ++n) {
    const Layout l = random_injective(g, false);
    const Layout c = complement(l);
    std::set<int64_t> image;
    for (int64_t i = 0; i < size(l).value; ++i) image.insert(at(l, i));
    for (int64_t i = 1; i < size(c).value; ++i) {
      ASSERT_LT(at(c, i - 1), at(c, i)) << to_string(l) << " C=" << to_string(c);
      ASSERT_EQ(image.count(at(c, i)), 0u) << to_string(l) << " C=" << to_string(c);
    }
    // Together they cover [0, cosize): (L, C) is a bijection onto a compact range.
    ASSERT_GE(size(l).value * size(c).value, cosize(filter(l)).value) << to_string(l) << " C=" << to_string(c);
  }
}

// spread_apart (laws/flat.hpp) proves complement's law without enumeration where the strides do
// not divide: whenever it holds, the layout is injective (ordered as written) and its span is
// cosize - 1. Checked against enumeration on generated layouts, both answers counted.
TEST(Laws, SpreadApartImpliesInjectiveAndOrdered) {
  std::mt19937 g(11);
  std::uniform_int_distribution<int> rank(1, 4), sz(1, 5), dd(-4, 40);
  int spread = 0, written = 0, not_spread_injective = 0;
  for (int n = 0; n < 20000; ++n) {
    laws::Flat f;
    f.n = rank(g);
    for (int k = 0; k < f.n; ++k) f.s[k] = sz(g), f.d[k] = dd(g);
    std::set<int64_t> seen;
    bool inj = true, ordered = true;
    int64_t lo = 0, hi = 0;
    for (int64_t i = 0; i < f.size(); ++i) {
      const int64_t v = f(i);
      inj = seen.insert(v).second && inj;
      ordered = ordered && (i == 0 || f(i - 1) < v);
      lo = std::min(lo, v), hi = std::max(hi, v);
    }
    int64_t span = -1;
    if (laws::spread_apart(f, false, &span)) {
      ++spread;
      ASSERT_TRUE(inj) << n;
      ASSERT_EQ(span, hi - lo) << n;
    } else if (inj) {
      ++not_spread_injective;
    }
    if (laws::spread_apart(f, true)) {
      ++written;
      ASSERT_TRUE(ordered) << n;
    }
  }
  std::printf("spread apart: %d, as written: %d, injective but not spread apart: %d\n", spread, written,
              not_spread_injective);
  EXPECT_GT(spread, 1000);
  EXPECT_GT(written, 200);
}

// Strides that do not divide (64 is no multiple of 9 * 4) but spread apart: CuTe's answer holds.
TEST(Laws, ComplementProvenBySpreadBeyondEnumeration) {
  EXPECT_EQ(to_string(complement(test::L("(_3,_9):(_64,_4)"), test::T("_2000000"))), "(_4,_10417):(_1,_192)");
  EXPECT_EQ(to_string(complement(test::L("(_3,_9):(_64,_4)"), test::T("_20000000000"))), "(_4,_104166667):(_1,_192)");
}

TEST(Laws, LogicalDivideIsCompositionWithTheComplement) {
  std::mt19937 g(9);
  int checked = 0;
  for (int n = 0; n < 4000; ++n) {
    const Layout a = make_layout(random_layout(g, 3, true).shape);
    const Layout b = random_injective(g, false);
    bool b_pow2 = true;
    for (int k = 0; k < b.shape.num_leaves(); ++k)
      b_pow2 = b_pow2 && (b.shape.leaf_at(k).value & (b.shape.leaf_at(k).value - 1)) == 0;
    if (!b_pow2) continue;
    Layout d, e;
    try {
      const Layout rest = complement(b, int_tuple(size(a)));
      if (size(b).value * size(rest).value != size(a).value) continue;  // B must tile A exactly
      d = logical_divide(a, b);
      e = composition(a, make_layout_concat(b, rest));
    } catch (const Error&) {
      continue;
    }
    ASSERT_EQ(size(d).value, size(e).value);
    for (int64_t i = 0; i < size(d).value; ++i) ASSERT_EQ(at(d, i), at(e, i)) << to_string(a) << " / " << to_string(b);
    ++checked;
  }
  std::printf("logical_divide checked on %d pairs\n", checked);
  EXPECT_GT(checked, 100);
}

TEST(Laws, Idx2CrdInvertsCrd2Idx) {
  std::mt19937 g(10);
  for (int n = 0; n < 2000; ++n) {
    const IntTuple s = random_layout(g).shape;
    const IntTuple d = compact_col_major(s);
    for (int64_t i = 0; i < size(s).value; ++i)
      ASSERT_EQ(crd2idx(idx2crd(int_tuple(dynamic_int(i)), s), s, d).value, i) << to_string(s);
  }
}
