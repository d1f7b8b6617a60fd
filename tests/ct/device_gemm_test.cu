// A small GEMM written CuTe-style with the typed layer, on the device: C = alpha A B^T + beta C
// for A (32x8), B (32x8), C (32x32) in global memory, the CTA's tiles taken by one (M,N,K) tiler
// and its projections (local_tile with Step<_1, X, _1> ...). A and B reach shared memory through a
// tiled copy (partition_S/D; copied element by element, or by copy(tiled_copy, ...) as 16-byte
// cp.async of Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, float>); each of 128 threads takes
// its 2x4 part of C, its rows of A and B into registers (make_fragment_like, copy), accumulates
// (clear, gemm) and writes alpha acc + beta C (axpby). Two ways of dividing C: local_partition
// (threads as a (16,8) grid, projected onto A and B), and a tiled MMA of UniversalFMA atoms over
// the same grid (partition_A/B/C, gemm(mma, ...)). Checked against a double-precision loop on the
// host. Exit 77 without a GPU.
#include <cmath>
#include <cstdio>
#include <vector>

#include "../gpu_skip.hpp"
#include "cotile/ct/ct.hpp"

using namespace cotile::ct;

namespace {

constexpr int kM = 32, kN = 32, kK = 8, kThreads = 128;

__global__ void small_gemm(const float* A, const float* B, float* C, float alpha, float beta, bool by_mma) {
  __shared__ float smem_a[kM * kK];
  __shared__ float smem_b[kN * kK];
  const int tid = int(threadIdx.x);
  // The CTA's tiles of A (M,K), B (N,K), C (M,N) by one (M,N,K) tiler and its projections.
  const auto mA = make_tensor(make_gmem_ptr(A), make_layout(make_shape(_32{}, _8{})));  // column-major
  const auto mB = make_tensor(make_gmem_ptr(B), make_layout(make_shape(_32{}, _8{})));
  const auto mC = make_tensor(make_gmem_ptr(C), make_layout(make_shape(_32{}, _32{})));
  const auto tiler = make_shape(_32{}, _32{}, _8{});
  const auto cta = make_coord(0, 0, _);
  const auto gA = local_tile(mA, tiler, cta, Step<_1, X, _1>{})(_, _, 0);  // (32,8)
  const auto gB = local_tile(mB, tiler, cta, Step<X, _1, _1>{})(_, _, 0);  // (32,8)
  const auto gC = local_tile(mC, tiler, cta, Step<_1, _1, X>{});           // (32,32)
  const auto sA = make_tensor(make_smem_ptr(smem_a), make_layout(make_shape(_32{}, _8{})));
  const auto sB = make_tensor(make_smem_ptr(smem_b), make_layout(make_shape(_32{}, _8{})));

  if (!by_mma) {  // global -> shared: a (32,4) grid of threads, one 32-bit element each per copy
    const auto tc = make_tiled_copy<cotile::CopyOp::kU32, cotile::Elem::kFloat>(make_layout(make_shape(_32{}, _4{})),
                                                                                make_layout(make_shape(_1{}, _1{})));
    const auto thr = get_slice(tc, tid);
    copy(thr.partition_S(gA), thr.partition_D(sA));
    copy(thr.partition_S(gB), thr.partition_D(sB));
  } else if (tid < 64) {  // 64 threads as (8,8), 4 floats (16 bytes, one cp.async) each
    const auto tc = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, float>{},
                                    make_layout(make_shape(_8{}, _8{})), make_layout(make_shape(_4{}, _1{})));
    const auto thr = get_slice(tc, tid);
    copy(tc, thr.partition_S(gA), thr.partition_D(sA));
    copy(tc, thr.partition_S(gB), thr.partition_D(sB));
    cp_async_fence();
    cp_async_wait<0>();
  }
  __syncthreads();

  if (by_mma) {  // the tiled MMA's partitions: (V=1, M, K), (V, N, K), (V, M, N)
    const auto mma = make_tiled_mma(UniversalFMA<float>{}, make_layout(make_shape(_16{}, _8{}, _1{})));
    const auto tCgC = partition_C(mma, gC, tid);
    auto rA = make_fragment_like(partition_A(mma, sA, tid));
    auto rB = make_fragment_like(partition_B(mma, sB, tid));
    auto acc = make_fragment_like(tCgC);
    copy(partition_A(mma, sA, tid), rA);
    copy(partition_B(mma, sB, tid), rB);
    clear(acc);
    gemm(mma, rA, rB, acc);
    axpby(alpha, acc, beta, tCgC);
    return;
  }
  // Threads as a (16,8) grid over C: thread (i, j) owns rows i + 16 r, columns j + 8 c; the
  // projections give its rows of A (Step<_1, X>: i) and of B (Step<X, _1>: j).
  const auto tC = make_layout(make_shape(_16{}, _8{}));
  const auto tCsA = local_partition(sA, tC, tid, Step<_1, X>{});  // (2,8)
  const auto tCsB = local_partition(sB, tC, tid, Step<X, _1>{});  // (4,8)
  const auto tCgC = local_partition(gC, tC, tid);                 // (2,4)
  auto rA = make_fragment_like(tCsA);
  auto rB = make_fragment_like(tCsB);
  auto acc = make_fragment_like(tCgC);
  copy(tCsA, rA);
  copy(tCsB, rB);
  clear(acc);
  gemm(rA, rB, acc);
  axpby(alpha, acc, beta, tCgC);
}

}  // namespace

int main() {
  skip_without_gpu();
  std::vector<float> a(kM * kK), b(kN * kK), c(kM * kN);
  for (int i = 0; i < kM * kK; ++i) a[size_t(i)] = float((i * 7) % 13) - 6.0f;
  for (int i = 0; i < kN * kK; ++i) b[size_t(i)] = float((i * 5) % 11) * 0.5f - 2.0f;
  for (int i = 0; i < kM * kN; ++i) c[size_t(i)] = float(i % 9);
  const float alpha = 1.5f, beta = -0.5f;
  float *da, *db, *dc;
  cudaMalloc(&da, a.size() * 4);
  cudaMalloc(&db, b.size() * 4);
  cudaMalloc(&dc, c.size() * 4);
  cudaMemcpy(da, a.data(), a.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), b.size() * 4, cudaMemcpyHostToDevice);
  int bad = 0;
  for (const bool by_mma : {false, true}) {
    cudaMemcpy(dc, c.data(), c.size() * 4, cudaMemcpyHostToDevice);
    small_gemm<<<1, kThreads>>>(da, db, dc, alpha, beta, by_mma);
    std::vector<float> got(c.size());
    const cudaError_t err = cudaMemcpy(got.data(), dc, got.size() * 4, cudaMemcpyDeviceToHost);
    if (err != cudaSuccess) {
      std::printf("FAILED: %s\n", cudaGetErrorString(err));
      return 1;
    }
    int wrong = 0;
    for (int m = 0; m < kM; ++m)
      for (int n = 0; n < kN; ++n) {
        double want = 0;
        for (int k = 0; k < kK; ++k) want += double(a[size_t(m + kM * k)]) * double(b[size_t(n + kN * k)]);
        want = alpha * want + beta * c[size_t(m + kM * n)];
        const float g = got[size_t(m + kM * n)];
        if (std::fabs(g - want) > 1e-4 * (1 + std::fabs(want)) && ++wrong <= 5)
          std::printf("%s: C(%d,%d) = %g, expected %g\n", by_mma ? "tiled MMA" : "local_partition", m, n, double(g),
                      want);
      }
    std::printf("%s: %d of %d elements wrong\n", by_mma ? "tiled MMA" : "local_partition", wrong, kM * kN);
    bad += wrong;
  }
  std::printf("%s\n", bad ? "FAILED" : "passed");
  return bad ? 1 : 0;
}
