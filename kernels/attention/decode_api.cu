// The decode C ABI: plan (split heuristic, workspace), run (argument checks, one launch), errors.
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
#include <vector>

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

namespace {

const char* dtype_name(int32_t t) {
  switch (t) {
    case COTILE_F16: return "f16";
    case COTILE_BF16: return "bf16";
    case COTILE_E4M3: return "e4m3";
    case COTILE_E5M2: return "e5m2";
    default: return "unknown";
  }
}
bool known_dtype(int32_t t) { return t >= COTILE_F16 && t <= COTILE_E5M2; }

// Query tokens a sequence (shape.q_len; 0 means 1).
int64_t q_len_of(const cotile_decode_shape_t& s) { return s.q_len == 0 ? 1 : s.q_len; }

// The heads as the kernel sees them: kv_heads_per_cta = 2 launches the head_dim-128 kernel on
// heads_kv / 2 pairs of 2G query rows a token (plan.hpp, pair_heads; Params::pair_rows). A KV head's
// query rows are its G heads of each of the q_len tokens (rows = G x q_len, in m-tiles of 16).
// m_blocks = 2: two m-tiles a CTA (32 rows) where there are two or more (plan.hpp, two_m_tiles;
// head_dim 64 and 128 with a 16-bit cache: kernel_for finds no other); 4: the warpgroup kernel's
// 64 rows (plan.hpp, can_group_rows).
struct LaunchHeads {
  int64_t per_cta, heads_kv, group, head_dim, rows, m_tiles;
  bool tokens;         // q_len > 1: the Tokens kernels (decode_kernel.cuh)
  int m_blocks = 1;    // m-tiles a CTA (DecodeCta's MB)
  int64_t m_ctas = 1;  // CTAs a (sequence, KV head, split): ceil(m_tiles / m_blocks)
  static LaunchHeads of(const cotile_decode_shape_t& s, int64_t per_cta, int m_blocks) {
    const int64_t g = s.heads_q / s.heads_kv;
    LaunchHeads l{per_cta, s.heads_kv / per_cta, g * per_cta, s.head_dim * per_cta, 0, 0, q_len_of(s) > 1};
    l.rows = l.group * q_len_of(s);
    l.m_tiles = (l.rows + kRows - 1) / kRows;
    l.m_blocks = (m_blocks == 2 || m_blocks == 4) && l.m_tiles > 1 ? m_blocks : 1;
    l.m_ctas = (l.m_tiles + l.m_blocks - 1) / l.m_blocks;
    return l;
  }
};

// The kernel of the launch's head_dim and heads a CTA for cache type kv; for the launches `cache`
// says (params.hpp, CacheKind: a plain kernel where there is one; cotile_decode_run picks it).
KernelInfo kernel_for(const LaunchHeads& l, int32_t kv, int cache = kAnyCache);

// A launch the plan considers: its heads, kernel, the machine as it runs that kernel, the split
// choice, and the shared memory a solo launch reserves.
struct PlannedLaunch {
  LaunchHeads heads;
  KernelInfo kernel;
  Machine machine;
  SplitChoice choice;
  int solo_bytes = 0;
  int64_t cta_units(int64_t batch) const { return batch * heads.heads_kv * heads.m_ctas; }  // CTAs a split
  int64_t grid(int64_t batch) const { return cta_units(batch) * choice.splits; }
};

KernelInfo kernel_for(const LaunchHeads& l, int32_t kv, int cache) {
  if (cache != kAnyCache) {  // one token, one KV head a CTA only; else none
    if (l.per_cta != 1 || l.tokens) return {};
    switch (l.head_dim) {
      case 64: return kernel_d64_plain(kv, cache);
      case 128: return kernel_d128_plain(kv, cache);
      case 256: return kernel_d256_plain(kv, cache);
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

// Clusters of `size` CTAs of kernel k, each with `smem` bytes of dynamic shared memory, resident at
// once on the current device (0: not possible).
int resident_clusters(const KernelInfo& k, int size, int64_t sms, int smem) {
  const Launch launch(size * sms, kThreads, smem, size, nullptr);
  int clusters = 0;
  if (cudaOccupancyMaxActiveClusters(&clusters, k.fn, &launch.config) != cudaSuccess) {
    cudaGetLastError();  // not an error of the plan: this size is not possible
    return 0;
  }
  return clusters;
}

// Gives the caller back its current device when a function that selects another one returns.
struct RestoreDevice {
  int device;
  ~RestoreDevice() { cudaSetDevice(device); }
};

ClusterSlots cluster_slots(const KernelInfo& k, int64_t sms, int smem) {
  ClusterSlots c;
  for (int size = 2; size <= kMaxCluster; ++size) c.clusters[size] = resident_clusters(k, size, sms, smem);
  return c;
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

extern "C" cotile_status cotile_decode_plan(const cotile_decode_shape_t* shape, cotile_decode_plan_t* plan) {
  if (!shape || !plan)
    return fail(COTILE_ERROR_INVALID_ARGUMENT, "cotile_decode_plan: shape and plan must not be NULL");
  const cotile_decode_shape_t& s = *shape;
  if (s.batch < 1 || s.heads_kv < 1 || s.heads_q < 1)
    return fail(COTILE_ERROR_INVALID_ARGUMENT,
                "cotile_decode_plan: batch = %lld, heads_q = %lld, heads_kv = %lld: each must be >= 1",
                (long long)s.batch, (long long)s.heads_q, (long long)s.heads_kv);
  if (s.heads_q % s.heads_kv != 0)
    return fail(COTILE_ERROR_INVALID_ARGUMENT,
                "cotile_decode_plan: heads_q = %lld is not a multiple of heads_kv = %lld", (long long)s.heads_q,
                (long long)s.heads_kv);
  const int64_t group = s.heads_q / s.heads_kv;
  if (group > 32)
    return fail(COTILE_ERROR_UNSUPPORTED, "cotile_decode_plan: group heads_q / heads_kv = %lld; supported: 1 to 32",
                (long long)group);
  if (s.head_dim != 64 && s.head_dim != 128 && s.head_dim != 256)
    return fail(COTILE_ERROR_UNSUPPORTED, "cotile_decode_plan: head_dim = %lld; supported: 64, 128, 256",
                (long long)s.head_dim);
  if (s.max_kv_len < 0 || s.max_kv_len > INT_MAX - 1)
    return fail(COTILE_ERROR_INVALID_ARGUMENT, "cotile_decode_plan: max_kv_len = %lld must be in [0, 2^31 - 2]",
                (long long)s.max_kv_len);
  if (!known_dtype(s.q_type) || !known_dtype(s.kv_type))
    return fail(COTILE_ERROR_INVALID_ARGUMENT,
                "cotile_decode_plan: q_type = %d, kv_type = %d: each must be a cotile_dtype (0-3)", s.q_type,
                s.kv_type);
  if (s.o_type != COTILE_F16 && s.o_type != COTILE_BF16)
    return fail(COTILE_ERROR_UNSUPPORTED, "cotile_decode_plan: o_type = %s; the output is f16 or bf16",
                dtype_name(s.o_type));
  if (s.splits < 0 || s.splits > kMaxSplits)
    return fail(COTILE_ERROR_INVALID_ARGUMENT,
                "cotile_decode_plan: splits = %d must be 0 (chosen by the plan) or 1 to %d", s.splits, kMaxSplits);
  if (s.kv_layout < COTILE_KV_ANY || s.kv_layout > COTILE_KV_HND)
    return fail(COTILE_ERROR_INVALID_ARGUMENT,
                "cotile_decode_plan: kv_layout = %d must be COTILE_KV_ANY (0), COTILE_KV_NHD (1) or COTILE_KV_HND (2)",
                s.kv_layout);
  if (s.kv_heads_per_cta < 0 || s.kv_heads_per_cta > 2)
    return fail(COTILE_ERROR_INVALID_ARGUMENT,
                "cotile_decode_plan: kv_heads_per_cta = %d must be 0 (chosen by the plan), 1 or 2", s.kv_heads_per_cta);
  if (s.q_len < 0 || s.q_len > kMaxQLen)
    return fail(COTILE_ERROR_UNSUPPORTED, "cotile_decode_plan: q_len = %d; supported: 1 to %d (0: 1)", s.q_len,
                kMaxQLen);
  if (s.kv_heads_per_cta == 2 && !can_pair_heads(s.heads_kv, group, s.head_dim, dtype_bytes(s.kv_type), q_len_of(s)))
    return fail(COTILE_ERROR_UNSUPPORTED,
                "cotile_decode_plan: kv_heads_per_cta = 2 with head_dim = %lld, kv_type = %s, G = %lld, q_len = %lld, "
                "heads_kv = %lld; pairs need an fp8 cache, head_dim 64, G x q_len <= 8 and an even heads_kv",
                (long long)s.head_dim, dtype_name(s.kv_type), (long long)group, (long long)q_len_of(s),
                (long long)s.heads_kv);
  if (s.m_tiles_per_cta < 0 || s.m_tiles_per_cta > 4 || s.m_tiles_per_cta == 3)
    return fail(COTILE_ERROR_INVALID_ARGUMENT,
                "cotile_decode_plan: m_tiles_per_cta = %d must be 0 (chosen by the plan), 1, 2 or 4",
                s.m_tiles_per_cta);
  if (s.m_tiles_per_cta == 2 && !can_two_m_tiles(q_len_of(s), s.head_dim, dtype_bytes(s.kv_type)))
    return fail(COTILE_ERROR_UNSUPPORTED,
                "cotile_decode_plan: m_tiles_per_cta = 2 with q_len = %d, head_dim = %lld, kv_type = %s; two m-tiles "
                "a CTA need several query tokens, head_dim 64 or 128 and a 16-bit cache",
                s.q_len, (long long)s.head_dim, dtype_name(s.kv_type));
  const bool can_group = can_group_rows(q_len_of(s), s.head_dim, dtype_bytes(s.kv_type), s.q_type == s.kv_type);
  if (s.m_tiles_per_cta == 4 && !can_group)
    return fail(COTILE_ERROR_UNSUPPORTED,
                "cotile_decode_plan: m_tiles_per_cta = 4 with q_len = %d, head_dim = %lld, kv_type = %s, q_type = %s; "
                "the warpgroup kernel's 64 rows a CTA need several query tokens, head_dim 128, and a 16-bit cache "
                "with Q of its type or an fp8 cache",
                s.q_len, (long long)s.head_dim, dtype_name(s.kv_type), dtype_name(s.q_type));
  // Plan for s.device, then give the caller back its current device.
  int caller_device = 0;
  COTILE_CUDA_TRY(cudaGetDevice(&caller_device), "cotile_decode_plan: device");
  const RestoreDevice restore{caller_device};
  COTILE_CUDA_TRY(cudaSetDevice(s.device), "cotile_decode_plan: device");
  int sms = 0;
  COTILE_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, s.device), "cotile_decode_plan");
  // Pairs by choice only where a pair's two heads are adjacent in each row (NHD): measured on
  // [B, Hkv, N, D] caches they lose (plan.hpp, pair_heads).
  const int per_cta =
      s.kv_heads_per_cta > 0 ? s.kv_heads_per_cta
      : COTILE_DECODE_PAIR_HEADS && s.kv_layout == COTILE_KV_NHD &&
              pair_heads(s.batch, s.heads_kv, group, s.head_dim, dtype_bytes(s.kv_type), s.max_kv_len, sms, q_len_of(s))
          ? 2
          : 1;
  // The kernel's limit covers a solo launch of any plan (plan.hpp, solo_launch), so that planning
  // another shape never takes away what an earlier plan launches with.
  int sm_smem = 0;
  COTILE_CUDA_TRY(cudaDeviceGetAttribute(&sm_smem, cudaDevAttrMaxSharedMemoryPerMultiprocessor, s.device),
                  "cotile_decode_plan");
  // The launch of m_blocks m-tiles a CTA: its kernel, the machine as it runs it, the split choice.
  const auto launch_for = [&](int m_blocks, PlannedLaunch& l) -> cotile_status {
    l.heads = LaunchHeads::of(s, per_cta, m_blocks);
    const KernelInfo& k = l.kernel = kernel_for(l.heads, s.kv_type);
    l.solo_bytes = int(solo_smem(k.smem, sm_smem));
    if (cudaFuncSetAttribute(k.fn, cudaFuncAttributeMaxDynamicSharedMemorySize, l.solo_bytes) != cudaSuccess) {
      cudaGetLastError();  // a size this device refuses: no solo launches
      l.solo_bytes = k.smem;
      COTILE_CUDA_TRY(cudaFuncSetAttribute(k.fn, cudaFuncAttributeMaxDynamicSharedMemorySize, k.smem),
                      "cotile_decode_plan: shared memory");
    }
    int per_sm = 0;
    COTILE_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k.fn, kThreads, k.smem),
                    "cotile_decode_plan: occupancy");
    if (per_sm < 1)
      return fail(COTILE_ERROR_UNSUPPORTED,
                  "cotile_decode_plan: the kernel does not fit on this device (%d bytes of shared memory)", k.smem);
    // The plain kernels a run may launch instead (cotile_decode_run) take the same shared memory, and must
    // fit as many CTAs an SM: the spread merge waits for every CTA of a one-wave grid to be resident.
    for (const int cache : {kContiguousCache, kPagedCache}) {
      const KernelInfo pk = kernel_for(l.heads, s.kv_type, cache);
      if (!pk.fn) continue;
      int plain_per_sm = 0;
      COTILE_CUDA_TRY(cudaFuncSetAttribute(pk.fn, cudaFuncAttributeMaxDynamicSharedMemorySize, l.solo_bytes),
                      "cotile_decode_plan: shared memory");
      COTILE_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&plain_per_sm, pk.fn, kThreads, k.smem),
                      "cotile_decode_plan: occupancy");
      if (plain_per_sm != per_sm || pk.smem != k.smem)
        return fail(COTILE_ERROR_UNSUPPORTED,
                    "cotile_decode_plan: a plain kernel fits %d CTAs an SM where its general kernel fits %d",
                    plain_per_sm, per_sm);
    }
    // A solo launch (plan.hpp, solo_launch) needs the reservation to leave one CTA an SM; the plan
    // models the clusters resident at the shared memory each launch asks for.
    int alone = 0;
    if (l.solo_bytes > k.smem)
      COTILE_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&alone, k.fn, kThreads, l.solo_bytes),
                      "cotile_decode_plan: occupancy");
    l.machine = Machine{sms, per_sm, cluster_slots(k, sms, k.smem)};
    if (alone == 1 && dtype_bytes(s.kv_type) == 1) {
      l.machine.solo = true;
      l.machine.solo_clusters = cluster_slots(k, sms, l.solo_bytes);
    }
    const Work work = Work::of(l.cta_units(s.batch), s.max_kv_len, l.heads.head_dim, dtype_bytes(s.kv_type),
                               l.heads.rows, l.heads.m_blocks);
    l.choice = s.splits > 0 ? choose_merge(l.machine, work, s.splits) : choose_splits(l.machine, work);
    return ok();
  };
  // The warpgroup kernel's 64 rows a CTA when forced, or where it can run, a KV head has more than
  // one m-tile of rows, and its launch streams long enough rows on every SM (plan.hpp,
  // can_group_rows, group_rows_pay). Else two m-tiles a CTA when forced, or by the rule (plan.hpp,
  // two_m_tiles) at the splits the plan chooses for them, and at an odd count of m-tiles only where
  // one a CTA takes more than a wave (two_m_tiles_odd); else one. (LaunchHeads takes one where the
  // rows are one m-tile, as a pair's always are.)
  PlannedLaunch launch;
  cotile_status st = COTILE_OK;
  bool chosen = false;
  if (s.m_tiles_per_cta == 4 || (s.m_tiles_per_cta == 0 && per_cta == 1 && can_group &&
                                 group_rows_by_plan(dtype_bytes(s.kv_type), group * q_len_of(s)))) {
    if ((st = launch_for(4, launch)) != COTILE_OK) return st;
    chosen = s.m_tiles_per_cta == 4 || launch.heads.m_blocks != 4 ||
             group_rows_pay(s.max_kv_len, launch.choice.splits, launch.grid(s.batch), sms, dtype_bytes(s.kv_type));
  }
  if (!chosen) {
    const bool can_two = can_two_m_tiles(q_len_of(s), s.head_dim, dtype_bytes(s.kv_type));
    if ((st = launch_for(s.m_tiles_per_cta == 2 || (s.m_tiles_per_cta == 0 && can_two) ? 2 : 1, launch)) != COTILE_OK)
      return st;
    if (s.m_tiles_per_cta == 0 && launch.heads.m_blocks == 2) {
      const bool two = two_m_tiles(s.max_kv_len, launch.choice.splits), odd = launch.heads.m_tiles % 2 == 1;
      if (!two || odd) {
        PlannedLaunch one;
        if ((st = launch_for(1, one)) != COTILE_OK) return st;
        if (!two || !two_m_tiles_odd(one.grid(s.batch), one.machine.sms * one.machine.ctas_per_sm)) launch = one;
      }
    }
  }
  const LaunchHeads& lh = launch.heads;
  const KernelInfo& k = launch.kernel;
  const SplitChoice& choice = launch.choice;
  const int per_sm = int(launch.machine.ctas_per_sm);
  const int64_t m_tiles = lh.m_tiles;
  const int64_t units = s.batch * lh.heads_kv * m_tiles;  // the workspace's: one a 16-row m-tile
  const int splits = choice.splits;
  const int64_t grid = launch.grid(s.batch);
  if (s.batch > INT_MAX / s.heads_kv || grid > INT_MAX)
    return fail(COTILE_ERROR_UNSUPPORTED,
                "cotile_decode_plan: %lld CTAs (batch %lld x heads_kv %lld x %lld a head x splits %d) exceed 2^31 - 1",
                (long long)grid, (long long)s.batch, (long long)lh.heads_kv, (long long)lh.m_ctas, splits);
  *plan = {};
  plan->shape = s;
  plan->shape.q_len = int32_t(q_len_of(s));
  plan->group = int32_t(group);
  plan->m_tiles = int32_t(m_tiles);
  plan->splits = splits;
  plan->grid = int32_t(grid);
  plan->ctas_per_sm = per_sm;
  plan->sms = sms;
  plan->cluster = choice.cluster;
  int clock_khz = 0;
  COTILE_CUDA_TRY(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, s.device), "cotile_decode_plan: clock rate");
  plan->stagger_cycles = int32_t(stagger_cycles(grid, sms, per_sm, clock_khz));
  plan->smem_bytes = choice.solo ? launch.solo_bytes : k.smem;
  plan->kv_heads_per_cta = per_cta;
  plan->m_tiles_per_cta = lh.m_blocks;
  plan->workspace_bytes = workspace_layout(units, splits, lh.head_dim, plan->cluster).total;
  return ok();
}

extern "C" int32_t cotile_decode_resident_clusters(const cotile_decode_plan_t* plan, int32_t size) {
  if (!plan || size < 1 || (plan->kv_heads_per_cta != 1 && plan->kv_heads_per_cta != 2) || plan->shape.heads_kv < 1)
    return 0;
  const KernelInfo k =
      kernel_for(LaunchHeads::of(plan->shape, plan->kv_heads_per_cta, plan->m_tiles_per_cta), plan->shape.kv_type);
  int caller_device = 0;
  if (!k.fn || cudaGetDevice(&caller_device) != cudaSuccess) return 0;
  const RestoreDevice restore{caller_device};
  if (cudaSetDevice(plan->shape.device) != cudaSuccess) return 0;
  return resident_clusters(k, size, plan->sms, plan->smem_bytes);
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
  p.early_ctas =
      prefetch_before_wait(a.page_table != nullptr, kvb, s.max_kv_len, plan->splits, solo) ? int32_t(first_wave) : 0;
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
