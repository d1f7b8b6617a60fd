// Merging a unit's KV splits (flash-decoding). Two places the partials can be:
// * the workspace in global memory (any number of splits): split s holds its normalized partial
//   O_s and its base-2 log-sum-exp lse_s for each query row, and
//       lse = log2 sum_s 2^lse_s,      O = sum_s 2^(lse_s - lse) O_s;
// * the shared memory of the cluster the splits form (up to kMaxCluster), where each CTA's warps
//   still hold their unnormalized partials: the same sum over (split, warp) pairs (merge_cluster).
// Both are the softmax merge of softmax.cuh, summed in a fixed order, so that the result does not
// depend on which CTA finished last.
// write(row, d0, acc, inv, lse) stores the 8 merged columns d0 .. d0 + 7 of a row, acc * inv.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "cotile/arch/cluster.hpp"
#include "tiles.cuh"

namespace cotile::attention::detail {

// acc[0..7] += f * (a, z): 8 consecutive fp32 columns given as two 4-vectors (float4, arch::Float4).
template <class V4>
__device__ __forceinline__ void add_scaled(float (&acc)[8], float f, const V4& a, const V4& z) {
  acc[0] += f * a.x, acc[1] += f * a.y, acc[2] += f * a.z, acc[3] += f * a.w;
  acc[4] += f * z.x, acc[5] += f * z.y, acc[6] += f * z.z, acc[7] += f * z.w;
}

// acc[0..7] += f * the 8 16-bit values (Bf16 or f16) packed in h: a partial's 8 columns.
template <bool Bf16>
__device__ __forceinline__ void add_scaled_halves(float (&acc)[8], float f, const uint4& h) {
  const uint32_t w[4] = {h.x, h.y, h.z, h.w};
#pragma unroll
  for (int e = 0; e < 4; ++e) {
    const float2 x = unpack2<Bf16>(w[e]);
    acc[2 * e] += f * x.x;
    acc[2 * e + 1] += f * x.y;
  }
}

// The weights of a unit's splits, once per query row: with lse = log2 sum_s 2^lse_s[row],
//     w[s][row] = 2^(lse_s[row] - lse)        (0 for every s when lse = -inf: an empty row),
// overwriting lse_s [split][kRows] in shared memory, and lse [row]. 8 lanes a row, each taking
// every 8th split, reduced by shuffles: a short chain per row instead of one per item.
__device__ __forceinline__ void split_weights(float* split_lse, float* row_lse, int splits) {
  static_assert(kThreads >= 8 * kRows && (8 * kRows) % 32 == 0, "8 lanes per row, whole warps");
  const int tid = int(threadIdx.x), row = tid / 8, sub = tid % 8;
  if (tid >= 8 * kRows) return;
  float mx = -INFINITY;
  for (int s = sub; s < splits; s += 8) mx = fmaxf(mx, split_lse[s * kRows + row]);
  for (int x = 1; x < 8; x *= 2) mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, x));
  const float base = exp2_reference(mx);
  float sum = 0.0f;
  for (int s = sub; s < splits; s += 8) sum += merge_weight(split_lse[s * kRows + row], base);
  for (int x = 1; x < 8; x *= 2) sum += __shfl_xor_sync(0xffffffffu, sum, x);
  const float lse = result(mx, sum).lse;
  for (int s = sub; s < splits; s += 8)  // the row's 8 lanes have read every lse_s (shuffles above)
    split_lse[s * kRows + row] = lse > -INFINITY ? merge_weight(split_lse[s * kRows + row], lse) : 0.0f;
  if (sub == 0) row_lse[row] = lse;
}

// From the workspace: all_o [split][kRows][D] (16-bit, Bf16 or f16) and all_lse [split][kRows],
// rows < valid_rows written; run by one whole CTA, with `area` (shared memory for kMaxSplits x
// kRows weights, kRows lse and kThreads x 8 floats) free. The splits' weights are
// computed once per row (split_weights). The merge is latency-bound (L2 round trips) and runs
// with a cold instruction cache, so: `ways` threads share an item (row, 8 columns), each summing
// every ways-th split from up to kBatch 16-byte loads in flight, the first batch requested with
// the splits' lse; the ways' sums are added in a fixed order. kBatch = 16: 32 was slower than 8
// (4x the code, results/h200_2026-11-29_tail_ab); 16 halves the round trips of a G = 16 unit's
// merge of 16 splits (two items a thread) and is 0.3-0.5% faster there, neutral elsewhere
// (results/h200_2026-11-30_tail2_ab).
template <int D, bool Bf16, class Write>
__device__ void merge_workspace(const uint16_t* all_o, const float* all_lse, int splits, int valid_rows, uint8_t* area,
                                Write write) {
  constexpr int kGroups = D / 8, kBatch = COTILE_DECODE_MERGE_BATCH;
  const int tid = int(threadIdx.x), items = valid_rows * kGroups;
  int ways = 1;
  while (2 * ways * items <= kThreads && 2 * ways <= splits) ways *= 2;
  float* split_lse = reinterpret_cast<float*>(area);              // [split][row]: lse_s, then the weights
  float* row_lse = split_lse + kMaxSplits * kRows;                // [row]
  float* partial = row_lse + kRows;                               // [way][item][8]
  for (int round = 0; round < items * ways; round += kThreads) {  // one round unless ways == 1
    const int idx = round + tid, item = idx % items, way = idx / items;
    const bool active = idx < items * ways;
    const int row = item / kGroups, d0 = 8 * (item % kGroups);
    uint4 v[kBatch];
    auto load_batch = [&](int s0) {  // splits s0 + ways * u
#pragma unroll
      for (int u = 0; u < kBatch; ++u) {
        const int sp = s0 + ways * u;
        v[u] = active && sp < splits
                   ? __ldcg(reinterpret_cast<const uint4*>(all_o + (int64_t(sp) * kRows + row) * D + d0))
                   : make_uint4(0, 0, 0, 0);
      }
    };
    load_batch(way);
    if (round == 0) {
      for (int i = tid; i < splits * kRows; i += kThreads) split_lse[i] = __ldcg(all_lse + i);
      __syncthreads();
      split_weights(split_lse, row_lse, splits);
      __syncthreads();
    }
    const float lse = row_lse[row];
    float acc[8] = {};
    for (int s0 = way; s0 < splits; s0 += ways * kBatch) {
      if (s0 != way) load_batch(s0);
#pragma unroll
      for (int u = 0; u < kBatch; ++u) {
        const int sp = s0 + ways * u;
        const float f = sp < splits ? split_lse[sp * kRows + row] : 0.0f;  // the split's weight
        add_scaled_halves<Bf16>(acc, f, v[u]);
      }
    }
    if (ways == 1) {
      if (active) write(row, d0, acc, 1.0f, lse);
    } else {  // one round: add the ways' sums in order
      if (active)
#pragma unroll
        for (int e = 0; e < 8; ++e) partial[(way * items + item) * 8 + e] = acc[e];
      __syncthreads();
      if (idx < items) {
#pragma unroll
        for (int e = 0; e < 8; ++e) acc[e] = 0.0f;
        for (int w = 0; w < ways; ++w)
#pragma unroll
          for (int e = 0; e < 8; ++e) acc[e] += partial[(w * items + item) * 8 + e];
        write(row, d0, acc, 1.0f, lse);
      }
    }
  }
}

// Spread over the unit's own CTAs (one-wave grids, Params::spread_merge): once every split has
// published (each CTA waits for the unit's arrival count; all of a one-wave grid's CTAs are
// resident, so the wait ends), CTA `rank` merges items rank, rank + splits, ... (item = a row's 8
// columns d0 .. d0 + 7) from the workspace:
//     lse = log2 sum_s 2^lse_s[row],      O[row] = sum_s 2^(lse_s[row] - lse) O_s[row].
// `ways` lanes of a warp share an item, lane `way` taking splits way, way + ways, ... (at most
// kPerLane, every load issued at once: one round trip), and the lanes' maxima, sums and O combine
// by butterflies: a fixed order, so the result does not depend on which CTA arrived when. Each CTA
// reads 1/splits of the partials, where the last-CTA merge (merge_workspace) reads them all in one
// CTA, round trip after round trip.
// Blocks > 1: the rows are those of a CTA's consecutive units (its row blocks, decode_epilogue.cuh,
// finish_blocks), row r being row r % kRows of the r / kRows-th, whose partials follow the one
// before's: all_o [block][split][kRows][D], all_lse [block][split][kRows]. One pass over every
// block's items, where a pass per block paid a wait and a round trip each.
template <int D, bool Bf16, int Blocks = 1, class Write>
__device__ void merge_spread(const uint16_t* all_o, const float* all_lse, int splits, int rank, int valid_rows,
                             Write write) {
  constexpr int kGroups = D / 8, kPerLane = 4;
  static_assert(32 * kPerLane >= kMaxSplits, "a warp's lanes cover every split of an item");
  const int tid = int(threadIdx.x), items = valid_rows * kGroups;
  const int mine = rank < items ? (items - 1 - rank) / splits + 1 : 0;  // items of this CTA
  int ways = 1;
  while (ways * kPerLane < splits) ways *= 2;
  while (2 * ways <= 32 && 2 * ways <= splits && 2 * ways * mine <= kThreads) ways *= 2;
  const int way = tid % ways;
  for (int first = 0; first < mine; first += kThreads / ways) {  // CTA-uniform: the shuffles see whole warps
    const int j = first + tid / ways;
    const bool active = j < mine;
    const int item = active ? rank + j * splits : 0, row = item / kGroups, d0 = 8 * (item % kGroups);
    const int block = Blocks == 1 ? 0 : row / kRows, block_row = Blocks == 1 ? row : row % kRows;
    float l[kPerLane];
    uint4 v[kPerLane];
#pragma unroll
    for (int k = 0; k < kPerLane; ++k) {
      const int s = block * splits + way + ways * k;  // the partial's place, [block][split]
      const bool on = active && way + ways * k < splits;
      l[k] = on ? __ldcg(all_lse + s * kRows + block_row) : -INFINITY;
      v[k] = on ? __ldcg(reinterpret_cast<const uint4*>(all_o + (int64_t(s) * kRows + block_row) * D + d0))
                : make_uint4(0, 0, 0, 0);
    }
    float mx = -INFINITY;
#pragma unroll
    for (int k = 0; k < kPerLane; ++k) mx = fmaxf(mx, l[k]);
    for (int x = 1; x < ways; x *= 2) mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, x));
    const float base = exp2_reference(mx);
    float sum = 0.0f;
#pragma unroll
    for (int k = 0; k < kPerLane; ++k) sum += merge_weight(l[k], base);
    for (int x = 1; x < ways; x *= 2) sum += __shfl_xor_sync(0xffffffffu, sum, x);
    const float lse = result(mx, sum).lse;
    float acc[8] = {};
#pragma unroll
    for (int k = 0; k < kPerLane; ++k) {
      const float f = lse > -INFINITY ? merge_weight(l[k], lse) : 0.0f;  // the split's weight
      add_scaled_halves<Bf16>(acc, f, v[k]);
    }
    for (int x = 1; x < ways; x *= 2)
#pragma unroll
      for (int e = 0; e < 8; ++e) acc[e] += __shfl_xor_sync(0xffffffffu, acc[e], x);
    if (active && way == 0) write(row, d0, acc, 1.0f, lse);
  }
}

// Within a cluster whose CTAs are the splits (rank = split), straight from the warps' partials:
// warp w of CTA s holds, for each row, its running max m_sw and sum l_sw (base 2) and its
// unnormalized O_sw [row][o_stride] (fp32), at the same shared-memory offsets in every CTA
// (max/sum [w][Rows], O [w][Rows][o_stride]). With M = max m_sw and f_sw = 2^(m_sw - M):
//     O = sum_sw f_sw O_sw / sum_sw f_sw l_sw,      lse = M + log2 sum_sw f_sw l_sw.
// Items (row, 8 columns) are dealt round-robin over the CTAs; `ways` neighbouring lanes share an
// item, each summing every ways-th source (s, w) (at most kPerThread: few loads a thread, all in
// flight at once), then add up by a butterfly, so that the order does not depend on timing. The
// cluster barriers before and after make the partials visible and keep every CTA resident until
// the reads are done.
template <int D, int Warps, int Rows, class Write>
__device__ void merge_cluster(const float* o, int o_stride, const float* max, const float* sum, int rank, int splits,
                              int valid_rows, Write write) {
  constexpr int kGroups = D / 8, kPerThread = 8;
  static_assert(kMaxCluster * Warps <= 32 * kPerThread, "a cluster's sources fit in one warp's lanes");
  const int items = valid_rows * kGroups, sources = splits * Warps, per_cta = (items + splits - 1) / splits;
  int ways = 1;
  while (kPerThread * ways < sources) ways *= 2;
  while (2 * ways <= sources && 2 * ways <= 32 && 2 * ways * per_cta <= kThreads) ways *= 2;
  const int way = int(threadIdx.x) % ways;
  arch::cluster_sync();
  for (int first = 0; first < per_cta; first += kThreads / ways) {  // the same rounds in every warp: shuffles below
    const int item = (first + int(threadIdx.x) / ways) * splits + rank;
    const bool active = item < items;
    const int row = active ? item / kGroups : 0, d0 = 8 * (item % kGroups);
    float m_k[kPerThread], l_k[kPerThread];
    float mx = -INFINITY;
#pragma unroll
    for (int k = 0; k < kPerThread; ++k) {
      const int j = way + ways * k, s = j / Warps, w = j % Warps;
      const bool mine = active && j < sources;
      m_k[k] = mine ? arch::cluster_load(arch::cluster_map(max + w * Rows + row, unsigned(s))) : -INFINITY;
      l_k[k] = mine ? arch::cluster_load(arch::cluster_map(sum + w * Rows + row, unsigned(s))) : 0.0f;
      mx = fmaxf(mx, m_k[k]);
    }
    for (int x = 1; x < ways; x *= 2) mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, x));
    const float base = exp2_reference(mx);
    float l = 0.0f, acc[8] = {};
#pragma unroll
    for (int k = 0; k < kPerThread; ++k) {
      const int j = way + ways * k, s = j / Warps, w = j % Warps;
      if (!active || j >= sources) continue;
      const float f = merge_weight(m_k[k], base);
      l += f * l_k[k];
      const uint32_t src = arch::cluster_map(o + (w * Rows + row) * o_stride + d0, unsigned(s));
      add_scaled(acc, f, arch::cluster_load4(src), arch::cluster_load4(src + 16));
    }
    for (int x = 1; x < ways; x *= 2) {
      l += __shfl_xor_sync(0xffffffffu, l, x);
#pragma unroll
      for (int e = 0; e < 8; ++e) acc[e] += __shfl_xor_sync(0xffffffffu, acc[e], x);
    }
    if (active && way == 0) {
      const RowResult res = result(mx, l);
      write(row, d0, acc, res.inv, res.lse);
    }
  }
  arch::cluster_wait_all();
}

}  // namespace cotile::attention::detail
