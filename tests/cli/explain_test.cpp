// cotile explain: the preset derives every layout of docs/qload.md §5–§9.
#include <gtest/gtest.h>

#include "explain.hpp"
#include "test_util.hpp"

using namespace cotile;
using namespace cotile::cli;

namespace {

std::string preset(Elem e) { return render_text(explain_fmha_gen_q(e, 128, 128, CalcOptions{})); }

// Every layout string of docs/qload.md §5–§9 for FP8 (split lines joined, spaces removed).
const char* kSpecFp8[] = {
    "(_128,_128):(128,_1)",                                                    // §5.2 gQ
    "((_1,(_1,_1)),((_128,_32),(_1,_4))):((_0,(_0,_0)),((128,_1),(_0,_32)))",  // §5.4 thrfrg_A
    "((_128,_32),_1,_4):((128,_1),_0,_32)",                                    // §5.4 tSgQ
    "((_128,_32),_1,_4)",
    "((128,_1),_0,_32)",  // tSgQ.shape / .stride
    "(128,_1)",
    "(_128,_1)",                                     // §6 inner replace
    "((_128,_1),_0,_32)",                            // §6 outer replace
    "((_128,_32),_1,_4):((_128,_1),_0,_32)",         // §6 data_layout
    "((_2,_32),_16):((_16,_32),_1)",                 // §7.1 atom_q_tv
    "(_128,_128):(_128,_1)",                         // §7.2 coalesce, left_inverse
    "((_128,_128),_1):((_128,_1),_0)",               // §7.2 inv_data_layout
    "((_2,(_4,_8)),_16):((_2048,(_4096,_1)),_128)",  // §7.3 layout_tv_data
    "(4096,1,4)",                                    // §7.4 flat_data_shape
    "(2,8,16):(2048,1,128)",
    "1:0",
    "4:1",                                                      // §7.4 table
    "((_2,_8,_16):(_2048,_1,_128),_1:_0,_4:_1)",                // §7.4 tiler
    "((_2,_8,_16),_1,_4):((_2048,_1,_128),_0,_4096)",           // §7.5 tile2data
    "((_2,(_4,_8)),_16):((_1,(_256,_2)),_16)",                  // §7.6 layout_tv, §8.1
    "((_1,_16),((_2,_4,_8),_1)):((_0,_16),((_1,_256,_2),_0))",  // §8.1 atom/trg_layout_TV
    "((_1,(_2,_4,_8)),(_16,_1)):((_0,(_1,_256,_2)),(_16,_0))",  // §8.1 zip
    "((_2,_4,_8),(_16,_1)):((_1,_256,_2),(_16,_0))",            // §8.1 thrval2mn
    "(_2,_4,_128):(_1,_256,_2)",                                // §8.1 no profile
    "((_16,_1),_16,_1,_1):((_1,_0),1024,_0,_0)",                // §8.2
};

const char* kSpecFp16[] = {
    "((_128,_16),_1,_8):((128,_1),_0,_16)",              // §9 tSgQ
    "((_128,_16),_1,_8):((_128,_1),_0,_16)",             // §9 data_layout
    "((_128,_128),_1):((_128,_1),_0)",                   // §9 inv_data_layout
    "((_2,(_4,_8)),_16):((_2048,(_4096,_1)),_128)",      // §9 layout_tv_data
    "((_8,_16):(_1,_128),_1:_0,_8:_1)",                  // §9 tiler
    "((_8,_16),_1,_8):((_1,_128),_0,_2048)",             // §9 tile2data
    "((_2,(_4,_8)),_16):((_128,(_256,_1)),_8)",          // §9 layout_tv
    "(2048,1,8)",                                        // §9 flat_data_shape
    "((_1,_8),((_8,_8),_2)):((_0,_8),((_128,_1),_64))",  // §8.1 trg_layout_TV
    "((_1,(_8,_8)),(_8,_2)):((_0,(_128,_1)),(_8,_64))",  // §8.1 zip
    "((_8,_8),(_8,_2)):((_128,_1),(_8,_64))",            // §8.1 thrval2mn
    "((_8,_8),_16):((_128,_1),_8)",                      // §8.1 shallow profile
};

}  // namespace

TEST(Explain, PresetFp8ContainsEverySpecLayout) {
  const std::string out = preset(Elem::kE5M2);
  for (const char* s : kSpecFp8) EXPECT_NE(out.find(s), std::string::npos) << s;
}

TEST(Explain, PresetFp16ContainsEverySpecLayout) {
  const std::string out = preset(Elem::kHalf);
  for (const char* s : kSpecFp16) EXPECT_NE(out.find(s), std::string::npos) << s;
}

TEST(Explain, PresetWritesTheFunctionsInTheSpecsWords) {
  const std::string out = preset(Elem::kE5M2);
  EXPECT_NE(out.find("a(t,v) = 16*t + v"), std::string::npos);
  EXPECT_NE(out.find("z(t,v) = t0 + 256*t1 + 2*t2 + 16*v    where t = t0 + 2*t1 + 8*t2"), std::string::npos);
  // The §8.2 ownership table: thread 7 owns rows 0, 8, ..., 120 and columns 112-127.
  EXPECT_NE(out.find("7      | 0, 8, 16, …, 120  | 112–127"), std::string::npos);
}

TEST(Explain, CompositionShowsTheRuleEachModeUsed) {
  const Derivation d =
      explain_operation("composition", {text::parse("(_4,_8):(_2,_16)"), text::parse("(_2,_4):(_1,_4)")}, {});
  const std::string out = render_text(d);
  EXPECT_NE(out.find("rest_stride < shape"), std::string::npos) << out;
  EXPECT_NE(out.find("rest_stride % shape == 0"), std::string::npos) << out;
  EXPECT_NE(out.find("result = " + test::calc("composition((_4,_8):(_2,_16), (_2,_4):(_1,_4))")), std::string::npos)
      << out;
}

TEST(Explain, CompositionSaysWhenItJoinedRunTimeModesByValue) {
  const std::string out =
      render_text(explain_operation("composition", {text::parse("(4,2):(8,32)"), text::parse("2:5")}, {}));
  EXPECT_NE(out.find("[3] coalesce_x(A) by value = 8:8"), std::string::npos) << out;
  EXPECT_NE(out.find("[4] result = 2:40"), std::string::npos) << out;
  EXPECT_NE(out.find("CuTe 4.7 returns (1,2):(40,64) here"), std::string::npos) << out;
}

TEST(Explain, CoalesceSaysWhichModesMerged) {
  const std::string out =
      render_text(explain_operation("coalesce", {text::parse("((_2,_4),(_1,3)):((_1,_2),(_8,_8))")}, {}));
  EXPECT_NE(out.find("merged: shape*stride equals the front's stride, statically"), std::string::npos) << out;
  EXPECT_NE(out.find("static size _1: dropped"), std::string::npos) << out;
}

TEST(Explain, ComplementShowsTheFill) {
  const std::string out =
      render_text(explain_operation("complement", {text::parse("(_4,_8):(_2,_16)"), text::parse("_256")}, {}));
  EXPECT_NE(out.find("_2:_1"), std::string::npos) << out;
  EXPECT_NE(out.find("result = (_2,_2,_2):(_1,_8,_128)"), std::string::npos) << out;
}

TEST(Explain, JsonIsOneObjectWithTheSteps) {
  const std::string j = render_json(explain_fmha_gen_q(Elem::kE5M2, 128, 128, CalcOptions{}));
  EXPECT_EQ(j.front(), '{');
  EXPECT_EQ(j.back(), '}');
  EXPECT_NE(j.find("\"name\":\"layout_tv_data = inv_data_layout o "
                   "atom_tv\",\"value\":\"((_2,(_4,_8)),_16):((_2048,(_4096,_1)),_128)\""),
            std::string::npos);
}
