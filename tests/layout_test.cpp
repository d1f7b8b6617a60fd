// Layouts: construction, evaluation, coalesce and filter.
#include <gtest/gtest.h>

#include "test_util.hpp"

using namespace cotile;
using namespace cotile::test;

TEST(Layout, MakeLayoutIsColumnMajorWithStaticOnesAtStrideZero) {
  EXPECT_EQ(str(make_layout(T("((_4,_4),_1,_2,_4)"))), "((_4,_4),_1,_2,_4):((_1,_4),_0,_16,_32)");
  EXPECT_EQ(str(make_layout(T("(32,2,1)"))), "(32,2,1):(_1,32,64)");
}

TEST(Layout, MakeLayoutRightIsRowMajor) {
  EXPECT_EQ(str(make_layout_right(T("(_2,_4,_8)"))), "(_2,_4,_8):(_32,_8,_1)");
}

TEST(Layout, MakeOrderedLayoutFollowsTheOrder) {
  EXPECT_EQ(str(make_ordered_layout(T("(_2,_2,_2,_2)"), T("(_0,_2,_3,_1)"))), "(_2,_2,_2,_2):(_1,_4,_8,_2)");
}

TEST(Layout, CosizeIsOnePastTheLargestOffset) {
  EXPECT_EQ(str(cosize(L("8:_3"))), "22");
  EXPECT_EQ(str(cosize(L("(_4,_8):(_8,_1)"))), "_32");
}

// filter keeps an empty layout empty: a known extent 0 is not a broadcast mode to drop.
TEST(Layout, FilterOfAnEmptyLayoutIsEmpty) {
  EXPECT_EQ(str(filter(L("(4,0):(_1,_0)"))), "(4,0):(_1,_0)");
  EXPECT_EQ(str(filter_zeros(L("(4,_0,8):(_1,_0,_0)"))), "(4,_0,_1):(_1,_0,_0)");
  EXPECT_EQ(str(filter(L("(4,8):(_1,_0)"))), "4:_1");
}

// An empty layout reaches no offset (CuTe's sum 1 + (s - 1) |d| gives _-5 for _0:_6).
TEST(Layout, CosizeOfAnEmptyLayoutIsZero) {
  EXPECT_EQ(str(cosize(L("_0:_6"))), "_0");
  EXPECT_EQ(str(cosize(L("(_4,_0):(_1,_2)"))), "_0");
  EXPECT_EQ(str(cosize(L("(4,_0):(1,2)"))), "_0");  // empty whatever the run-time values
  EXPECT_EQ(str(cosize(L("(_4,0):(_1,_2)"))), "0");
  EXPECT_EQ(str(cosize(L("(_4,1):(_1,_2)"))), "4");
}

TEST(Layout, EvalAcceptsIndicesAndCoordinates) {
  EXPECT_EQ(str(eval(L("(_4,(_4,_16)):(_64,(_16,_1))"), T("167"))), "218");
  EXPECT_EQ(str(eval(L("(_32,_32):(_32,_1)"), T("(0,8)"))), "8");
}

TEST(Layout, CoalesceMergesOnlyStaticallyContiguousModes) {
  EXPECT_EQ(str(coalesce(L("(_2,_4):(_1,_2)"))), "_8:_1");
  EXPECT_EQ(str(coalesce(L("(_2,_4):(_1,_256)"))), "(_2,_4):(_1,_256)");
  EXPECT_EQ(str(coalesce(L("(2,4):(1,2)"))), "(2,4):(1,2)");  // dynamic: not provably contiguous
  EXPECT_EQ(str(coalesce(L("(_3):(1)"))), "_3:1");
  EXPECT_EQ(str(coalesce(L("(_1,_1):(_4,_2)"))), "_1:_0");
}

TEST(Layout, CoalesceWithProfileKeepsTheProfilesBoundaries) {
  // docs/qload.md §8.1: FP16 keeps (8,2) apart although 8*8 == 64.
  EXPECT_EQ(str(coalesce(L("((_1,(_8,_8)),(_8,_2)):((_0,(_128,_1)),(_8,_64))"), T("(_1,(_1,_1))"))),
            "((_8,_8),(_8,_2)):((_128,_1),(_8,_64))");
  EXPECT_EQ(str(coalesce(L("((_1,(_8,_8)),(_8,_2)):((_0,(_128,_1)),(_8,_64))"), T("(_1,_1)"))),
            "((_8,_8),_16):((_128,_1),_8)");
}

TEST(Layout, FilterDropsStaticZeroStridesOnly) {
  EXPECT_EQ(str(filter(L("(_4,_2,_8):(_1,_0,_4)"))), "_32:_1");
  EXPECT_EQ(str(filter(L("(_4,2,_8):(_1,0,_4)"))), "(_4,2,_8):(_1,0,_4)");
}

TEST(Layout, SelectReplaceAppendGroup) {
  EXPECT_EQ(str(select(L("(_1,(_2,_12),_8,_4):(_1,(_1,_8),_192,_2)"), T("(_2,_2,_0)"))), "(_8,_8,_1):(_192,_192,_1)");
  EXPECT_EQ(str(replace(L("(1,8):(_1,_1)"), 1, L("(_5,_12):(_12,_1)"))), "(1,(_5,_12)):(_1,(_12,_1))");
  EXPECT_EQ(str(append(L("6:_2"), L("(3,_12):(0,_0)"))), "(6,(3,_12)):(_2,(0,_0))");
  EXPECT_EQ(str(group(L("(2,6):(_6,_1)"), 1, 2)), "(2,(6)):(_6,(_1))");
  // An empty range groups nothing (CuTe's group<B,B>, printed by CuTe 4.x): no empty mode.
  EXPECT_EQ(str(group(L("((5,8)):((3,_30))"), 1, 1)), "((5,8)):((3,_30))");
  EXPECT_EQ(str(group(L("(2,6):(_6,_1)"), 0, 0)), "(2,6):(_6,_1)");
  EXPECT_EQ(str(group(L("_3:1"), 0, 0)), "(_3):(1)");
}

TEST(Layout, FilterWithAProfileFiltersModeByMode) {
  EXPECT_EQ(str(filter(L("(_4,(_2,_3)):(_0,(_1,_2))"), T("(_1,_1)"))), "(_1,_6):(_0,_1)");
  EXPECT_EQ(str(filter(L("(_4,(_2,_3)):(_0,(_1,_2))"), T("_1"))), "_6:_1");
  EXPECT_EQ(str(filter(L("(_4,(_2,_3),_5):(_0,(_1,_2),_8)"), T("(_1,_1)"))), "(_1,_6,_5):(_0,_1,_8)");
  EXPECT_THROW(filter(L("(_4,_2):(_1,_4)"), T("(_1,_1,_1)")), Error);
}
