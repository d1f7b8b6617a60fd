// The decode C ABI's plan: the shape's checks, the kernel and m-tiles a CTA, the split choice
// (plan.hpp) on the machine as the launch will run, and the workspace.
#include <cuda_runtime.h>

#include <climits>
#include <cstdint>

#include "decode.h"
#include "kernels.hpp"
#include "launch.hpp"
#include "params.hpp"
#include "plan.hpp"

namespace cotile::attention::detail {
namespace {

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
