// Tensor-core GEMMs written CuTe-style with the typed layer, on the device: C = A B^T for
// A (M,K) and B (N,K), both K-major (CuTe's TN), f16 and bf16 in, f32 out, by a tiled MMA of
// mma.sync m16n8k16 atoms (make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, 2x2x1 atoms) over 4
// warps, CuTe's spelling). Each thread partitions A, B and C by the MMA (partition_A/B/C), copies
// its values into fragments (partition_fragment_A/B/C), accumulates over K (gemm(mma, ...): one
// mma.sync an (m, n, k) of its partitions) and writes its part of C. Every value's coordinate
// comes from the atom's TV layouts; a wrong register order or fragment map shows as wrong
// elements. Checked against a double-precision loop on the host. Exit 77 without a GPU.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "../gpu_skip.hpp"
#include "cotile/ct/ct.hpp"

using namespace cotile::ct;

namespace {

constexpr int kM = 64, kN = 32, kK = 48, kThreads = 128;

template <class Op, class T>
__global__ void tensor_core_gemm(const T* A, const T* B, float* C) {
  const int tid = int(threadIdx.x);
  const auto gA = make_tensor(make_gmem_ptr(A), make_layout(make_shape(Int<kM>{}, Int<kK>{}), LayoutRight{}));
  const auto gB = make_tensor(make_gmem_ptr(B), make_layout(make_shape(Int<kN>{}, Int<kK>{}), LayoutRight{}));
  const auto gC = make_tensor(make_gmem_ptr(C), make_layout(make_shape(Int<kM>{}, Int<kN>{})));  // column-major
  const auto mma = make_tiled_mma(Op{}, make_layout(make_shape(_2{}, _2{}, _1{})));              // 4 warps: 32x16x16
  const auto tCgA = partition_A(mma, gA, tid);                                                   // (8, M/32, K/16)
  const auto tCgB = partition_B(mma, gB, tid);                                                   // (4, N/16, K/16)
  const auto tCgC = partition_C(mma, gC, tid);                                                   // (4, M/32, N/16)
  auto rA = partition_fragment_A<T>(mma, gA, tid);
  auto rB = partition_fragment_B<T>(mma, gB, tid);
  auto acc = partition_fragment_C<float>(mma, gC, tid);
  copy(tCgA, rA);
  copy(tCgB, rB);
  clear(acc);
  gemm(mma, rA, rB, acc);
  copy(acc, tCgC);
}

template <class Op, class T>
int run(const char* name, float (*to_float)(T), T (*from_float)(float)) {
  std::vector<T> a(kM * kK), b(kN * kK);
  std::vector<float> af(a.size()), bf(b.size());
  for (int i = 0; i < kM * kK; ++i) {
    a[size_t(i)] = from_float(float((i * 7) % 13) - 6.0f);
    af[size_t(i)] = to_float(a[size_t(i)]);
  }
  for (int i = 0; i < kN * kK; ++i) {
    b[size_t(i)] = from_float(float((i * 5) % 11) * 0.25f - 1.0f);
    bf[size_t(i)] = to_float(b[size_t(i)]);
  }
  T *da, *db;
  float* dc;
  cudaMalloc(&da, a.size() * sizeof(T));
  cudaMalloc(&db, b.size() * sizeof(T));
  cudaMalloc(&dc, size_t(kM * kN) * 4);
  cudaMemcpy(da, a.data(), a.size() * sizeof(T), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), b.size() * sizeof(T), cudaMemcpyHostToDevice);
  cudaMemset(dc, 0xff, size_t(kM * kN) * 4);  // NaN: an element nobody writes is wrong
  tensor_core_gemm<Op, T><<<1, kThreads>>>(da, db, dc);
  std::vector<float> got(size_t(kM * kN));
  const cudaError_t err = cudaMemcpy(got.data(), dc, got.size() * 4, cudaMemcpyDeviceToHost);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  if (err != cudaSuccess) {
    std::printf("%s: FAILED: %s\n", name, cudaGetErrorString(err));
    return 1;
  }
  int wrong = 0;
  for (int m = 0; m < kM; ++m)
    for (int n = 0; n < kN; ++n) {
      double want = 0;
      for (int k = 0; k < kK; ++k) want += double(af[size_t(m * kK + k)]) * double(bf[size_t(n * kK + k)]);
      const float g = got[size_t(m + kM * n)];
      if (!(std::fabs(g - want) <= 1e-3 * (1 + std::fabs(want))) && ++wrong <= 5)
        std::printf("%s: C(%d,%d) = %g, expected %g\n", name, m, n, double(g), want);
    }
  std::printf("%s: %d of %d elements wrong\n", name, wrong, kM * kN);
  return wrong;
}

float half_to_float(__half x) { return __half2float(x); }
__half float_to_half(float x) { return __float2half(x); }
float bf16_to_float(__nv_bfloat16 x) { return __bfloat162float(x); }
__nv_bfloat16 float_to_bf16(float x) { return __float2bfloat16(x); }

}  // namespace

int main() {
  skip_without_gpu();
  int bad = run<SM80_16x8x16_F32F16F16F32_TN, __half>("f16", half_to_float, float_to_half);
  bad += run<SM80_16x8x16_F32BF16BF16F32_TN, __nv_bfloat16>("bf16", bf16_to_float, float_to_bf16);
  std::printf("%s\n", bad ? "FAILED" : "passed");
  return bad ? 1 : 0;
}
