// Text: print(parse(s)) == s for every value in the golden corpus; parse errors give the column.
#include <gtest/gtest.h>

#include <fstream>

#include "test_util.hpp"

using namespace cotile;
using namespace cotile::test;

namespace {
// The message of parsing s ("" when it parses).
std::string msg(const std::string& s) {
  try {
    text::parse(s);
  } catch (const Error& e) {
    return std::string(e.what());
  }
  return std::string();
}
const char* kFamilies[] = {"inttuple", "layout", "composition", "complement_inverse", "divide_product",
                           "swizzle",  "copy",   "mma",         "fmha_gen_q"};
}  // namespace

TEST(Text, PrintOfParseIsIdentityOnTheCorpus) {
  int n = 0;
  for (const char* fam : kFamilies) {
    std::ifstream in(std::string(COTILE_GOLDEN_DIR) + "/" + fam + ".txt");
    ASSERT_TRUE(in) << fam;
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#') continue;
      size_t start = 0;
      bool first = true;
      while (start <= line.size()) {
        size_t t = line.find('\t', start);
        std::string f = line.substr(start, t == std::string::npos ? std::string::npos : t - start);
        start = t == std::string::npos ? line.size() + 1 : t + 1;
        if (first || f == "=>") {
          first = false;
          continue;
        }
        const size_t eq = f.find('=');
        if (eq != std::string::npos) f = f.substr(eq + 1);  // name=value result fields
        ASSERT_EQ(text::to_string(text::parse(f)), f) << fam << ": " << line;
        ++n;
      }
    }
  }
  std::printf("round-tripped %d values\n", n);
  EXPECT_GT(n, 20000);
}

TEST(Text, ParsesEveryKindOfValue) {
  EXPECT_EQ(text::parse("_8").kind, text::Value::kInt);
  EXPECT_EQ(text::parse("(_8)").kind, text::Value::kTuple);
  EXPECT_EQ(text::parse("_8:_1").kind, text::Value::kLayout);
  EXPECT_EQ(text::parse("(_8):(_1)").kind, text::Value::kLayout);
  EXPECT_EQ(text::parse("_").kind, text::Value::kUnderscore);
  EXPECT_EQ(text::parse("Sw<3,4,3>").kind, text::Value::kSwizzle);
  EXPECT_EQ(text::parse("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)").kind, text::Value::kComposed);
  EXPECT_EQ(text::parse("((_2,_64):(_64,_1),(2):(_1),_)").kind, text::Value::kTuple);
  EXPECT_EQ(str(L("(_2,3):(-4,_-1)")), "(_2,3):(-4,_-1)");
  EXPECT_EQ(text::to_string(text::parse("(_-2,3)")), "(_-2,3)");  // a tuple may be negative, a shape not
}

TEST(Text, ParseErrorsShowTheColumn) {
  EXPECT_EQ(msg("(_2,_4"), "parse: expected ',' or ')' at column 7, found end of input\n  (_2,_4\n        ^");
  EXPECT_EQ(
      msg("(_2,_4):(_1)"),
      "parse: expected a stride congruent to the shape (_2,_4) at column 9, found '('\n  (_2,_4):(_1)\n          ^");
  EXPECT_EQ(msg("(_2,,_4)"),
            "parse: expected a value (integer, '_', '(' or a name) at column 5, found ','\n  (_2,,_4)\n      ^");
  EXPECT_EQ(msg("_2 _3"), "parse: expected end of input at column 4, found '_'\n  _2 _3\n     ^");
  EXPECT_EQ(msg("99999999999999999999"),
            "parse: expected an integer that fits in 64 bits at column 19, found '9'\n  99999999999999999999\n         "
            "           ^");
  // The 64-bit range is [-2^63, 2^63 - 1]: both ends parse, one past either does not.
  EXPECT_EQ(text::to_string(text::parse("(9223372036854775807,_-9223372036854775808)")),
            "(9223372036854775807,_-9223372036854775808)");
  EXPECT_EQ(msg("9223372036854775808"),
            "parse: expected an integer that fits in 64 bits at column 19, found '8'\n  9223372036854775808\n         "
            "           ^");
  EXPECT_EQ(msg("-9223372036854775809"),
            "parse: expected an integer that fits in 64 bits at column 20, found '9'\n  -9223372036854775809\n        "
            "             ^");
}

// A swizzle moves bits 0 to 62 of an offset only: Sw<16,32,32> would read bits 64 to 79 (a shift
// past the integer), Sw<20,20,-30> write bits 50 to 69 (wrapped into the sign). The highest one
// that fits reads bit 62.
TEST(Text, SwizzleBitsStayWithinAnOffset) {
  EXPECT_EQ(msg("Sw<16,32,32>"),
            "parse: expected valid swizzle parameters (requires 0 <= B <= |S|, 0 <= M and M + |S| + B <= 63 (bits 0 "
            "to 62 of an offset)) at column 13, found end of input\n  Sw<16,32,32>\n              ^");
  EXPECT_NE(msg("Sw<20,20,-30>"), "");
  EXPECT_NE(msg("Sw<1,32,31>"), "");
  EXPECT_EQ(msg("Sw<1,31,31>"), "");
  EXPECT_EQ(calc("eval(Sw<1,31,31> o _0 o _2:_4611686018427387904, 1)"),
            std::to_string((int64_t(1) << 62) | (int64_t(1) << 31)));
  try {
    (void)make_swizzle(3, 4, 2);
    ADD_FAILURE() << "Sw<3,4,2> accepted";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "Swizzle: requires 0 <= B <= |S|, 0 <= M and M + |S| + B <= 63 (bits 0 to 62 of an offset)\n  B = 3\n  "
              "M = 4\n  S = 2");
  }
}
