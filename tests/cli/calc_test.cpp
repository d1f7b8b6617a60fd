// The calculator: nested calls evaluate as the engine does.
#include <gtest/gtest.h>

#include "test_util.hpp"

using namespace cotile::test;

TEST(Calc, EvaluatesNestedCalls) {
  EXPECT_EQ(calc("left_inverse(((_128,_32),_1,_4):((_128,_1),_0,_32))"), "(_128,_128):(_128,_1)");
  EXPECT_EQ(calc("composition(make_layout(left_inverse(((_128,_32),_1,_4):((_128,_1),_0,_32)), _1:_0), "
                 "((_2,_32),_16):((_16,_32),_1))"),
            "((_2,(_4,_8)),_16):((_2048,(_4096,_1)),_128)");
}

TEST(Calc, MakeLayoutOfOneLayoutWrapsIt) {
  EXPECT_EQ(calc("make_layout(((_128,_128),_1):((_128,_1),_0))"), "(((_128,_128),_1)):(((_128,_1),_0))");
}

TEST(Calc, StrictModeChangesOnlyRefusals) {
  EXPECT_EQ(calc("left_inverse((_4,_8):(_8,_1))", true), calc("left_inverse((_4,_8):(_8,_1))"));
}

TEST(Calc, EveryGoldenOperationIsRegistered) {
  for (const char* op : {"size",
                         "rank",
                         "depth",
                         "product_each",
                         "flatten",
                         "shape_div",
                         "ceil_div",
                         "elem_less",
                         "crd2idx",
                         "idx2crd",
                         "congruent",
                         "compatible",
                         "make_layout",
                         "make_layout_right",
                         "make_ordered_layout",
                         "make_layout_concat",
                         "cosize",
                         "eval",
                         "coalesce",
                         "filter",
                         "filter_zeros",
                         "select",
                         "replace",
                         "append",
                         "group",
                         "composition",
                         "complement",
                         "right_inverse",
                         "left_inverse",
                         "logical_divide",
                         "zipped_divide",
                         "tiled_divide",
                         "flat_divide",
                         "logical_product",
                         "blocked_product",
                         "raked_product",
                         "zipped_product",
                         "tiled_product",
                         "zip",
                         "max_common_vector",
                         "max_common_layout",
                         "upcast",
                         "downcast",
                         "swizzle_compose",
                         "swizzle_apply",
                         "tile_to_shape"})
    EXPECT_EQ(cotile::cli::registry().count(op), 1u) << op;
}

TEST(Calc, UnsupportedGoldenOpsAreReportedNotSkipped) {
  bool known = true;
  const std::string got = cotile::cli::check_golden_case({"no_such_op", "_1", "=>", "_1"}, {}, &known);
  EXPECT_FALSE(known);
  EXPECT_EQ(got, "unsupported op 'no_such_op'");
}

#include <filesystem>
#include <fstream>
#include <sstream>

// Inputs the fuzzer once crashed on: each must now give a value or a cotile::Error.
TEST(Calc, FuzzRegressionsGiveValuesOrErrors) {
  int n = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(COTILE_SOURCE_DIR) + "/fuzz/regressions")) {
    std::ifstream in(entry.path());
    std::stringstream ss;
    ss << in.rdbuf();
    try {
      calc(ss.str());
    } catch (const cotile::Error&) {
    }
    ++n;
  }
  EXPECT_GT(n, 0);
}
