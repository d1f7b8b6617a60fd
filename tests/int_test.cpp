// Integers: CuTe's staticness rules, overflow and division by zero.
#include <gtest/gtest.h>

#include "cotile/int.hpp"

using namespace cotile;

TEST(Int, StaticOpStaticIsStatic) {
  EXPECT_EQ(S(3) * S(4), S(12));
  EXPECT_EQ(S(3) + S(4), S(7));
  EXPECT_EQ(S(12) / S(4), S(3));
  EXPECT_EQ(S(13) % S(4), S(1));
}

TEST(Int, AnythingDynamicIsDynamic) {
  EXPECT_EQ(S(128) * D(2), D(256));
  EXPECT_EQ(D(3) + S(4), D(7));
  EXPECT_EQ(S(4) / D(2), D(2));
}

TEST(Int, ZeroTimesAnythingIsStaticZero) {
  EXPECT_EQ(S(0) * D(5), S(0));
  EXPECT_EQ(D(5) * S(0), S(0));
  EXPECT_EQ(S(0) / D(5), S(0));
  EXPECT_EQ(S(0) % D(5), S(0));
  EXPECT_EQ(D(7) % S(1), S(0));
  EXPECT_EQ(D(7) % S(-1), S(0));
}

TEST(Int, OneTimesDynamicStaysDynamic) { EXPECT_EQ(S(1) * D(5), D(5)); }

TEST(Int, StaticFalseAndAnythingIsStaticFalse) {
  EXPECT_EQ(logical_and(S(0), D(1)), S(0));
  EXPECT_EQ(logical_and(D(1), S(0)), S(0));
  EXPECT_EQ(logical_and(S(1), D(1)), D(1));
  EXPECT_EQ(logical_or(S(1), D(0)), S(1));
  EXPECT_EQ(logical_or(S(0), D(0)), D(0));
}

TEST(Int, CeilDivFollowsCuteFormula) {
  EXPECT_EQ(ceil_div(S(7), S(2)), S(4));
  EXPECT_EQ(ceil_div(S(0), D(3)), D(0));  // (_0 + 3 - _1) / 3 touches a dynamic value
}

// round_up(a, b) = ceil_div(a, b) * b and lcm(a, b) = |a| / gcd(a, b) * |b|: staticness from the
// operations they are made of.
TEST(Int, RoundUpAndLcm) {
  EXPECT_EQ(round_up(S(7), S(4)), S(8));
  EXPECT_EQ(round_up(S(8), S(4)), S(8));
  EXPECT_EQ(round_up(D(9), S(8)), D(16));
  EXPECT_EQ(lcm(S(6), S(4)), S(12));
  EXPECT_EQ(lcm(D(-6), S(4)), D(12));
  EXPECT_EQ(lcm(S(0), S(0)), S(0));
  EXPECT_EQ(lcm(S(0), D(5)), S(0));  // |_0| / 5 = _0 (CuTe's _0 / x), _0 * 5 = _0
  EXPECT_THROW(lcm(D(int64_t(1) << 40), D((int64_t(1) << 40) - 1)), Error);  // the product overflows
}

TEST(Int, MultiplicationOverflowIsDetected) {
  EXPECT_THROW(D(int64_t(1) << 62) * S(4), Error);
  EXPECT_EQ(D(int64_t(1) << 61) * S(-4), D(detail::kIntMin));
}

TEST(Int, AdditionOverflowIsDetected) { EXPECT_THROW(D(detail::kIntMax) + S(1), Error); }

TEST(Int, DivisionByZeroIsDetected) {
  EXPECT_THROW(D(3) / D(0), Error);
  EXPECT_THROW(D(3) % S(0), Error);
}
