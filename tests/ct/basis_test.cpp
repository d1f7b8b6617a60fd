// Scaled-basis strides (ct/basis.hpp): layouts that map an index to a coordinate, and the
// composition of a layout with one. Expected strings are CuTe 4.7's prints of the same values;
// every composition is also checked point by point against R(c) = A(B(c)).
#include <gtest/gtest.h>

#include <string>

#include "cotile/ct/ct.hpp"

using namespace cotile::ct;

namespace {
int opaque(int x) {
  volatile int v = x;
  return v;
}

// R(c) = A(B(c)) for every c < size(B) (all of B's coordinates lie in A's domain here).
template <class A, class B, class R>
void expect_law(const A& a, const B& b, const R& r) {
  for (int c = 0; c < int(size(b)); ++c) EXPECT_EQ(int64_t(r(c)), int64_t(a(b(c)))) << "c = " << c;
}
}  // namespace

TEST(Basis, PrintsAsCuTe) {
  EXPECT_EQ(to_string(E<1>{}), "_1@1");
  EXPECT_EQ(to_string(E<1, 2>{}), "_1@2@1");  // CuTe prints the modes innermost first
  EXPECT_EQ(to_string(E<0>{} * 3), "3@0");
  EXPECT_EQ(to_string(E<0>{} * _3{}), "_3@0");
  EXPECT_EQ(to_string(make_layout(Shape<_4, _4>{}, Stride<E<1>, E<0>>{})), "(_4,_4):(_1@1,_1@0)");
  // CuTe's spelling of the type names the same type
  static_assert(std::is_same_v<Layout<Shape<_4, _4>, Stride<E<1>, E<0>>>,
                               decltype(make_layout(Shape<_4, _4>{}, Stride<E<1>, E<0>>{}))>);
}

// B(c) = sum_k x_k v_k e_{N_k}: coordinates added mode by mode, _0 where no term reaches.
TEST(Basis, MapsIndicesToCoordinates) {
  const auto b = make_layout(Shape<_4, _4>{}, Stride<E<1>, E<0>>{});
  for (int c = 0; c < 16; ++c) {
    const auto x = b(c);
    EXPECT_EQ(get<0>(x), c / 4);
    EXPECT_EQ(get<1>(x), c % 4);
  }
  const auto b2 = make_layout(Shape<_2, _4>{}, Stride<E<1, 1>, E<0>>{});
  const auto x = b2(5);  // (2, (_0, 1)), as CuTe's
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(get<1, 0>(x))>, _0>);
  EXPECT_EQ(get<0>(x), 2);
  EXPECT_EQ((get<1, 1>(x)), 1);
  EXPECT_EQ(get<0>(b2(1, 3)), 3);  // a coordinate congruent to the shape
  const auto b3 = make_layout(Shape<_2, Shape<_2, _2>>{}, make_stride(E<1, 0>{} * 2, make_stride(E<0>{}, E<1, 0>{})));
  const auto y = b3(7);  // (1, (3)): CuTe prints (1,(3))
  EXPECT_EQ(get<0>(y), 1);
  EXPECT_EQ((get<1, 0>(y)), 3);
  static_assert(tuple_size<std::remove_cvref_t<decltype(get<1>(y))>>::value == 1);
}

// composition(A, B): each leaf s : v e_N of B becomes composition(mode N of A, s : v).
TEST(Basis, ComposesAsCuTe) {
  const auto a = make_layout(Shape<_4, _4>{}, Stride<_4, _1>{});
  const auto b = make_layout(Shape<_4, _4>{}, Stride<E<1>, E<0>>{});
  const auto r = composition(a, b);
  EXPECT_EQ(to_string(r), "(_4,_4):(_1,_4)");
  expect_law(a, b, r);

  const auto a2 = make_layout(Shape<_4, Shape<_2, _3>>{}, Stride<_6, Stride<_3, _1>>{});
  const auto b2 = make_layout(Shape<_2, _4>{}, Stride<E<1, 1>, E<0>>{});
  EXPECT_EQ(to_string(composition(a2, b2)), "(_2,_4):(_1,_6)");
  expect_law(a2, b2, composition(a2, b2));

  // run-time shapes and scales: the same rule, checked at run time
  const auto b4 = make_layout(make_shape(opaque(2), opaque(4)), Stride<E<1, 1>, E<0>>{});
  EXPECT_EQ(to_string(b4), "(2,4):(_1@1@1,_1@0)");
  EXPECT_EQ(to_string(composition(a2, b4)), "(2,4):(_1,_6)");
  expect_law(a2, b4, composition(a2, b4));
  const auto b3 = make_layout(Shape<_2, Shape<_2, _2>>{}, make_stride(E<1, 0>{} * 2, make_stride(E<0>{}, E<1, 0>{})));
  EXPECT_EQ(to_string(b3), "(_2,(_2,_2)):(2@0@1,(_1@0,_1@0@1))");
  EXPECT_EQ(to_string(composition(a2, b3)), "(_2,(_2,_2)):(6,(_6,_3))");
}

// Two leaves of B that move one mode of A add coordinates A's mode does not add: CuTe returns
// (_2,_2):(_3,_3), whose R(3) = 6 where A(B(3)) = A(0, 2) = 1. Refused: at compile time when
// static (tests/ct/compile_fail/basis_composition_law.cpp), at run time otherwise.
TEST(Basis, RefusesWhereTheRuleIsWrong) {
  const auto a = make_layout(Shape<_4, Shape<_2, _3>>{}, Stride<_6, Stride<_3, _1>>{});
  const auto b = make_layout(make_shape(opaque(2), opaque(2)), Stride<E<1>, E<1>>{});
  try {
    (void)composition(a, b);
    FAIL() << "no error";
  } catch (const cotile::Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "composition: R(c) = A(B(c)) fails: B's scaled basis strides add coordinates that A's layout does not "
              "add (two leaves of B move one mode of A across its sub-modes)\n"
              "  A = (_4,(_2,_3)):(_6,(_3,_1))\n"
              "  B = (2,2):(_1@1,_1@1)\n"
              "  c = 3\n"
              "  R(c) = 6\n"
              "  A(B(c)) = 1\n"
              "  fix: give each leaf of B its own mode of A, or compose with A's modes one at a time");
  }
  // the same B moving two different modes composes
  const auto ok = make_layout(make_shape(opaque(2), opaque(3)), Stride<E<1, 0>, E<1, 1>>{});
  expect_law(a, ok, composition(a, ok));
}
