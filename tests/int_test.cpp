// Integers: CuTe's staticness rules, overflow and division by zero.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "cotile/int.hpp"

using namespace cotile;

TEST(Int, StaticOpStaticIsStatic) {
  EXPECT_EQ(static_int(3) * static_int(4), static_int(12));
  EXPECT_EQ(static_int(3) + static_int(4), static_int(7));
  EXPECT_EQ(static_int(12) / static_int(4), static_int(3));
  EXPECT_EQ(static_int(13) % static_int(4), static_int(1));
}

TEST(Int, AnythingDynamicIsDynamic) {
  EXPECT_EQ(static_int(128) * dynamic_int(2), dynamic_int(256));
  EXPECT_EQ(dynamic_int(3) + static_int(4), dynamic_int(7));
  EXPECT_EQ(static_int(4) / dynamic_int(2), dynamic_int(2));
}

TEST(Int, ZeroTimesAnythingIsStaticZero) {
  EXPECT_EQ(static_int(0) * dynamic_int(5), static_int(0));
  EXPECT_EQ(dynamic_int(5) * static_int(0), static_int(0));
  EXPECT_EQ(static_int(0) / dynamic_int(5), static_int(0));
  EXPECT_EQ(static_int(0) % dynamic_int(5), static_int(0));
  EXPECT_EQ(dynamic_int(7) % static_int(1), static_int(0));
  EXPECT_EQ(dynamic_int(7) % static_int(-1), static_int(0));
}

TEST(Int, OneTimesDynamicStaysDynamic) { EXPECT_EQ(static_int(1) * dynamic_int(5), dynamic_int(5)); }

TEST(Int, StaticFalseAndAnythingIsStaticFalse) {
  EXPECT_EQ(logical_and(static_int(0), dynamic_int(1)), static_int(0));
  EXPECT_EQ(logical_and(dynamic_int(1), static_int(0)), static_int(0));
  EXPECT_EQ(logical_and(static_int(1), dynamic_int(1)), dynamic_int(1));
  EXPECT_EQ(logical_or(static_int(1), dynamic_int(0)), static_int(1));
  EXPECT_EQ(logical_or(static_int(0), dynamic_int(0)), dynamic_int(0));
}

// ceil_div is the ceiling of a / b for either sign; CuTe's (a + b - 1) / b agrees where b > 0 and
// a > -b, and gives the staticness.
TEST(Int, CeilDivIsTheCeilingForEitherSign) {
  EXPECT_EQ(ceil_div(static_int(7), static_int(2)), static_int(4));
  EXPECT_EQ(ceil_div(static_int(0), dynamic_int(3)), dynamic_int(0));    // (_0 + 3 - _1) / 3 touches a dynamic value
  EXPECT_EQ(ceil_div(dynamic_int(-4), static_int(2)), dynamic_int(-2));  // CuTe's formula: -1
  EXPECT_EQ(ceil_div(static_int(5), static_int(-1)), static_int(-5));    // CuTe's formula: _-3
  EXPECT_EQ(ceil_div(static_int(0), static_int(-3)), static_int(0));     // CuTe's formula: _1
  for (int64_t a = -9; a <= 9; ++a)
    for (int64_t b : {-4, -3, -1, 1, 3, 4}) {
      const auto want = int64_t(std::ceil(double(a) / double(b)));
      EXPECT_EQ(ceil_div(dynamic_int(a), dynamic_int(b)).value, want) << a << " / " << b;
      EXPECT_EQ(ceil_div(static_int(a), static_int(b)), static_int(want)) << a << " / " << b;
    }
  // Near 2^63, where a + b - 1 would overflow.
  EXPECT_EQ(ceil_div(dynamic_int(INT64_MAX), static_int(2)), dynamic_int(int64_t(1) << 62));
  EXPECT_THROW(ceil_div(dynamic_int(INT64_MIN), dynamic_int(-1)), Error);  // 2^63
  EXPECT_THROW(ceil_div(dynamic_int(5), dynamic_int(0)), Error);
}

// round_up(a, b) = ceil_div(a, |b|) |b| and lcm(a, b) = |a| / gcd(a, b) * |b|: staticness from the
// operations they are made of.
TEST(Int, RoundUpAndLcm) {
  EXPECT_EQ(round_up(static_int(7), static_int(4)), static_int(8));
  EXPECT_EQ(round_up(static_int(8), static_int(4)), static_int(8));
  EXPECT_EQ(round_up(dynamic_int(9), static_int(8)), dynamic_int(16));
  EXPECT_EQ(round_up(dynamic_int(-5), static_int(2)), dynamic_int(-4));
  EXPECT_EQ(round_up(dynamic_int(5), static_int(-2)), dynamic_int(6));  // the least multiple not below 5
  EXPECT_EQ(lcm(static_int(6), static_int(4)), static_int(12));
  EXPECT_EQ(lcm(dynamic_int(-6), static_int(4)), dynamic_int(12));
  EXPECT_EQ(lcm(static_int(0), static_int(0)), static_int(0));
  EXPECT_EQ(lcm(static_int(0), dynamic_int(5)), static_int(0));  // |_0| / 5 = _0 (CuTe's _0 / x), _0 * 5 = _0
  EXPECT_THROW(lcm(dynamic_int(int64_t(1) << 40), dynamic_int((int64_t(1) << 40) - 1)),
               Error);  // the product overflows
}

TEST(Int, MultiplicationOverflowIsDetected) {
  EXPECT_THROW(dynamic_int(int64_t(1) << 62) * static_int(4), Error);
  EXPECT_EQ(dynamic_int(int64_t(1) << 61) * static_int(-4), dynamic_int(detail::kIntMin));
}

TEST(Int, AdditionOverflowIsDetected) { EXPECT_THROW(dynamic_int(detail::kIntMax) + static_int(1), Error); }

TEST(Int, DivisionByZeroIsDetected) {
  EXPECT_THROW(dynamic_int(3) / dynamic_int(0), Error);
  EXPECT_THROW(dynamic_int(3) % static_int(0), Error);
}
