// The plan's arithmetic, host only and free of CUDA calls (so it is tested without a GPU): the
// workspace layout and the split-KV heuristic.
#pragma once

#include <algorithm>
#include <cstdint>

#include "params.hpp"

namespace cotile::attention::detail {

inline uint64_t align256(uint64_t x) { return (x + 255) / 256 * 256; }

// Workspace: partial O [units][splits][16][D] 16-bit, partial lse [units][splits][16] f32, counters
// [units]; none when there is one split or the splits merge within a cluster.
struct Workspace {
  uint64_t o, lse, counters, total;
};
inline Workspace workspace_layout(int64_t units, int64_t splits, int64_t d, int64_t cluster = 1) {
  Workspace w{};
  if (splits == 1 || cluster > 1) return w;
  const uint64_t part = uint64_t(units * splits);
  w.o = 0;
  w.lse = align256(part * kRows * uint64_t(d) * 2);
  w.counters = w.lse + align256(part * kRows * 4);
  w.total = w.counters + align256(uint64_t(units) * 4);
  return w;
}

// Splits and how they merge. A split count s runs units * s CTAs; its modelled time is
//   waves * (rows / s + kStartupRows + merge)
// the waves of CTAs the grid needs times the rows of the longest CTA plus fixed costs in rows:
// the pipeline fill and epilogue (kStartupRows), and with s > 1 the merge: kGlobalMergeRows when
// the last split merges through the workspace (publish, counter and partials: L2 round trips),
// none when the unit's s CTAs form a cluster and merge in distributed shared memory. Clusters
// are used in one wave only (every unit's cluster resident at once: clusters[s] >= units, where
// clusters[s] counts the resident clusters of size s, 0 when not possible): measured on the H200,
// a grid of more clusters than fit ran 1.4x slower than the same splits merged through memory.
// Ties go to fewer splits.
inline constexpr int64_t kStartupRows = 96, kGlobalMergeRows = 128;
struct SplitChoice {
  int splits, cluster;  // cluster: s when clustered, else 1
};
struct ClusterSlots {
  int64_t clusters[kMaxCluster + 1] = {};  // resident clusters of each size 2 .. kMaxCluster
};
// The merge for a given s: the cluster when all units' clusters are resident at once.
inline SplitChoice choose_merge(int64_t units, int s, const ClusterSlots& c) {
  const bool clustered = s >= 2 && s <= kMaxCluster && c.clusters[s] >= units;
  return {s, clustered ? s : 1};
}
inline double split_cost(int64_t units, int64_t slots, int64_t rows, const SplitChoice& m) {
  const int64_t s = m.splits;
  const int64_t waves = m.cluster > 1 ? 1 : (units * s + slots - 1) / slots;
  const int64_t merge = s == 1 || m.cluster > 1 ? 0 : kGlobalMergeRows;
  return double(waves) * (double(rows) / double(s) + double(kStartupRows + merge));
}
inline SplitChoice choose_splits(int64_t units, int64_t slots, int64_t max_kv_len, const ClusterSlots& c = {}) {
  const int64_t rows = std::max<int64_t>(1, max_kv_len);
  const int64_t cap = std::min<int64_t>((rows + kWarps * kRows - 1) / (kWarps * kRows), kMaxSplits);
  SplitChoice best{1, 1};
  double best_cost = 1e300;
  for (int64_t s = 1; s <= std::max<int64_t>(1, cap); ++s) {
    const SplitChoice m = choose_merge(units, int(s), c);
    const double cost = split_cost(units, slots, rows, m);
    if (cost < best_cost * 0.999) best_cost = cost, best = m;
  }
  return best;
}

}  // namespace cotile::attention::detail
