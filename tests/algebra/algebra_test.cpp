// The algebra on the Q-load chain's layouts (§6, §7) and on documented examples.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "test_util.hpp"

using namespace cotile;
using namespace cotile::test;

namespace {
const char* kAtomQTv = "((_2,_32),_16):((_16,_32),_1)";
}

// §6: the data layout of the Q copy and §7.2: its coalesce, left inverse and inv_data_layout.
TEST(Spec, Fp8DataLayoutChain) {
  const Layout data = L("((_128,_32),_1,_4):((_128,_1),_0,_32)");
  EXPECT_EQ(str(coalesce(data)), "(_128,_128):(_128,_1)");
  EXPECT_EQ(str(left_inverse(data)), "(_128,_128):(_128,_1)");
  const Layout inv = make_layout_concat(left_inverse(data), Layout{});
  EXPECT_EQ(str(inv), "((_128,_128),_1):((_128,_1),_0)");
  // §7.3
  EXPECT_EQ(str(composition(inv, L(kAtomQTv))), "((_2,(_4,_8)),_16):((_2048,(_4096,_1)),_128)");
}

TEST(Spec, Fp16DataLayoutChain) {
  const Layout data = L("((_128,_16),_1,_8):((_128,_1),_0,_16)");
  const Layout inv = make_layout_concat(left_inverse(data), Layout{});
  EXPECT_EQ(str(inv), "((_128,_128),_1):((_128,_1),_0)");
  EXPECT_EQ(str(composition(inv, L(kAtomQTv))), "((_2,(_4,_8)),_16):((_2048,(_4096,_1)),_128)");
}

// §7.4-7.6 expressed with the engine's operations.
TEST(Spec, Fp8TilerTile2DataAndLayoutTv) {
  const Layout tv_data = L("((_2,(_4,_8)),_16):((_2048,(_4096,_1)),_128)");
  const IntTuple flat = product_each(L("((_128,_32),_1,_4):((_128,_1),_0,_32)").shape);
  EXPECT_EQ(str(flat), "(_4096,_1,_4)");
  EXPECT_EQ(str(filter(composition(make_layout(flat, T("(_1,_0,_0)")), tv_data))), "(_2,_8,_16):(_2048,_1,_128)");
  EXPECT_EQ(str(filter(composition(make_layout(flat, T("(_0,_1,_0)")), tv_data))), "_1:_0");
  EXPECT_EQ(str(filter(composition(make_layout(flat, T("(_0,_0,_1)")), tv_data))), "_4:_1");
  const Tile tiler = TL("((_2,_8,_16):(_2048,_1,_128),_1:_0,_4:_1)");
  const Layout tile2data = composition(make_layout(flat), tiler);
  EXPECT_EQ(str(tile2data), "((_2,_8,_16),_1,_4):((_2048,_1,_128),_0,_4096)");
  EXPECT_EQ(str(composition(left_inverse(tile2data), tv_data)), "((_2,(_4,_8)),_16):((_1,(_256,_2)),_16)");
}

TEST(Algebra, ComplementFillsTheGaps) {
  EXPECT_EQ(str(complement(L("(_1,_32,_4):(_1024,_2,_256)"))), "(_2,_4):(_1,_64)");
  EXPECT_EQ(str(complement(L("4:2"), T("24"))), "(2,3):(_1,8)");
}

TEST(Algebra, RightInverseFollowsStaticStridesFromOne) {
  EXPECT_EQ(str(right_inverse(L("((_2,_4),_1):((_1,_2),_8)"))), "_8:_1");
  EXPECT_EQ(str(right_inverse(L("((_4,2),(2,4),16):((_512,_2048),(32,128),_1)"))), "16:64");
}

TEST(Algebra, LeftInverseRequiresStaticStridesInStrictMode) {
  EXPECT_THROW(left_inverse(L("(_4,_8):(8,_1)"), Options{true}), Error);
  // Beyond CuTe: computed from the run-time values, dependent leaves dynamic.
  EXPECT_EQ(str(left_inverse(L("(_4,_8):(8,_1)"))), "(8,_4):(_4,_1)");  // 8 / _4 depends on the run-time 8
}

TEST(Algebra, LogicalDivideSplitsTileAndRest) {
  EXPECT_EQ(str(logical_divide(L("(_4,_2,_3):(_2,_1,_8)"), TL("_4:_2"))), "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))");
  // Dynamic shapes cannot be merged statically, so the result keeps more modes (same function).
  EXPECT_EQ(str(logical_divide(L("(_4,2,3):(_2,_1,_8)"), TL("_4:_2"))),
            "((_2,2,1),(_2,(1,3))):((_4,_1,8),(_2,(_2,8)))");
}

TEST(Algebra, EvenlyDividesMeansWholeTiles) {
  EXPECT_EQ(str(evenly_divides(T("(_2,_8)"), TL("_4"))), "_1");  // 16 == 4 * size((_1,_4))
  EXPECT_EQ(str(evenly_divides(T("_16"), TL("_12"))), "_0");     // 16 != 12 * 2
  EXPECT_EQ(str(evenly_divides(T("16"), TL("12"))), "0");        // the same, dynamic
  EXPECT_EQ(str(evenly_divides(T("(16,8)"), TL("(_4,_2)"))), "1");
  EXPECT_EQ(str(evenly_divides(T("(_16)"), TL("_16"))), "_1");
  EXPECT_EQ(str(evenly_divides(T("_16"), TL("(_16)"))), "_1");  // an integer is its own only mode
  EXPECT_EQ(str(evenly_divides(T("_8"), TL("(_16)"))), "_0");
  // More tiler modes than shape modes: static _0 whatever the values.
  EXPECT_EQ(str(evenly_divides(T("(2,8)"), TL("(_2,(_2,_4))"))), "_0");
  EXPECT_EQ(str(evenly_divides(T("((_2,(_4,_2)))"), TL("((_2,_8))"))), "_1");
  EXPECT_EQ(str(evenly_divides(T("((_2,_8))"), TL("((_2,(_4,_2)))"))), "_0");
  // A layout tiler: its size times its complement's in the shape.
  EXPECT_EQ(str(evenly_divides(T("(_32,_64)"), TL("(_8:_2,_32)"))), "_1");
  EXPECT_EQ(str(evenly_divides(T("(_32,_64)"), TL("(_8:_3,_32)"))), "_0");
  EXPECT_EQ(str(evenly_divides(T("(_6,_64)"), TL("(_,_32)"))), "_1");
}

// evenly_divides(S, T) == _1 promises whole tiles: logical_divide(make_layout(S), T) keeps size(S).
// (Not conversely: (_4,_6) by _3 divides 24 into 8 tiles, but 3 does not split the mode _4,
// the integer being folded across the modes as ceil_div does, so the answer is _0, as CuTe's.)
TEST(Algebra, EvenlyDividesPromisesLogicalDivideKeepsTheSize) {
  const char* shapes[] = {"_12", "_16", "(_4,_6)", "(_2,_8)", "((_2,_4),_3)"};
  const char* tilers[] = {"_2", "_3", "_4", "_8", "_12", "(_2,_3)", "(_4,_2)", "((_2,_2),_3)", "(_2:_2,_3)"};
  int divides = 0, cases = 0;
  for (const char* s : shapes) {
    for (const char* t : tilers) {
      const IntTuple shape = T(s);
      const Int r = evenly_divides(shape, TL(t));
      ASSERT_TRUE(r.is_static) << s << " by " << t;
      ++cases;
      if (r.value == 0) continue;
      ++divides;
      EXPECT_EQ(size(logical_divide(make_layout(shape), TL(t))), size(shape)) << s << " by " << t;
    }
  }
  EXPECT_EQ(cases, 45);
  EXPECT_EQ(divides, 24);  // e.g. (_4,_6) by _2, _4, _8, _12, (_2,_3), (_4,_2), (_2:_2,_3)
  EXPECT_EQ(evenly_divides(T("(_4,_6)"), TL("_3")), static_int(0));
  EXPECT_EQ(evenly_divides(T("_12"), TL("_8")), static_int(0));
}

TEST(Algebra, DomainDistributeTakesWhatEachLeafShares) {
  EXPECT_EQ(str(domain_distribute(T("(_15,_14)"), static_int(6))), "(_3,_2):(_1,_15)");
  // 128 = 64 from _64, then 2 from the first _8 (gcd(_3, 2) = 1 is coalesced away).
  EXPECT_EQ(str(domain_distribute(T("((_64,_3),(_8,_8))"), static_int(128))), "(_64,_2):(_1,_192)");
  // 1024 = 64 * 8 * 2, the last two contiguous (192 * 8 = 1536): coalesced.
  EXPECT_EQ(str(domain_distribute(T("(_192,(_8,_8))"), static_int(1024))), "(_64,_16):(_1,_192)");
  EXPECT_EQ(str(domain_distribute(T("_12"), static_int(8))), "_4:_1");  // only 4 of the 8 found
  EXPECT_THROW(domain_distribute(T("(_4,8)"), static_int(2)), Error);
  EXPECT_THROW(domain_distribute(T("(_4,_8)"), dynamic_int(2)), Error);
}

// Its postconditions over shapes and sizes: size(R) divides n, A is evenly divided by R, R is
// strictly increasing.
TEST(Algebra, DomainDistributeIsAnOrderedTileOfTheShape) {
  const char* shapes[] = {"(_15,_14)", "((_64,_3),(_8,_8))", "(_192,(_8,_8))", "((_64,_3))", "(_6,_10,_9)", "_7"};
  int full = 0;
  for (const char* s : shapes) {
    for (int n : {1, 2, 3, 4, 6, 8, 12, 30, 128, 1024}) {
      const Layout r = domain_distribute(T(s), static_int(n));
      const int64_t k = size(r).value;
      EXPECT_EQ(n % k, 0) << s << " " << n;
      full += k == n;
      EXPECT_EQ(evenly_divides(T(s), tile_layout(r)), static_int(1)) << s << " " << n;
      for (int64_t i = 1; i < k; ++i) EXPECT_LT(eval(r, i - 1).value, eval(r, i).value) << s << " " << n;
    }
  }
  // All n found: 5 for (_15,_14) (1, 2, 3, 6, 30), 9 and 9 for the two of size 12288 (all but 30),
  // 7 for ((_64,_3)), 7 for (_6,_10,_9), 1 for _7.
  EXPECT_EQ(full, 38);
}

TEST(Algebra, MaxAlignmentIsTheContiguousVectorMeetingTheRest) {
  EXPECT_EQ(str(max_alignment(L("(_4,_8):(_1,_16)"))), "_4");
  EXPECT_EQ(str(max_alignment(L("(_4,_8):(_8,_1)"))), "_32");
  EXPECT_EQ(str(max_alignment(L("(_4,8):(_1,12)"))), "_4");  // dynamic: extent 1, stride 0
  EXPECT_EQ(str(max_alignment(L("(_8,_8):(_1,_12)"))), "_4");
  EXPECT_EQ(str(max_alignment(L("(_2,_4):(_4,_0)"))), "_1");  // no offset 0..1 run
  EXPECT_EQ(str(max_alignment(L("_16:_0"))), "_1");           // a broadcast: no contiguous run at all
}

// Its promise over static layouts: the offsets (with their multiplicities) come in aligned blocks
// of N: each offset o's block [o - o % N, o - o % N + N) is hit, every offset in it equally often.
TEST(Algebra, MaxAlignmentOffsetsComeInAlignedBlocks) {
  const char* layouts[] = {"(_4,_8):(_1,_16)",      "(_4,_8):(_8,_1)", "(_8,_8):(_1,_12)", "((_2,_4),_3):((_1,_8),_2)",
                           "(_2,_2,_4):(_1,_2,_8)", "(_4,_4):(_2,_1)", "(_6,_2):(_1,_6)",  "_8:_2"};
  int64_t widest = 0;
  for (const char* text : layouts) {
    const Layout l = L(text);
    const int64_t n = max_alignment(l).value;
    std::vector<int> hits(size_t(cosize(l).value), 0);
    for (int64_t i = 0; i < size(l).value; ++i) ++hits[size_t(eval(l, i).value)];
    for (size_t o = 0; o < hits.size(); ++o) {
      if (hits[o] == 0) continue;
      const size_t base = o - o % size_t(n);
      for (size_t k = base; k < base + size_t(n); ++k) EXPECT_EQ(hits[k], hits[o]) << text << " offset " << k;
    }
    widest = std::max(widest, n);
  }
  EXPECT_EQ(widest, 32);
}

TEST(Algebra, ZippedTiledFlatDivideRearrangeModes) {
  EXPECT_EQ(str(flat_divide(L("((_64,_1,_5),_2):((_5,_320,_1),_320)"), TL("_16:_1"))),
            "(_16,_4,_5,_2):(_5,_80,_1,_320)");
}

TEST(Algebra, ProductsReproduceTheBlock) {
  EXPECT_EQ(str(raked_product(L("(_2,_32):(_32,_1)"), L("(_2,_1):(_1,_2)"))),
            "((_2,_2),(_1,_32)):((_64,_32),(_128,_1))");
  EXPECT_EQ(str(blocked_product(L("(16,_1):(_1,_0)"), L("(_2,_4):(1,2)"))), "((16,_2),(_1,_4)):((_1,16),(_0,32))");
}

TEST(Algebra, UpcastRefusesWhatCuteTruncates) {
  // CuTe assumes dynamic strides are divisible: 1/4 and 2/4 truncate to 0, which is not the
  // layout in units of 4; cotile refuses unless asked for CuTe's result.
  EXPECT_THROW(upcast(L("(8,32,8):(1,2,256)"), 4), LawError);
  LawLog log;
  EXPECT_EQ(str(upcast(L("(8,32,8):(1,2,256)"), 4, Options{true, true, &log})), "(8,32,8):(0,0,64)");
  EXPECT_EQ(log.count, 1);
  EXPECT_EQ(str(upcast(L("(8,32,8):(4,8,256)"), 4)), "(8,32,8):(1,2,64)");
  EXPECT_EQ(str(downcast(L("(3,4,2,64):(0,0,_1,6)"), 16)), "(3,4,32,64):(0,0,_1,96)");
}

TEST(Algebra, SwizzleXorsHighBitsIntoLowBits) {
  const Swizzle sw = make_swizzle(3, 2, 3);
  EXPECT_EQ(sw(53), 49);
  EXPECT_EQ(sw(168), 188);
}

// max_common_layout's law is checked on its result: a step that violates its own law (here
// A o right_inverse(B), whose B's stride 5 wraps around A's first mode) does not refuse a result
// that holds (_1:_0, no common elements). Found by law_fuzz.
TEST(Algebra, MaxCommonLayoutIsCheckedOnItsResult) {
  const Layout a = L("((_16,_16),(_1,_16),12,(_3,12)):((_60,_60),(28,_-7),_51,(_60,_45))");
  const Layout b = L("(_5,(_1,_16),(_16,2)):(_63,(28,_1),(10,29))");
  EXPECT_THROW(composition(a, right_inverse(b)), LawError);
  EXPECT_EQ(str(max_common_layout(a, b)), "_1:_0");
  EXPECT_EQ(str(max_common_vector(a, b)), "_1");
}

// An empty layout has no index: its right inverse R must be empty. CuTe's follows the chain of
// strides 1, 2, ... past the extent 0 of (_2,_0):(_1,_1) and returns _2:_1, whose R(0) = 0 L
// evaluates only beyond its size. Found by an independent fuzz of `cotile calc`; it fed
// max_common_vector(_2:_1, (_2,_0):(_1,_1)) = _2 through B's right inverse.
TEST(Algebra, RightInverseOfAnEmptyLayoutIsRefused) {
  try {
    (void)right_inverse(L("(_2,_0):(_1,_1)"));
    ADD_FAILURE() << "right_inverse of an empty layout returned";
  } catch (const LawError& e) {
    EXPECT_EQ(std::string(e.what()),
              "right_inverse: L(R(i)) = i with R(i) an index of L fails at i = 0 (R(0) = 0, not an index of L: its "
              "size is 0)\n"
              "  L = (_2,_0):(_1,_1)\n"
              "  why: L has a mode of size _0: shapes must be positive\n"
              "  CuTe 4.7 returns _2:_1 here\n"
              "  fix: give every mode a positive size");
  }
  EXPECT_THROW(right_inverse(L("(2,0):(1,1)")), LawError);  // CuTe's _1:_0
  EXPECT_THROW(max_common_vector(L("_2:_1"), L("(_2,_0):(_1,_1)")), LawError);
  // Twins: the chain stops at the extent 0 (R is empty), and a non-empty L.
  EXPECT_EQ(str(right_inverse(L("(_2,_0):(_1,_2)"))), "_0:_1");
  EXPECT_EQ(str(right_inverse(L("(_2,_3):(_1,_2)"))), "_6:_1");
}

// raked_product pairs mode k of the placements with mode k of the block (zip): with run-time
// extents the placements of 2:1 by 2:1 are (1,2):(1,2), of rank 2 against the block's 1. The
// refusal names the layouts, not only zip's rule. Found by an independent fuzz of `cotile calc`.
TEST(Algebra, RakedProductOfUnequalRanksNamesTheModes) {
  try {
    (void)raked_product(L("2:1"), L("2:1"));
    ADD_FAILURE() << "raked_product of unequal ranks returned";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "raked_product: mode k of the result pairs mode k of the block and of the product's placements, and "
              "these have different ranks\n"
              "  A = 2:1\n"
              "  B = 2:1\n"
              "  block = 2:1\n"
              "  placements = (1,2):(1,2)\n"
              "  fix: make the extents static: with run-time ones the placements keep modes (of extent 1) that static "
              "ones drop (CuTe does not compile these inputs either)");
  }
  // Twins: static extents, and blocked_product, whose block 2:1 is a leaf (zip keeps it whole).
  EXPECT_EQ(str(raked_product(L("_2:_1"), L("_2:_1"))), "((_2,_2)):((_2,_1))");
  EXPECT_EQ(str(blocked_product(L("2:1"), L("2:1"))), "((2,(1,2))):((1,(1,2)))");
}

// coalesce merges mode i into the next when s_i * d_i is the next stride; a product beyond 64 bits
// is not one (the next stride fits), so it is not computed: the layout, whose offsets all fit, is
// kept as it is. The product that is needed still refuses (the size of a merged mode).
TEST(Algebra, CoalesceDoesNotComputeAProductItDoesNotNeed) {
  EXPECT_EQ(str(coalesce(L("(2,2):(4611686018427387904,1)"))), "(2,2):(4611686018427387904,1)");
  EXPECT_EQ(str(filter(L("(2,2):(4611686018427387904,1)"))), "(2,2):(4611686018427387904,1)");
  EXPECT_EQ(str(coalesce(L("(_2,_2):(_4611686018427387904,_1)"))), "(_2,_2):(_4611686018427387904,_1)");
  EXPECT_THROW(size(L("(4611686018427387904,2):(1,_0)")), Error);
}

// The fallback _1:_0 claims index 0 common to A and B: none when B is empty (CuTe returns it all the
// same). Found by calc_fuzz with the tile laws' oracle; its twin with a B of one element holds.
TEST(Algebra, MaxCommonLayoutOfAnEmptyLayoutIsRefused) {
  const Layout a = L("(32,4,_1218):(_1218,_-1218,_1)");
  try {
    (void)max_common_layout(a, L("_0:_0"));
    ADD_FAILURE() << "max_common_layout with an empty B returned";
  } catch (const LawError& e) {
    EXPECT_EQ(std::string(e.what()),
              "max_common_layout: A(R(i)) = B(R(i)) = i with R(i) an index of A and B fails at i = 0 (R(0) = 0, not "
              "an index of both A and B: sizes 155904 and 0)\n"
              "  A = (32,4,_1218):(_1218,_-1218,_1)\n"
              "  B = _0:_0\n"
              "  CuTe 4.7 returns _1:_0 here\n"
              "  fix: A or B is empty, so no index is common to both (N = 0): test for an empty tensor before "
              "choosing a vector width");
  }
  EXPECT_THROW(max_common_vector(a, L("_0:_0")), LawError);
  // Two static empty layouts: CuTe's steps give _0:_1, which holds with no index to check; a
  // run-time 0 gives _4, which names indices the empty layouts do not have.
  EXPECT_EQ(str(max_common_layout(L("(_4,_0):(_1,_4)"), L("(_4,_0):(_1,_4)"))), "_0:_1");
  EXPECT_EQ(str(max_common_vector(L("(_4,_0):(_1,_4)"), L("(_4,_0):(_1,_4)"))), "_0");
  try {
    (void)max_common_vector(L("(_4,0):(_1,_4)"), L("_4:_1"));
    ADD_FAILURE() << "max_common_vector with an empty A returned";
  } catch (const LawError& e) {
    EXPECT_EQ(std::string(e.what()),
              "max_common_vector: A(R(i)) = B(R(i)) = i with R(i) an index of A and B fails at i = 3 (R(3) = 3, not "
              "an index of both A and B: sizes 0 and 4)\n"
              "  A = (_4,0):(_1,_4)\n"
              "  B = _4:_1\n"
              "  CuTe 4.7 returns _4 here\n"
              "  fix: A or B is empty, so no index is common to both (N = 0): test for an empty tensor before "
              "choosing a vector width");
  }
  EXPECT_EQ(str(max_common_layout(a, L("_1:_0"))), "_1:_0");
  EXPECT_EQ(str(max_common_vector(a, L("_1:_0"))), "_1");
}

// Layouts of different sizes: CuTe's steps compose A with right_inverse(B) past A's end and
// return B's whole vector (max_common_vector(_2:_1, _4:_1) is 4, though A has 2 elements). The
// calculator's default (by_value) answers the largest prefix of R that keeps the law; CuTe's mode
// and the default Options refuse, naming the index past A.
TEST(Algebra, MaxCommonVectorOfLayoutsOfDifferentSizesIsTheirCommonPrefix) {
  EXPECT_EQ(str(max_common_vector(L("_2:_1"), L("_4:_1"), kByValue)), "_2");
  EXPECT_EQ(str(max_common_layout(L("_2:_1"), L("_4:_1"), kByValue)), "_2:_1");
  EXPECT_EQ(str(max_common_vector(L("_6:_1"), L("_8:_1"), kByValue)), "_6");  // R's last leaf: any prefix
  // R = right_inverse(B) = (_8,_2):(_2,_1) restricted to C's mode 0 (_8:_2): R(i) = 2i is an index
  // of A (8 elements) for i < 4 only.
  EXPECT_EQ(str(max_common_layout(L("(_2,_4):(_4,_1)"), L("(_2,_8):(_8,_1)"), kByValue)), "_4:_2");
  EXPECT_EQ(str(max_common_vector(L("(_2,_4):(_4,_1)"), L("(_2,_8):(_8,_1)"), kByValue)), "_4");
  try {
    (void)max_common_vector(L("_2:_1"), L("_4:_1"));
    ADD_FAILURE() << "max_common_vector of layouts of different sizes returned CuTe's result";
  } catch (const LawError& e) {
    EXPECT_EQ(std::string(e.what()),
              "max_common_vector: A(R(i)) = B(R(i)) = i with R(i) an index of A and B fails at i = 3 (R(3) = 3, not "
              "an index of both A and B: sizes 2 and 4)\n"
              "  A = _2:_1\n"
              "  B = _4:_1\n"
              "  CuTe 4.7 returns _4 here\n"
              "  fix: compare layouts of the same tensor's elements (the same size)");
  }
  // Twins: layouts of the same size keep CuTe's answer, and an empty one is still refused.
  EXPECT_EQ(str(max_common_vector(L("_4:_1"), L("_4:_1"), kByValue)), "_4");
  EXPECT_EQ(str(max_common_vector(L("_4:_1"), L("_2:_1"), kByValue)), "_2");
  EXPECT_THROW(max_common_vector(L("(_4,0):(_1,_4)"), L("_4:_1"), kByValue), LawError);
}

TEST(Algebra, CompositionJoinsRunTimeModesByValueWhereCutesResultBreaksTheLaw) {
  // (_4,_2):(_8,_32) coalesces to _8:_8; with run-time values CuTe keeps the two modes, B's
  // stride 5 wraps unevenly around the first and its (1,2):(40,64) sends c = 1 to 64, not A(5) = 40.
  // by_value (the calculator's default) joins A's run-time modes by value there.
  EXPECT_EQ(str(composition(L("(_4,_2):(_8,_32)"), L("_2:_5"))), "_2:_40");
  EXPECT_EQ(str(composition(L("(4,2):(8,32)"), L("2:5"), kByValue)), "2:40");
  EXPECT_EQ(str(composition(L("(4,1,2):(8,7,32)"), L("(2,2):(5,1)"), kByValue)), "(2,2):(40,8)");
  // A joined into one mode: R is B's shape with its stride scaled, as from _8:_8.
  EXPECT_EQ(str(composition(L("(4,_2):(_8,32)"), L("_2:_5"), kByValue)), "_2:_40");
  // (4,3) joined into a run-time 12 (the static form: (_2,_3):(_6,_1)); run-time extents 1 stay,
  // as in CuTe's results on run-time values.
  EXPECT_EQ(str(composition(L("(4,3,_5):(_1,4,_100)"), L("(_2,_3):(_6,_1)"), kByValue)),
            "((2,1),(3,1)):((_6,100),(_1,100))");
  // A static mode of A that a static stride of B wraps around stays refused, as CuTe's static
  // check refuses it.
  EXPECT_THROW(composition(L("(_4,_2):(_8,32)"), L("_2:_5"), kByValue), Error);
  // Where CuTe's result holds, it is returned as is (modes kept apart).
  EXPECT_EQ(str(composition(L("(4,2):(1,4)"), L("2:3"), kByValue)), "(2,1):(3,4)");
  // The divides compose through it.
  EXPECT_EQ(str(logical_divide(L("(4,2):(8,32)"), L("2:5"), kByValue)), "(2,(5,1)):(40,(8,80))");
  // Without by_value (the engine's default, the typed layer's), strict too: CuTe's result is
  // refused; as_cute returns it and logs the law.
  EXPECT_THROW(composition(L("(4,2):(8,32)"), L("2:5")), LawError);
  EXPECT_THROW(composition(L("(4,2):(8,32)"), L("2:5"), Options{true, false, nullptr, true}), LawError);
  LawLog log;
  EXPECT_EQ(str(composition(L("(4,2):(8,32)"), L("2:5"), Options{true, true, &log})), "(1,2):(40,64)");
  EXPECT_EQ(log.count, 1);
  // No join by value helps: refused with CuTe's law failure.
  EXPECT_THROW(composition(L("(4,3):(1,5)"), L("2:5"), kByValue), LawError);
}

TEST(Algebra, DowncastGivesTheSubElementsToOneLeafOfStrideOne) {
  // Sub-element j of element c at N L(c) + j, checked point by point: R's leaf 0 takes j.
  const Layout l = L("(_1,_4,_3):(_1,_-1,_1)"), r = downcast(l, 2);
  EXPECT_EQ(str(r), "(_2,_4,_3):(_1,_-2,_2)");
  for (int64_t j = 0; j < 2; ++j)
    for (int64_t c1 = 0; c1 < 4; ++c1)
      for (int64_t c2 = 0; c2 < 3; ++c2)
        EXPECT_EQ(eval(r, make_tuple(Int{j}, Int{c1}, Int{c2})).value,
                  2 * eval(l, make_tuple(Int{0}, Int{c1}, Int{c2})).value + j);
  // One leaf of stride _1: CuTe's rule, unchanged.
  EXPECT_EQ(str(downcast(L("(_4,8):(8,_1)"), 4)), "(_4,32):(32,_1)");
  EXPECT_THROW(downcast(L("(_1,_4):(_1,_-1)"), 2, Options{true}), LawError);
}
