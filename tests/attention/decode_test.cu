// GPU tests of the decode kernel against the fp32 reference (reference.cuh) over a covering grid
// of awkward shapes: B in {1, 3, 17}, N in {0, 1, 15, 16, 17, 1000, 65537}, G in {1, 3, 4, 5, 8,
// 16, 32}, D in {64, 128, 256}, contiguous (both orders) and paged caches (pages of 1, 16, 256),
// remap and append on and off, every (Q, KV) dtype pair, soft-cap and window, per-head scales,
// 2 to 8 query tokens a sequence (causal, in the cache or appended);
// plus forced splits (both merges, and the workspace merge's thread mappings), wide scores (the
// lazy rescale's reference moving many times),
// seqlen / page table / remap written by the kernel just before (late_writer) and a cache of
// more than 2^31 elements. Each case: fresh random inputs, poisoned outputs,
// ‖O - ref‖ / ‖ref‖ under the dtype's tolerance, LSE, empty sequences exactly 0 / -inf, the
// appended row in the cache, and a second run (split counters reset) identical to the first.
//
//   decode_test            the full grid (~200 cases) and the large case
//   decode_test --quick    a small subset (for compute-sanitizer)
//   ... --only WORDS       only the cases whose name holds WORDS (e.g. late-writes)
// Exit 77 (skipped) without a GPU.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../gpu_skip.hpp"
#include "cotile/arch/dependent_launch.hpp"
#include "decode.hpp"
#include "decode_case.hpp"
#include "reference.cuh"

using decode_test::Cache;
using decode_test::Case;
using decode_test::run_case;
using decode_test::token_cases;

namespace {

#define CHECK_CUDA(x)                                                                              \
  do {                                                                                             \
    const cudaError_t e_ = (x);                                                                    \
    if (e_ != cudaSuccess) {                                                                       \
      std::printf("CUDA error %s at %s:%d: %s\n", cudaGetErrorString(e_), __FILE__, __LINE__, #x); \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

struct Buf {
  void* p = nullptr;
  size_t bytes = 0;
  explicit Buf(size_t n) : bytes(n) { CHECK_CUDA(cudaMalloc(&p, n ? n : 16)); }
  ~Buf() { cudaFree(p); }
  Buf(const Buf&) = delete;
  template <class T>
  T* as() const {
    return static_cast<T*>(p);
  }
};

__device__ uint32_t hash(uint64_t x) {
  x ^= x >> 33, x *= 0xff51afd7ed558ccdull, x ^= x >> 33, x *= 0xc4ceb9fe1a85ec53ull, x ^= x >> 33;
  return uint32_t(x);
}

// Random values in [-amp, amp] of dtype t.
__global__ void fill_random(void* dst, int64_t n, int t, uint64_t seed, float amp) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x) {
    const float x = amp * (2.0f * (hash(seed * 0x9e3779b97f4a7c15ull + uint64_t(i)) >> 8) / 16777216.0f - 1.0f);
    switch (t) {
      case COTILE_F16: static_cast<__half*>(dst)[i] = __float2half(x); break;
      case COTILE_BF16: static_cast<__nv_bfloat16*>(dst)[i] = __float2bfloat16(x); break;
      case COTILE_E4M3: static_cast<__nv_fp8_e4m3*>(dst)[i] = __nv_fp8_e4m3(x); break;
      default: static_cast<__nv_fp8_e5m2*>(dst)[i] = __nv_fp8_e5m2(x); break;
    }
  }
}
void fill(const Buf& b, int64_t n, int t, uint64_t seed, float amp) {
  fill_random<<<1024, 256>>>(b.p, n, t, seed, amp);
  CHECK_CUDA(cudaGetLastError());
}

// NaN in every cache row no sequence attends: rows n >= limit[blk] of each block blk (a cache
// batch or a page) of `sb` bytes, whose rows are `sn` bytes apart and whose heads `sh` apart (either
// order); limit[blk] is the attended rows the block holds (0: no sequence maps it). Rows past a
// sequence's length are read by no kernel path, only zero-filled or skipped: a kernel that used
// one would turn the output to NaN here, where random values might pass the tolerance.
__global__ void poison_unattended(uint8_t* cache, int64_t bytes, int64_t sb, int64_t sn, int64_t sh,
                                  const int32_t* limit, int elem_bytes) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < bytes; i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t in_block = i % sb;
    const int64_t n = sn >= sh ? in_block / sn : in_block % sh / sn;
    if (n >= limit[i / sb]) cache[i] = elem_bytes == 1 || i % 2 == 1 ? 0x7f : 0xff;  // e4m3/e5m2 0x7f, 16-bit 0x7fff
  }
}

__global__ void to_float_kernel(const void* o, int64_t n, int64_t D, int64_t sh, int t, float* out) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    out[i] = ref::to_float(o, (i / D) * sh + i % D, t);
}

// Tolerance on ‖O - ref‖ / ‖ref‖: bf16 compute (bf16 cache) and bf16 output round to 8 bits;
// f16 compute (f16 and fp8 caches) to 11 bits (probabilities and Q in f16).
double tolerance(const Case& c) {
  return (c.kv_type == COTILE_BF16 || c.q_type == COTILE_BF16 || c.o_type == COTILE_BF16) ? 2e-2 : 4e-3;
}

// The kernel before a decode (a programmatic dependent launch, which may start as soon as this
// lets it, and prefetch before its wait): lets it start, runs ~2 ms, then writes the real sequence
// lengths, page table and remap over the stale ones (huge values: addresses far outside every
// allocation). The decode must use only what this wrote.
struct LateCopy {
  const int32_t* src;
  int32_t* dst;
  int n;
};
__global__ void late_writer(LateCopy a, LateCopy b, LateCopy c) {
  cotile::arch::launch_dependents();
  const long long t0 = clock64();
  while (clock64() - t0 < 4'000'000) {
  }
  for (const LateCopy& x : {a, b, c})
    for (int i = int(threadIdx.x); i < x.n; i += int(blockDim.x)) x.dst[i] = x.src[i];
}

uint64_t g_seed = 1;
int g_failures = 0, g_cases = 0;
std::string g_only;  // --only: a case runs when its name holds this

}  // namespace

bool decode_test::run_case(const Case& c) {
  if (!g_only.empty() && c.name().find(g_only) == std::string::npos) return true;
  ++g_cases;
  const int Hq = c.G * c.Hkv, B = c.B, D = c.D, T = c.q_len;
  const int qb = ref::elem_bytes(c.q_type), kvb = ref::elem_bytes(c.kv_type);
  // Sequence lengths: sequence 0 has N rows, the others random in [0, N] (and one empty when B > 2).
  std::vector<int> seqlen(B);
  srand(unsigned(g_seed));
  for (int b = 0; b < B; ++b) seqlen[b] = b == 0 ? c.N : (b == 2 ? 0 : rand() % (c.N + 1));
  const int cap_rows = c.N + T + 3;  // room for the append, and a stride that is not N
  const int Bc = c.remap ? B + 2 : B;
  // Cache geometry (elements).
  int64_t k_sb, k_sn, k_sh, cache_elems;
  std::vector<int32_t> table;
  int pages_per_seq = 0;
  if (c.cache == Cache::kPaged) {
    pages_per_seq = (cap_rows + c.page - 1) / c.page;
    const int pages = B * pages_per_seq + 3;
    std::vector<int32_t> perm(pages);
    for (int i = 0; i < pages; ++i) perm[i] = i;
    for (int i = pages - 1; i > 0; --i) std::swap(perm[i], perm[rand() % (i + 1)]);
    table.assign(perm.begin(), perm.begin() + B * pages_per_seq);
    k_sb = int64_t(c.page) * c.Hkv * D, k_sn = int64_t(c.Hkv) * D, k_sh = D;
    cache_elems = int64_t(pages) * k_sb;
  } else if (c.cache == Cache::kBNHD) {
    k_sb = int64_t(cap_rows) * c.Hkv * D, k_sn = int64_t(c.Hkv) * D, k_sh = D;
    cache_elems = Bc * k_sb;
  } else {
    k_sb = int64_t(c.Hkv) * cap_rows * D, k_sh = int64_t(cap_rows) * D, k_sn = D;
    cache_elems = Bc * k_sb;
  }
  std::vector<int32_t> remap(B);
  for (int b = 0; b < B; ++b) remap[b] = Bc - 1 - b;  // injective, and never the identity
  const int64_t q_sh = D + (c.pad_q ? 32 : 0);
  // Q [B, T, Hq, q_sh], O [B, T, Hq, D], LSE [B, T, Hq], k_new and v_new [B, T, Hkv, D].
  const int64_t rows = int64_t(B) * T * Hq, new_elems = int64_t(B) * T * c.Hkv * D;
  Buf q(size_t(rows * q_sh * qb)), k(cache_elems * kvb), v(cache_elems * kvb), kn(size_t(new_elems * kvb)),
      vn(size_t(new_elems * kvb)), o(size_t(rows * D * 2)), lse(size_t(rows * 4)), seq(B * 4),
      tab(table.size() * 4 + 4), rmp(B * 4), ksh(c.Hkv * 4), vsh(c.Hkv * 4);
  const float amp_kv = kvb == 1 ? 4.0f : 1.0f;
  fill(q, rows * q_sh, c.q_type, g_seed * 7 + 1, c.q_amp > 0 ? c.q_amp : kvb == 1 && qb == 1 ? 4.0f : 1.0f);
  fill(k, cache_elems, c.kv_type, g_seed * 7 + 2, amp_kv);
  fill(v, cache_elems, c.kv_type, g_seed * 7 + 3, amp_kv);
  fill(kn, new_elems, c.kv_type, g_seed * 7 + 4, amp_kv);
  fill(vn, new_elems, c.kv_type, g_seed * 7 + 5, amp_kv);
  {  // rows past each sequence's length (and the batches or pages none maps) hold NaN
    std::vector<int32_t> limit;
    if (c.cache == Cache::kPaged) {
      limit.assign(B * pages_per_seq + 3, 0);
      for (int b = 0; b < B; ++b)
        for (int j = 0; j < pages_per_seq; ++j)
          limit[table[b * pages_per_seq + j]] = std::clamp(seqlen[b] - j * c.page, 0, c.page);
    } else {
      limit.assign(Bc, 0);
      for (int b = 0; b < B; ++b) limit[c.remap ? remap[b] : b] = seqlen[b];
    }
    Buf lim(limit.size() * 4);
    CHECK_CUDA(cudaMemcpy(lim.p, limit.data(), limit.size() * 4, cudaMemcpyHostToDevice));
    for (const Buf* x : {&k, &v})
      poison_unattended<<<1024, 256>>>(x->as<uint8_t>(), cache_elems * kvb, k_sb * kvb, k_sn * kvb, k_sh * kvb,
                                       lim.as<int32_t>(), kvb);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
  }
  ++g_seed;
  CHECK_CUDA(cudaMemcpy(seq.p, seqlen.data(), B * 4, cudaMemcpyHostToDevice));
  if (!table.empty()) CHECK_CUDA(cudaMemcpy(tab.p, table.data(), table.size() * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(rmp.p, remap.data(), B * 4, cudaMemcpyHostToDevice));
  std::vector<float> hs(c.Hkv);
  for (int h = 0; h < c.Hkv; ++h) hs[h] = 0.5f + 0.25f * float(h % 4);
  CHECK_CUDA(cudaMemcpy(ksh.p, hs.data(), c.Hkv * 4, cudaMemcpyHostToDevice));
  for (int h = 0; h < c.Hkv; ++h) hs[h] = 1.5f - 0.25f * float(h % 3);
  CHECK_CUDA(cudaMemcpy(vsh.p, hs.data(), c.Hkv * 4, cudaMemcpyHostToDevice));

  cotile_decode_args_t a{};
  a.q = q.p, a.q_stride_b = int64_t(T) * Hq * q_sh, a.q_stride_h = q_sh, a.q_stride_t = int64_t(Hq) * q_sh;
  a.k = k.p, a.k_stride_b = k_sb, a.k_stride_n = k_sn, a.k_stride_h = k_sh;
  a.v = v.p, a.v_stride_b = k_sb, a.v_stride_n = k_sn, a.v_stride_h = k_sh;
  if (c.cache == Cache::kPaged)
    a.page_table = tab.as<int32_t>(), a.page_table_stride = pages_per_seq, a.page_size = c.page,
    a.page_table_len = c.table_len ? pages_per_seq : 0;
  a.seqlen_kv = seq.as<int32_t>();
  if (c.remap && c.cache != Cache::kPaged) a.cache_batch_idx = rmp.as<int32_t>();
  if (c.append) {
    a.k_new = kn.p, a.k_new_stride_b = int64_t(T) * c.Hkv * D, a.k_new_stride_h = D;
    a.v_new = vn.p, a.v_new_stride_b = int64_t(T) * c.Hkv * D, a.v_new_stride_h = D;
    a.k_new_stride_t = a.v_new_stride_t = int64_t(c.Hkv) * D;
  }
  a.softmax_scale = 1.0f / std::sqrt(float(D));
  a.softcap = c.softcap, a.window = c.window;
  a.k_scale = kvb == 1 ? 0.25f : 1.0f, a.v_scale = kvb == 1 ? 0.5f : 1.0f;
  if (c.per_head_scale) a.k_scale_per_head = ksh.as<float>(), a.v_scale_per_head = vsh.as<float>();
  a.o = o.p, a.o_stride_b = int64_t(T) * Hq * D, a.o_stride_h = D, a.o_stride_t = int64_t(Hq) * D;
  a.lse = lse.as<float>();

  cotile_decode_shape_t shape{
      B,        Hq,      c.Hkv,    D, c.N + (c.append ? T : 0), c.q_type, c.kv_type, c.o_type, 0,
      c.splits, c.pairs, c.layout, T, c.m_tiles_per_cta};
  cotile::attention::DecodePlan plan{};
  auto st = cotile::attention::decode_plan(shape, &plan);
  bool solo = false;
  if (!st.ok()) {
    std::printf("FAIL %s: plan: %s\n", c.name().c_str(), st.message.c_str());
    return ++g_failures, false;
  }
  if ((c.pairs && plan.kv_heads_per_cta != c.pairs) ||
      (c.expect_per_cta && plan.kv_heads_per_cta != c.expect_per_cta)) {
    std::printf("FAIL %s: plan.kv_heads_per_cta = %d\n", c.name().c_str(), plan.kv_heads_per_cta);
    return ++g_failures, false;
  }
  {  // the m-tiles (16 query rows) a CTA: one, or two where forced or chosen (several tokens, a 16-bit cache,
     // head_dim <= 128, two m-tiles or more), or the warpgroup kernel's four where it can run (head_dim
     // 128, a 16-bit cache with Q of its type, or an fp8 cache, which the plan takes only for more than 32
     // rows a KV head: plan.hpp, group_rows_by_plan); the grid holds ceil(m_tiles / m_tiles_per_cta) CTAs a split
    const int m_tiles = (c.G * c.q_len + 15) / 16, per_cta = plan.m_tiles_per_cta;
    const bool fp8 = c.kv_type == COTILE_E4M3 || c.kv_type == COTILE_E5M2;
    const bool can_two = c.q_len > 1 && c.D <= 128 && !fp8 && m_tiles > 1;
    const bool can_group = c.q_len > 1 && c.D == 128 && m_tiles > 1 && (fp8 || c.q_type == c.kv_type);
    const int forced = c.m_tiles_per_cta == 2 ? (can_two ? 2 : 1) : c.m_tiles_per_cta == 4 ? (can_group ? 4 : 1) : 1;
    const long long ctas = (long long)c.B * (c.Hkv / plan.kv_heads_per_cta) * ((m_tiles + per_cta - 1) / per_cta);
    if (plan.m_tiles != m_tiles || (per_cta != 1 && !(per_cta == 2 && can_two) && !(per_cta == 4 && can_group)) ||
        (per_cta == 4 && fp8 && !c.m_tiles_per_cta && c.G * c.q_len <= 32) ||
        (c.m_tiles_per_cta && per_cta != forced) || (c.expect_m_tiles && per_cta != c.expect_m_tiles) ||
        plan.grid != ctas * plan.splits) {
      std::printf(
          "FAIL %s: plan.m_tiles = %d, m_tiles_per_cta = %d, grid = %d; expected %d m-tiles, %lld CTAs a split\n",
          c.name().c_str(), plan.m_tiles, per_cta, plan.grid, m_tiles, ctas);
      return ++g_failures, false;
    }
  }
  // Small grids of portable clusters fit on sm_90 (the q_len cases' m-tiles make grids whose clusters
  // the plan may find costlier: their lines say which merge ran).
  if (c.q_len == 1 && c.splits > 1 && c.splits <= 8 && plan.cluster != c.splits) {
    std::printf("FAIL %s: %d splits not merged in a cluster (plan.cluster = %d)\n", c.name().c_str(), c.splits,
                plan.cluster);
    return ++g_failures, false;
  }
  {  // another plan of the same kernel between this plan and its runs must not change how it launches
    cotile_decode_shape_t other = shape;
    other.batch = 1, other.heads_q = other.heads_kv, other.max_kv_len = 16, other.splits = 1;
    cotile::attention::DecodePlan small{};
    if (!(st = cotile::attention::decode_plan(other, &small)).ok()) {
      std::printf("FAIL %s: plan of another shape: %s\n", c.name().c_str(), st.message.c_str());
      return ++g_failures, false;
    }
    solo = plan.smem_bytes > small.smem_bytes;  // one CTA an SM by reservation (the small grid never is)
  }
  Buf ws(plan.workspace_bytes);
  CHECK_CUDA(cudaMemset(ws.p, 0, plan.workspace_bytes));

  // Reference first (reads the cache before the append writes its row).
  ref::Problem rp{a, B, Hq, c.Hkv, D, c.q_type, c.kv_type, c.N + (c.append ? T : 0), T};
  const int64_t BH = rows;
  const int ml = std::max(rp.max_len, 1);
  Buf s(BH * ml * 4), mx(BH * 4), sum(BH * 4), acc(BH * D * 4), ro(BH * D * 4), rl(BH * 4);
  CHECK_CUDA(cudaMemset(acc.p, 0, BH * D * 4));
  if (rp.max_len > 0) {
    ref::scores<<<dim3((rp.max_len + 127) / 128, unsigned(BH)), 128>>>(rp, s.as<float>());
    ref::softmax_stats<<<unsigned(BH), 256>>>(rp, s.as<float>(), mx.as<float>(), sum.as<float>());
    const int chunk = 256;
    ref::weighted_values<<<dim3((rp.max_len + chunk - 1) / chunk, unsigned(BH)), D>>>(rp, s.as<float>(), mx.as<float>(),
                                                                                      acc.as<float>(), chunk);
  } else {
    std::vector<float> ninf(BH, -INFINITY), zero(BH, 0.0f);
    CHECK_CUDA(cudaMemcpy(mx.p, ninf.data(), BH * 4, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(sum.p, zero.data(), BH * 4, cudaMemcpyHostToDevice));
  }
  ref::finalize<<<unsigned(BH), D>>>(rp, acc.as<float>(), mx.as<float>(), sum.as<float>(), ro.as<float>(),
                                     rl.as<float>());
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());

  std::vector<float> ref_o(BH * D), ref_l(BH), out_o(BH * D), out_l(BH), out2(BH * D);
  CHECK_CUDA(cudaMemcpy(ref_o.data(), ro.p, BH * D * 4, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(ref_l.data(), rl.p, BH * 4, cudaMemcpyDeviceToHost));
  Buf of(BH * D * 4), real(c.late_writes ? seq.bytes + tab.bytes + rmp.bytes : 0);  // the real values, for late_writer
  cudaStream_t stream = nullptr;
  if (c.late_writes) {
    CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CHECK_CUDA(cudaMemcpy(real.p, seq.p, seq.bytes, cudaMemcpyDeviceToDevice));
    CHECK_CUDA(cudaMemcpy(real.as<uint8_t>() + seq.bytes, tab.p, tab.bytes, cudaMemcpyDeviceToDevice));
    CHECK_CUDA(cudaMemcpy(real.as<uint8_t>() + seq.bytes + tab.bytes, rmp.p, rmp.bytes, cudaMemcpyDeviceToDevice));
  }
  for (int run = 0; run < 2; ++run) {
    CHECK_CUDA(cudaMemset(o.p, 0xff, o.bytes));  // NaN everywhere: every element must be written
    CHECK_CUDA(cudaMemset(lse.p, 0xff, lse.bytes));
    if (c.late_writes) {
      CHECK_CUDA(cudaMemset(seq.p, 0x1f, seq.bytes));  // 0x1f1f1f1f rows, pages, batches
      CHECK_CUDA(cudaMemset(tab.p, 0x1f, tab.bytes));
      CHECK_CUDA(cudaMemset(rmp.p, 0x1f, rmp.bytes));
      const auto* r = real.as<int32_t>();
      late_writer<<<1, 128, 0, stream>>>(
          LateCopy{r, seq.as<int32_t>(), int(seq.bytes / 4)},
          LateCopy{r + seq.bytes / 4, tab.as<int32_t>(), int(tab.bytes / 4)},
          LateCopy{r + (seq.bytes + tab.bytes) / 4, rmp.as<int32_t>(), int(rmp.bytes / 4)});
    }
    st = cotile::attention::decode_run(plan, a, ws.p, plan.workspace_bytes, stream);
    if (!st.ok()) {
      std::printf("FAIL %s: run: %s\n", c.name().c_str(), st.message.c_str());
      return ++g_failures, false;
    }
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaStreamSynchronize(stream));
    to_float_kernel<<<256, 256>>>(o.p, BH * D, D, D, c.o_type, of.as<float>());
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(cudaMemcpy(run ? out2.data() : out_o.data(), of.p, BH * D * 4, cudaMemcpyDeviceToHost));
    if (!run) CHECK_CUDA(cudaMemcpy(out_l.data(), lse.p, BH * 4, cudaMemcpyDeviceToHost));
  }
  if (stream) CHECK_CUDA(cudaStreamDestroy(stream));
  std::string why;
  double num = 0, den = 0;
  for (int64_t i = 0; i < BH * D; ++i) {
    if (!std::isfinite(out_o[i])) {
      why = "O[" + std::to_string(i) + "] not finite (unwritten?)";
      break;
    }
    num += (out_o[i] - ref_o[i]) * double(out_o[i] - ref_o[i]);
    den += double(ref_o[i]) * ref_o[i];
  }
  const double rel = den > 0 ? std::sqrt(num / den) : std::sqrt(num);
  if (why.empty() && rel > tolerance(c)) why = "||O - ref|| / ||ref|| = " + std::to_string(rel);
  for (int64_t i = 0; why.empty() && i < BH; ++i) {
    const int b = int(i / (int64_t(T) * Hq)), t = int(i / Hq % T);
    const bool empty = seqlen[b] + (c.append ? T : 0) - T + 1 + t <= 0;  // no row up to the token's own
    if (empty && (out_l[i] != -INFINITY || std::isnan(out_l[i])))
      why = "empty sequence lse " + std::to_string(out_l[i]) + " != -inf";
    if (empty)
      for (int d = 0; d < D; ++d)
        if (out_o[i * D + d] != 0.0f) why = "empty sequence O != 0";
    if (!empty && !(std::fabs(out_l[i] - ref_l[i]) <= 2e-2 * std::max(1.0f, std::fabs(ref_l[i]))))
      why = "lse[" + std::to_string(i) + "] = " + std::to_string(out_l[i]) + ", reference " + std::to_string(ref_l[i]);
  }
  if (why.empty() && std::memcmp(out_o.data(), out2.data(), out_o.size() * 4) != 0)
    why = "second run differs from the first";
  if (why.empty() && c.append) {  // the appended rows are in the cache
    for (int b = 0; b < B && why.empty(); ++b)
      for (int j = 0; j < T && why.empty(); ++j)
        for (int h = 0; h < c.Hkv && why.empty(); ++h) {
          int64_t page, row = seqlen[b] + j;
          if (c.cache == Cache::kPaged) page = table[b * pages_per_seq + row / c.page], row %= c.page;
          else page = c.remap ? remap[b] : b;
          std::vector<uint8_t> got(D * kvb), want(D * kvb);
          const int64_t off = (page * k_sb + row * k_sn + h * k_sh) * kvb;
          const int64_t new_off = ((int64_t(b) * T + j) * c.Hkv + h) * D * kvb;
          CHECK_CUDA(cudaMemcpy(got.data(), k.as<uint8_t>() + off, D * kvb, cudaMemcpyDeviceToHost));
          CHECK_CUDA(cudaMemcpy(want.data(), kn.as<uint8_t>() + new_off, D * kvb, cudaMemcpyDeviceToHost));
          if (got != want)
            why = "appended K row not in the cache (b " + std::to_string(b) + ", token " + std::to_string(j) + ")";
          CHECK_CUDA(cudaMemcpy(got.data(), v.as<uint8_t>() + off, D * kvb, cudaMemcpyDeviceToHost));
          CHECK_CUDA(cudaMemcpy(want.data(), vn.as<uint8_t>() + new_off, D * kvb, cudaMemcpyDeviceToHost));
          if (got != want)
            why = "appended V row not in the cache (b " + std::to_string(b) + ", token " + std::to_string(j) + ")";
        }
  }
  if (!why.empty()) {
    std::printf("FAIL %s (splits %d): %s\n", c.name().c_str(), plan.splits, why.c_str());
    ++g_failures;
    return false;
  }
  std::printf("ok   %s splits=%d%s%s rel=%.2e\n", c.name().c_str(), plan.splits, plan.cluster > 1 ? " (cluster)" : "",
              solo ? " (solo)" : "", rel);
  return true;
}

namespace {

// Each parameter cycles through its values with a different step, so every value of every
// parameter appears, in varied combinations.
std::vector<Case> grid(bool quick) {
  const int Bs[] = {1, 3, 17}, Ns[] = {0, 1, 15, 16, 17, 1000, 65537}, Gs[] = {1, 3, 4, 5, 8, 16, 32},
            Ds[] = {64, 128, 256}, pages[] = {1, 16, 256};
  std::vector<Case> cases;
  const int n = quick ? 12 : 192;
  for (int i = 0; i < n; ++i) {
    Case c{};
    c.q_type = i % 4, c.kv_type = (i / 4) % 4;  // all 16 pairs every 16 cases
    c.D = Ds[(i / 16 + i) % 3];
    c.B = Bs[(i * 7 / 3) % 3];
    c.N = Ns[(i * 5 + i / 7) % 7];
    c.G = Gs[(i * 3 + i / 5) % 7];
    c.Hkv = 1 + (i / 3) % 3;
    c.cache = Cache((i / 2 + i / 11) % 3);
    c.page = pages[(i / 3 + i / 13) % 3];
    c.remap = (i / 5) % 2 == 1;
    c.append = (i / 3 + i / 17) % 2 == 0;
    c.o_type = (i / 7) % 2;
    c.softcap = i % 9 == 4 ? 30.0f : 0.0f;
    c.window = i % 11 == 6 ? 100 : 0;
    c.per_head_scale = i % 6 == 1;
    c.pad_q = i % 5 == 2;
    // Keep the largest caches to one KV head and few sequences (memory and reference time).
    if (c.N == 65537) c.Hkv = 1, c.B = c.B == 17 && c.D == 256 ? 3 : c.B;
    if (quick) c.N = std::min(c.N, 1000), c.B = std::min(c.B, 3);
    cases.push_back(c);
  }
  return cases;
}

}  // namespace

int main(int argc, char** argv) {
  skip_without_gpu();
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--quick") {
      quick = true;
    } else if (arg == "--only" && i + 1 < argc) {
      g_only = argv[++i];
    } else {
      std::fprintf(stderr, "decode_test: unknown argument %s (usage: decode_test [--quick] [--only WORDS])\n", argv[i]);
      return 2;
    }
  }
  for (Case c : grid(quick)) {  // and, where they can, the same with pairs of KV heads a CTA
    run_case(c);
    if (c.can_pair()) c.pairs = 2, run_case(c);
  }
  // Both split merges, forced: within a cluster (3 CTAs; 8, the largest) and through the workspace
  // (20; 128, where most splits of a 1001-row sequence are empty). Sequence 2 is empty.
  for (int splits : {3, 8, 20, 128}) {
    if (quick && (splits == 8 || splits == 128)) continue;
    Case c{3, 1000, 5, 128, 2, Cache::kPaged, 16, false, true, COTILE_F16, COTILE_E4M3, COTILE_F16};
    c.splits = splits, c.per_head_scale = true;
    run_case(c);
  }
  // The workspace merge of a grid of several waves, by the last CTA of each unit (the one-wave
  // grids above spread it over the unit's CTAs): 512 units of 12 splits.
  {
    Case c{64, 2000, 4, 128, 8, Cache::kBHND, 0, false, true, COTILE_BF16, COTILE_BF16, COTILE_BF16};
    c.splits = 12;
    run_case(c);
  }
  // The workspace merge's thread mappings: G = 1 at D = 64 (8 items: 16 threads per item, their
  // sums added in order) and G = 32 at D = 256 (two m-tiles of 512 items: 4 per thread; K/V read
  // by both, so not marked evict-first), with many splits.
  for (int splits : {20, 128}) {
    if (quick && splits == 128) continue;
    Case narrow{2, 3000, 1, 64, 3, Cache::kBNHD, 0, true, false, COTILE_BF16, COTILE_BF16, COTILE_BF16};
    Case wide{1, 4001, 32, 256, 1, Cache::kBHND, 0, false, true, COTILE_F16, COTILE_F16, COTILE_F16};
    narrow.splits = wide.splits = splits;
    run_case(narrow);
    run_case(wide);
  }
  // Wide scores (Q 40x larger: a score's spread is ~19 in log2 units): a row's record max keeps
  // jumping by more than the lazy rescale's 2^8 along the sequence, so the reference moves (and O
  // is rescaled) many times, in one CTA and across the splits' merges.
  for (int splits : {0, 20}) {
    Case c{3, quick ? 1000 : 65537, 8, 128, 1, Cache::kBNHD, 0, false, true, COTILE_F16, COTILE_F16, COTILE_F16};
    c.splits = splits, c.q_amp = 40;
    run_case(c);
    c.q_type = c.kv_type = c.o_type = COTILE_BF16, c.cache = Cache::kPaged, c.page = 16, c.G = 5;
    run_case(c);
    c.q_type = COTILE_F16, c.kv_type = COTILE_E4M3, c.o_type = COTILE_F16, c.cache = Cache::kBHND, c.D = 64,
    c.softcap = 50;
    run_case(c);
  }
  // The kernel before the decode writes seqlen, the page table and the remap late (late_writer):
  // long 16-bit caches, whose first CTAs prefetch before the dependency wait at the stale values'
  // addresses: contiguous, and paged with the table's row length told (its entries read there, at a
  // stale length of 0x1f1f1f1f rows, must stay within the table's; compute-sanitizer's memcheck
  // runs this in the quick subset); and a paged cache whose table's length is not told (no
  // prefetch: the table is read after the wait only).
  for (Cache cache : {Cache::kPaged, Cache::kBNHD})
    for (bool told : {true, false}) {
      if (!told && cache != Cache::kPaged) continue;
      Case c{3,  quick ? 4000 : 65537,  4,    128,        2,          cache,
             16, cache == Cache::kBNHD, true, COTILE_F16, COTILE_F16, COTILE_F16};
      c.late_writes = true, c.table_len = told;
      c.splits = 2;  // >= 1 024 rows a CTA in the quick subset too: the prefetch runs
      run_case(c);
    }
  {
    Case c{3, 4000, 8, 128, 1, Cache::kPaged, 256, false, false, COTILE_BF16, COTILE_E4M3, COTILE_BF16};
    c.late_writes = true;
    run_case(c);
  }
  // Pages of 32 and 64 rows (a page-table entry per 2 and per 4 tiles; the entries of pages under
  // 64 rows loaded 32 tiles a warp at a time, tiles.cuh TilePages): one split, so each warp crosses
  // several blocks of 32 tiles.
  for (int page : {32, 64}) {
    Case c{2, quick ? 4000 : 20001, 4, 128, 2, Cache::kPaged, page, false, true, COTILE_BF16, COTILE_E4M3, COTILE_BF16};
    c.splits = 1;
    run_case(c);
  }
  // Pairs of KV heads a CTA (head_dim 64 fp8 in the head_dim-128 kernel, plan.hpp pair_heads), forced,
  // through every path: pages of 16 and 64 rows, heads adjacent ([B, N, Hkv, D]) or not ([B, Hkv, N,
  // D]), the append, per-head scales (of two heads a CTA), soft-cap, window, remap, Q of each type
  // (f16 read where it was loaded), each merge (cluster, spread, several waves' last CTA), and the
  // prefetch before the wait with seqlen written late.
  {
    std::vector<Case> pairs;
    Case c{3, 5000, 1, 64, 2, Cache::kPaged, 16, false, true, COTILE_BF16, COTILE_E4M3, COTILE_BF16};
    c.per_head_scale = true, c.softcap = 30;
    pairs.push_back(c);
    c = Case{3, 3001, 4, 64, 4, Cache::kBNHD, 0, true, false, COTILE_F16, COTILE_E5M2, COTILE_F16};
    c.splits = 3, c.window = 700;
    pairs.push_back(c);
    c = Case{2, 4000, 8, 64, 2, Cache::kBHND, 0, false, true, COTILE_F16, COTILE_E4M3, COTILE_BF16};
    c.splits = 20, c.per_head_scale = true;
    pairs.push_back(c);
    c = Case{3, 2500, 5, 64, 6, Cache::kPaged, 64, false, true, COTILE_E4M3, COTILE_E4M3, COTILE_F16};
    c.splits = 128, c.pad_q = true;
    pairs.push_back(c);
    c = Case{64, 1500, 2, 64, 8, Cache::kBNHD, 0, false, true, COTILE_BF16, COTILE_E4M3, COTILE_BF16};
    c.splits = 12;  // 256 pairs x 12: several waves
    pairs.push_back(c);
    c = Case{3, quick ? 4000 : 65537, 4, 64, 2, Cache::kBNHD, 0, true, true, COTILE_F16, COTILE_E4M3, COTILE_F16};
    c.splits = 32, c.late_writes = true;  // 96 CTAs: a solo launch, which prefetches before the wait
    pairs.push_back(c);
    for (Case& p : pairs) {
      if (quick) p.N = std::min(p.N, 4000);
      p.pairs = 2;
      run_case(p);
    }
  }
  token_cases(quick);  // several query tokens a sequence (decode_test_tokens.cpp)
  if (!quick) {
    // Pairs by the plan's choice, with one query token and with two: a paged fp8 cache of 128 MiB,
    // head_dim 64, 16 KV heads (Qwen1.5-0.5B).
    Case paired{1, 65537, 1, 64, 16, Cache::kPaged, 16, false, true, COTILE_BF16, COTILE_E4M3, COTILE_BF16};
    paired.layout = COTILE_KV_NHD, paired.expect_per_cta = 2;
    run_case(paired);
    paired.q_len = 2;
    run_case(paired);
    // More than 2^31 elements per cache tensor: 64-bit offsets (B=1, Hkv=8, N=2^20+17, D=256, fp8).
    Case big{1, (1 << 20) + 17, 1, 256, 8, Cache::kBNHD, 0, false, true, COTILE_F16, COTILE_E4M3, COTILE_BF16};
    run_case(big);
  }
  std::printf("%d/%d cases passed\n", g_cases - g_failures, g_cases);
  return g_failures ? 1 : 0;
}
