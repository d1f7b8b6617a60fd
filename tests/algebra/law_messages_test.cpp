// The refusals of results that violate their law, word for word: the examples of the issue
// that made laws checked (each a case where CuTe, or cotile before, returned a wrong layout),
// with what --as-cute returns for them.
#include <gtest/gtest.h>

#include "test_util.hpp"

using namespace cotile::test;

// CuTe prints the same wrong layout: R(2) = 1, but A(B(2)) = A(4) = 9.
TEST(LawMessages, CompositionWrapsUnevenlyAroundAMode) {
  EXPECT_EQ(calc_error("composition((_3,_4):(_8,_1), ((_4,_2),(_1)):((_2,_1),(_2)))"),
            "composition: R(c) = A(B(c)) fails at c = 2 (R(2) = 1, A(B(2)) = A(4) = 9)\n"
            "  A = (_3,_4):(_8,_1)\n"
            "  B = ((_4,_2),(_1)):((_2,_1),(_2))\n"
            "  why: B's mode _4:_2 meets A's mode _3:_8 with stride 2, which does not divide its size 3, and its "
            "elements run past it (the last at 3 * 2 = 6 >= 3)\n"
            "  CuTe 4.7 returns (((_2,_2),_2),(_1)):(((_16,_1),_8),(_1)) here\n"
            "  fix: give B strides that step over whole modes of A (multiples of their sizes) or within one mode "
            "(dividing its size), or reshape A so that its mode boundaries fall where B's modes end");
  std::string warnings;
  EXPECT_EQ(calc_as_cute("composition((_3,_4):(_8,_1), ((_4,_2),(_1)):((_2,_1),(_2)))", &warnings),
            "(((_2,_2),_2),(_1)):(((_16,_1),_8),(_1))");
  EXPECT_EQ(warnings.substr(0, warnings.find('\n')),
            "composition: R(c) = A(B(c)) fails at c = 2 (R(2) = 1, A(B(2)) = A(4) = 9)");
}

// R(2) = 5, but A(B(2)) = A(6) = 7.
TEST(LawMessages, CompositionRunsPastAModeBoundary) {
  EXPECT_EQ(calc_error("composition((_4,_6):(_1,_5), _6:_3)"),
            "composition: R(c) = A(B(c)) fails at c = 2 (R(2) = 5, A(B(2)) = A(6) = 7)\n"
            "  A = (_4,_6):(_1,_5)\n"
            "  B = _6:_3\n"
            "  why: B's mode _6:_3 meets A's mode _4:_1 with stride 3, which does not divide its size 4, and its "
            "elements run past it (the last at 5 * 3 = 15 >= 4)\n"
            "  CuTe 4.7 returns (_2,_3):(_3,_5) here\n"
            "  fix: give B strides that step over whole modes of A (multiples of their sizes) or within one mode "
            "(dividing its size), or reshape A so that its mode boundaries fall where B's modes end");
  std::string warnings;
  EXPECT_EQ(calc_as_cute("composition((_4,_6):(_1,_5), _6:_3)", &warnings), "(_2,_3):(_3,_5)");
  EXPECT_EQ(warnings.substr(0, warnings.find('\n')),
            "composition: R(c) = A(B(c)) fails at c = 2 (R(2) = 5, A(B(2)) = A(6) = 7)");
}

// R(L(2)) = R(1) = 4, not 2; a left inverse exists, (2,2,2):(2,0,1), and the message names it
// (laws/left_inverse_search.hpp). CuTe's algorithm with static strides; with a run-time stride
// (cotile's own computation) the run-time 1 is left out.
TEST(LawMessages, LeftInverseOfATieWithARunTimeOne) {
  EXPECT_EQ(
      calc_error("left_inverse(((_2,_2),1):((_4,_1),_1))"),
      "left_inverse: R(L(i)) = i fails at i = 2 (L(2) = 1, R(1) = 4, and L is injective)\n"
      "  L = ((_2,_2),1):((_4,_1),_1)\n"
      "  why: the modes _2:_1 and 1:_1 share the stride _1: left_inverse takes _2:_1 first and reads its coordinate "
      "modulo 1, but it takes 2 values (a run-time size 1 stays a mode; a static _1 would be dropped)\n"
      "  CuTe 4.7 returns (_4,_2):(_4,_1) here\n"
      "  a lawful left inverse, found by search: R = (2,2,2):(2,0,1) has R(L(i)) = i for every i < 4\n"
      "  fix: the R found above reads L's offsets back (CuTe's construction does not give it); else use "
      "right_inverse, or reorder, split or drop the offending modes");
  EXPECT_EQ(calc_as_cute("left_inverse(((_2,_2),1):((_4,_1),_1))"), "(_4,_2):(_4,_1)");
  EXPECT_EQ(calc("left_inverse(((_2,_2),1):((4,_1),_1))"), "(4,_2):(_2,_1)");
  // CuTe refuses run-time strides, and so does --as-cute.
  EXPECT_THROW(calc_as_cute("left_inverse(((_2,_2),1):((4,_1),_1))"), cotile::Error);
}

// L(R(L(23))) = 12, not L(23) = 192.
TEST(LawMessages, LeftInverseOfANonInjectiveLayout) {
  EXPECT_EQ(
      calc_error("left_inverse((8,4):(_24,12))"),
      "left_inverse: L(R(L(i))) = L(i) with R(L(i)) an index of L fails at i = 23 (L(23) = 192, R(192) = 8, L(8) = "
      "12)\n"
      "  L = (8,4):(_24,12)\n"
      "  why: L is not injective: L(1) = L(16) = 24, and R does not send 192 to an index with that offset\n"
      "  CuTe 4.7 refuses these inputs (left_inverse needs static strides)\n"
      "  fix: left_inverse inverts injective layouts whose strides, sorted, are positive, each divides the next and "
      "each mode ends below the next stride; use right_inverse, or reorder, split or drop the offending modes");
  // CuTe refuses these inputs (dynamic strides), and so does --as-cute.
  EXPECT_THROW(calc_as_cute("left_inverse((8,4):(_24,12))"), cotile::Error);
  // R(4) = 16 reaches L(2) = 4 again only as L is evaluated past its 16 indices.
  EXPECT_EQ(
      calc_error("left_inverse((_4,2,_2):(_2,1,2))"),
      "left_inverse: L(R(L(i))) = L(i) with R(L(i)) an index of L fails at i = 2 (L(2) = 4, R(4) = 16, not an index "
      "of L: its size is 16)\n"
      "  L = (_4,2,_2):(_2,1,2)\n"
      "  why: L is not injective: L(1) = L(8) = 2, and R does not send 4 to an index with that offset\n"
      "  CuTe 4.7 refuses these inputs (left_inverse needs static strides)\n"
      "  fix: left_inverse inverts injective layouts whose strides, sorted, are positive, each divides the next and "
      "each mode ends below the next stride; use right_inverse, or reorder, split or drop the offending modes");
}

// CuTe's arithmetic gives (2,0,1):(_2,25,48), an extent of 0.
TEST(LawMessages, ComplementWithAnEmptyMode) {
  EXPECT_EQ(
      calc_error("complement(((_2,4,_5)):((_1,_12,5)), _16)"),
      "complement: (L, C) injective, C ordered, cosize((L, C)) >= size(T) fails: C has a mode of size 0, so (L, C) has "
      "no elements\n"
      "  L = ((_2,4,_5)):((_1,_12,5))\n"
      "  F = filter(L) = (_2,4,_5):(_1,_12,5)\n"
      "  T = _16\n"
      "  why: L's mode _5:5 starts at stride 5, not a multiple of the extent 2 the modes below it cover\n"
      "  CuTe 4.7 refuses these inputs (CuTe computes the complement of a rank > 1 layout only with static strides)\n"
      "  fix: complement needs an injective layout whose modes, by increasing stride, each start at a multiple of the "
      "extent below them (s_i * d_i divides d_(i+1))");
  // CuTe refuses these inputs (dynamic strides), and so does --as-cute.
  EXPECT_THROW(calc_as_cute("complement(((_2,4,_5)):((_1,_12,5)), _16)"), cotile::Error);
}

// The shapes are positive; the stride is negative.
TEST(LawMessages, LeftInverseOfANegativeStride) {
  EXPECT_EQ(
      calc_error("left_inverse((_4,_8):(-1,_4))"),
      "left_inverse: R(L(i)) = i fails at i = 5 (L(5) = 3, R(3) = -3, and L is injective)\n"
      "  L = (_4,_8):(-1,_4)\n"
      "  why: L has the negative stride -1: a layout R has R(-x) = -R(x), so it cannot send negative offsets back to "
      "indices >= 0\n"
      "  CuTe 4.7 refuses these inputs (left_inverse needs static strides)\n"
      "  fix: left_inverse inverts injective layouts whose strides, sorted, are positive, each divides the next and "
      "each mode ends below the next stride; use right_inverse, or reorder, split or drop the offending modes");
  // CuTe refuses these inputs (dynamic strides), and so does --as-cute.
  EXPECT_THROW(calc_as_cute("left_inverse((_4,_8):(-1,_4))"), cotile::Error);
}

// A lone negative stride: CuTe's quotients make a "shape" of it, which C++'s division carries
// through the law's values; no layout has a negative extent.
TEST(LawMessages, LeftInverseOfALoneNegativeStride) {
  EXPECT_EQ(calc_error("left_inverse(_4:_-16)"),
            "left_inverse: the result (_-16,_4):(_0,_1) has the negative extent _-16, and a layout's extents count "
            "coordinates (>= 0)\n"
            "  L = _4:_-16\n"
            "  why: L has the negative stride _-16: a layout R has R(-x) = -R(x), so it cannot send negative offsets "
            "back to indices >= 0\n"
            "  CuTe 4.7 returns (_-16,_4):(_0,_1) here\n"
            "  fix: left_inverse inverts injective layouts whose strides, sorted, are positive, each divides the next "
            "and each mode ends below the next stride; use right_inverse, or reorder, split or drop the offending "
            "modes");
  EXPECT_EQ(calc_as_cute("left_inverse(_4:_-16)"), "(_-16,_4):(_0,_1)");
}

// A corpus case: CuTe returns the empty (1,0,2):(3,6,3).
TEST(LawMessages, ComplementOfACompactLayoutCuteEmpties) {
  EXPECT_EQ(calc_error("complement(((2,1),3):((_3,_3),_1))"),
            "complement: (L, C) injective, C ordered, cosize((L, C)) >= size(T) fails: C has a mode of size 0, so (L, "
            "C) has no elements\n"
            "  L = ((2,1),3):((_3,_3),_1)\n"
            "  F = filter(L) = (2,1,3):(_3,_3,_1)\n"
            "  T = 6\n"
            "  why: L's mode 1:_3 starts at stride _3, not a multiple of the extent 6 the modes below it cover\n"
            "  CuTe 4.7 returns (1,0,2):(3,6,3) here\n"
            "  fix: complement needs an injective layout whose modes, by increasing stride, each start at a multiple "
            "of the extent below them (s_i * d_i divides d_(i+1))");
  std::string warnings;
  EXPECT_EQ(calc_as_cute("complement(((2,1),3):((_3,_3),_1))", &warnings), "(1,0,2):(3,6,3)");
  EXPECT_EQ(warnings.substr(0, warnings.find('\n')),
            "complement: (L, C) injective, C ordered, cosize((L, C)) >= size(T) fails: C has a mode of size 0, so (L, "
            "C) has no elements");
}

// CuTe multiplies the extent of both leaves of stride _1: 256 sub-elements for 32.
TEST(LawMessages, DowncastOfTwoLeavesOfStrideOne) {
  EXPECT_EQ(calc("downcast((_4,_1):(_1,_1), _8)"), "(_32,_1):(_1,_8)");
  EXPECT_EQ(calc_error("downcast((_4,_1):(_1,_1), _8)", true),
            "downcast: R(c, j) = N L(c) + j fails: leaf 0 (_4:_1) and leaf 1 (_1:_1) both have stride +-1 and each "
            "takes N = 8 sub-elements an element, so R has N^2 = 64 sub-elements an element\n"
            "  L = (_4,_1):(_1,_1)\n"
            "  N = 8\n"
            "  CuTe 4.7 returns (_32,_8):(_1,_1) here\n"
            "  fix: coalesce L first, or write it with one leaf of stride _1 (the contiguous one; its extent takes "
            "the sub-elements)");
  std::string warnings;
  EXPECT_EQ(calc_as_cute("downcast((_4,_1):(_1,_1), _8)", &warnings), "(_32,_8):(_1,_1)");
  EXPECT_EQ(warnings.substr(0, warnings.find(':')), "downcast");
}

// CuTe's nullspace of an empty layout names index 0, which it does not have.
TEST(LawMessages, NullspaceOfAnEmptyLayout) {
  EXPECT_EQ(calc_error("nullspace((_0,_2):(_1,_0))"),
            "nullspace: K(i) distinct indices of L with L(K(i)) = 0 fails at i = 0 (K(0) = 0, not an index of L: "
            "size(L) = 0)\n"
            "  L = (_0,_2):(_1,_0)\n"
            "  CuTe 4.7 returns _2:_0 here\n"
            "  fix: L is empty, so no index of it maps to 0: test for an empty layout before taking its nullspace");
  std::string warnings;
  EXPECT_EQ(calc_as_cute("nullspace((_0,_2):(_1,_0))", &warnings), "_2:_0");
  // Its zero-stride modes include the empty one: K is empty too, and lawful.
  EXPECT_EQ(calc("nullspace((_0,_2):(_0,_0))"), "(_0,_2):(_1,_0)");
  EXPECT_EQ(calc("nullspace((_4,_2):(_1,_0))"), "_2:_4");
}

// CuTe rounds a run-time target up to whole blocks: 4 elements for 3.
TEST(LawMessages, TileToShapeOfATargetTheBlockDoesNotDivide) {
  EXPECT_EQ(calc_error("tile_to_shape(_2:_1, (3))"),
            "tile_to_shape: product_each(shape(R)) = product_each(S) fails at mode 0 (R's extent 4, S's 3): the "
            "block's extent 2 does not divide it\n"
            "  A = _2:_1\n"
            "  S = (3)\n"
            "  CuTe 4.7 returns ((_2,(2))):((_1,(_2))) here\n"
            "  fix: give S extents that are multiples of the block's (round them up to whole blocks and mask what "
            "lies past S)");
  EXPECT_EQ(calc("tile_to_shape(_2:_1, (4))"), "((_2,(2))):((_1,(_2)))");
}
