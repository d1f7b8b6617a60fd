// Integer tuples: each operation on examples whose results are known (CuTe's documented ones).
#include <gtest/gtest.h>

#include "test_util.hpp"

using namespace cotile;
using namespace cotile::test;

TEST(IntTuple, SizeIsProductOfLeaves) {
  EXPECT_EQ(str(size(T("((_2,4),_8)"))), "64");
  EXPECT_EQ(str(size(T("((_2,_4),_8)"))), "_64");
  EXPECT_EQ(str(size(T("(_0,5)"))), "_0");
}

TEST(IntTuple, RankAndDepthAreStatic) {
  EXPECT_EQ(str(rank(T("8"))), "_1");
  EXPECT_EQ(str(rank(T("(8,(2,3))"))), "_2");
  EXPECT_EQ(str(depth(T("8"))), "_0");
  EXPECT_EQ(str(depth(T("(8,(2,(3)))"))), "_3");
}

TEST(IntTuple, ProductEachWrapsAnInteger) {
  EXPECT_EQ(str(product_each(T("_8"))), "(_8)");
  EXPECT_EQ(str(product_each(T("((_128,_32),_1,_4)"))), "(_4096,_1,_4)");
}

TEST(IntTuple, ShapeDivFoldsAnIntegerAcrossModes) {
  EXPECT_EQ(str(shape_div(T("(4,5,6)"), T("40"))), "(1,1,3)");
  EXPECT_EQ(str(shape_div(T("(_128,_128,_128)"), T("(_1,_2,_1)"))), "(_128,_64,_128)");
  EXPECT_EQ(str(shape_div(T("_4"), T("2"))), "2");
}

TEST(IntTuple, ShapeDivRejectsNonDivisibleStaticValues) { EXPECT_THROW(shape_div(T("_6"), T("_4")), Error); }

// a / b where b divides a, else (a divides b) rounded away from zero: signum(a) signum(b), as CuTe
// computes it, for either sign.
TEST(IntTuple, ShapeDivRoundsAwayFromZero) {
  EXPECT_EQ(str(shape_div(T("2"), T("_4"))), "1");
  EXPECT_EQ(str(shape_div(T("-4"), T("2"))), "-2");
  EXPECT_EQ(str(shape_div(T("_5"), T("_-1"))), "_-5");
  EXPECT_EQ(str(shape_div(T("-2"), T("4"))), "-1");
  EXPECT_EQ(str(shape_div(T("_2"), T("_-4"))), "_-1");
  EXPECT_EQ(str(shape_div(T("0"), T("-1"))), "0");
  EXPECT_EQ(str(shape_div(T("_0"), T("3"))), "0");  // as CuTe's: _0 / 3 meets the run-time signum(3)
  EXPECT_EQ(str(shape_div(T("(6,4)"), T("-12"))), "(-1,-2)");
}

TEST(IntTuple, DivisionFoldsOverAZeroMode) {
  // b divides a's modes in turn; after the last one nothing is left to divide, so a last mode of 0
  // is fine, while a 0 before it leaves the rest undefined (it was refused as b % 0, naming an
  // internal value).
  EXPECT_EQ(str(ceil_div(T("(4,0)"), T("8"))), "(1,0)");
  EXPECT_EQ(str(shape_div(T("(4,0)"), T("8"))), "(1,0)");
  EXPECT_EQ(calc_error("ceil_div((4,0,2), 8)"),
            "ceil_div: a mode of a before its last is 0, so what is left of b for the modes after it is undefined\n"
            "  a = (4,0,2)\n  b = 8\n  mode = 1");
  EXPECT_EQ(calc_error("shape_div((4,0,2), 8)"),
            "shape_div: a mode of a before its last is 0, so what is left of b for the modes after it is undefined\n"
            "  a = (4,0,2)\n  b = 8\n  mode = 1");
}

TEST(IntTuple, CeilDivPadsMissingModesWithOne) { EXPECT_EQ(str(ceil_div(T("(_12,_2)"), T("(_5)"))), "(_3,_2)"); }

TEST(IntTuple, ElemLessIsStaticOnlyWhenDecidedStatically) {
  EXPECT_EQ(str(elem_less(T("(_1,_2)"), T("(_4,_3)"))), "_1");
  EXPECT_EQ(str(elem_less(T("(1,_5)"), T("(4,_3)"))), "_0");
  EXPECT_EQ(str(elem_less(T("(1,_2)"), T("(4,_3)"))), "1");
}

TEST(IntTuple, Crd2IdxLastModeTakesTheRemainder) {
  EXPECT_EQ(str(crd2idx(T("17"), T("(_4,_2)"), T("(_1,_4)"))), "17");
  EXPECT_EQ(str(crd2idx(T("(1,2)"), T("(_4,_2)"), T("(_2,_8)"))), "18");
}

TEST(IntTuple, Idx2CrdIsColexicographic) {
  EXPECT_EQ(str(idx2crd(T("17"), T("(_4,(_3,_2))"))), "(1,(1,1))");
  EXPECT_EQ(str(idx2crd(T("_5"), T("(_2,_3)"))), "(_1,_2)");
}

TEST(IntTuple, CongruenceIsStructural) {
  EXPECT_EQ(str(congruent(T("(1,(2,3))"), T("(_4,(5,_6))"))), "_1");
  EXPECT_EQ(str(congruent(T("(1,2)"), T("(1,(2))"))), "_0");
}

TEST(IntTuple, CompatibleComparesSizesAtTerminals) {
  EXPECT_EQ(str(compatible(T("_8"), T("(_2,_4)"))), "_1");
  EXPECT_EQ(str(compatible(T("8"), T("(_2,_4)"))), "1");
  EXPECT_EQ(str(compatible(T("(_2,_4)"), T("_8"))), "_0");
  EXPECT_EQ(str(compatible(T("(2,4)"), T("(2,4,1)"))), "_0");
}

TEST(IntTuple, WeaklyCongruentCollapsesSubtreesToIntegers) {
  EXPECT_EQ(str(weakly_congruent(T("_2"), T("(_4,(_1,_6))"))), "_1");    // an integer stands for any subtree
  EXPECT_EQ(str(weakly_congruent(T("(2,_3)"), T("(_4,(1,6))"))), "_1");  // dynamic leaves: still static
  EXPECT_EQ(str(weakly_congruent(T("(_4,(_1,_6))"), T("(_2,_3)"))), "_0");
  EXPECT_EQ(str(weakly_congruent(T("(_2)"), T("_4"))), "_0");
  EXPECT_EQ(str(weakly_congruent(T("(_2,_3)"), T("(_2,_3,_1)"))), "_0");
  EXPECT_EQ(str(weakly_congruent(T("((_2,_2),_3)"), T("(_2,(_3,_1))"))), "_0");
  EXPECT_EQ(str(weakly_congruent(T("(_1,(_1,_1))"), T("((_2,_2),(_2,(_2,_2)))"))), "_1");
}

// congruent(a, b) == weakly_congruent(a, b) && weakly_congruent(b, a), over every pair of profiles.
TEST(IntTuple, CongruentIsWeaklyCongruentBothWays) {
  const char* profiles[] = {"_1",           "(_1)",         "(_1,_1)",    "((_1,_1))",
                            "(_1,(_1,_1))", "((_1,_1),_1)", "(_1,_1,_1)", "((_1,_1),(_1,_1))"};
  int weak_pairs = 0;
  for (const char* a : profiles) {
    for (const char* b : profiles) {
      const bool ab = is_weakly_congruent(T(a), T(b)), ba = is_weakly_congruent(T(b), T(a));
      EXPECT_EQ(is_congruent(T(a), T(b)), ab && ba) << a << " vs " << b;
      weak_pairs += ab;
    }
  }
  // _1 is below all 8, (_1) below itself and ((_1,_1)), (_1,_1) below the 4 of rank 2,
  // (_1,(_1,_1)) and ((_1,_1),_1) below themselves and ((_1,_1),(_1,_1)), the other 3 below
  // themselves only.
  EXPECT_EQ(weak_pairs, 8 + 2 + 4 + 2 + 2 + 3);
}

TEST(IntTuple, ProductLikeTakesProductsAtTheGuidesLeaves) {
  EXPECT_EQ(str(product_like(T("((_2,_3),_4)"), T("(_1,_1)"))), "(_6,_4)");
  EXPECT_EQ(str(product_like(T("((_2,3),(_4,(_5,_6)))"), T("(_1,(_1,_1))"))), "(6,(_4,_30))");
  EXPECT_EQ(str(product_like(T("(_2,_3)"), T("_1"))), "_6");
  EXPECT_EQ(str(product_like(T("(_2,_3)"), T("(_1,_1)"))), "(_2,_3)");  // congruent: t itself
  EXPECT_THROW(product_like(T("(_2,_3)"), T("(_1,_1,_1)")), Error);
}

TEST(IntTuple, ElemScaleScalesEachLeafByItsSubtree) {
  EXPECT_EQ(str(elem_scale(T("(_2,3)"), T("((_2,_2),4)"))), "(_8,12)");
  EXPECT_EQ(str(elem_scale(T("_5"), T("(_2,(_3,_4))"))), "_120");
  EXPECT_EQ(str(elem_scale(T("(_0,4)"), T("(7,_2)"))), "(_0,8)");  // _0 * x stays static
  EXPECT_THROW(elem_scale(T("(_2,_3)"), T("_4")), Error);
}

TEST(IntTuple, CompactOrderPutsDynamicOrdersLast) {
  // Dynamic order values count as larger than every static one, left to right.
  EXPECT_EQ(str(compact_order(T("(_4,4,8)"), T("(2,0,_1)"))), "(8,32,_1)");
  EXPECT_EQ(str(compact_order(T("(_2,_2,_2,_2)"), T("(_0,_2,_3,_1)"))), "(_1,_4,_8,_2)");
}

TEST(IntTuple, InnerProductFoldsFromStaticZero) {
  EXPECT_EQ(str(inner_product(T("(_2,_3)"), T("(_4,_5)"))), "_23");
  EXPECT_EQ(str(inner_product(T("(2,(_3,4))"), T("(_4,(_5,1))"))), "27");
  EXPECT_EQ(str(inner_product(T("_3"), T("4"))), "12");
  EXPECT_THROW(inner_product(T("(_2,_3)"), T("_4")), Error);
}

TEST(IntTuple, PrefixProductIsExclusiveAndCongruent) {
  EXPECT_EQ(str(prefix_product(T("(_2,(3,_4))"))), "(_1,(_2,6))");
  EXPECT_EQ(str(prefix_product(T("(_2,_3)"), T("_4"))), "(_4,_8)");
  EXPECT_EQ(str(prefix_product(T("(2,3)"), T("(_1,_2)"))), "(_1,_2)");
  EXPECT_EQ(str(prefix_product(T("_8"))), "_1");
  // unlike compact strides, a _1 mode keeps its running product
  EXPECT_EQ(str(prefix_product(T("(_1,_4)"))), "(_1,_1)");
  EXPECT_THROW(prefix_product(T("_8"), T("(_1)")), Error);
}

TEST(IntTuple, Idx2CrdWithAStrideDividesThenWraps) {
  EXPECT_EQ(str(idx2crd(T("77"), T("(8,16)"), T("(16,1)"))), "(4,13)");
  EXPECT_EQ(str(idx2crd(T("77"), T("(8,16)"), T("1"))), "(5,9)");  // compact strides from 1
  EXPECT_EQ(str(idx2crd(T("(3,5)"), T("(8,16)"), T("(16,1)"))), "(0,5)");
  EXPECT_EQ(str(idx2crd(T("5"), T("_1"), T("0"))), "_0");              // no division by the 0 stride
  EXPECT_THROW(idx2crd(T("5"), T("4"), T("0")), Error);                // no coordinate through a 0 stride
  EXPECT_EQ(str(idx2crd(T("5"), T("(1,_3)"), T("(0,_2)"))), "(0,2)");  // a run-time 1: its one coordinate
}

// lex_less: the first leaf most significant; colex_less: the last. Static where the leaves are.
TEST(IntTuple, LexAndColexOrders) {
  const IntTuple a = make_tuple(static_int(1), make_tuple(static_int(5), dynamic_int(2)));
  const IntTuple b = make_tuple(static_int(2), make_tuple(static_int(0), dynamic_int(2)));
  EXPECT_EQ(lex_less(a, b), static_int(1));     // 1 < 2, both static, decides whatever follows
  EXPECT_EQ(colex_less(a, b), dynamic_int(0));  // 2 == 2, then 5 > 0
  EXPECT_EQ(lex_less(make_tuple(static_int(1), static_int(2)), make_tuple(static_int(1), static_int(3))),
            static_int(1));
  EXPECT_EQ(lex_less(a, a), dynamic_int(0));
  EXPECT_THROW(lex_less(a, make_tuple(static_int(1), static_int(2))), Error);
}

// replace and prepend move the other modes' codes and leaves in place: modes that grow, shrink,
// sit first, last or between nested ones keep every other mode as it was.
TEST(IntTuple, ReplaceModeOfAnySizeKeepsTheOthers) {
  EXPECT_EQ(str(replace(T("(_2,(3,_4),5)"), 1, T("7"))), "(_2,7,5)");
  EXPECT_EQ(str(replace(T("(_2,3,5)"), 1, T("((_6,7),_8)"))), "(_2,((_6,7),_8),5)");
  EXPECT_EQ(str(replace(T("((1,2),(3,(4,5)),6)"), 0, T("_9"))), "(_9,(3,(4,5)),6)");
  EXPECT_EQ(str(replace(T("((1,2),(3,(4,5)),6)"), 2, T("(7,(8))"))), "((1,2),(3,(4,5)),(7,(8)))");
  EXPECT_EQ(str(replace(T("(1,2)"), 1, T("()"))), "(1,())");
  EXPECT_EQ(str(replace(T("4"), 0, T("(5,6)"))), "(5,6)");
  EXPECT_THROW(replace(T("(1,2)"), 2, T("3")), Error);
}

TEST(IntTuple, PrependPutsTheModeFirst) {
  EXPECT_EQ(str(prepend(T("(_2,(3,_4))"), T("(5,6)"))), "((5,6),_2,(3,_4))");
  EXPECT_EQ(str(prepend(T("_8"), T("1"))), "(1,_8)");
  EXPECT_EQ(str(prepend(T("()"), T("(1,2)"))), "((1,2))");
}
