// Reductions of typed tensors (ct/tensor_reduce.hpp) against plain loops, and the small CuTe
// vocabulary they are written with: complex and conjugate, N_c literals, make_tensor(ptr, shape),
// fill of an array, `Tensor t = make_tensor<T>(layout)`.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "cotile/ct/ct.hpp"

using namespace cotile::ct;

namespace {
int opaque(int x) {
  volatile int v = x;
  return v;
}
}  // namespace

TEST(TensorReduce, ReduceFoldsEveryElement) {
  const auto t = make_tensor(counting_iterator<int>{3}, Layout<Shape<_4, _8>, Stride<_8, _1>>{});
  EXPECT_EQ(reduce(t, 0), (3 + 34) * 32 / 2);  // 3 .. 34
  int64_t product = 1;
  for (int v = 3; v < 11; ++v) product *= v;
  EXPECT_EQ(reduce(make_tensor(counting_iterator<int64_t>{3}, Layout<_8>{}), int64_t(1), multiplies{}), product);
  // a run-time shape: the same fold
  const auto d = make_tensor(counting_iterator<int>{0}, make_layout(make_shape(opaque(5), _3{})));
  EXPECT_EQ(reduce(d, 100), 100 + 14 * 15 / 2);
}

// batch_reduce: dst(j) = dst(j) + sum_i src(i, j), src (reduced, batch).
TEST(TensorReduce, BatchReduceAddsIntoTheBatch) {
  std::vector<int> src(24);
  for (int k = 0; k < 24; ++k) src[k] = k * k % 7;
  const auto s = make_tensor(src.data(), Layout<Shape<_6, _4>>{});  // column-major: (i, j) at i + 6j
  int out[4] = {1, 2, 3, 4};
  auto dst = make_tensor(out, make_shape(_4{}));
  batch_reduce(s, dst);
  for (int j = 0; j < 4; ++j) {
    int want = 1 + j;
    for (int i = 0; i < 6; ++i) want += src[i + 6 * j];
    EXPECT_EQ(out[j], want) << j;
  }
  // a run-time batch whose size differs from dst's: an error, nothing written
  int small[3] = {0, 0, 0};
  auto wrong = make_tensor(small, make_shape(opaque(3)));
  EXPECT_THROW(batch_reduce(s, wrong), cotile::Error);
  EXPECT_EQ(small[0] + small[1] + small[2], 0);
}

// logical_reduce: the profile's integer modes are reduced, its '_' modes are the batch; nested
// profiles recurse. Checked against the sum over the reduced coordinates.
TEST(TensorReduce, LogicalReduceFollowsTheProfile) {
  const auto src = make_tensor(
      counting_iterator<int>{0},
      make_layout(make_shape(_2{}, make_shape(_3{}, _2{}), _4{}), make_stride(_1{}, make_stride(_2{}, _6{}), _12{})));
  // reduce modes 0 and (1,0); batch (1,1) and 2
  Tensor dst = make_tensor<int>(Layout<Shape<_2, _4>>{});
  clear(dst);
  logical_reduce(src, dst, make_coord(0_c, make_coord(1, _), _));
  for (int b1 = 0; b1 < 2; ++b1)
    for (int b2 = 0; b2 < 4; ++b2) {
      int want = 0;
      for (int a = 0; a < 2; ++a)
        for (int c = 0; c < 3; ++c) want += a + 2 * c + 6 * b1 + 12 * b2;
      EXPECT_EQ(dst(b1, b2), want) << b1 << "," << b2;
    }
  // an integer profile reduces everything; '_' reduces nothing
  int all[1] = {0};
  auto one = make_tensor(all, Layout<_1, _0>{});
  logical_reduce(src, one, 1);
  EXPECT_EQ(all[0], 47 * 48 / 2);
  Tensor copy = make_tensor<int>(Layout<_48>{});
  clear(copy);
  logical_reduce(src, copy, _);
  for (int i = 0; i < 48; ++i) EXPECT_EQ(copy(i), src(i));
}

TEST(TensorReduce, CuteVocabulary) {
  static_assert(std::is_same_v<decltype(0_c), _0> && std::is_same_v<decltype(128_c), Int<128>>);
  complex<float> z[3] = {{1, 2}, {0, -1}, {3, 0}};
  auto t = make_tensor(z, make_shape(_3{}));
  transform(t, conjugate{});
  EXPECT_EQ(z[0], (complex<float>{1, -2}));
  EXPECT_EQ(z[1], (complex<float>{0, 1}));
  EXPECT_EQ(z[2], (complex<float>{3, 0}));
  EXPECT_EQ(conjugate{}(2.5), 2.5);
  EXPECT_EQ((complex<int>{1, 2} * complex<int>{3, 4}), (complex<int>{-5, 10}));
  array<int, 4> a;
  fill(a, 7);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(a[i], 7);
  const auto m = make_tensor(a.begin(), make_shape(_2{}, opaque(2)));
  EXPECT_EQ(to_string(m.layout()), "(_2,2):(_1,_2)");
  Tensor r = make_tensor<float>(Layout<_4>{});  // a register tensor deduced as a Tensor
  static_assert(std::is_same_v<decltype(r), RegisterTensor<float, Layout<_4>, 4>>);
}
