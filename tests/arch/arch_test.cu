// The PTX wrappers on the GPU, with register fragments placed by the atom traits' layouts (so the
// traits are checked too): cp.async with zero fill, ldmatrix, mma.sync f16 and e4m3, wgmma f16 SS;
// programmatic dependent launch (a dependent grid that starts early and prefetches into L2 still
// reads what the first grid wrote after the wait); the SM and warp slot of co-resident warps.
// Skipped (exit 77) without a GPU.
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <cstdio>
#include <cstring>
#include <type_traits>
#include <vector>

#include "../gpu_skip.hpp"
#include "cotile/arch/dependent_launch.hpp"
#include "cotile/arch/mma_sm80.hpp"
#include "cotile/arch/sm.hpp"
#include "cotile/arch/wgmma.hpp"
#include "cotile/cotile.hpp"

using namespace cotile;

namespace {

int failures = 0, checks = 0;
void check(bool ok, const char* what, int i, double got, double want) {
  ++checks;
  if (!ok && ++failures < 20) std::printf("FAIL %s [%d]: got %g, want %g\n", what, i, got, want);
}

// --- cp.async with zero fill (rows 64.. with an L2 cache policy: evict-first, evict-normal) ------
__global__ void cp_async_kernel(const uint4* src, uint4* out) {
  __shared__ uint4 s[128];
  const int t = threadIdx.x;
  if (t < 64) arch::cp_async_zfill<16>(&s[t], &src[t], t % 3 != 0);  // every third row zero-filled
  else arch::cp_async_zfill<16, arch::CacheOp::kGlobal>(&s[t], &src[t], t % 3 != 0, arch::l2_policy(t % 2 == 0));
  arch::cp_async_commit();
  arch::cp_async_wait<0>();
  __syncthreads();
  out[t] = s[t];
}

// --- ldmatrix.x4 --------------------------------------------------------------------------------
__global__ void ldmatrix_kernel(const uint16_t* m, uint32_t* out) {
  __shared__ alignas(16) uint16_t s[4 * 64];
  const int t = threadIdx.x;
  for (int i = t; i < 256; i += 32) s[i] = m[i];
  __syncthreads();
  uint32_t r[4];
  // thread t gives row t % 8 of matrix t / 8
  arch::ldmatrix_x4(r[0], r[1], r[2], r[3], &s[(t / 8) * 64 + (t % 8) * 8]);
  for (int i = 0; i < 4; ++i) out[t * 4 + i] = r[i];
}

// --- mma.sync: fragments gathered through the traits' (thread, value) -> index maps ----------------
// m16n8k16 for 16-bit operands, m16n8k32 for fp8 ones (A and B of the same width).
template <class TA, class TB>
__global__ void mma_kernel(const TA* a, const TB* b, const int* amap, const int* bmap, const int* cmap, float* d) {
  static_assert(sizeof(TA) == sizeof(TB), "A and B of the same width");
  constexpr bool kFp8 = sizeof(TA) == 1;
  constexpr int per = 4 / sizeof(TA);  // elements per register
  const int t = threadIdx.x;
  uint32_t ra[4], rb[2];
  TA av[4 * per];
  TB bv[2 * per];
  for (int v = 0; v < 4 * per; ++v) av[v] = a[amap[t * 4 * per + v]];
  for (int v = 0; v < 2 * per; ++v) bv[v] = b[bmap[t * 2 * per + v]];
  std::memcpy(ra, av, sizeof(ra));
  std::memcpy(rb, bv, sizeof(rb));
  float c[4] = {0, 0, 0, 0}, r[4];
  if constexpr (kFp8)
    arch::mma_m16n8k32_fp8<std::is_same_v<TA, __nv_fp8_e5m2>, std::is_same_v<TB, __nv_fp8_e5m2>>(r, ra, rb, c);
  else arch::mma_m16n8k16<false>(r, ra, rb, c);
  for (int v = 0; v < 4; ++v) d[cmap[t * 4 + v]] = r[v];
}

// --- wgmma 64x64x16 f16, both operands in shared memory without swizzle -------------------------
// Core matrices (8 rows x 16 bytes) stored contiguously, K-groups adjacent: core (g, kg) at
// byte (2*g + kg) * 128, so LBO (next core in K) = 128 and SBO (next core in M/N) = 256.
__device__ int core_offset(int row, int k) { return ((row / 8) * 2 + k / 8) * 64 + (row % 8) * 8 + k % 8; }

__global__ void wgmma_kernel(const __half* a, const __half* b, const int* cmap, float* d) {
  __shared__ alignas(128) __half sa[64 * 16], sb[64 * 16];
  const int t = threadIdx.x;
  for (int i = t; i < 64 * 16; i += 128) {
    const int row = i / 16, k = i % 16;  // a, b are row-major (row, k)
    sa[core_offset(row, k)] = a[i];
    sb[core_offset(row, k)] = b[i];
  }
  __syncthreads();
  arch::fence_proxy_async_shared();
  float acc[32];
  for (int i = 0; i < 32; ++i) acc[i] = 0.f;
  const uint64_t da = arch::make_smem_desc(sa, 128, 256), db = arch::make_smem_desc(sb, 128, 256);
  arch::warpgroup_arrive();
  arch::WgmmaF16SS<64>::mma(acc, da, db, 0);
  arch::warpgroup_commit();
  arch::warpgroup_wait<0>();
  arch::warpgroup_fence_operands(acc);
  for (int v = 0; v < 32; ++v) d[cmap[t * 32 + v]] = acc[v];
}

// (thread, value) -> index maps of a traits layout.
std::vector<int> tv_map(const Layout& l) {
  const int threads = int(size(l.get(0)).value), vals = int(size(l.get(1)).value);
  std::vector<int> m(threads * vals);
  for (int t = 0; t < threads; ++t)
    for (int v = 0; v < vals; ++v) m[t * vals + v] = int(eval(l, make_tuple(dynamic_int(t), dynamic_int(v))).value);
  return m;
}

// The producer lets its dependent start at once, then writes late; the dependent, started early,
// must still see every write after grid_dependency_wait.
__global__ void producer_kernel(int* data, int n) {
  arch::launch_dependents();
  const long long t0 = clock64();
  while (clock64() - t0 < 20'000'000) {  // ~10 ms
  }
  for (int i = threadIdx.x; i < n; i += blockDim.x) data[i] = i + 1;
}
// Before its wait the dependent prefetches into L2 what it will read, and an unmapped address
// (hints: they must neither fault nor make the reads after the wait see old values).
__global__ void dependent_kernel(const int* data, int* out, int n) {
  int early = 0;  // an L2-only read before the wait, as the decode kernel's prefetch makes
  for (int i = threadIdx.x; i < n; i += blockDim.x) arch::prefetch_l2(data + i), early += __ldcg(data + i);
  arch::prefetch_l2(reinterpret_cast<const char*>(data) + (uint64_t(1) << 46));
  arch::grid_dependency_wait();
  for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = data[i] + (early == -1 ? 1 : 0);
}

// Every CTA of a grid that fits on the GPU at once arrives at a grid-wide count first (so all are
// resident together: none can exit and free its slots for another), then each warp records
// (SM, warp slot); -1 when the others did not arrive within ~0.5 s.
__global__ void where_kernel(int* arrived, int64_t* out) {
  if (threadIdx.x == 0) atomicAdd(arrived, 1);
  const long long t0 = clock64();
  bool all = false;
  while (!(all = *static_cast<volatile int*>(arrived) == int(gridDim.x)) && clock64() - t0 < 1'000'000'000) {
  }
  __syncthreads();
  if (threadIdx.x % 32 == 0)
    out[blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32] =
        all ? int64_t(arch::sm_id()) << 32 | arch::warp_slot() : -1;
}

template <class T>
T* to_device(const std::vector<T>& h) {
  T* d = nullptr;
  cudaMalloc(&d, sizeof(T) * h.size());
  cudaMemcpy(d, h.data(), sizeof(T) * h.size(), cudaMemcpyHostToDevice);
  return d;
}
template <class T>
std::vector<T> from_device(const T* d, size_t n) {
  std::vector<T> h(n);
  cudaMemcpy(h.data(), d, sizeof(T) * n, cudaMemcpyDeviceToHost);
  return h;
}

// One mma.sync through the traits' (thread, value) -> index maps against a host sum: m16n8k16
// (16-bit) or m16n8k32 (fp8). Values with 1-2 mantissa bits (exact in every operand format, and so
// are the sums), distinct per element, so that a misplaced element shows.
template <class TA, class TB>
void mma_check(Elem ea, Elem eb, const char* what) {
  constexpr bool kFp8 = sizeof(TA) == 1;
  constexpr int K = kFp8 ? 32 : 16;
  const MmaTraits tr = mma_traits(kFp8 ? MmaFamily::kSm89_16x8x32 : MmaFamily::kSm80_16x8x16, ea, eb, 16, 8);
  std::vector<TA> a(16 * K);
  std::vector<TB> b(8 * K);
  std::vector<float> fa(a.size()), fb(b.size());
  for (size_t i = 0; i < a.size(); ++i) fa[i] = float(int(i * 7) % 9 - 4) * 0.5f, a[i] = TA(fa[i]);   // a[m + 16*k]
  for (size_t i = 0; i < b.size(); ++i) fb[i] = float(int(i * 5) % 7 - 3) * 0.25f, b[i] = TB(fb[i]);  // b[n + 8*k]
  const auto am = tv_map(tr.a), bm = tv_map(tr.b), cm = tv_map(tr.c);
  float* dd = to_device(std::vector<float>(128));
  mma_kernel<TA, TB><<<1, 32>>>(to_device(a), to_device(b), to_device(am), to_device(bm), to_device(cm), dd);
  const auto d = from_device(dd, 128);
  for (int m = 0; m < 16; ++m)
    for (int n = 0; n < 8; ++n) {
      float want = 0;
      for (int k = 0; k < K; ++k) want += fa[m + 16 * k] * fb[n + 8 * k];
      check(d[m + 16 * n] == want, what, m + 16 * n, d[m + 16 * n], want);
    }
}

}  // namespace

int main() {
  skip_without_gpu();
  {  // cp.async zfill
    std::vector<uint4> src(128);
    for (int i = 0; i < 128; ++i) src[i] = make_uint4(i + 1, 2 * i + 1, 3 * i + 1, 4 * i + 1);
    uint4* ds = to_device(src);
    uint4* dout = to_device(std::vector<uint4>(128, make_uint4(7, 7, 7, 7)));
    cp_async_kernel<<<1, 128>>>(ds, dout);
    const auto out = from_device(dout, 128);
    for (int i = 0; i < 128; ++i) {
      const bool copied = i % 3 != 0;
      check(out[i].x == (copied ? src[i].x : 0u) && out[i].w == (copied ? src[i].w : 0u),
            i < 64 ? "cp_async_zfill" : "cp_async_zfill with a policy", i, out[i].x, copied ? src[i].x : 0);
    }
  }
  {  // ldmatrix.x4: register i of thread t holds matrix i, row t/4, columns 2*(t%4), +1
    std::vector<uint16_t> m(256);
    for (int i = 0; i < 256; ++i) m[i] = uint16_t(i);
    uint16_t* dm = to_device(m);
    uint32_t* dout = to_device(std::vector<uint32_t>(128));
    ldmatrix_kernel<<<1, 32>>>(dm, dout);
    const auto out = from_device(dout, 128);
    for (int t = 0; t < 32; ++t)
      for (int i = 0; i < 4; ++i) {
        const uint32_t lo = i * 64 + (t / 4) * 8 + 2 * (t % 4);
        const uint32_t want = lo | ((lo + 1) << 16);
        check(out[t * 4 + i] == want, "ldmatrix_x4", t * 4 + i, out[t * 4 + i], want);
      }
  }
  // mma.sync with the SM80 / SM89 traits' layouts: f16, and fp8 with A e4m3, B e4m3 or e5m2
  mma_check<__half, __half>(Elem::kHalf, Elem::kHalf, "mma_m16n8k16");
  mma_check<__nv_fp8_e4m3, __nv_fp8_e4m3>(Elem::kE4M3, Elem::kE4M3, "mma_m16n8k32_e4m3_e4m3");
  mma_check<__nv_fp8_e4m3, __nv_fp8_e5m2>(Elem::kE4M3, Elem::kE5M2, "mma_m16n8k32_e4m3_e5m2");

  {  // wgmma 64x64x16 f16 SS; accumulators placed by the SM90 traits' C layout
    const MmaTraits tr = mma_traits(MmaFamily::kSm90_Gmma_SS, Elem::kHalf, Elem::kHalf, 64, 64);
    std::vector<__half> a(64 * 16), b(64 * 16);
    std::vector<float> fa(a.size()), fb(b.size());
    for (size_t i = 0; i < a.size(); ++i) fa[i] = float(int(i * 7) % 5 - 2), a[i] = __float2half(fa[i]);  // a[m*16 + k]
    for (size_t i = 0; i < b.size(); ++i) fb[i] = float(int(i * 3) % 7 - 3), b[i] = __float2half(fb[i]);  // b[n*16 + k]
    const auto cm = tv_map(tr.c);
    float* dd = to_device(std::vector<float>(64 * 64));
    wgmma_kernel<<<1, 128>>>(to_device(a), to_device(b), to_device(cm), dd);
    const auto d = from_device(dd, 64 * 64);
    for (int m = 0; m < 64; ++m)
      for (int n = 0; n < 64; ++n) {
        float want = 0;
        for (int k = 0; k < 16; ++k) want += fa[m * 16 + k] * fb[n * 16 + k];
        check(d[m + 64 * n] == want, "wgmma_64x64x16_f16_ss", m + 64 * n, d[m + 64 * n], want);
      }
  }
  {  // programmatic dependent launch
    constexpr int n = 256;
    int* data = to_device(std::vector<int>(n));
    int* out = to_device(std::vector<int>(n));
    producer_kernel<<<1, 128>>>(data, n);
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(1), config.blockDim = dim3(128);
    cudaLaunchAttribute attribute{};
    attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attribute.val.programmaticStreamSerializationAllowed = 1;
    config.attrs = &attribute, config.numAttrs = 1;
    const int* cdata = data;
    check(cudaLaunchKernelEx(&config, dependent_kernel, cdata, out, n) == cudaSuccess, "dependent launch", 0, 0, 0);
    const auto got = from_device(out, n);
    for (int i = 0; i < n; ++i) check(got[i] == i + 1, "grid_dependency_wait", i, got[i], i + 1);
  }
  {  // co-resident warps hold distinct (SM, slot); a CTA of 4 warps one aligned block of 4 slots
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    const int grid = 2 * sms, warps = 4;
    int* arrived = to_device(std::vector<int>(1));
    int64_t* dout = to_device(std::vector<int64_t>(size_t(grid) * warps));
    where_kernel<<<grid, 32 * warps>>>(arrived, dout);
    const auto where = from_device(dout, size_t(grid) * warps);
    std::vector<std::vector<int>> taken(sms + 64);  // per SM id: the CTA holding each slot
    for (int c = 0; c < grid; ++c) {
      int64_t block = -1;
      for (int w = 0; w < warps; ++w) {
        const int64_t x = where[size_t(c) * warps + w];
        check(x >= 0, "all CTAs resident at once", c, double(x), 0);
        if (x < 0) break;
        const int sm = int(x >> 32), slot = int(x & 0xffffffff);
        check(sm < int(taken.size()) && slot < 64, "sm_id and warp_slot in range", c, sm, slot);
        if (sm >= int(taken.size()) || slot >= 64) break;
        if (taken[sm].empty()) taken[sm].assign(64, -1);
        check(taken[sm][slot] == -1, "warp_slot: distinct slots on one SM", c, slot, taken[sm][slot]);
        taken[sm][slot] = c;
        if (w == 0) block = slot / warps;
        check(slot / warps == block, "warp_slot: a CTA's warps in one aligned block", c, slot, double(block * warps));
      }
    }
  }
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::printf("FAIL CUDA error: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 1;
  }
  std::printf("%d passed, %d failed\n", checks - failures, failures);
  return failures ? 1 : 0;
}
