// The H200 as the plan sees it, for use without a GPU (decode_args_test, bench/decode/plan_replay):
// 132 SMs; the CTAs an SM each decode kernel fits (cudaOccupancyMaxActiveBlocksPerMultiprocessor at
// its shared memory); and the clusters of 2 .. 8 CTAs resident at once (decode_plan.cu,
// cluster_slots: cudaOccupancyMaxActiveClusters), as bench/decode/bench.py's cluster capacity
// printed them, at one, two and three CTAs an SM. A solo launch (one CTA an SM by its shared
// memory) sees the one-CTA-an-SM counts.
#pragma once

#include "plan.hpp"

namespace cotile::attention::detail {

// The per-warp kernel's CTAs an SM: 24 KiB of K/V stages a warp (decode_config.hpp) and Q make
// 144 KiB for a 16-bit head_dim-256 CTA (one an SM), 68 KiB for fp8 head_dim 64 (three), and
// 100-112 KiB for the rest (two). A pair of fp8 head_dim-64 heads runs the head_dim-128 kernel.
inline int h200_ctas_per_sm(int64_t head_dim, int64_t kv_bytes) {
  return head_dim == 256 && kv_bytes == 2 ? 1 : head_dim == 64 && kv_bytes == 1 ? 3 : 2;
}

inline Machine h200_machine(int ctas_per_sm) {
  static constexpr int64_t one[] = {66, 39, 30, 22, 17, 15, 15}, two[] = {132, 79, 62, 47, 39, 32, 30},
                           three[] = {198, 124, 92, 69, 62, 47, 45};
  const int64_t* at = ctas_per_sm == 1 ? one : ctas_per_sm == 2 ? two : three;
  Machine m{132, ctas_per_sm, {}, {}, ctas_per_sm > 1};
  for (int s = 2; s <= kMaxCluster; ++s) {
    m.clusters.clusters[s] = at[s - 2];
    m.solo_clusters.clusters[s] = one[s - 2];
  }
  return m;
}

}  // namespace cotile::attention::detail
