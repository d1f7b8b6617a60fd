// A layout after a swizzle and the inverses of swizzled layouts (algebra/swizzle_inverse.hpp):
// CuTe's results where its rule is right, the laws on generated inputs (static and dynamic
// leaves), and the refusals word for word where CuTe's rule is wrong.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>

#include "law_oracle.hpp"
#include "test_util.hpp"

using namespace cotile;
using namespace cotile::test;

// CuTe 4.7's results (printed by CuTe itself): its core tests' swizzled inverses and more.
TEST(SwizzleInverse, MatchesCute) {
  EXPECT_EQ(calc("right_inverse(Sw<1,0,2> o _0 o (_4,_4):(_1,_4))"), "Sw<1,0,2> o _0 o _16:_1");
  EXPECT_EQ(calc("left_inverse(Sw<1,0,2> o _0 o (_4,_4):(_1,_4))"), "Sw<1,0,2> o _0 o _16:_1");
  EXPECT_EQ(calc("right_inverse(Sw<1,0,2> o _0 o (_4,_4):(_4,_1))"), "Sw<1,0,-2> o _0 o (_4,_4):(_4,_1)");
  EXPECT_EQ(calc("left_inverse(Sw<1,0,2> o _0 o (_4,_4):(_4,_1))"), "Sw<1,0,-2> o _0 o (_4,_4):(_4,_1)");
  EXPECT_EQ(calc("right_inverse(Sw<1,0,1> o _0 o (_4,_4):(_8,_1))"), "Sw<1,2,1> o _0 o _4:_4");
  EXPECT_EQ(calc("left_inverse(Sw<1,0,1> o _0 o (_4,_4):(_8,_1))"), "Sw<1,2,1> o _0 o (_8,_4):(_4,_1)");
  EXPECT_EQ(calc("right_inverse(Sw<3,3,3> o _0 o (_8,_64):(_64,_1))"), "Sw<3,0,-6> o _0 o (_64,_8):(_8,_1)");
  EXPECT_EQ(calc("left_inverse(Sw<2,0,3> o _0 o (_8,_8):(_8,_1))"), "Sw<2,0,-3> o _0 o (_8,_8):(_8,_1)");
  EXPECT_EQ(calc("composition((_8,_8):(_8,_1), Sw<2,0,3>)"), "Sw<2,0,-3> o _0 o (_8,_8):(_8,_1)");
  EXPECT_EQ(calc("composition((_4,_4):(_1,_4), Sw<1,0,2>)"), "Sw<1,0,2> o _0 o (_4,_4):(_1,_4)");
  EXPECT_EQ(calc("composition((_4,_4):(_4,_1), Sw<1,0,2>)"), "Sw<1,0,-2> o _0 o (_4,_4):(_4,_1)");
  // Dynamic leaves: the same rule on the run-time values.
  EXPECT_EQ(calc("composition((8,_8):(_8,1), Sw<2,0,3>)"), "Sw<2,0,-3> o _0 o (8,_8):(_8,1)");
}

// L = (_2,_2):(_1,_1) adds bits 0 and 1 into one: L(Sw(3)) = L(3) = 2, but CuTe's Sw<1,0,1> o L
// gives Sw<1,0,1>(2) = 3.
TEST(SwizzleInverse, RefusesWhereCuteIsWrong) {
  EXPECT_EQ(calc_error("composition((_2,_2):(_1,_1), Sw<1,1,1>)"),
            "composition: R(x) = L(Sw(x)) fails at x = 3 (R(x) = 3, L(Sw(x)) = 2)\n"
            "  Sw = Sw<1,1,1>, L = (_2,_2):(_1,_1)\n"
            "  why: the layout does not carry the swizzle's bits one to one onto bits it adds\n"
            "  CuTe 4.7 returns Sw<1,0,1> o _0 o (_2,_2):(_1,_1) here\n"
            "  fix: keep the swizzle outside the layout (Sw o L), or give the layout power-of-two strides on the "
            "swizzle's bits");
  std::string warnings;
  EXPECT_EQ(calc_as_cute("composition((_2,_2):(_1,_1), Sw<1,1,1>)", &warnings), "Sw<1,0,1> o _0 o (_2,_2):(_1,_1)");
  EXPECT_EQ(warnings.substr(0, warnings.find('\n')),
            "composition: R(x) = L(Sw(x)) fails at x = 3 (R(x) = 3, L(Sw(x)) = 2)");
  // C = Sw<1,0,-1> o _0 o _2:_1 takes the offsets 0 and 3: CuTe's R gives R(1) = 3, beyond C's
  // two indices (C(3) = 1 only as crd2idx evaluates C past its size).
  EXPECT_EQ(calc_error("right_inverse(Sw<1,0,-1> o _0 o _2:_1)"),
            "right_inverse: C(R(i)) = i with R(i) an index of C fails at i = 1 (R(1) = 3, not an index of C: its "
            "size is 2)\n"
            "  C = Sw<1,0,-1> o _0 o _2:_1\n"
            "  why: the layout does not carry the swizzle's bits one to one onto bits it adds\n"
            "  CuTe 4.7 returns Sw<1,0,-1> o _0 o _2:_1 here\n"
            "  fix: keep the swizzle outside the layout (Sw o L), or give the layout power-of-two strides on the "
            "swizzle's bits");
  EXPECT_EQ(calc_error("right_inverse(Sw<1,0,2> o 3 o (_4,_4):(_1,_4))"),
            "right_inverse: a swizzled layout's inverse needs a _0 offset (Sw o _0 o L)\n"
            "  offset = 3\n"
            "  fix: invert the layout without its offset and subtract the offset before the inverse");
  // L's images of the masks are not a swizzle's (one bit to two): CuTe's make_swizzle refuses too.
  EXPECT_EQ(calc_error("composition((_2,_3):(_3,_1), Sw<1,0,1>)"),
            "composition: a swizzle's source and target masks are two non-negative sets of B bits\n"
            "  source mask = 1\n"
            "  target mask = 3\n"
            "  fix: composition(L, Sw) moves the swizzle to L's images of its masks; give L power-of-two strides on "
            "the swizzle's bits, or keep the swizzle outside the layout (Sw o L)");
  // A mask's image of -2^63: refused without counting its bits (x - 1 overflowed there; law_fuzz).
  EXPECT_EQ(calc_error("composition((_2,_2):(1,-9223372036854775808), Sw<1,0,1>)"),
            "composition: a swizzle's source and target masks are two non-negative sets of B bits\n"
            "  source mask = -9223372036854775808\n"
            "  target mask = 1\n"
            "  fix: composition(L, Sw) moves the swizzle to L's images of its masks; give L power-of-two strides on "
            "the swizzle's bits, or keep the swizzle outside the layout (Sw o L)");
}

namespace {
int64_t at(const Layout& l, int64_t i) { return eval(l, int_tuple(dynamic_int(i))).value; }
int64_t at(const ComposedLayout& c, int64_t i) {
  return c.swizzle((c.offset + eval(c.layout, int_tuple(dynamic_int(i)))).value);
}

// A random layout of rank 1-3: shapes from {1, 2, 3, 4, 8}, strides from {0, 1, 2, 3, 4, 8, 16};
// each leaf static or dynamic.
Layout random_layout(std::mt19937& g) {
  const int64_t shapes[] = {1, 2, 3, 4, 8}, strides[] = {0, 1, 2, 3, 4, 8, 16};
  const int rank = 1 + int(g() % 3);
  IntTuple s = IntTuple::tuple(), d = IntTuple::tuple();
  for (int k = 0; k < rank; ++k) {
    const int64_t sk = shapes[g() % 5], dk = strides[g() % 7];
    s.push_back(int_tuple(g() % 2 ? static_int(sk) : dynamic_int(sk)));
    d.push_back(int_tuple(g() % 2 ? static_int(dk) : dynamic_int(dk)));
  }
  return Layout{s, d};
}
Swizzle random_swizzle(std::mt19937& g) {
  const int b = 1 + int(g() % 2), m = int(g() % 3), s = (b + int(g() % 2)) * (g() % 2 ? 1 : -1);
  return make_swizzle(b, m, s);
}
}  // namespace

// On generated inputs every result satisfies its law, checked here at every point by eval (not
// the laws' own evaluator); every refusal is of a result (CuTe's, from the as-CuTe mode) that
// breaks it somewhere.
TEST(SwizzleInverse, LawsOnGeneratedInputs) {
  std::mt19937 g(20261203);
  int kept[3] = {}, refused[3] = {}, cute_wrong[2] = {};
  for (int n = 0; n < 3000; ++n) {
    const Layout l = random_layout(g);
    const Swizzle sw = random_swizzle(g);
    const int64_t size_l = size(l).value;
    // composition(L, Sw): R(x) = L(Sw(x)) for x < size(L)
    try {
      const ComposedLayout r = composition(l, sw);
      ++kept[0];
      for (int64_t x = 0; x < size_l; ++x) ASSERT_EQ(at(r, x), at(l, sw(x))) << to_string(l) << " " << to_string(sw);
      EXPECT_EQ(oracle::layout_after_swizzle(l, sw, r), "") << to_string(l) << " " << to_string(sw);
    } catch (const LawError&) {
      ++refused[0];
      LawLog log;
      const ComposedLayout cute = composition(l, sw, Options{false, true, &log});
      bool broken = false;
      for (int64_t x = 0; x < size_l && !broken; ++x) broken = at(cute, x) != at(l, sw(x));
      EXPECT_TRUE(broken) << to_string(l) << " " << to_string(sw);
    } catch (const Error&) {  // masks that are no swizzle's: CuTe refuses too
    }
    // right_inverse(C): C(R(i)) = i, R(i) < size(C), for i < size(R);
    // left_inverse(C): C(R(C(i))) = C(i), R(C(i)) < size(C), for i < size(C)
    const ComposedLayout c{sw, static_int(0), l};
    for (int left = 0; left < 2; ++left) {
      try {
        const ComposedLayout r = left ? left_inverse(c) : right_inverse(c);
        ++kept[1 + left];
        const int64_t n_points = left ? size_l : size(r.layout).value;
        for (int64_t i = 0; i < n_points; ++i) {
          // R(i) (right), R(C(i)) (left) is an index of C: C beyond its size reaches offsets it
          // lacks, and offsets it has from a wrong index
          const int64_t j = left ? at(r, at(c, i)) : at(r, i);
          ASSERT_TRUE(j >= 0 && j < size_l) << to_string(c) << " i = " << i;
          ASSERT_EQ(left ? at(c, at(r, at(c, i))) : at(c, at(r, i)), left ? at(c, i) : i) << to_string(c);
        }
        EXPECT_EQ(left ? oracle::swizzled_left_inverse(c, r) : oracle::swizzled_right_inverse(c, r), "")
            << to_string(c);
      } catch (const LawError&) {
        ++refused[1 + left];
        LawLog log;  // CuTe's result, which the independent evaluator must find wrong
        const Options cute{false, true, &log};
        try {
          const ComposedLayout r = left ? left_inverse(c, cute) : right_inverse(c, cute);
          ++cute_wrong[left];
          EXPECT_NE(left ? oracle::swizzled_left_inverse(c, r) : oracle::swizzled_right_inverse(c, r), "")
              << to_string(c) << " -> " << to_string(r);
        } catch (const Error&) {  // masks no swizzle's on the way: CuTe has no result either
        }
      } catch (const Error&) {  // left_inverse of a non-injective layout, masks no swizzle's
      }
    }
  }
  std::printf("kept / refused: composition %d / %d, right_inverse %d / %d, left_inverse %d / %d\n", kept[0], refused[0],
              kept[1], refused[1], kept[2], refused[2]);
  std::printf("CuTe's results of the refused inverses judged: right %d, left %d\n", cute_wrong[0], cute_wrong[1]);
  EXPECT_GT(cute_wrong[0], 10);
  EXPECT_GT(cute_wrong[1], 10);
  // The generator reaches both outcomes of each operation.
  for (int k = 0; k < 3; ++k) {
    EXPECT_GT(kept[k], 300) << k;
    EXPECT_GT(refused[k], 10) << k;
  }
  std::printf("kept %d %d %d, refused %d %d %d\n", kept[0], kept[1], kept[2], refused[0], refused[1], refused[2]);
}

// The independent evaluator (law_oracle.hpp: its own swizzle, bit by bit) agrees with the engine's
// swizzle and finds CuTe's wrong results, which the fuzz targets rely on.
TEST(SwizzleInverse, OracleFindsCutesWrongResults) {
  for (int b = 0; b <= 3; ++b)
    for (int m = 0; m <= 4; ++m)
      for (int s = b; s <= b + 3; ++s)
        for (int sign : {1, -1}) {
          const Swizzle sw = make_swizzle(b, m, sign * s);
          const oracle::SwFn f{sw.b, sw.m, sw.s};
          for (int64_t x = 0; x < 4096; x += 7) ASSERT_EQ(f(x), sw(x)) << to_string(sw) << " " << x;
        }
  LawLog log;
  const Options cute{false, true, &log};
  const Layout l = L("(_2,_2):(_1,_1)");
  EXPECT_EQ(oracle::layout_after_swizzle(l, make_swizzle(1, 1, 1), composition(l, make_swizzle(1, 1, 1), cute)),
            "R(3) = 3 != L(Sw(x)) = 2");
  const ComposedLayout c{make_swizzle(1, 0, -1), static_int(0), L("_2:_1")};
  EXPECT_EQ(oracle::swizzled_right_inverse(c, right_inverse(c, cute)), "at i = 1");
  // C = Sw<1,0,1> o _0 o (_2,_2):(_1,_1) takes 0, 1, 1, 3: R = _4:_0 sends every offset to index 0;
  // CuTe's R = Sw<1,1,1> o _0 o _2:_2 sends 3 to 4, past C's indices, where C evaluated past its
  // size reaches 3 again (and the engine refuses it).
  const ComposedLayout d{make_swizzle(1, 0, 1), static_int(0), L("(_2,_2):(_1,_1)")};
  EXPECT_EQ(oracle::swizzled_left_inverse(d, ComposedLayout{Swizzle{}, static_int(0), L("_4:_0")}), "at i = 1");
  EXPECT_EQ(to_string(left_inverse(d, cute)), "Sw<1,1,1> o _0 o _2:_2");
  EXPECT_EQ(oracle::swizzled_left_inverse(d, left_inverse(d, cute)), "at i = 3");
  EXPECT_EQ(calc_error("left_inverse(Sw<1,0,1> o _0 o (_2,_2):(_1,_1))"),
            "left_inverse: C(R(C(i))) = C(i) with R(C(i)) an index of C fails at i = 3 (R(C(3)) = 4, not an index "
            "of C: its size is 4)\n"
            "  C = Sw<1,0,1> o _0 o (_2,_2):(_1,_1)\n"
            "  why: the layout does not carry the swizzle's bits one to one onto bits it adds\n"
            "  CuTe 4.7 returns Sw<1,1,1> o _0 o _2:_2 here\n"
            "  fix: keep the swizzle outside the layout (Sw o L), or give the layout power-of-two strides on the "
            "swizzle's bits");
  // a step's law broken where the result keeps its own: C = Sw<1,0,1> o _0 o (1):(_3) has one index
  EXPECT_EQ(calc("left_inverse(Sw<1,0,1> o _0 o (1):(_3))"), "(_3,1):(_0,_1)");
}
