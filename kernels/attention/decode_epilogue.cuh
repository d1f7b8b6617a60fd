// The decode CTA's epilogue (decode_kernel.cuh, DecodeCta): the merge of its warps' result with
// the other splits' (in a cluster, spread over the unit's CTAs, or by the unit's last CTA through
// the workspace) and the output's write. Included by decode_kernel.cuh after DecodeCta.
#pragma once

namespace cotile::attention::detail {

// The merged result of this CTA: final when there is one split, else a partial, and the last
// CTA of the unit to arrive merges all partials; clustered splits merge every CTA's warps at
// once, across the cluster's shared memory.
// publish_only: write the partial and return (several blocks' spread merge, finish_blocks).
template <int D, int KvType, bool Pairs, bool Tokens, int MB, int Cache>
inline __device__ void DecodeCta<D, KvType, Pairs, Tokens, MB, Cache>::finish(int mb, bool publish_only) {
  const MergeBuffers m = merge_buffers(mb);
  const auto write = [&](int row, int d0, const float(&acc)[8], float inv, float lse) {
    write_output(row, d0, acc, inv, lse);
  };
  if (p.clustered) {
    merge_cluster<D, C::kMergeWarps, kRows>(m.o, C::kMergeRow, m.max, m.sum, split, p.splits, valid_rows, write);
    return trace(p, kTraceMerged);
  }
  int* last = reinterpret_cast<int*>(C::kQInPlace ? smem : smem + C::kQRawBytes);  // (Q is done)
  // Each thread owns 8 consecutive columns of one row per step (an output TiledCopy of 16 bytes).
  const auto out_copy = ct::make_tiled_copy<CopyOp::kU128, Elem::kHalf>(
      ct::make_layout(ct::make_shape(Int<kThreads / (D / 8)>{}, Int<D / 8>{}), ct::make_stride(Int<D / 8>{}, _1{})),
      ct::make_layout(ct::make_shape(_1{}, _8{})));
  const auto coords = ct::partition_S(out_copy, ct::make_identity_tensor(ct::make_shape(_16{}, Int<D>{})), tid);
  constexpr int kSteps = decltype(ct::size(coords))::value / 8;

  uint16_t* part_o = p.part_o + (int64_t(unit) * p.splits + split) * kRows * D;
  float* part_lse = p.part_lse + (int64_t(unit) * p.splits + split) * kRows;
  const bool single = p.splits == 1;
#pragma unroll 1  // cold code (the prologue's comment, run()): 4 KiB less than unrolled
  for (int st = 0; st < kSteps; ++st) {
    const auto cd = coords[8 * st];
    const int row = int(ct::get<0>(cd)), d0 = int(ct::get<1>(cd));
    // The softmax merge of the warps' states (softmax.cuh): M, f_w, l = sum f_w l_w, O = sum f_w O_w.
    float mx = -INFINITY;
#pragma unroll
    for (int w = 0; w < C::kMergeWarps; ++w) mx = fmaxf(mx, m.max[w * kRows + row]);
    const float base = exp2_reference(mx);
    float sum = 0.0f, acc[8] = {};
#pragma unroll
    for (int w = 0; w < C::kMergeWarps; ++w) {
      const float f = merge_weight(m.max[w * kRows + row], base);
      sum += f * m.sum[w * kRows + row];
      const float4* src = reinterpret_cast<const float4*>(m.o + (w * kRows + row) * C::kMergeRow + d0);
      add_scaled(acc, f, src[0], src[1]);
    }
    const RowResult res = result(mx, sum);
    const float inv = res.inv, lse2 = res.lse;
    if (single) {
      write_output(row, d0, acc, inv, lse2);
    } else if (row < valid_rows) {
      *reinterpret_cast<uint4*>(part_o + row * D + d0) =
          make_uint4(pack2<C::kBf16>(acc[0] * inv, acc[1] * inv), pack2<C::kBf16>(acc[2] * inv, acc[3] * inv),
                     pack2<C::kBf16>(acc[4] * inv, acc[5] * inv), pack2<C::kBf16>(acc[6] * inv, acc[7] * inv));
      if (d0 == 0) part_lse[row] = lse2;
    }
  }
  trace(p, kTracePublished);
  if (single || publish_only) return;

  if constexpr (MB == 1)  // (several blocks: finish_blocks)
    if (p.spread_merge) return merge_spread_over_unit();
  // Split-KV: publish, count arrivals; the last CTA merges every split of this unit.
  __syncthreads();
  if (tid == 0) {  // acq_rel: the CTA's partials (ordered before by the barrier) before the count,
                   // and the other CTAs' partials visible to the last one
    int arrived;
    asm volatile("atom.add.acq_rel.gpu.s32 %0, [%1], 1;" : "=r"(arrived) : "l"(p.counters + unit) : "memory");
    *last = arrived == p.splits - 1;
  }
  __syncthreads();
  trace(p, kTraceCounted);
  if (!*last) return;
  merge_workspace<D, C::kBf16>(p.part_o + int64_t(unit) * p.splits * kRows * D,
                               p.part_lse + int64_t(unit) * p.splits * kRows, p.splits, valid_rows, merge_scratch(),
                               write);
  if (tid == 0) p.counters[unit] = 0;  // ready for the next launch (stream order)
  trace(p, kTraceMerged);
}

// The CTA's row blocks. Merged spread over the splits (one-wave grids), every block's partial is
// published, then one arrival count and one merge pass cover all the blocks' items (the blocks'
// units are consecutive: their partials too). Otherwise one block after the other: block mb's
// merge may use the shared memory after every block's buffers, and `last`.
template <int D, int KvType, bool Pairs, bool Tokens, int MB, int Cache>
inline __device__ void DecodeCta<D, KvType, Pairs, Tokens, MB, Cache>::finish_blocks() {
  if constexpr (MB == 1) {
    finish(0);
  } else {
    // (p.spread_merge alone implies the other two, plan.hpp's spread_merge; written alone, ptxas 13.0
    // spilled 64 bytes instead of 20 in the two-m-tile kernel and gave the warpgroup kernel 202
    // registers instead of 197, so the test stays as it is)
    const bool spread = p.spread_merge && !p.clustered && p.splits > 1;
#pragma unroll 1
    for (int mb = 0; mb < blocks; ++mb) {
      if (mb > 0) {
        if (!spread) __syncthreads();  // (publishing, each block reads its own buffers only)
        m_tile += 1, unit += 1;
        valid_rows = rows_from_m_tile(1);
      }
      finish(mb, spread);
    }
    if (spread) {
      m_tile -= blocks - 1, unit -= blocks - 1;  // the CTA's rows, counted on its first unit
      valid_rows = rows_from_m_tile(blocks);
      merge_spread_over_unit();
    }
  }
}

// Split-KV in a one-wave grid (Params::spread_merge): publish, wait until every split of the
// unit has, then merge this CTA's share of the unit's items (merge.cuh, merge_spread); with
// several row blocks (MB > 1), of the CTA's valid_rows over its blocks' units, counted on the
// first's counter (finish_blocks). One counter a unit, counters[unit], wrapping at 2 splits
// (red.inc with bound 2 splits - 1, which stores 0 in place of 2 splits): each CTA adds 1 on
// arriving and 1 on departing, and waits for a count of at least `splits` in between. The count
// cannot wrap before every CTA has seen it (the last departure is the wrap, and each CTA departs
// only after its wait), and it is 0 again when the launch ends, with no CTA waiting for an
// atomic's answer before it exits.
template <int D, int KvType, bool Pairs, bool Tokens, int MB, int Cache>
inline __device__ void DecodeCta<D, KvType, Pairs, Tokens, MB, Cache>::merge_spread_over_unit() {
  __syncthreads();  // the CTA's partials are written
  int32_t* count = p.counters + unit;
  const unsigned bound = 2 * unsigned(p.splits) - 1;
  if (tid == 0) {  // release: the partials (ordered before by the barrier) before the count
    asm volatile("red.release.gpu.global.inc.u32 [%0], %1;" ::"l"(count), "r"(bound) : "memory");
    for (int n = 0;;) {  // acquire: every split's partials visible once the count is complete
      asm volatile("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(n) : "l"(count) : "memory");
      if (n >= p.splits) break;
      __nanosleep(32);
    }
  }
  __syncthreads();
  trace(p, kTraceCounted);
  const auto write = [&](int row, int d0, const float(&acc)[8], float inv, float lse) {
    write_output(row, d0, acc, inv, lse);
  };
  merge_spread<D, C::kBf16, MB>(p.part_o + int64_t(unit) * p.splits * kRows * D,
                                p.part_lse + int64_t(unit) * p.splits * kRows, p.splits, split, valid_rows, write);
  trace(p, kTraceMerged);
  // Departure: the other CTAs' waits have seen every arrival before this CTA's (it waited too).
  if (tid == 0) asm volatile("red.relaxed.gpu.global.inc.u32 [%0], %1;" ::"l"(count), "r"(bound) : "memory");
}

// O[b, token, head, d0 .. d0+7] = acc * inv * out_scale (rows past G x q_len are not written); LSE
// from base 2. A pair's row writes its own head's half of the columns, at d0 - R / 2 for the second head.
template <int D, int KvType, bool Pairs, bool Tokens, int MB, int Cache>
inline __device__ void DecodeCta<D, KvType, Pairs, Tokens, MB, Cache>::write_output(int row, int d0,
                                                                                    const float (&acc)[8], float inv,
                                                                                    float lse2) const {
  const int m = kRows * m_tile + row;
  if (m >= head_rows()) return;
  const int token = Tokens ? token_of_row(m) : 0, head = h * p.group + m - token * p.group;
  const int half = paired() && second_head(m);
  if (paired()) {
    if (d0 / (D / 2) != half) return;
    d0 -= half * (D / 2);
  }
  const float scale = inv * (half ? out_scale_two : out_scale);
  uint32_t w[4];
  if (p.o_type == COTILE_BF16) {
#pragma unroll
    for (int e = 0; e < 4; ++e) w[e] = pack2<true>(acc[2 * e] * scale, acc[2 * e + 1] * scale);
  } else {
#pragma unroll
    for (int e = 0; e < 4; ++e) w[e] = pack2<false>(acc[2 * e] * scale, acc[2 * e + 1] * scale);
  }
  *reinterpret_cast<uint4*>(p.o + b * p.o_sb + head * p.o_sh + token * p.o_st + d0 * 2) =
      make_uint4(w[0], w[1], w[2], w[3]);
  if (p.lse && d0 == 0)
    p.lse[(int64_t(b) * (Tokens ? p.q_len : 1) + token) * p.heads_kv * p.group + head] = lse2 * kLn2;
}

// A warp's (max, sum) of its two rows (the row's 4 lanes summed) and O into a block's buffers (its
// own slot, or the only one: the warpgroup kernel's warp w alone holds block w).
template <int D, int KvType, bool Pairs, bool Tokens, int MB, int Cache>
__device__ __forceinline__ void DecodeCta<D, KvType, Pairs, Tokens, MB, Cache>::store_block(const MergeBuffers& m,
                                                                                            SoftmaxRow (&row)[2],
                                                                                            const float (&o)[D / 8][4],
                                                                                            const SAcc& s_at) const {
  constexpr auto column = C::o_column();
  const int slot = C::kMergeWarps == 1 ? 0 : warp;
#pragma unroll
  for (int r = 0; r < 2; ++r) {
    row[r].sum += __shfl_xor_sync(0xffffffffu, row[r].sum, 1);
    row[r].sum += __shfl_xor_sync(0xffffffffu, row[r].sum, 2);
    if (s_at.column == 0) {  // the row's lane that holds column 0
      m.max[slot * kRows + s_at.row + SAcc::row_step(2 * r)] = row[r].max;
      m.sum[slot * kRows + s_at.row + SAcc::row_step(2 * r)] = row[r].sum;
    }
  }
  // O's accumulators are where S's are, in D / 8 n8 tiles: elements 2r, 2r + 1 of n8 tile nt at
  // row s_at.row + 8r, columns s_at.column + 8 nt (+ 1).
  using OAcc = Accumulators<D>;
  static_assert(
      [] {  // elements 2r, 2r + 1 of tile nt: one row, columns 8 nt + (0, 1) from the lane's first
        for (int nt = 0; nt < D / 8; ++nt)
          for (int r = 0; r < 2; ++r)
            if (OAcc::row_step(2 * r + 1) != OAcc::row_step(2 * r) || OAcc::column_step(2 * r, nt) != 8 * nt ||
                OAcc::column_step(2 * r + 1, nt) != 8 * nt + 1 || SAcc::row_step(2 * r) != OAcc::row_step(2 * r))
              return false;
        return true;
      }(),
      "decode: O's accumulators are not where the merge stores them");
#pragma unroll
  for (int r = 0; r < 2; ++r) {
    float* dst = m.o + (slot * kRows + s_at.row + OAcc::row_step(2 * r)) * C::kMergeRow;
    const int n = s_at.column;          // the elements' column in each n8 tile
    if constexpr (!C::kFp8Fragments) {  // one 8-byte store
#pragma unroll
      for (int nt = 0; nt < D / 8; ++nt)
        *reinterpret_cast<float2*>(dst + int(column(n, nt))) = make_float2(o[nt][2 * r], o[nt][2 * r + 1]);
    } else {  // n8 tiles 2j (even columns) and 2j + 1 (odd) hold 4 adjacent columns of 16 j: one 16-byte store
      static_assert(int(column(0, 1)) == 1 && int(column(1, 0)) == 2, "fp8 O columns: (n, e) -> 2n + e");
#pragma unroll
      for (int nt = 0; nt < D / 8; nt += 2)
        *reinterpret_cast<float4*>(dst + int(column(n, nt))) =
            make_float4(o[nt][2 * r], o[nt + 1][2 * r], o[nt][2 * r + 1], o[nt + 1][2 * r + 1]);
    }
  }
}

}  // namespace cotile::attention::detail
