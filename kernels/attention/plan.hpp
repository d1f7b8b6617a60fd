// The plan's arithmetic, host only and free of CUDA calls (so it is tested without a GPU): the
// workspace layout and the split-KV heuristic.
#pragma once

#include <algorithm>
#include <cstdint>

#include "params.hpp"

namespace cotile::attention::detail {

inline uint64_t align256(uint64_t x) { return (x + 255) / 256 * 256; }

// Workspace: partial O [units][splits][16][D] 16-bit, partial lse [units][splits][16] f32, counters [units].
struct Workspace {
  uint64_t o, lse, counters, total;
};
inline Workspace workspace_layout(int64_t units, int64_t splits, int64_t d) {
  Workspace w{};
  const uint64_t part = splits > 1 ? uint64_t(units * splits) : 0;
  w.o = 0;
  w.lse = align256(part * kRows * uint64_t(d) * 2);
  w.counters = w.lse + align256(part * kRows * 4);
  w.total = w.counters + align256(uint64_t(units) * 4);
  return w;
}

// Splits: the count s that minimizes the modelled time waves(s) * (rows / s + kStartupRows): the
// waves of CTAs the grid needs (units * s CTAs over `slots` resident at once) times the rows of
// the longest CTA plus a fixed cost per CTA (pipeline fill, merge), in rows. Ties go to fewer splits.
inline constexpr int64_t kStartupRows = 96;
inline int choose_splits(int64_t units, int64_t slots, int64_t max_kv_len) {
  const int64_t rows = std::max<int64_t>(1, max_kv_len);
  const int64_t cap = std::min<int64_t>((rows + kWarps * kRows - 1) / (kWarps * kRows), kMaxSplits);
  int best = 1;
  double best_cost = 1e300;
  for (int64_t s = 1; s <= std::max<int64_t>(1, cap); ++s) {
    const double waves = double((units * s + slots - 1) / slots);
    const double cost = waves * (double(rows) / double(s) + double(kStartupRows));
    if (cost < best_cost * 0.999) best_cost = cost, best = int(s);
  }
  return best;
}

}  // namespace cotile::attention::detail
