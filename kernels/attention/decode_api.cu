// The decode C ABI: run (argument checks, one launch) and errors; the plan is in decode_plan.cu.
// The streaming-read probe the benchmark compares against is in probe.cu.
#include <cuda.h>  // the driver's launch types (its entry point comes through the runtime: no libcuda link)
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <climits>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <string>

#include "decode.h"
#include "cotile/arch/dependent_launch.hpp"
#include "kernels.hpp"
#include "launch.hpp"
#include "params.hpp"
#include "plan.hpp"

namespace cotile::attention::detail {
#if COTILE_DECODE_TRACE
extern uint64_t* g_trace;
#endif

thread_local std::string g_error;  // the calling thread's last error (cotile_decode_last_error)

cotile_status fail(cotile_status code, const char* fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  g_error = buf;
  return code;
}
cotile_status ok() {
  g_error.clear();
  return COTILE_OK;
}

KernelInfo kernel_for(const LaunchHeads& l, int32_t kv, int cache) {
  if (cache != kAnyCache) {  // one KV head and one row block a CTA only, several tokens at head_dim 128, 256
    if (l.per_cta != 1 || l.m_blocks != 1) return {};
    switch (l.head_dim) {
      case 64: return l.tokens ? KernelInfo{} : kernel_d64_plain(kv, cache);
      case 128: return l.tokens ? kernel_d128_tokens_plain(kv, cache) : kernel_d128_plain(kv, cache);
      case 256: return l.tokens ? kernel_d256_tokens_plain(kv, cache) : kernel_d256_plain(kv, cache);
      default: return {};
    }
  }
  if (l.per_cta == 2) return l.head_dim != 128 ? KernelInfo{} : l.tokens ? kernel_pairs_tokens(kv) : kernel_pairs(kv);
  switch (l.head_dim) {
    case 64: return l.tokens ? kernel_d64_tokens(kv, l.m_blocks) : kernel_d64(kv);
    case 128:
      return !l.tokens              ? kernel_d128(kv)
             : l.m_blocks != 4      ? kernel_d128_tokens(kv, l.m_blocks)
             : dtype_bytes(kv) == 1 ? kernel_d128_rows_fp8(kv)
                                    : kernel_d128_rows(kv);
    case 256: return l.tokens ? kernel_d256_tokens(kv) : kernel_d256(kv);
    default: return {};
  }
}

namespace {

// The launch through the driver's cuLaunchKernelEx, found once through the runtime, with each
// kernel's CUfunction found once: less host time a call than cudaLaunchKernelExC, which resolves
// the kernel and translates the configuration on every launch (bench/decode/host_cost.cu measures
// both; COTILE_DECODE_RUNTIME_LAUNCH=1 selects the runtime's). Null when unavailable.
using DriverLaunchFn = CUresult (*)(const CUlaunchConfig*, CUfunction, void**, void**);
DriverLaunchFn driver_launch() {
  static const DriverLaunchFn fn = []() -> DriverLaunchFn {
    const char* env = std::getenv("COTILE_DECODE_RUNTIME_LAUNCH");
    if (env && env[0] == '1') return nullptr;
    void* p = nullptr;
    cudaDriverEntryPointQueryResult q{};
    if (cudaGetDriverEntryPointByVersion("cuLaunchKernelEx", &p, 12000, cudaEnableDefault, &q) != cudaSuccess ||
        q != cudaDriverEntryPointSuccess) {
      cudaGetLastError();
      return nullptr;
    }
    return reinterpret_cast<DriverLaunchFn>(p);
  }();
  return fn;
}
// The CUfunction of a kernel (one cache slot per head_dim, cache type, heads a CTA, one or
// several tokens and m-tiles a CTA); null when not found.
CUfunction driver_function(const LaunchHeads& l, int32_t kv, int cache_kind, const void* fn) {
  static std::atomic<CUfunction> cache[16 * 4 * 3];
  const int heads = l.per_cta == 2 ? 3 : l.head_dim == 64 ? 0 : l.head_dim == 128 ? 1 : 2;
  const int kind = heads + (!l.tokens ? 0 : 4 * (l.m_blocks == 4 ? 3 : l.m_blocks));  // 2: head_dim 64, 128; 4: 128
  const int slot = (kind * 4 + kv) * 3 + cache_kind;
  CUfunction f = cache[slot].load(std::memory_order_acquire);
  if (f) return f;
  cudaFunction_t g = nullptr;
  if (cudaGetFuncBySymbol(&g, fn) != cudaSuccess) {
    cudaGetLastError();
    return nullptr;
  }
  f = reinterpret_cast<CUfunction>(g);
  cache[slot].store(f, std::memory_order_release);
  return f;
}
// The same launch as Launch (below) through the driver.
cudaError_t launch_with_driver(DriverLaunchFn launch, CUfunction f, int64_t grid, int threads, int smem, int cluster,
                               cudaStream_t stream, void** args) {
  CUlaunchAttribute attrs[2] = {};
  CUlaunchConfig c{};
  c.gridDimX = unsigned(grid), c.gridDimY = c.gridDimZ = 1;
  c.blockDimX = unsigned(threads), c.blockDimY = c.blockDimZ = 1;
  c.sharedMemBytes = unsigned(smem);
  c.hStream = reinterpret_cast<CUstream>(stream);
  c.attrs = attrs;
  if (cluster > 1) {
    CUlaunchAttribute& a = attrs[c.numAttrs++];
    a.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    a.value.clusterDim.x = unsigned(cluster), a.value.clusterDim.y = 1, a.value.clusterDim.z = 1;
  }
  if (COTILE_DECODE_PDL) {
    CUlaunchAttribute& a = attrs[c.numAttrs++];
    a.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    a.value.programmaticStreamSerializationAllowed = 1;
  }
  return launch(&c, f, args, nullptr) == CUDA_SUCCESS ? cudaSuccess : cudaErrorLaunchFailure;
}

}  // namespace
}  // namespace cotile::attention::detail

using namespace cotile::attention::detail;

extern "C" const char* cotile_decode_last_error(void) { return g_error.c_str(); }

extern "C" uint64_t cotile_decode_abi_size(int which) {
  return which == 0   ? sizeof(cotile_decode_args_t)
         : which == 1 ? sizeof(cotile_decode_plan_t)
                      : sizeof(cotile_decode_shape_t);
}

namespace {

// One mode of a tensor the call reads or writes: its stride (elements) and how many indices it
// takes (from the plan's shape), both named for the message.
struct Mode {
  const char* stride_name;
  int64_t stride;
  const char* count_name;
  int64_t count;
};

// `name` (a pointer) is 16-byte aligned; its strides (elements of `bytes`) are >= 0 and keep rows
// 16-byte aligned; and every byte offset the kernel computes from them fits in 64 bits: each
// stride in bytes, and the last row's offset, sum of (count - 1) x stride x bytes over the modes,
// plus the row's `row_bytes` (the kernel adds these in int64).
cotile_status check_rows(const char* name, const void* p, int bytes, int64_t row_bytes,
                         std::initializer_list<Mode> modes) {
  if (!p) return fail(COTILE_ERROR_INVALID_ARGUMENT, "cotile_decode_run: args.%s is NULL", name);
  if (reinterpret_cast<uintptr_t>(p) % 16)
    return fail(COTILE_ERROR_INVALID_ARGUMENT,
                "cotile_decode_run: args.%s = %p is not 16-byte aligned (16-byte copies)", name, p);
  int64_t last = row_bytes;
  for (const Mode& m : modes) {
    if (m.stride < 0)
      return fail(COTILE_ERROR_INVALID_ARGUMENT, "cotile_decode_run: args.%s = %lld is negative", m.stride_name,
                  (long long)m.stride);
    int64_t stride_bytes = 0, span = 0;
    if (__builtin_mul_overflow(m.stride, int64_t(bytes), &stride_bytes))
      return fail(COTILE_ERROR_INVALID_ARGUMENT,
                  "cotile_decode_run: args.%s = %lld elements of %d bytes is beyond 2^63 - 1 bytes", m.stride_name,
                  (long long)m.stride, bytes);
    if (stride_bytes % 16)
      return fail(COTILE_ERROR_INVALID_ARGUMENT,
                  "cotile_decode_run: args.%s = %lld elements = %lld bytes is not a multiple of 16 (rows must stay "
                  "16-byte aligned)",
                  m.stride_name, (long long)m.stride, (long long)stride_bytes);
    if (m.count > 1 &&
        (__builtin_mul_overflow(m.count - 1, stride_bytes, &span) || __builtin_add_overflow(last, span, &last)))
      return fail(COTILE_ERROR_INVALID_ARGUMENT,
                  "cotile_decode_run: args.%s's last row lies beyond 2^63 - 1 bytes from its start (args.%s = %lld "
                  "elements, %s = %lld); the strides do not fit the shape",
                  name, m.stride_name, (long long)m.stride, m.count_name, (long long)m.count);
  }
  return COTILE_OK;
}

}  // namespace

extern "C" cotile_status cotile_decode_run(const cotile_decode_plan_t* plan, const cotile_decode_args_t* args,
                                           void* workspace, uint64_t workspace_bytes, void* stream) {
  if (!plan || !args) return fail(COTILE_ERROR_INVALID_ARGUMENT, "cotile_decode_run: plan and args must not be NULL");
  const cotile_decode_shape_t& s = plan->shape;
  const cotile_decode_args_t& a = *args;
  const bool paired = plan->kv_heads_per_cta == 2;
  if ((plan->kv_heads_per_cta != 1 && !paired) || s.batch < 1 || s.heads_kv < 1 || s.heads_q < 1 || s.q_len < 0 ||
      s.q_len > kMaxQLen ||
      (paired && !can_pair_heads(s.heads_kv, s.heads_q / s.heads_kv, s.head_dim, dtype_bytes(s.kv_type), q_len_of(s))))
    return fail(COTILE_ERROR_INVALID_ARGUMENT, "cotile_decode_run: plan was not filled by cotile_decode_plan");
  const LaunchHeads lh = LaunchHeads::of(s, plan->kv_heads_per_cta, plan->m_tiles_per_cta);
  const KernelInfo k = kernel_for(lh, s.kv_type);
  const int64_t units = s.batch * lh.heads_kv * plan->m_tiles;
  if (!k.fn || plan->splits < 1 || plan->splits > kMaxSplits || plan->group != s.heads_q / s.heads_kv ||
      plan->m_tiles != lh.m_tiles || plan->m_tiles_per_cta != lh.m_blocks ||
      plan->grid != s.batch * lh.heads_kv * lh.m_ctas * plan->splits ||
      (plan->cluster != 1 && (plan->cluster != plan->splits || plan->cluster > kMaxCluster)) || plan->sms < 1 ||
      plan->ctas_per_sm < 1 || plan->stagger_cycles < 0 || plan->smem_bytes < k.smem ||
      (lh.m_blocks == 4 &&  // the warpgroup kernel of a 16-bit cache reads Q as the cache's type
       !can_group_rows(q_len_of(s), s.head_dim, dtype_bytes(s.kv_type), s.q_type == s.kv_type)))
    return fail(COTILE_ERROR_INVALID_ARGUMENT, "cotile_decode_run: plan was not filled by cotile_decode_plan");
  const int qb = dtype_bytes(s.q_type), kvb = dtype_bytes(s.kv_type);
  cotile_status st;
  const int32_t q_len = int32_t(q_len_of(s));
  const bool tokens = q_len > 1;  // the token strides are read
  const int64_t hq = s.heads_q, hkv = s.heads_kv, tq = tokens ? q_len : 1;
  if ((st = check_rows("q", a.q, qb, s.head_dim * qb,
                       {{"q_stride_b", a.q_stride_b, "batch", s.batch},
                        {"q_stride_h", a.q_stride_h, "heads_q", hq},
                        {"q_stride_t", tokens ? a.q_stride_t : 0, "q_len", tq}})))
    return st;
  if ((st = check_rows("o", a.o, 2, s.head_dim * 2,
                       {{"o_stride_b", a.o_stride_b, "batch", s.batch},
                        {"o_stride_h", a.o_stride_h, "heads_q", hq},
                        {"o_stride_t", tokens ? a.o_stride_t : 0, "q_len", tq}})))
    return st;
  // The cache's rows: a page's (a page's offset, an int32 entry times the page stride held to 32
  // bits below, fits in 64 whatever the table holds), or every row a sequence may hold (max_kv_len
  // and the appended tokens); a contiguous cache's sequences: the batch's (a remap's indices are
  // read on the device, where they are not checked).
  const bool paged = a.page_table != nullptr;
  const int64_t rows = paged ? std::max(a.page_size, 1) : s.max_kv_len + tq, seqs = paged ? 1 : s.batch;
  const char* rows_name = paged ? "page_size" : "max_kv_len + q_len";
  const char* seqs_name = paged ? "a page" : "batch";
  if ((st = check_rows("k", a.k, kvb, s.head_dim * kvb,
                       {{"k_stride_b", a.k_stride_b, seqs_name, seqs},
                        {"k_stride_n", a.k_stride_n, rows_name, rows},
                        {"k_stride_h", a.k_stride_h, "heads_kv", hkv}})))
    return st;
  if ((st = check_rows("v", a.v, kvb, s.head_dim * kvb,
                       {{"v_stride_b", a.v_stride_b, seqs_name, seqs},
                        {"v_stride_n", a.v_stride_n, rows_name, rows},
                        {"v_stride_h", a.v_stride_h, "heads_kv", hkv}})))
    return st;
  if (!a.seqlen_kv) return fail(COTILE_ERROR_INVALID_ARGUMENT, "cotile_decode_run: args.seqlen_kv is NULL");
  // The layout the plan was told (it may have paired heads for it): strides that say otherwise are
  // an error, not a slower launch.
  if (s.kv_layout == COTILE_KV_NHD && (a.k_stride_h != s.head_dim || a.v_stride_h != s.head_dim))
    return fail(COTILE_ERROR_INVALID_ARGUMENT,
                "cotile_decode_run: args.k_stride_h = %lld, args.v_stride_h = %lld; the plan's kv_layout is NHD, "
                "whose heads are adjacent (stride_h = head_dim = %lld)",
                (long long)a.k_stride_h, (long long)a.v_stride_h, (long long)s.head_dim);
  if (s.kv_layout == COTILE_KV_HND && (a.k_stride_n != s.head_dim || a.v_stride_n != s.head_dim))
    return fail(COTILE_ERROR_INVALID_ARGUMENT,
                "cotile_decode_run: args.k_stride_n = %lld, args.v_stride_n = %lld; the plan's kv_layout is HND, "
                "whose rows are adjacent (stride_n = head_dim = %lld)",
                (long long)a.k_stride_n, (long long)a.v_stride_n, (long long)s.head_dim);
  if (bool(a.k_new) != bool(a.v_new))
    return fail(COTILE_ERROR_INVALID_ARGUMENT,
                "cotile_decode_run: args.k_new and args.v_new must both be given (append) or both be NULL");
  if (a.k_new) {
    if ((st = check_rows("k_new", a.k_new, kvb, s.head_dim * kvb,
                         {{"k_new_stride_b", a.k_new_stride_b, "batch", s.batch},
                          {"k_new_stride_h", a.k_new_stride_h, "heads_kv", hkv},
                          {"k_new_stride_t", tokens ? a.k_new_stride_t : 0, "q_len", tq}})))
      return st;
    if ((st = check_rows("v_new", a.v_new, kvb, s.head_dim * kvb,
                         {{"v_new_stride_b", a.v_new_stride_b, "batch", s.batch},
                          {"v_new_stride_h", a.v_new_stride_h, "heads_kv", hkv},
                          {"v_new_stride_t", tokens ? a.v_new_stride_t : 0, "q_len", tq}})))
      return st;
  }
  int log2_page = 0;
  if (a.page_table) {
    if (a.page_size < 1 || (a.page_size & (a.page_size - 1)))
      return fail(COTILE_ERROR_INVALID_ARGUMENT, "cotile_decode_run: args.page_size = %d must be a power of two",
                  a.page_size);
    while ((1 << log2_page) < a.page_size) ++log2_page;
    if (a.cache_batch_idx)
      return fail(COTILE_ERROR_INVALID_ARGUMENT, "cotile_decode_run: args.cache_batch_idx is for contiguous caches; "
                                                 "with a page table, remap the table's rows");
    if (a.page_table_stride < 0)
      return fail(COTILE_ERROR_INVALID_ARGUMENT, "cotile_decode_run: args.page_table_stride = %lld is negative",
                  (long long)a.page_table_stride);
    if (a.page_table_len < 0)
      return fail(COTILE_ERROR_INVALID_ARGUMENT,
                  "cotile_decode_run: args.page_table_len = %lld is negative (0: the rows' length is not told)",
                  (long long)a.page_table_len);
  }
  if (!std::isfinite(a.softmax_scale) || !std::isfinite(a.softcap) || a.softcap < 0.0f)
    return fail(COTILE_ERROR_INVALID_ARGUMENT,
                "cotile_decode_run: softmax_scale = %g must be finite and softcap = %g finite and >= 0",
                double(a.softmax_scale), double(a.softcap));
  if (!std::isfinite(a.k_scale) || !std::isfinite(a.v_scale))
    return fail(COTILE_ERROR_INVALID_ARGUMENT, "cotile_decode_run: k_scale = %g and v_scale = %g must be finite",
                double(a.k_scale), double(a.v_scale));
  if (a.window < 0)
    return fail(COTILE_ERROR_INVALID_ARGUMENT, "cotile_decode_run: window = %d must be >= 0 (0: no window)", a.window);
  // Row and page strides are 32-bit in the kernel (a row costs one 32 x 32 -> 64-bit multiply-add).
  for (const auto& [name, stride] : {std::pair<const char*, int64_t>{"k_stride_n", a.k_stride_n},
                                     {"v_stride_n", a.v_stride_n},
                                     {"k_stride_b (page stride)", a.page_table ? a.k_stride_b : 0},
                                     {"v_stride_b (page stride)", a.page_table ? a.v_stride_b : 0},
                                     {"k_new_stride_t", a.k_new && tokens ? a.k_new_stride_t : 0},
                                     {"v_new_stride_t", a.k_new && tokens ? a.v_new_stride_t : 0}})
    if (stride * kvb > INT_MAX)
      return fail(COTILE_ERROR_UNSUPPORTED,
                  "cotile_decode_run: args.%s = %lld elements is %lld bytes; at most 2^31 - 1 bytes", name,
                  (long long)stride, (long long)(stride * kvb));
  const Workspace w = workspace_layout(units, plan->splits, lh.head_dim, plan->cluster);
  if (workspace_bytes < w.total || (w.total && !workspace))
    return fail(COTILE_ERROR_WORKSPACE,
                "cotile_decode_run: workspace of %llu bytes at %p; the plan needs %llu bytes (zeroed once)",
                (unsigned long long)workspace_bytes, workspace, (unsigned long long)w.total);
  if (reinterpret_cast<uintptr_t>(workspace) % 256)
    return fail(COTILE_ERROR_WORKSPACE, "cotile_decode_run: workspace %p must be 256-byte aligned", workspace);

  Params p{};
  auto* ws = static_cast<uint8_t*>(workspace);
  p.q = static_cast<const uint8_t*>(a.q), p.q_sb = a.q_stride_b * qb, p.q_sh = a.q_stride_h * qb, p.q_type = s.q_type,
  p.q_bytes = qb;
  p.o = static_cast<uint8_t*>(a.o), p.o_sb = a.o_stride_b * 2, p.o_sh = a.o_stride_h * 2, p.o_type = s.o_type;
  p.q_len = q_len, p.q_st = tokens ? a.q_stride_t * qb : 0, p.o_st = tokens ? a.o_stride_t * 2 : 0;
  p.kn_st = tokens && a.k_new ? a.k_new_stride_t * kvb : 0, p.vn_st = tokens && a.k_new ? a.v_new_stride_t * kvb : 0;
  p.lse = a.lse;
  p.k = static_cast<uint8_t*>(const_cast<void*>(a.k)), p.k_sb = a.k_stride_b * kvb, p.k_sn = a.k_stride_n * kvb,
  p.k_sh = a.k_stride_h * kvb;
  p.v = static_cast<uint8_t*>(const_cast<void*>(a.v)), p.v_sb = a.v_stride_b * kvb, p.v_sn = a.v_stride_n * kvb,
  p.v_sh = a.v_stride_h * kvb;
  p.page_table = a.page_table, p.pt_stride = a.page_table_stride, p.log2_page = log2_page;
  p.pt_len = a.page_table ? int32_t(std::min<int64_t>(a.page_table_len, INT_MAX)) : 0;
  p.seqlen = a.seqlen_kv, p.batch_idx = a.cache_batch_idx;
  p.k_new = static_cast<const uint8_t*>(a.k_new), p.kn_sb = a.k_new_stride_b * kvb, p.kn_sh = a.k_new_stride_h * kvb;
  p.v_new = static_cast<const uint8_t*>(a.v_new), p.vn_sb = a.v_new_stride_b * kvb, p.vn_sh = a.v_new_stride_h * kvb;
  p.scale = a.softmax_scale, p.softcap = a.softcap, p.window = a.window;
  p.k_scale = a.k_scale, p.v_scale = a.v_scale, p.k_scale_h = a.k_scale_per_head, p.v_scale_h = a.v_scale_per_head;
  p.heads_kv = int32_t(lh.heads_kv), p.group = int32_t(lh.group), p.m_tiles = plan->m_tiles, p.splits = plan->splits;
  if (paired) {  // a pair's heads: strides of two heads; the second head at half of them (Params::pair_rows)
    p.pair_rows = plan->group;
    p.k_sh *= 2, p.v_sh *= 2, p.kn_sh *= 2, p.vn_sh *= 2;
  }
  p.clustered = plan->cluster > 1;
  const int64_t first_wave = std::min<int64_t>(plan->grid, int64_t(plan->sms) * plan->ctas_per_sm);
  const bool solo = plan->smem_bytes > k.smem;  // one CTA an SM by reservation (plan.hpp, solo_launch)
  p.trigger_early = trigger_early(plan->grid, plan->sms, plan->ctas_per_sm, solo);
  p.spread_merge = spread_merge(plan->grid, plan->sms, solo ? 1 : plan->ctas_per_sm, plan->splits, plan->cluster);
  p.ctas_per_sm = plan->ctas_per_sm, p.first_wave = int32_t(first_wave), p.stagger_cycles = plan->stagger_cycles;
  p.early_ctas = prefetch_before_wait(paged, p.pt_len > 0, kvb, s.max_kv_len, plan->splits, solo, paired)
                     ? int32_t(first_wave)
                     : 0;
  p.part_o = reinterpret_cast<uint16_t*>(ws + w.o), p.part_lse = reinterpret_cast<float*>(ws + w.lse);
  p.counters = reinterpret_cast<int32_t*>(ws + w.counters);
#if COTILE_DECODE_TRACE
  p.trace = g_trace;
#endif
  // The plain kernel of this launch's cache where there is one (params.hpp, CacheKind).
  const int cache = a.cache_batch_idx || a.k_new || a.window > 0 || a.softcap > 0.0f ? kAnyCache
                    : paged                                                          ? kPagedCache
                                                                                     : kContiguousCache;
  KernelInfo run_k = cache == kAnyCache ? k : kernel_for(lh, s.kv_type, cache);
  const int run_cache = run_k.fn ? cache : kAnyCache;
  if (!run_k.fn) run_k = k;
  void* kargs[] = {&p};
  if (const DriverLaunchFn dl = driver_launch()) {
    if (const CUfunction f = driver_function(lh, s.kv_type, run_cache, run_k.fn)) {
      COTILE_CUDA_TRY(launch_with_driver(dl, f, plan->grid, kThreads, plan->smem_bytes, plan->cluster,
                                         static_cast<cudaStream_t>(stream), kargs),
                      "cotile_decode_run: launch");
      return ok();
    }
  }
  const Launch launch(plan->grid, kThreads, plan->smem_bytes, plan->cluster, static_cast<cudaStream_t>(stream), true);
  COTILE_CUDA_TRY(cudaLaunchKernelExC(&launch.config, run_k.fn, kargs), "cotile_decode_run: launch");
  return ok();
}

#if COTILE_DECODE_TRACE
// Diagnostics builds only: later runs record per-CTA phase times into `device_buffer` (6
// uint64 per CTA; decode_kernel.cuh), or stop with NULL.
namespace cotile::attention::detail {
uint64_t* g_trace = nullptr;
}
extern "C" void cotile_decode_set_trace(void* device_buffer) { g_trace = static_cast<uint64_t*>(device_buffer); }
#endif
