// The engine runs at compile time: the same algorithms evaluated by the compiler.
#include <gtest/gtest.h>

#include "cotile/cotile.hpp"

using namespace cotile;

namespace {
constexpr Layout kData = Layout{make_tuple(make_tuple(static_int(128), static_int(32)), static_int(1), static_int(4)),
                                make_tuple(make_tuple(static_int(128), static_int(1)), static_int(0), static_int(32))};
constexpr Layout kInv = left_inverse(kData);
static_assert(kInv.shape == make_tuple(static_int(128), static_int(128)), "left_inverse at compile time");
static_assert(kInv.stride == make_tuple(static_int(128), static_int(1)));
static_assert(size(kData) == static_int(16384));
static_assert(coalesce(kData) == kInv);
constexpr Layout kTv = Layout{make_tuple(make_tuple(static_int(2), static_int(32)), static_int(16)),
                              make_tuple(make_tuple(static_int(16), static_int(32)), static_int(1))};
// layout_tv_data at t = 17, v = 0: t0 = 1, t1 = 0, t2 = 2, so q = 2048*t0 + 4096*t1 + t2 = 2050 (qload.md §7.3).
static_assert(eval(composition(make_layout_concat(kInv, Layout{}), kTv), int_tuple(dynamic_int(17))).value == 2050);
}  // namespace

TEST(Constexpr, EngineEvaluatesAtCompileTime) { SUCCEED(); }
