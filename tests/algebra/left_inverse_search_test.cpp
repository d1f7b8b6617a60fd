// laws::search_left_inverse (laws/left_inverse_search.hpp), the R the left_inverse refusals name:
// on every small flat layout, each R it returns is checked by the law oracle (law_oracle.hpp, which
// shares no code with the engine's checks), and it finds one wherever left_inverse returns one.
#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

#include "law_oracle.hpp"
#include "test_util.hpp"

using namespace cotile;

namespace {

// R(L(i)) = i for every i < size(L) (L injective), and R's extents are >= 1.
bool inverts(const Layout& r, const Layout& l) {
  for (int k = 0; k < r.shape.num_leaves(); ++k)
    if (r.shape.leaf_at(k).value < 1) return false;
  return oracle::left_inverse(l, r).empty();
}

Layout flat_layout(const std::vector<int64_t>& s, const std::vector<int64_t>& d, bool is_static) {
  IntTuple shape = IntTuple::tuple(), stride = IntTuple::tuple();
  for (size_t k = 0; k < s.size(); ++k) {
    shape.push_back(int_tuple(Int{s[k], is_static}));
    stride.push_back(int_tuple(Int{d[k], is_static}));
  }
  return Layout{shape, stride};
}

}  // namespace

TEST(LeftInverseSearch, NamedExamples) {
  Layout r{};
  ASSERT_TRUE(laws::search_left_inverse(test::L("(2,2):(2,3)"), r));
  EXPECT_EQ(to_string(r), "(2,3):(1,1)");
  ASSERT_TRUE(laws::search_left_inverse(test::L("(_3,_2):(_2,_3)"), r));
  EXPECT_EQ(to_string(r), "(_2,_4):(_2,_1)");
  // Not injective (L(1) = L(2) = 2), or negative offsets, or more than 512 indices: no search.
  EXPECT_FALSE(laws::search_left_inverse(test::L("(2,2):(2,2)"), r));
  EXPECT_FALSE(laws::search_left_inverse(test::L("(2,2):(-1,2)"), r));
  EXPECT_FALSE(laws::search_left_inverse(test::L("(32,32):(1,33)"), r));
}

// Every flat layout of rank 1..3 with shapes in [1,4] and strides in [0,6], static and run-time:
// each R the search returns inverts L; where left_inverse returns a layout (its law holds) the
// search finds one too; and how many refusals it answers is printed.
TEST(LeftInverseSearch, SmallLayouts) {
  int64_t injective_count = 0, lawful = 0, refused = 0, refused_found = 0, wrong = 0, missed = 0;
  for (const bool is_static : {true, false})
    for (int rank = 1; rank <= 3; ++rank) {
      int64_t total = 1;
      for (int k = 0; k < rank; ++k) total *= 4 * 7;
      for (int64_t code = 0; code < total; ++code) {
        std::vector<int64_t> s, d;
        for (int64_t c = code, k = 0; k < rank; ++k, c /= 28) s.push_back(1 + c % 28 / 7), d.push_back(c % 7);
        const Layout l = flat_layout(s, d, is_static);
        if (!oracle::injective(oracle::Fn(l))) continue;
        ++injective_count;
        Layout found{};
        const bool searched = laws::search_left_inverse(l, found);
        if (searched && !inverts(found, l)) {
          if (++wrong <= 5) ADD_FAILURE() << to_string(l) << ": the search's R " << to_string(found);
        }
        bool returned = true;
        try {
          (void)left_inverse(l);
        } catch (const Error&) {
          returned = false;
        }
        if (returned) {
          ++lawful;
          if (!searched && ++missed <= 5)
            ADD_FAILURE() << to_string(l) << ": left_inverse returns, the search finds none";
        } else {
          ++refused;
          refused_found += searched;
        }
      }
    }
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(missed, 0);
  EXPECT_GT(refused_found, 0);
  std::printf("injective layouts %lld: left_inverse returns %lld, refuses %lld, of which the search answers %lld\n",
              (long long)injective_count, (long long)lawful, (long long)refused, (long long)refused_found);
}
