// print_latex (ct/print_latex.hpp) against CuTe 4.7's own output for the same values
// (tests/ct/data/print_latex_*.tex, printed by CuTe's print_latex): a layout, a rank-1 layout,
// the SM80 m16n8k16 tiled MMA and a UniversalCopy tiled copy, byte for byte.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "cotile/ct/ct.hpp"
#include "cotile/ct/print_latex.hpp"

using namespace cotile::ct;

namespace {
std::string expected(const char* name) {
  std::string dir = __FILE__;
  dir = dir.substr(0, dir.find_last_of('/'));
  std::ifstream in(dir + "/data/" + name);
  std::stringstream s;
  s << in.rdbuf();
  EXPECT_FALSE(s.str().empty()) << name;
  return s.str();
}
template <class F>
std::string printed(F f) {
  testing::internal::CaptureStdout();
  f();
  return testing::internal::GetCapturedStdout();
}
}  // namespace

TEST(PrintLatex, LayoutAsCuTe) {
  EXPECT_EQ(printed([] { print_latex(Layout<Shape<_2, _3>, Stride<_3, _1>>{}); }), expected("print_latex_layout.tex"));
  EXPECT_EQ(printed([] { print_latex(Layout<_4, _2>{}); }), expected("print_latex_layout_rank1.tex"));
}

TEST(PrintLatex, TiledMmaAsCuTe) {
  EXPECT_EQ(printed([] { print_latex(make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{})); }),
            expected("print_latex_mma_sm80.tex"));
}

TEST(PrintLatex, TiledCopyAsCuTe) {
  EXPECT_EQ(printed([] {
              print_latex(make_tiled_copy(Copy_Atom<UniversalCopy<uint32_t>, float>{},
                                          make_layout(make_shape(_4{}, _2{})), make_layout(make_shape(_1{}, _2{}))));
            }),
            expected("print_latex_copy.tex"));
}

// A TV layout over a tile: print_latex_tv labels each cell by the first (t, v) that reaches it.
TEST(PrintLatex, TvLayoutCells) {
  const std::string out =
      printed([] { print_latex_tv(Layout<Shape<_2, _2>, Stride<_2, _1>>{}, make_shape(_2{}, _2{})); });
  EXPECT_NE(out.find("% Layout TV: (_2,_2):(_2,_1)\n"), std::string::npos);
  // (t, v) -> 2t + v = m + 2n: T0 V1 at (1,0), T1 V0 at (0,1)
  EXPECT_NE(out.find("at (1,0) {\\shortstack{T0 \\\\ V1}}"), std::string::npos);
  EXPECT_NE(out.find("at (0,1) {\\shortstack{T1 \\\\ V0}}"), std::string::npos);
}
