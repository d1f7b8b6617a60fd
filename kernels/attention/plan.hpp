// The plan's arithmetic, host only and free of CUDA calls (so it is tested without a GPU): the
// workspace layout and the split-KV heuristic.
#pragma once

#include <algorithm>
#include <cstdint>

#include "decode_config.hpp"
#include "params.hpp"

namespace cotile::attention::detail {

inline uint64_t align256(uint64_t x) { return (x + 255) / 256 * 256; }

// Workspace: partial O [units][splits][16][D] 16-bit, partial lse [units][splits][16] f32, a
// counter a unit (int32, 0 between launches); none when there is one split or the splits merge
// within a cluster.
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

// Splits and how they merge: a model of the launch's time, fitted to H200 measurements
// (docs/design/decode.md). Times are in bytes read at one SM's share of the DRAM bandwidth
// (probe / SMs, ~34 GB/s: 34e3 is 1 us). With s splits, units * s CTAs of `cta` = rows / s (whole
// tiles) rows:
//   stream = max(all bytes / SMs,                         DRAM
//                CTAs per SM * cta bytes / sm_rate,        what one SM's CTAs can consume
//                waves * cta bytes / cta_rate)             what one CTA can consume
//   time   = stream + waves * kStartup + merge
// The merge, for s > 1, is one of (choose_merge takes the cheaper one the machine allows):
//   in a cluster (one wave of resident clusters):  kClusterMerge + kClusterMergeRead * s * partial
//   spread over the unit's CTAs (one wave):        kGlobalMerge + kMergeRead * partial
//   by the unit's last CTA (several waves):        kGlobalMerge + kSeveralWavesMerge + kMergeRead * s * partial
// (partial: one split's O of a unit, its query rows x D x 2 bytes). A cluster's merge reads every
// partial over distributed shared memory and keeps each CTA resident until its peers have read
// it; the spread merge reads 1/s of them in each CTA but pays L2 round trips (publish, count,
// load); a grid of several waves pays its last CTAs' merges after its last wave.
// The constants were fitted to the model sweep (bench/decode/sweep.py, 234 cases of 17 public
// models' per-GPU heads, every forced split count timed isolated (a) and in sequence (b), once
// with clusters and once without, so that both merges of each s < 9 were measured): the choice
// is within 5% of the best of all (s, merge) in (a) on 204 cases, in (b) on 220, in both on 194
// (one choice within 5% in both exists on 220; the two timings disagree on the rest). The
// previous constants (a CTA at 0.8, clusters whenever they fit, the last CTA merging alone) gave
// 163 in both on the same data.
// Ties go to more splits (more loads in flight at the same modelled time).
inline constexpr double kStartup = 70e3, kGlobalMerge = 100e3, kSeveralWavesMerge = 400e3;  // 2, 3, 12 us
inline constexpr double kMergeRead = 0.25, kClusterMerge = 15e3, kClusterMergeRead = 4.0;
// The split counts the plan chooses among: those the sweep measures (a count in between was
// never better by more than the runs' noise).
inline constexpr int kSplitCounts[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128};
struct SplitChoice {
  int splits, cluster;  // cluster: s when clustered, else 1
  bool solo = false;    // launched solo: one CTA an SM by a shared-memory reservation (solo_launch)
};
struct ClusterSlots {
  int64_t clusters[kMaxCluster + 1] = {};  // resident clusters of each size 2 .. kMaxCluster
};
struct Machine {
  int64_t sms, ctas_per_sm;
  ClusterSlots clusters;       // resident clusters at the kernel's shared memory
  ClusterSlots solo_clusters;  // resident clusters at a solo launch's shared memory (one CTA an SM)
  bool solo = false;           // this device can launch solo (the reservation fits and leaves one CTA an SM)
};
struct Work {
  int64_t units, rows, row_bytes;  // rows: the longest sequence's; row_bytes: K and V of one row
  int64_t partial_bytes;           // one split's partial O of a CTA: its query rows x D, 16-bit
  double cta_rate, sm_rate;
  int kv_bytes = 2;  // bytes of a cache element (1: fp8, which launches solo where it can)
  // units: CTAs a split; group: a KV head's query rows, m_blocks m-tiles of them a CTA.
  static Work of(int64_t units, int64_t rows, int64_t head_dim, int64_t kv_bytes, int64_t group, int m_blocks = 1) {
    return {
        units, rows,         2 * head_dim * kv_bytes, std::min<int64_t>(group, kRows * m_blocks) * head_dim * 2, 0.75,
        1.15,  int(kv_bytes)};
  }
};
inline bool solo_launch(int64_t grid, int64_t sms, int64_t ctas_per_sm, int kv_bytes);
// Whether a grid runs in more than one wave: more CTAs than the SMs hold at once.
inline bool several_waves(int64_t grid, int64_t sms, int64_t ctas_per_sm) { return grid > sms * ctas_per_sm; }
// Whether a workspace merge is spread over the unit's CTAs (decode_kernel.cuh, merge_spread_over_unit):
// each waits for its unit's last split, then merges 1/splits of the items, instead of the last CTA
// merging them all. Only where every CTA is resident at once (one wave), so that a CTA waiting for
// its peers never keeps one from starting. Should fewer slots be free (another stream's kernel on
// some SMs), progress still holds as for CUTLASS's serial split-K: CTAs are dispatched in index
// order and a unit's splits are consecutive, so every unit before the first one not fully
// dispatched has all its CTAs resident, finishes and frees its slots. Measured (bench/decode/trace.py, H200, bf16, 64 splits):
// the last-CTA merge of (1,24,2,65536) took 12 us after its last split in a chain of launches and
// 17 us isolated (after a 512 MiB read), ~9 round trips of one CTA's loads.
inline bool spread_merge(int64_t grid, int64_t sms, int64_t ctas_per_sm, int64_t splits, int64_t cluster) {
  return splits > 1 && cluster == 1 && !several_waves(grid, sms, ctas_per_sm);
}
inline double split_cost(const Machine& m, const Work& w, const SplitChoice& c);
// The merge and the reservation for a given s, as the launch will make them: solo where the rule
// (solo_launch) says so; a cluster where every unit's cluster is resident at once at the shared
// memory the launch asks for (a solo launch's clusters of one CTA an SM: fewer fit, 8-CTA clusters
// need 8 SMs of one GPC each; else, without the reservation, the kernel's) and the model finds
// it cheaper than the workspace merge; else through the workspace.
inline SplitChoice choose_merge(const Machine& m, const Work& w, int s) {
  const bool solo = m.solo && solo_launch(w.units * s, m.sms, m.ctas_per_sm, w.kv_bytes);
  const SplitChoice plain{s, 1, solo};
  if (s < 2 || s > kMaxCluster) return plain;
  SplitChoice cluster{s, 1, false};
  if (solo && m.solo_clusters.clusters[s] >= w.units) cluster = {s, s, true};
  else if (m.clusters.clusters[s] >= w.units) cluster = {s, s, false};
  return cluster.cluster > 1 && split_cost(m, w, cluster) <= split_cost(m, w, plain) ? cluster : plain;
}
inline double split_cost(const Machine& m, const Work& w, const SplitChoice& c) {
  const int64_t s = c.splits, ctas = w.units * s, rows = std::max<int64_t>(1, w.rows);
  const int64_t waves = c.cluster > 1 ? 1 : (ctas + m.sms * m.ctas_per_sm - 1) / (m.sms * m.ctas_per_sm);
  const int64_t per_sm = (ctas + m.sms - 1) / m.sms;
  const double cta_bytes = double(((rows + s - 1) / s + kRows - 1) / kRows * kRows * w.row_bytes);
  const double stream = std::max({double(w.units) * double(rows) * double(w.row_bytes) / double(m.sms),
                                  double(per_sm) * cta_bytes / w.sm_rate, double(waves) * cta_bytes / w.cta_rate});
  const double merge = s == 1          ? 0.0
                       : c.cluster > 1 ? kClusterMerge + kClusterMergeRead * double(s * w.partial_bytes)
                       : waves == 1    ? kGlobalMerge + kMergeRead * double(w.partial_bytes)
                                       : kGlobalMerge + kSeveralWavesMerge + kMergeRead * double(s * w.partial_bytes);
  return stream + double(waves) * kStartup + merge;
}
// s among kSplitCounts up to min(128, rows / 64): every warp keeps at least one 16-row tile.
inline SplitChoice choose_splits(const Machine& m, const Work& w) {
  const int64_t rows = std::max<int64_t>(1, w.rows);
  const int64_t cap = std::min<int64_t>((rows + kWarps * kRows - 1) / (kWarps * kRows), kMaxSplits);
  SplitChoice best{1, 1};
  double best_cost = 1e300;
  for (const int s : kSplitCounts) {
    if (s > std::max<int64_t>(1, cap)) break;
    const SplitChoice c = choose_merge(m, w, s);
    const double cost = split_cost(m, w, c);
    if (cost <= best_cost * 1.0001) best_cost = std::min(best_cost, cost), best = c;
  }
  return best;
}

// Whether a pair of KV heads shares each CTA (plan.kv_heads_per_cta = 2, Params::pair_rows): for
// fp8 caches of head_dim 64 with G <= 8 (the pair's 2G query rows fit the MMA's 16) and an even
// Hkv. The pair runs as one head of 128 columns in the head_dim-128 kernel: query row r < G holds
// q[r] in columns 0-63 and zeros in 64-127, row G + r the second head's q[r] in 64-127, so
// S = Q [K1 | K2]^T gives each row its own head's scores, and each row's output is its own half
// of P [V1 | V2]. In a cache whose heads are adjacent ([.., N, Hkv, D], paged or not), a 16-row
// tile is then 16 runs of 128 bytes instead of 16 of 64 at a 64 * Hkv-byte stride: the paged fp8
// caches of the head_dim-64 models streamed at 52-66% of the plain read with 64-byte rows, 70-80%
// paired. Measured (sweep of Qwen1.5-0.5B, Llama-3.2-1B, Qwen2.5-0.5B, fp8, A/B runs np pr pr np,
// 2026-12-04): the paged caches of 64 MiB and more x1.05-1.35 isolated, x1.24-1.36 in sequence,
// x1.08-1.42 back to back. Where they do not pay: [B, Hkv, N, D] caches (whose heads are apart:
// x0.80-0.96 paired), so the plan pairs by choice only when told the layout is NHD (decode.h,
// kv_layout); caches of 16 MiB and less (x0.73-0.95 in a proxy run: fewer, shorter CTAs); and
// pairs too few to fill the SMs (Hkv = 2, B = 1: x0.86 isolated in the proxy run). So: NHD caches
// of kPairMinBytes or more whose pairs at the most splits reach 2 CTAs an SM.
inline constexpr double kPairMinBytes = double(32 << 20);
// With several query tokens (q_len) a pair's 2G x q_len rows must fit the 16 as well.
inline bool can_pair_heads(int64_t heads_kv, int64_t group, int64_t head_dim, int64_t kv_bytes, int64_t q_len = 1) {
  return kv_bytes == 1 && head_dim == 64 && group * q_len <= kRows / 2 && heads_kv % 2 == 0;
}
inline bool pair_heads(int64_t batch, int64_t heads_kv, int64_t group, int64_t head_dim, int64_t kv_bytes,
                       int64_t max_rows, int64_t sms, int64_t q_len = 1) {
  if (!can_pair_heads(heads_kv, group, head_dim, kv_bytes, q_len)) return false;
  const int64_t cap = std::min<int64_t>((max_rows + kWarps * kRows - 1) / (kWarps * kRows), kMaxSplits);
  const double bytes = 2.0 * double(batch) * double(heads_kv) * double(max_rows) * double(head_dim);
  return bytes >= kPairMinBytes && double(batch) * double(heads_kv / 2) * double(cap) >= 2.0 * double(sms);
}

// Two m-tiles a CTA (several query tokens: decode.h, m_tiles_per_cta; decode_kernel.cuh, MB): a
// KV head's G x q_len query rows beyond 16 are computed 32 a CTA against each K/V tile it streams,
// instead of each 16 by a CTA of their own that streams the same tiles again (from L2). It halves
// the CTAs and doubles each one's MMAs: measured against one m-tile a CTA (sweep.py --q-len 2 and 4,
// the 162 cases of two m-tiles and more at head_dim 128, H200, runs A B B A, 2026-12-04), it gains
// where each CTA streams long rows (16-bit B = 128: x1.12-1.58 in sequence; B = 1 N = 64K at G x
// q_len = 28: x1.41) and loses where the rows a CTA are few (B = 1 N = 1K: x0.53-0.60; the split
// count is capped at a tile a warp) and on fp8 caches, whose tiles' computation already paces one
// m-tile (x0.49-0.80 on most cases, x1.13-1.22 at B = 128). The rule: 16-bit caches whose
// two-m-tile CTAs each attend at least kTwoTileRows rows of the longest sequence at the split count
// the plan chooses for them. Within 5% of the better of the two on 147 (isolated) and 143 (in
// sequence) of the 162 cases, 138 in both, against 125 / 107 / 107 for one m-tile always and 56 /
// 79 for two always (thresholds of 512 and 1 536 rows: 132 and 126 in both; bench/decode/ab.sh
// data replayed offline).
inline constexpr int64_t kTwoTileRows = 1024;
inline bool can_two_m_tiles(int64_t q_len, int64_t head_dim, int64_t kv_bytes) {
  return q_len > 1 && head_dim <= 128 && kv_bytes == 2;
}
inline bool two_m_tiles(int64_t max_rows, int64_t splits) { return (max_rows + splits - 1) / splits >= kTwoTileRows; }
// An odd count of m-tiles m leaves each head's last two-m-tile CTA a second block of no rows, which
// it computes all the same: (m + 1) / m the MMAs and softmax of one m-tile a CTA, paid back only
// where one m-tile a CTA would need more than one wave (`slots` CTAs). Measured on the sweep's
// three-m-tile cases (StarCoder2-3B (24,2,128) at q_len 4, G x q_len = 48; sweep.py --q-len 4
// --m-tiles-per-cta 1 and 2, H200, 2026-12-04): B = 1 N = 64K, a one-wave grid of 192 CTAs against
// 256, two m-tiles x1.11-1.17 slower (a) and (b); B = 16 N = 8K (384 CTAs of one m-tile: two
// waves) and B = 128 two m-tiles x0.80-0.93 faster.
inline bool two_m_tiles_odd(int64_t one_tile_grid, int64_t slots) { return one_tile_grid > slots; }

// The warpgroup kernel (decode_rows.cuh: 64 query rows a CTA, computed together against each
// 64-row K/V tile by wgmma): several query tokens, head_dim 128, one KV head a CTA; a 16-bit cache
// with Q in its type (Q goes to wgmma as loaded), or an fp8 cache (each tile converted to f16, and Q
// of any type once). Whether to (group_rows_by_plan, group_rows_pay): where a KV head has more than
// one m-tile of rows, its CTAs each attend at least kGroupMinRows rows at the split count the plan
// chooses for it, and its grid puts a CTA on at least half the SMs. Its CTAs are a quarter of one
// m-tile a CTA's, so grids of few CTAs leave it with less in flight than the per-warp kernel.
// Measured (qlen_sweep.sh --forced: q_len 2 and 4, 1, 2 and 4 m-tiles a CTA forced, the 87 bf16
// head_dim-128 cases of more than one m-tile, H200, 2026-12-05; the blocks' spread merge in one
// pass): the rule puts 79 (isolated) and 74 (in sequence) within 5% of the best of the three, 69 in
// both, against 69 / 73 / 60 for the rule before the one-pass merge (CTAs of >= 256 rows on every
// SM: short split CTAs then lost up to 1.44x; now B = 8 takes x0.73-0.91 (a)) and 76 / 74 / 67
// for a CTA on every SM. What it misses, it misses by <= 1.17x: B = 1 N = 1K (16-64 CTAs), where
// (a) prefers it by 1.10-1.13x and (b) not; paged B = 1 N = 64K at 32 rows a head, 1.10-1.17x in
// (b) (an A/B against the rule before: Llama-3-70B TP8's x0.85-0.95, the cases it moved x1.13-1.48).
// fp8 caches: the kernel converts each tile once for its 64 rows, where the per-warp kernel's CTAs
// of a head each stream and convert it; but the conversion paces the warpgroup (~2.1 TB/s at 256
// MiB, against ~3.7 TB/s of the per-warp kernel at one token), so it pays only where a head's rows
// are more than two m-tiles (kGroupHeadRowsFp8) and its CTAs long (kGroupMinRowsFp8). Measured
// (the same run, the 87 fp8 cases of G x q_len > 16): at 48 and 64 rows x0.67-0.93 where the CTAs
// attend >= 1 024 rows, x1.00-1.61 elsewhere, and x1.15-1.45 at 32 rows. The rule puts 86 (a) and
// 83 (b) within 5% of the best forced choice, against 77 / 74 for one m-tile a CTA always and
// 15 / 13 for the warpgroup kernel always (256-512 rows: 85 / 81; no floor on a head's rows: 46 / 45).
inline constexpr int64_t kGroupMinRows = 64;  // a tile
inline constexpr int64_t kGroupMinRowsFp8 = 1024;
inline constexpr int64_t kGroupHeadRowsFp8 = 2 * kRows;  // fp8: a KV head's query rows above this
inline bool can_group_rows(int64_t q_len, int64_t head_dim, int64_t kv_bytes, bool q_is_kv_type) {
  return q_len > 1 && head_dim == 128 && (kv_bytes == 1 || q_is_kv_type);
}
// head_rows: a KV head's query rows, G x q_len.
inline bool group_rows_by_plan(int64_t kv_bytes, int64_t head_rows) {
  return kv_bytes == 2 || head_rows > kGroupHeadRowsFp8;
}
inline bool group_rows_pay(int64_t max_rows, int64_t splits, int64_t grid, int64_t sms, int64_t kv_bytes = 2) {
  const int64_t min_rows = kv_bytes == 1 ? kGroupMinRowsFp8 : kGroupMinRows;
  return (max_rows + splits - 1) / splits >= min_rows && 2 * grid >= sms;
}

// Whether the first wave's CTAs prefetch their first K/V tiles into L2 before the dependency wait
// (decode_kernel.cuh, prefetch_before_wait): for 16-bit caches whose CTAs attend at least
// kPrefetchRows rows of the longest sequence; paged caches only where the run bounds the page
// table's rows (args.page_table_len), since their CTAs read the entries of their first tiles at a
// length that may be stale. Alternating A/Bs of back-to-back launches
// (results/h200_2026-11-30_prefetch_ab): 16-bit caches with CTAs of 1 024 rows or more gained
// 0.2-3.6% (the split 128 MiB shapes the most); the 128-row CTAs of (1,32,8,1024) lost 0.5-0.7 us
// of 6.9 (prefetches before a wait that does not last), and fp8 caches gained nothing (0.98-1.01).
// Paged caches (sweep.py --no-torch --no-oracle, runs alternated on an H100, 2026-12-07): bf16
// x0.99 / x1.03 / x1.03 geomean (a) / (b) / (c), 128 MiB cases 83-86% -> 86-89% of the read in (b);
// fp8 solo launches that prefetched too lost x0.86-0.90 (Hkv = 1, B = 1, N = 64K), so they do not.
inline constexpr int64_t kPrefetchRows = 1024;
// Paged fp8 launches prefetch where their CTAs attend >= kPrefetchRowsFp8Paged rows and are neither
// solo nor pairs of KV heads (H100, the 52 fp8 paged sweep cases, runs alternated, 2026-12-07): the
// 14 that do (B = 1 N = 64K in 16-32 splits, Phi-3-medium B = 16 N = 2K in one) x0.984-1.002 /
// x0.997-1.037 / x0.985-1.043 (a) / (b) / (c), 12 of them >= x1.006 (b); the others x0.98-1.01.
// Every non-solo one from 1 024 rows lost: B = 16's CTAs of 1 024 rows x0.95-0.99 (a), pairs x0.93-0.98.
inline constexpr int64_t kPrefetchRowsFp8Paged = 2048;
// A contiguous solo launch (solo_launch below) prefetches whatever its cache type and CTA length.
// table_bounded: the page table's row length is known (paged caches); paired: pairs of KV heads a CTA.
inline bool prefetch_before_wait(bool paged, bool table_bounded, int kv_bytes, int64_t max_rows, int64_t splits,
                                 bool solo, bool paired) {
  const int64_t cta_rows = (max_rows + splits - 1) / splits;
  const bool long_16bit = kv_bytes == 2 && cta_rows >= kPrefetchRows;
  const bool long_fp8 = kv_bytes == 1 && cta_rows >= kPrefetchRowsFp8Paged && !solo && !paired;
  return paged ? table_bounded && (long_16bit || long_fp8) : solo || long_16bit;
}

// Whether the CTAs let the next kernel in the stream (a dependent launch) start once they are past
// their main loops, instead of when they exit: when this grid leaves at least half the SMs idle,
// or runs in more than one wave (its last, partial wave frees slots as it drains): measured
// (results/h200_2026-11-30_trigger_ab) (1,32,8,1024) 6.99 -> 6.48 us, the two-wave
// (64,64,8,2048) and four-wave (128,32,8,1024) x1.002-1.008. One-wave grids that fill the SMs do
// not: with an early trigger there the next decode's CTAs ran 12-18% slower
// (results/h200_2026-11-29_pdl_ab, ab1), unless the launch is solo (solo_launch below), which
// keeps them one an SM.
inline bool trigger_early(int64_t grid, int64_t sms, int64_t ctas_per_sm, bool solo) {
  return solo || 2 * grid <= sms || several_waves(grid, sms, ctas_per_sm);
}

// Whether a launch runs "solo", one CTA an SM by reservation: for fp8 caches whose grid puts one
// CTA on most SMs (sms / 2 < grid <= sms) of a kernel that could hold two. The launch then asks for
// more than half of an SM's shared memory (plan.smem_bytes, solo_smem), so at most one of its CTAs
// fits an SM, and lets the next kernel start early, its CTAs prefetching their first tiles into L2
// before the wait (decode_api.cu): the next decode's CTAs then take each SM as this launch's CTA
// leaves it, one an SM, and fetch during this launch's tail. Without the reservation an early
// trigger let them double up on the idle SMs (12-18% slower, trigger_early above). Measured in
// four alternating A/Bs (results/h200_2026-11-30_solo): fp8 (1,32,8,32768) x1.021-1.045; the
// other one-CTA fp8 grids x0.996-1.013, within the runs' noise (x0.997-1.004 in the last). 16-bit
// caches (which already prefetch) moved by x0.983-1.012 with it: they go without.
inline bool solo_launch(int64_t grid, int64_t sms, int64_t ctas_per_sm, int kv_bytes) {
  return kv_bytes == 1 && ctas_per_sm > 1 && 2 * grid > sms && grid <= sms;
}
// The shared memory of a solo launch's CTA: more than half an SM's (each CTA also takes 1 KiB).
inline int64_t solo_smem(int64_t kernel_smem, int64_t sm_smem) { return std::max(kernel_smem, sm_smem / 2 + 1024); }

// How late the first wave's CTA in slot j of its SM (the j-th CTA placed there) starts:
// j x stagger_ns (decode_kernel.cuh, stagger), for grids of several waves. Identical CTAs started
// together end together, and then both CTAs of an SM wait for their successors' first tiles at the
// same time, which leaves the SM idle at every wave's boundary (fp8's CTAs, which end within
// ~1 us of each other, the most); once the slots are a few microseconds apart, a CTA in its fill
// or drain has the other streaming beside it for the rest of the launch. Measured
// (results/h200_2026-11-30_stagger): delays of 2, 3, 4.5, 6 and 12 us; 3 us was best (it must
// outlast a fill and drain, and stay well short of a CTA's length). With the slot from the CTA's
// hardware warp slots: fp8 (128,32,8,1024) x1.058 and (64,64,8,2048) x1.026, f16/bf16 there
// x1.016-1.019; the per-SM time with no CTA in its main loop 9.9 -> 1.5 us (max 12.8 -> 5.5).
// One-wave grids, delayed the same way, lost ~1% and go without.
inline constexpr int64_t kStaggerNs = COTILE_DECODE_STAGGER_NS;
inline int64_t stagger_cycles(int64_t grid, int64_t sms, int64_t ctas_per_sm, int64_t clock_khz) {
  return ctas_per_sm > 1 && several_waves(grid, sms, ctas_per_sm) ? kStaggerNs * clock_khz / 1000000 : 0;
}

}  // namespace cotile::attention::detail
