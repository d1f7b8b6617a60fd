// Bad input gets a clear error: each message is checked word for word.
#include <gtest/gtest.h>

#include "test_util.hpp"

using namespace cotile;
using namespace cotile::test;

TEST(Errors, NonDivisibleComposition) {
  EXPECT_EQ(calc_error("composition((_4,_8):(_2,_16), _2:_6)"),
            "composition: stride divisibility violated: the rhs stride must be a multiple of the lhs mode size or "
            "smaller than it\n"
            "  lhs = (_4,_8):(_2,_16)\n"
            "  rhs = _2:_6\n"
            "  lhs mode = _4:_2\n"
            "  rhs stride at this mode = _6\n"
            "  fix: make the rhs stride step over whole lhs modes, or reshape the lhs so a mode boundary falls on it");
}

TEST(Errors, NonDivisibleShape) {
  EXPECT_EQ(calc_error("composition((_4,_8):(_1,_8), _6:_1)"),
            "composition: shape divisibility violated: the rhs shape must be divisible by the lhs mode it lands in\n"
            "  lhs = (_4,_8):(_1,_8)\n"
            "  rhs = _6:_1\n"
            "  lhs mode = _4:_1\n"
            "  remaining rhs shape = _6\n"
            "  fix: choose an rhs shape that splits evenly across the lhs modes");
}

// An index is divided by the extents: one of 0 leaves it no coordinate, and the message says so
// rather than "division by zero". The last mode takes the remainder, as in CuTe.
TEST(Errors, AnEmptyShapeHasNoCoordinates) {
  EXPECT_EQ(calc_error("idx2crd(5, (0,4))"),
            "idx2crd: the shape has an extent 0: it is empty, so no index has a coordinate\n"
            "  shape = (0,4)\n"
            "  fix: evaluate only non-empty layouts");
  EXPECT_EQ(calc_error("eval((0,4):(1,1), 3)"),
            "eval: crd2idx: the shape has an extent 0: it is empty, so no index has a coordinate\n"
            "  shape = (0,4)\n"
            "  fix: evaluate only non-empty layouts");
  // (An empty L has no index for R(i) to be: the law names R(0), where CuTe's R reaches.)
  EXPECT_EQ(calc_error("right_inverse((0,4):(1,1))"),
            "right_inverse: L(R(i)) = i with R(i) an index of L fails at i = 0 (R(0) = 0, not an index of L: its "
            "size is 0)\n"
            "  L = (0,4):(1,1)\n"
            "  why: L has a mode of size 0: shapes must be positive\n"
            "  CuTe 4.7 returns _1:_0 here\n"
            "  fix: give every mode a positive size");
  EXPECT_EQ(calc("idx2crd(5, (4,0))"), "(1,1)");
  // An empty cotarget shape (here a run-time one: logical_divide takes it from the layout's shape),
  // named rather than its fold's "ceil_div: division by zero".
  EXPECT_EQ(calc_error("logical_divide((_4,0):(_1,_4), _2:_1)"),
            "logical_divide: complement: the cotarget shape has an extent 0: it is empty, so there is nothing for C "
            "to reach\n"
            "  layout = _2:_1\n"
            "  cotarget = (_4,0)\n"
            "  fix: give the cotarget extents >= 1 (logical_divide and the products take it from the layout's shape)");
  EXPECT_EQ(calc("logical_divide((_4,3):(_1,_4), _2:_1)"), "(_2,(_2,3)):(_1,(_2,_4))");
  // filter keeps an empty layout empty, so complement sees it (CuTe's filter drops the 0:_0 mode).
  EXPECT_EQ(calc_error("complement((4,0):(_1,_0), 16)"),
            "complement: the layout is empty (an extent 0): (L, C) has no elements, so no C reaches the cotarget\n"
            "  layout = (4,0):(_1,_0)\n"
            "  fix: complement a layout of extents >= 1");
}

// CuTe's three-argument idx2crd divides the index by the stride: a stride 0 (a broadcast mode) has
// no coordinate to give back. A mode of extent 1 has one, whatever its stride.
TEST(Errors, IndexThroughAZeroStride) {
  EXPECT_EQ(calc_error("idx2crd(0, 2, 0)"),
            "idx2crd: a stride of 0 sends every coordinate of the mode to the same index, so no index tells them "
            "apart\n"
            "  shape = 2\n"
            "  stride = 0\n"
            "  fix: give the mode a non-zero stride (idx2crd(c, S) for the natural coordinate)");
  EXPECT_EQ(calc_error("idx2crd(5, (2,3), (0,2))"),
            "idx2crd: a stride of 0 sends every coordinate of the mode to the same index, so no index tells them "
            "apart\n"
            "  shape = 2\n"
            "  stride = 0\n"
            "  fix: give the mode a non-zero stride (idx2crd(c, S) for the natural coordinate)");
  EXPECT_EQ(calc("idx2crd(5, (1,3), (0,2))"), "(0,2)");
  EXPECT_EQ(calc("idx2crd(5, (_1,3), (0,2))"), "(_0,2)");
  EXPECT_EQ(calc("idx2crd(5, (2,3), (1,2))"), "(1,2)");
}

TEST(Errors, NegativeExtent) {
  // A layout's shape counts coordinates: a negative extent is refused where it is written, and
  // where an operation would make a layout of it (CuTe computes sizes and cosizes from it).
  EXPECT_EQ(calc_error("(4,-8):(1,4)"), "parse: expected a shape of extents >= 0 (an extent counts coordinates) at "
                                        "column 4, found '-'\n"
                                        "  (4,-8):(1,4)\n"
                                        "     ^");
  EXPECT_EQ(calc_error("make_layout((4,-8))"), "make_layout: a layout's shape must not be negative: an extent counts "
                                               "coordinates\n"
                                               "  shape = (4,-8)\n"
                                               "  fix: give every mode a size >= 0");
  EXPECT_EQ(calc_error("composition(16:1, -4)"), "composition: make_layout: a layout's shape must not be negative: an "
                                                 "extent counts coordinates\n"
                                                 "  shape = -4\n"
                                                 "  fix: give every mode a size >= 0");
  EXPECT_EQ(calc_error("tile_to_shape(2:1, (-2,4))"), "tile_to_shape: a layout's shape must not be negative: an extent "
                                                      "counts coordinates\n"
                                                      "  shape = (-2,4)\n"
                                                      "  fix: give every mode a size >= 0");
  EXPECT_EQ(calc("make_layout(0:1)"), "(0):(1)");  // 0 is an empty mode
  // The coordinate functions' shapes too (CuTe gives (1,-1) and -3 for these).
  EXPECT_EQ(calc_error("idx2crd(5, (-4,2))"), "idx2crd: a layout's shape must not be negative: an extent counts "
                                              "coordinates\n"
                                              "  shape = (-4,2)\n"
                                              "  fix: give every mode a size >= 0");
  EXPECT_EQ(calc_error("crd2idx(5, (-4,2), (1,4))"), "crd2idx: a layout's shape must not be negative: an extent "
                                                     "counts coordinates\n"
                                                     "  shape = (-4,2)\n"
                                                     "  fix: give every mode a size >= 0");
  EXPECT_EQ(calc("idx2crd(5, (4,2))"), "(1,1)");
  EXPECT_EQ(calc("crd2idx(5, (4,2), (1,4))"), "5");
}

TEST(Errors, NonInjectiveComplement) {
  EXPECT_EQ(calc_error("complement((_4,_4):(_1,_2))"), "complement: the layout is not injective (two modes overlap)\n"
                                                       "  layout = (_4,_4):(_1,_2)\n"
                                                       "  fix: complement needs an injective layout");
}

// A run-time extent 1 adds nothing to a layout's function, but CuTe's algorithms cannot know its
// value: a gap below an extent-1 mode comes out 0 (complement), a shared stride is read modulo 1
// (left_inverse). Found by a law sweep of make_tiled_copy with run-time shapes and a fuzz of
// static against run-time markings of the same layouts. Where cotile computes from run-time
// strides itself (complement of rank > 1, left_inverse: CuTe refuses run-time strides there) it
// leaves such modes out, as coalesce drops a static _1; with static strides it is CuTe's algorithm,
// whose refusal names the mode (strict), and which the calculator's default computes again
// without the mode.
TEST(Errors, RunTimeUnitsLeftOut) {
  EXPECT_EQ(calc("complement((4,1):(1,1), 16)"), "(1,4):(_1,4)");
  EXPECT_EQ(calc("complement((4,1):(1,0), 16)"), "(1,4):(_1,4)");
  EXPECT_EQ(calc("left_inverse((4,1):(1,1))"), "(1,4):(_0,_1)");
  EXPECT_EQ(calc("left_inverse((2,1):(1,-1))"), "(1,2):(_0,_1)");
  EXPECT_EQ(calc("left_inverse(1:-1)"), "_1:_0");
  // {0, 2} as for (_2,_1):(_1,_3), not {0, 3} (lawful too, but the marking changed the answer).
  EXPECT_EQ(calc("complement((2,1):(1,3), 4)"), "(1,2):(_1,2)");
  // On static strides CuTe's check refuses a run-time 1 below the extent reached; the calculator's
  // default (by_value) leaves it out there, as for (_4,_1):(_1,_1); --strict refuses.
  EXPECT_EQ(calc("complement((_4,1):(_1,_1), _16)"), "_4:_4");
  EXPECT_EQ(calc("complement((_4,1):(_1,_1), _16)"), calc("complement((_4,_1):(_1,_1), _16)"));
  EXPECT_EQ(calc_error("complement((_4,1):(_1,_1), _16)", true),
            "complement: a mode of run-time extent 1 starts below the extent the modes before it reach (the gap "
            "between them is a static 0): it covers nothing, but only a static _1 is dropped\n"
            "  layout = (_4,1):(_1,_1)\n"
            "  mode = 1:_1\n"
            "  extent below it = _4\n"
            "  fix: make that extent a static _1");
  // Twins: the same layouts with static extents 1, and run-time strides with no extent 1 (the
  // complement computed from them, run-time leaves and all).
  EXPECT_EQ(calc("complement((_4,_1):(_1,_1), _16)"), "_4:_4");
  EXPECT_EQ(calc("left_inverse((4,_1):(1,1))"), "(1,4):(_0,_1)");
  EXPECT_EQ(calc("complement((4,2):(1,4), 16)"), "(1,1,2):(_1,4,8)");
}

TEST(Errors, StrictModeRefusesWhereCuteRefuses) {
  EXPECT_EQ(calc_error("left_inverse((_4,_8):(8,_1))", true),
            "left_inverse: CuTe requires static strides (strict mode)\n"
            "  layout = (_4,_8):(8,_1)\n"
            "  fix: make the strides static (Int<N>), or drop --strict to invert the run-time values");
  EXPECT_EQ(calc_error("complement((_4,_8):(8,_1))", true),
            "complement: CuTe computes the complement of a rank > 1 layout only with static strides (strict mode)\n"
            "  layout = (_4,_8):(8,_1)\n"
            "  fix: drop --strict to compute it from the run-time strides");
}

TEST(Errors, Overflow) {
  EXPECT_EQ(calc_error("size((4611686018427387904,_4))"), "size: integer arithmetic: 64-bit overflow in a * b\n"
                                                          "  a = 4611686018427387904\n"
                                                          "  b = 4\n"
                                                          "  fix: use smaller shapes or strides");
  // A printed layout's size and offsets fit in 64 bits: B(3) = 3 * 2^62 here, and a left inverse
  // of 2^64 indices.
  EXPECT_EQ(calc_error("composition(_8:_1, _4:_4611686018427387904)"),
            "composition: the result's size or offsets do not fit in 64 bits\n"
            "  result = _4:_4611686018427387904\n"
            "  fix: give extents and strides whose products fit in 64 bits");
  EXPECT_EQ(calc_error("left_inverse(_4:_4611686018427387904)"),
            "left_inverse: the result's size or offsets do not fit in 64 bits\n"
            "  result = (_4611686018427387904,_4):(_0,_1)\n"
            "  fix: give extents and strides whose products fit in 64 bits");
  EXPECT_EQ(calc("coalesce(4611686018427387904:2)"), "4611686018427387904:2");  // offsets up to 2^63 - 2
}

TEST(Errors, DivisionByZero) {
  EXPECT_EQ(calc_error("shape_div(_4, 0)"), "shape_div: division by zero\n  a = _4\n  b = 0");
}

TEST(Errors, UnknownFunctionAndArity) {
  EXPECT_EQ(calc_error("compose(_4:_1, _2:_1)"), "unknown function 'compose' (cotile calc --list shows the functions)");
  EXPECT_EQ(calc_error("coalesce(_4:_1, _1, _1)"),
            "coalesce: expects 1 to 2 arguments, got 3\n  usage: coalesce(layout[, profile])");
}

TEST(Errors, WrongArgumentKind) {
  EXPECT_EQ(calc_error("left_inverse((_4,_8))"), "left_inverse: argument 1 must be a layout, got the tuple (_4,_8)");
}

TEST(Errors, CapacityExceeded) {
  std::string big = "(";
  for (int i = 0; i < 65; ++i) big += (i ? ",_2" : "_2");
  big += ")";
  EXPECT_EQ(calc_error("size(" + big + ")"),
            "size: capacity: too many integers in one tuple\n  fix: cotile values hold at most 64 leaves per tuple");
}

// A tile or slicing coordinate holds 8 entries (each may be a layout), not a shape's 64 integers:
// the message says which, and how to slice more modes (a group addressed by one integer).
TEST(Errors, CapacityOfACoordinate) {
  EXPECT_EQ(calc_error("slice((0,0,0,0,0,0,0,0,_), (2,2,2,2,2,2,2,2,3):(2,2,2,2,2,2,2,2,3))"),
            "slice: capacity: too many entries in one tile or coordinate\n"
            "  fix: a tile or a slicing coordinate holds at most 8 entries (layouts, integers, '_'): group the "
            "layout's modes and give a group one entry (an integer is its 1-D index), or tile mode by mode");
  EXPECT_EQ(calc("slice((0,_), ((2,2,2,2,2,2,2,2),3):((2,2,2,2,2,2,2,2),3))"), "(3):(3)");
}

TEST(Errors, DowncastNeedsAContiguousMode) {
  EXPECT_EQ(calc_error("downcast((_4,_8):(_2,_8), _2)"), "downcast: requires a static _1 stride (adjacent elements)\n"
                                                         "  layout = (_4,_8):(_2,_8)\n"
                                                         "  fix: give the contiguous mode the static stride _1");
}

// left_inverse says what is wrong: a negative stride (not "a mode of size <= 0"), and the
// divisibility the code checks (a stride and the next smaller one).
TEST(Errors, LeftInverseOfNegativeStrides) {
  EXPECT_EQ(calc_error("left_inverse((_2,_2):(_-4,_-1))"),
            "left_inverse: a stride is negative: a layout R has R(-x) = -R(x), so no R sends negative offsets back to "
            "indices >= 0\n"
            "  layout = (_2,_2):(_-4,_-1)\n"
            "  fix: give every mode a positive stride (start the view at its lowest element)");
}

// A run-time negative stride: the quotient by the larger stride truncates to an extent 0, which
// the law names (with the stride as the cause), not a law check's bare "the layout has an extent 0".
TEST(Errors, LeftInverseOfARunTimeNegativeStride) {
  EXPECT_EQ(calc_error("left_inverse((2,3):(1,-2))"),
            "left_inverse: R(L(i)) = i fails: the result (-2,0,2):(_0,2,_1) has an extent 0, so it has no value at "
            "L(0) = 0\n"
            "  L = (2,3):(1,-2)\n"
            "  why: L has the negative stride -2: a layout R has R(-x) = -R(x), so it cannot send negative offsets "
            "back to indices >= 0\n"
            "  CuTe 4.7 refuses these inputs (left_inverse needs static strides)\n"
            "  fix: left_inverse inverts injective layouts whose strides, sorted, are positive, each divides the next "
            "and each mode ends below the next stride; use right_inverse, or reorder, split or drop the offending "
            "modes");
  EXPECT_EQ(calc("left_inverse((2,3):(1,2))"), "(1,2,3):(_0,_1,2)");  // its twin
}

// make_tiled_copy's layout_tv is right_inverse(raked_product(thr, val)) read at every (thread,
// value): a run-time stride stops the right inverse's chain (CuTe's too), and the short inverse
// was read beyond its size, every thread given element 0. Found by a fuzz of `cotile calc`; of
// 20 000 pairs of generated compact layouts (mixed static and run-time leaves) 15 220 had a short
// R: 14 816 of those broke the law, 375 held it (the twin below), 29 were refused before. Strict
// (CuTe's) mode refuses; the default follows the run-time values.
TEST(Errors, TiledCopyOfRunTimeStridesIsRefused) {
  EXPECT_EQ(calc_error("make_tiled_copy(copy.u32, float, 4:1, _1:_1)", true),
            "make_tiled_copy: raked_product(thr, val)(layout_tv(t, v)) = t + size(thr) v fails: "
            "right_inverse(raked_product(thr, val)) reaches only the first size(R) of the size(thr) x size(val) "
            "(thread, value) indices, and layout_tv reads it beyond\n"
            "  thr = 4:1\n"
            "  val = _1:_1\n"
            "  raked_product(thr, val) = ((_1,4)):((4,1))\n"
            "  R = _1:_0\n"
            "  size(R) = _1\n"
            "  size(thr) x size(val) = 4\n"
            "  t + size(thr) v = 1\n"
            "  layout_tv(t, v) = 0\n"
            "  CuTe 4.7 returns layout_tv = (4,_1):(_0,_0) here\n"
            "  fix: give thr and val whose raked product is one to one onto the offsets 0, 1, 2, ... (in strict mode "
            "also static shapes and strides: CuTe's right inverse follows a chain of static strides only)");
  // The default mode: the right inverse followed by value, thread t at element t.
  EXPECT_EQ(calc("make_tiled_copy(copy.u32, float, 4:1, _1:_1)"),
            "tiler=(4)\tlayout_tv=(4,_1):(_1,_0)\tlayoutS_TV=(4,(_1,_1)):(_1,(_0,_0))\tlayoutD_TV=(4,(_1,_1)):(_1,(_0,_"
            "0))");
  // CuTe's answer, as --as-cute gives it: every thread at element 0, the law named as a warning.
  std::string warnings;
  EXPECT_EQ(calc_as_cute("make_tiled_copy(copy.u32, float, 4:1, _1:_1)", &warnings),
            "tiler=(4)\tlayout_tv=(4,_1):(_0,_0)\tlayoutS_TV=(4,(_1,_1)):(_0,(_0,_0))\tlayoutD_TV=(4,(_1,_1)):(_0,(_0,"
            "_0))");
  EXPECT_NE(warnings.find("make_tiled_copy: raked_product(thr, val)(layout_tv(t, v)) = t + size(thr) v fails"),
            std::string::npos)
      << warnings;
  // Twins: a short R whose reading beyond its size holds the law (checked point by point), and
  // static strides.
  EXPECT_EQ(calc("make_tiled_copy(copy.u32, float, (_2,4):(_2,_4), (2):(_1))"),
            "tiler=(4,4)\tlayout_tv=(8,2):(_1,8)\tlayoutS_TV=((4,2),(_1,(1,2))):((_1,4),(_0,(8,8)))\tlayoutD_TV=((4,"
            "2),(_1,(1,2))):((_1,4),(_0,(8,8)))");
  EXPECT_EQ(
      calc("make_tiled_copy(copy.u32, float, _4:_1, _1:_1)"),
      "tiler=(_4)\tlayout_tv=(_4,_1):(_1,_0)\tlayoutS_TV=(_4,(_1,_1)):(_1,(_0,_0))\tlayoutD_TV=(_4,(_1,_1)):(_1,(_0,_"
      "0))");
}

// CuTe's check refuses (_3,_2):(_2,_3), whose offsets 0, 2, 4, 3, 5, 7 a layout still reads back:
// R(x) = (x % 2) * 2 + x / 2 (laws/left_inverse_search.hpp). Where the search finds none, the
// message is the same without that line.
TEST(Errors, LeftInverseDivisibility) {
  EXPECT_EQ(
      calc_error("left_inverse((_3,_2):(_2,_3))"),
      "left_inverse: divisibility violated: a stride is not a multiple of the next smaller stride, so an offset "
      "does not tell that mode's coordinate\n"
      "  layout = (_3,_2):(_2,_3)\n"
      "  stride = _3\n"
      "  next smaller stride = _2\n"
      "  a lawful left inverse, found by search = (_2,_4):(_2,_1)\n"
      "  fix: left_inverse inverts layouts whose sorted strides each divide the next; the lawful left inverse above "
      "reads L's offsets back, or use right_inverse, or reorder or split the modes");
  // (_2,_2,_2):(_1,_3,_5) is injective (0, 1, 3, 4, 5, 6, 8, 9), and no layout the search tries reads it back.
  EXPECT_EQ(
      calc_error("left_inverse((_2,_2,_2):(_1,_3,_5))"),
      "left_inverse: divisibility violated: a stride is not a multiple of the next smaller stride, so an offset "
      "does not tell that mode's coordinate\n"
      "  layout = (_2,_2,_2):(_1,_3,_5)\n"
      "  stride = _5\n"
      "  next smaller stride = _3\n"
      "  fix: left_inverse inverts layouts whose sorted strides each divide the next; use right_inverse, or reorder "
      "or split the modes");
}
