// The GQA decode kernel for Hopper (sm_90a). One CTA = (sequence b, KV head h, KV split, m-tile):
// the up to 16 query heads h*G + 16*m_tile + m (m < 16) that share KV head h are the rows of
// the MMA's M dimension, and every K/V row is read once per m-tile.
//
//   What is loaded and computed (layouts, cotile):
//     Q tile      16 x D            make_cotiled_copy over 16-byte cp.async, zero fill for rows m >= G
//     K/V tiles   16 rows x D       make_tiled_copy over 16-byte cp.async, one warp per tile, into
//                                   Sw<B,4,S> o (16, R):(R, 1) shared memory (R = bytes of a row)
//     S = Q K^T, O += P V           mma.sync m16n8k16 (f16 or bf16, fp32 accumulation); K and V
//                                   fragments by ldmatrix, fp8 converted in registers
//   How (the pipeline):
//     each of the 4 warps streams its own tiles (tile t of the CTA's rows goes to warp t % 4)
//     through kStages shared-memory stages; no block barrier in the main loop.
//     The 4 warps' (max, sum, O) are merged in shared memory; with several splits, the splits of
//     a (b, h, m_tile) that form a cluster (up to 8) merge all their warps' partials at once in
//     distributed shared memory, else the last CTA to finish merges the partials through global
//     memory (no second launch): merge.cuh.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "cotile/arch/cluster.hpp"
#include "cotile/arch/dependent_launch.hpp"
#include "cotile/arch/mma_sm80.hpp"
#include "cotile/arch/sm.hpp"
#include "merge.cuh"
#include "tiles.cuh"

namespace cotile::attention::detail {

// Tokens: the kernel of several query tokens a sequence (Params::q_len > 1), its own instantiation,
// so that the one-token kernel's code stays as it is (the tokens' row arithmetic and per-row masks
// cost it 7 KiB of code and 4% of its isolated time when shared; docs/design/decode.md).
// Pairs: the kernel of pairs of KV heads (Params::pair_rows; head_dim 128, fp8), its own
// instantiation so that the others carry none of its code (decode_pairs.cu).
template <int D, int KvType, bool Pairs = false, bool Tokens = false>
struct DecodeCta {
  using C = Config<D, KvType>;
  static constexpr int kR = C::kR, kStages = C::kStages;

  const Params& p;
  uint8_t* smem;
  int tid, warp, lane;
  int b, h, split, m_tile, unit;
  int seqlen, lo, hi;   // this CTA's rows [lo, hi) of the sequence
  int first_end;        // L - q_len + 1: token 0 attends to rows [.., first_end), token j to [.., first_end + j)
  int valid_rows;       // query rows of this m-tile that are the KV head's (< G x q_len)
  float out_scale;      // V's dequantization scale, applied to O once at the end (a pair: its first head's)
  float out_scale_two;  // a pair's second head's
  KvRows rows;
  uint64_t kv_policy;  // L2 evict-first when K/V are read once: the code and the merge's partials stay

  // A pair of KV heads (Params::pair_rows > 0 in a launch of the Pairs kernel): byte x of a row of
  // the pair is byte x of its first head's row, or byte x - R / 2 of its second's, `pair_stride`
  // / 2 further (the launch's head stride is the pair's).
  static_assert(!Pairs || (D == 128 && C::kFp8), "decode: pairs of KV heads are head_dim 64 fp8 heads");
  static_assert(!(Pairs && Tokens), "decode: pairs of KV heads take one query token a sequence");
  __device__ static constexpr bool paired() { return Pairs; }
  __device__ int64_t pair_byte(int x, int64_t pair_stride) const {
    return paired() && x >= kR / 2 ? x - kR / 2 + pair_stride / 2 : x;
  }
  // The KV head (of the pair h, or h) that query row `row` of this m-tile attends to.
  __device__ int kv_head(int row) const { return paired() ? 2 * h + (kRows * m_tile + row >= p.pair_rows) : h; }

  // ---- loading ------------------------------------------------------------------------------

  // Shared memory after Q: the warps' K/V stages, then (after the main loop) the merges.
  __device__ uint8_t* after_q() const { return smem + C::kQRawBytes + C::kQcBytes; }

  // The 4 warps' merge, where their stages were: O [warp][row][kMergeRow], max and sum [warp][row].
  struct MergeBuffers {
    float *o, *max, *sum;
  };
  __device__ MergeBuffers merge_buffers() const {
    float* o = reinterpret_cast<float*>(after_q());
    return {o, o + kWarps * kRows * C::kMergeRow, o + kWarps * kRows * C::kMergeRow + kWarps * kRows};
  }

  // Warp-private stage s of warp w: K tile then V tile.
  __device__ uint8_t* stage_k(int s) const { return after_q() + ((warp * kStages + s) * 2) * C::kTile; }

  // A warp's copy of one K (or V) tile (tiles.cuh), this lane's part evaluated once per CTA.
  using Copy = TileCopy<kR>;
  using SAcc = Accumulators<16>;  // S = Q K^T: 16 query rows x 16 K rows

  // The CTA's rows [lo, hi) in 16-row tiles, tile t of them to warp t % kWarps: this warp's tile t
  // starts at row tile_row(t), and it has my_tile_count() of them.
  __device__ int tile_row(int t) const { return lo + kRows * (kWarps * t + warp); }
  __device__ int my_tile_count() const {
    const int tiles = hi > lo ? (hi - lo + kRows - 1) / kRows : 0;
    return tiles > warp ? (tiles - warp + kWarps - 1) / kWarps : 0;
  }

  // Paged caches: the page of each of the warp's tiles, loaded 32 tiles ahead for small pages
  // (TilePages::kLog2PageLimit), else at the tile.
  TilePages tile_pages;
  __device__ int32_t page_entry(int t) const {
    const int n = tile_row(t);
    return n < hi ? rows.pages[n >> rows.log2_page] : 0;
  }
  __device__ auto page_entries() const {
    return [this](int t) { return page_entry(t); };
  }
  __device__ __forceinline__ int32_t page_of_tile(int t) {
    return rows.log2_page < TilePages::kLog2PageLimit ? tile_pages.page(t, page_entries(), lane) : page_entry(t);
  }

  // Issue the cp.async of the warp's tile t (rows tile_row(t) ...) into stage s; rows
  // past hi are zero-filled without being read. Tiles are issued in order, t = 0, 1, 2, ...
  __device__ void issue_tile(const Copy& lc, int t, int s) {
    if (rows.pages) issue_rows<true>(lc, t, s, page_of_tile(t));  // CTA-uniform
    else issue_rows<false>(lc, t, s, 0);
  }
  // One 16-byte K/V copy (zero fill unless pred), with the CTA's L2 policy.
  __device__ __forceinline__ void copy_kv(uint8_t* dst, const uint8_t* src, bool pred) const {
    arch::cp_async_zfill<16, arch::CacheOp::kGlobal>(dst, src, pred, kv_policy);
  }
  template <bool Paged>
  __device__ __forceinline__ void issue_rows(const Copy& lc, int t, int s, int32_t page) const {
    uint8_t* sk = stage_k(s);
    uint8_t* sv = sk + C::kTile;
    const int n0 = tile_row(t);
    const bool appended_here = rows.template appended_in_tile<Tokens>(n0);  // warp-uniform
    // Most tiles: 16 cache rows in one page (`page`) or a contiguous cache: one row address per
    // lane, the other copies at fixed row steps from it (fewer instructions: fp8 caches are
    // issue-bound).
    const bool whole = n0 + kRows <= hi && !appended_here &&
                       (!Paged || (n0 >> rows.log2_page) == ((n0 + kRows - 1) >> rows.log2_page));  // warp-uniform
    if (whole) {
      const int n = n0 + lc.row[0];
      RowAddress a = Paged ? rows.in_page(page, n) : rows.cache<false>(n);
      a = RowAddress{a.k + lc.byte, a.v + lc.byte}.opaque();
#pragma unroll
      for (int j = 0; j < Copy::kCopies; ++j) {
        copy_kv(sk + lc.smem[j], a.k + int64_t(Copy::row_step(j)) * rows.k_sn, true);
        copy_kv(sv + lc.smem[j], a.v + int64_t(Copy::row_step(j)) * rows.v_sn, true);
      }
      return;
    }
#pragma unroll
    for (int j = 0; j < Copy::kCopies; ++j) {
      const int n = n0 + lc.row[j];
      const bool valid = n < hi;
      const RowAddress a =
          appended_here ? rows.template attended<Paged, Tokens>(valid ? n : lo) : rows.cache<Paged>(valid ? n : lo);
      copy_kv(sk + lc.smem[j], a.k + lc.byte, valid);
      copy_kv(sv + lc.smem[j], a.v + lc.byte, valid);
    }
  }

  // Q as loaded -> Q in the compute type, columns in MMA order (qk_column), swizzled rows; a
  // thread writes 8 columns (16 bytes) at a time.
  __device__ void prepare_q() const {
    const uint8_t* raw = smem;
    uint8_t* qc = smem + C::kQRawBytes;
    constexpr auto column = C::qk_column();
    constexpr auto qc_tile = tile_layout<C::kQr>();
    for (int i = tid; i < kRows * D / 8; i += kThreads) {
      const int m = i / (D / 8), k0 = 8 * (i % (D / 8));
      uint32_t w[4];
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const float x0 = load_as_float(raw + (m * D + int(column(k0 + 2 * e))) * p.q_bytes, p.q_type);
        const float x1 = load_as_float(raw + (m * D + int(column(k0 + 2 * e + 1))) * p.q_bytes, p.q_type);
        w[e] = pack2<C::kBf16>(x0, x1);
      }
      *reinterpret_cast<uint4*>(qc + qc_tile(m, 2 * k0)) = make_uint4(w[0], w[1], w[2], w[3]);
    }
  }

  // ldmatrix lane offsets, swizzled once per CTA. A step x along a row (a multiple of 32 bytes,
  // or of 16 when the lane's own chunk is even) only sets bits the lane offset leaves clear and
  // that the swizzle does not read, so Sw(a + x) = Sw(a) ^ x: one XOR per ldmatrix.
  // Q is read where it was loaded when that is already the compute type (16-bit Q of the compute
  // type, held in registers): no conversion pass and one barrier fewer. For an fp8 cache the
  // MMA's k order (qk_column) is then met by reading each lane's own 4 columns.
  int q_lane, k_lane, v_lane;
  const uint8_t* q_base;
  __device__ bool q_as_loaded() const { return C::kQInRegisters && p.q_type == (C::kBf16 ? COTILE_BF16 : COTILE_F16); }
  __device__ void swizzle_lanes() {
    const bool as_loaded = q_as_loaded();
    const int q_offset = int(lanes_rows_first<C::kQr>()(lane));
    q_lane = !as_loaded ? int(RowSwizzle<C::kQr>{}(q_offset))
             : C::kFp8  ? int(lanes_fragment<C::kQr>()(lane))
                        : q_offset;
    q_base = as_loaded ? smem : smem + C::kQRawBytes;
    k_lane = int(RowSwizzle<kR>{}(C::kFp8 ? lanes_rows_first<kR>()(lane) : lanes_chunks_first<kR>()(lane)));
    v_lane = int(RowSwizzle<kR>{}(lanes_rows_first<kR>()(lane)));
  }

  // Q's A fragments, k-step ks = 16 columns: (rows 0-7 | 8-15) x (k 0-7 | 8-15). From Q as loaded
  // for an fp8 cache, in its k order: k (2c, 2c + 1) and (8 + 2c, 9 + 2c) are columns
  // 16 ks + 4c .. 4c + 3 of rows g and g + 8 (two 8-byte loads); else one ldmatrix. One branch
  // for all k-steps.
  __device__ void q_fragments(uint32_t (&qa)[D / 16][4]) const {
    if (C::kFp8 && q_as_loaded()) {
#pragma unroll
      for (int ks = 0; ks < D / 16; ++ks) {
        const uint2 r0 = *reinterpret_cast<const uint2*>(q_base + q_lane + 32 * ks);
        const uint2 r1 = *reinterpret_cast<const uint2*>(q_base + q_lane + 8 * C::kQr + 32 * ks);
        qa[ks][0] = r0.x, qa[ks][1] = r1.x, qa[ks][2] = r0.y, qa[ks][3] = r1.y;
      }
    } else {
#pragma unroll
      for (int ks = 0; ks < D / 16; ++ks)
        arch::ldmatrix_x4(qa[ks][0], qa[ks][1], qa[ks][2], qa[ks][3], q_base + (q_lane ^ (32 * ks)));
    }
  }

  // ---- computing ----------------------------------------------------------------------------

  // s[nt] = Q K^T for the 16 K rows of the tile at sk: n8 tile nt = rows 8nt..8nt+7. Even and
  // odd k-steps accumulate separately (two dependency chains per tile), then add.
  __device__ void scores(const uint8_t* sk, const uint32_t (&qa)[D / 16][4], float (&s)[2][4]) const {
    float odd[2][4] = {};
    if constexpr (!C::kFp8) {  // k_lane: chunks first
#pragma unroll
      for (int ks = 0; ks < D / 16; ++ks) {
        uint32_t b0[2], b1[2];
        arch::ldmatrix_x4(b0[0], b0[1], b1[0], b1[1], sk + (k_lane ^ (32 * ks)));
        float(&acc)[2][4] = ks % 2 ? odd : s;
        arch::mma_m16n8k16<C::kBf16>(acc[0], qa[ks], b0, acc[0]);
        arch::mma_m16n8k16<C::kBf16>(acc[1], qa[ks], b1, acc[1]);
      }
    } else {  // k_lane: rows first
#pragma unroll
      for (int ks = 0; ks < D / 16; ks += 2) {
        uint32_t m[4];
        arch::ldmatrix_x4(m[0], m[1], m[2], m[3], sk + (k_lane ^ (16 * ks)));
#pragma unroll
        for (int i = 0; i < 4; ++i) {  // matrix i: rows 8 (i % 2) .., k-step ks + i / 2
          uint32_t bf[2];
          fp8x4_to_f16x2<KvType, false>(m[i], bf[0], bf[1]);
          float(&acc)[2][4] = i / 2 ? odd : s;
          arch::mma_m16n8k16<false>(acc[i % 2], qa[ks + i / 2], bf, acc[i % 2]);
        }
      }
    }
#pragma unroll
    for (int nt = 0; nt < 2; ++nt)
#pragma unroll
      for (int i = 0; i < 4; ++i) s[nt][i] += odd[nt][i];
  }

  // o[nt] += P V for the tile at sv (P: the A fragment of the 16 x 16 probabilities).
  __device__ void accumulate(const uint8_t* sv, const uint32_t (&pa)[4], float (&o)[D / 8][4]) const {
    if constexpr (!C::kFp8) {
#pragma unroll
      for (int j = 0; j < D / 8; j += 2) {  // chunks j, j + 1 of 8 elements
        uint32_t b0[2], b1[2];
        arch::ldmatrix_x4<true>(b0[0], b0[1], b1[0], b1[1], sv + (v_lane ^ (16 * j)));
        arch::mma_m16n8k16<C::kBf16>(o[j], pa, b0, o[j]);
        arch::mma_m16n8k16<C::kBf16>(o[j + 1], pa, b1, o[j + 1]);
      }
    } else {
#pragma unroll
      for (int j = 0; j < D / 16; j += 2) {  // chunks j, j + 1 of 16 elements: 4 n8 tiles
        uint32_t m[4];
        arch::ldmatrix_x4<true>(m[0], m[1], m[2], m[3], sv + (v_lane ^ (16 * j)));
        // m[2c + r]: rows 8r.., chunk j + c; a word holds (row 2q, d 2g, 2g+1), (row 2q+1, d 2g, 2g+1).
#pragma unroll
        for (int c = 0; c < 2; ++c) {
          uint32_t even[2], odd[2];
          fp8x4_to_f16x2<KvType, true>(m[2 * c], even[0], odd[0]);
          fp8x4_to_f16x2<KvType, true>(m[2 * c + 1], even[1], odd[1]);
          arch::mma_m16n8k16<false>(o[2 * (j + c)], pa, even, o[2 * (j + c)]);
          arch::mma_m16n8k16<false>(o[2 * (j + c) + 1], pa, odd, o[2 * (j + c) + 1]);
        }
      }
    }
  }

  // ---- the CTA's work -------------------------------------------------------------------------

  // The rows this split attends to, for sequence length seqlen_b: [start, L) cut into p.splits
  // chunks of whole tiles; and where they are. Token j (of q_len) attends to [.., L - q_len + 1 + j),
  // its last `window` rows with a window: the first token's window starts first.
  template <bool L2Only = false>
  __device__ void locate(int seqlen_b) {
    seqlen = seqlen_b;
    const int q_len = Tokens ? p.q_len : 1;
    const int L = seqlen + (p.k_new ? q_len : 0);
    first_end = L - q_len + 1;
    const int start = p.window > 0 ? ::max(0, first_end - p.window) : 0;
    const int chunk = ((L - start + p.splits - 1) / p.splits + kRows - 1) / kRows * kRows;
    lo = ::min(L, start + split * chunk);
    hi = ::min(L, lo + chunk);
    rows = KvRows::make<L2Only>(p, b, h, seqlen);
  }

  // 0. Before the previous kernel has completed (a dependent launch's head start; only the first
  //    wave's CTAs can start that early, and only when the plan enables it, plan.hpp
  //    prefetch_before_wait; contiguous caches): L2 prefetches of the warp's first kStages - 1
  //    K/V tiles, at the addresses the sequence length and remap give now. Hints only: nothing
  //    read here is used after the wait (locate runs again), the reads bypass L1 (no stale line is
  //    left for the reads after the wait), and a prefetch of a stale, even unmapped, address is
  //    harmless. (Not paged caches: a stale length could index past the page table, a real load.)
  //    Measured: docs/design/decode.md, "Launch".
  __device__ void prefetch_before_wait() {
    if (int(blockIdx.x) >= p.early_ctas) return;
    locate<true>(__ldcg(p.seqlen + b));
    const int my_tiles = my_tile_count();
#pragma unroll
    for (int t = 0; t < kStages - 1; ++t) {
      const int n = tile_row(t) + lane % kRows;  // lanes 0-15: K rows, 16-31: V rows
      if (t < my_tiles && n < hi && !rows.template is_appended<Tokens>(n)) {
        const RowAddress a = rows.cache<false>(n);
        const uint8_t* row = lane < kRows ? a.k : a.v;
#pragma unroll
        for (int x = 0; x < kR; x += 128) arch::prefetch_l2(row + x);
        if (paired()) arch::prefetch_l2(row + pair_byte(kR / 2, lane < kRows ? p.k_sh : p.v_sh));
      }
    }
  }

  // 0'. After the wait, the first wave's CTAs that hold their SM's slot j > 0 sleep
  //     j x stagger_cycles (plan.hpp, stagger_cycles: grids of several waves), so that the CTAs
  //     sharing an SM fill and drain at different moments. The slot is the hardware warp slots the
  //     CTA got (%warpid / 4: the first CTA on an SM gets 0-3, the second 4-7, measured on every
  //     SM of the H200, results/h200_2026-11-30_stagger/stagger_ab5); a wrong guess could only
  //     cost time. One thread sleeps, the others wait at the barrier: no issue slots are taken
  //     from the CTA already streaming beside it. (The parameters read here sit beside those read
  //     before the wait, so the check costs no constant-cache miss.)
  __device__ void stagger() const {
    if (p.stagger_cycles == 0 || int(blockIdx.x) >= p.first_wave) return;
    if (tid == 0) {
      const int slot = int(arch::warp_slot() / kWarps) % p.ctas_per_sm;
      const long long t0 = clock64(), wait = (long long)slot * p.stagger_cycles;
      while (clock64() - t0 < wait) __nanosleep(200);
    }
    __syncthreads();
  }

  // The unit's query rows: G x q_len (G with one token), row R head G h + R % G of token R / G, at
  // byte offset (G, q_len) : (head stride, token stride) of R from the unit's row 0 (q_row in Q;
  // write_output's in O). The layout evaluated by a reciprocal, not an integer division (a layout
  // of dynamic shape divides at every use: 4 KiB more code in Q's load alone): t = (R + 1/2) / G
  // rounded down is exact, as R + 1/2 lies at least 1/64 from a multiple of G (R < 256, G <= 32).
  float inv_group;  // 1 / G (approximate: the 1/2 above absorbs its error)
  __device__ int token_of_row(int R) const { return int((float(R) + 0.5f) * inv_group); }
  __device__ int64_t q_row(int R) const {
    const int t = token_of_row(R);
    return (R - t * p.group) * p.q_sh + t * p.q_st;
  }

  // 1. Q: one cp.async group, issued first (it depends on nothing the kernel reads).
  __device__ void start_q() const {
    const uint8_t* q = p.q + b * p.q_sb + h * p.group * p.q_sh;
    const int pair_rows = paired() ? p.pair_rows : 0;
    const auto rows_at = [this](int R) { return Tokens ? q_row(R) : R * p.q_sh; };
    if (p.q_bytes == 2) load_q<2 * D>(q, rows_at, kRows * m_tile, valid_rows, pair_rows, smem, tid);
    else load_q<D>(q, rows_at, kRows * m_tile, valid_rows, pair_rows, smem, tid);
    arch::cp_async_commit();
  }

  // The token of this m-tile's query row `row` (rows past the unit's: its last token).
  __device__ int token_of(int row) const { return ::min(token_of_row(kRows * m_tile + row), p.q_len - 1); }

  __device__ void run() {
    // 2. The appended tokens go into the cache (once: the m-tile-0 CTA whose rows hold each, token
    //    j by warp j % 4); every CTA reads them from k_new/v_new, so no CTA waits for these stores.
    if (p.k_new && m_tile == 0 && (Tokens || warp == 0))
#pragma unroll 1
      for (int j = warp; j < (Tokens ? p.q_len : 1); j += kWarps) {
        const int n = seqlen + j;
        if (n < lo || n >= hi) continue;
        const RowAddress dst = rows.cache(n), src = rows.template attended<false, Tokens>(n);
        for (int c = lane; c < kR / 16; c += 32) {
          arch::copy_universal<16>(const_cast<uint8_t*>(dst.k) + pair_byte(16 * c, p.k_sh),
                                   src.k + pair_byte(16 * c, p.kn_sh));
          arch::copy_universal<16>(const_cast<uint8_t*>(dst.v) + pair_byte(16 * c, p.v_sh),
                                   src.v + pair_byte(16 * c, p.vn_sh));
        }
      }

    // 3. The pipeline's prologue: kStages - 1 tiles in flight per warp. Not unrolled, like the
    //    epilogue's steps (finish): code that runs once a CTA is fetched from DRAM when the launch
    //    follows a large read (which evicts it from L2), so every copy of it costs an isolated call
    //    time; unrolled, issue_tile's four variants made a 64 KiB prologue (docs/design/decode.md,
    //    "Code size").
    const int my_tiles = my_tile_count();
    const Copy lc = Copy::of_lane(lane);
    // A pair's lanes whose bytes lie in its second head read there: every copy of a lane is at its
    // own byte of a row (lc.byte), so moving the lane's row bases once moves all of them.
    if (paired() && lc.byte >= kR / 2)
      rows.move_bases(pair_byte(lc.byte, p.k_sh) - lc.byte, pair_byte(lc.byte, p.v_sh) - lc.byte,
                      pair_byte(lc.byte, p.kn_sh) - lc.byte, pair_byte(lc.byte, p.vn_sh) - lc.byte);
    kv_policy = arch::l2_policy(p.m_tiles == 1);  // several m-tiles read the same K/V (the others hit L2)
    if (rows.pages && rows.log2_page < TilePages::kLog2PageLimit) tile_pages.start(page_entries(), lane);
#pragma unroll 1
    for (int t = 0; t < kStages - 1; ++t) {
      if (t < my_tiles) issue_tile(lc, t, t);
      arch::cp_async_commit();
    }

    // 4. Q arrived (the oldest group): convert it once, keep its fragments.
    swizzle_lanes();
    arch::cp_async_wait<kStages - 1>();
    __syncthreads();
    if (!q_as_loaded()) {
      prepare_q();
      __syncthreads();
    }
    trace(p, kTraceQReady);
    uint32_t qa[D / 16][4];
    if constexpr (C::kQInRegisters) q_fragments(qa);

    // 5. The main loop: per warp, per tile: S = Q K^T, online softmax, O += P V.
    // Where this lane's accumulators sit (tiles.cuh): element i of n8 tile nt of the 16 x 16 score
    // tile S is at row s_at.row + SAcc::row_step(i), column s_at.column + SAcc::column_step(i, nt).
    const SAcc s_at = SAcc::of_lane(lane);
    // The scales of the lane's two rows (elements 0, 1 and 2, 3): their KV heads' (kv_head).
    const bool capped = p.softcap > 0.0f;
    const float y_cap = p.softcap * kLog2e;
    const auto y_scale_of = [&](int kh) {
      const float k_scale = p.k_scale * (p.k_scale_h ? p.k_scale_h[kh] : 1.0f) * kFp8Factor<KvType>;
      const float x_scale = p.scale * k_scale;  // x = x_scale * (q . k as computed)
      return capped ? x_scale / p.softcap : x_scale * kLog2e;
    };
    const auto v_scale_of = [&](int kh) {
      return p.v_scale * (p.v_scale_h ? p.v_scale_h[kh] : 1.0f) * kFp8Factor<KvType>;
    };
    float y_scale[2];
    y_scale[0] = y_scale_of(kv_head(s_at.row + SAcc::row_step(0)));
    y_scale[1] = paired() ? y_scale_of(kv_head(s_at.row + SAcc::row_step(2))) : y_scale[0];
    out_scale = v_scale_of(paired() ? 2 * h : h);
    out_scale_two = paired() ? v_scale_of(2 * h + 1) : out_scale;
    // Several query tokens: the lane's two rows attend to [front, end) (their tokens'); the CTA's
    // tiles from mask_end on, or before mask_front, hold a row's masked columns (warp-uniform tests).
    // (One token: every row ends at hi and starts at or before the CTA's first row.)
    int row_front[2] = {0, 0}, row_end[2] = {hi, hi}, mask_end = hi, mask_front = 0;
    if constexpr (Tokens) {
#pragma unroll
      for (int r = 0; r < 2; ++r) {
        const int end = first_end + token_of(s_at.row + SAcc::row_step(2 * r));
        row_end[r] = ::min(hi, end);
        row_front[r] = p.window > 0 ? end - p.window : 0;
      }
      mask_end = ::min(hi, first_end + token_of(0));
      mask_front = p.window > 0 ? first_end + token_of(valid_rows - 1) - p.window : 0;
    }
    float o[D / 8][4] = {};
    SoftmaxRow row[2];  // the rows of elements 0, 1 and 2, 3 of this lane's accumulators (softmax.cuh)
    for (int t = 0, stage = 0; t < my_tiles; ++t, stage = stage + 1 == kStages ? 0 : stage + 1) {
      arch::cp_async_wait<kStages - 2>();
      __syncwarp();
      trace_progress(p, t, my_tiles);
      // Tile t + kStages - 1 goes where tile t - 1 was (computed in the previous iteration).
      if (t + kStages - 1 < my_tiles) issue_tile(lc, t + kStages - 1, stage == 0 ? kStages - 1 : stage - 1);
      arch::cp_async_commit();
      const uint8_t* sk = stage_k(stage);
      if constexpr (!C::kQInRegisters) q_fragments(qa);
      float s[2][4] = {};
      scores(sk, qa, s);
      to_base2(s, capped, y_scale, y_cap);
      const int n0 = tile_row(t);
      if constexpr (Tokens) {
        if (n0 + kRows > mask_end || n0 < mask_front) [[unlikely]]
          s_at.mask_rows(s, n0, row_front, row_end);  // warp-uniform: a sequence's last tiles
      } else if (n0 + kRows > hi) [[unlikely]] {
        s_at.mask_past(s, n0, hi);  // warp-uniform: a sequence's last tile
      }
      // The online softmax's update (softmax.cuh): the rows' reference moves (and O is rescaled)
      // only when a lane's score exceeds the row's max by more than kLazyRescale, which a warp
      // vote on the lanes' own scores decides; most tiles skip the rows' cross-lane max.
      float lane_max[2] = {-INFINITY, -INFINITY};
#pragma unroll
      for (int nt = 0; nt < 2; ++nt)
#pragma unroll
        for (int i = 0; i < 4; ++i) lane_max[i / 2] = fmaxf(lane_max[i / 2], s[nt][i]);
      if (__any_sync(0xffffffffu, row[0].moves(lane_max[0]) || row[1].moves(lane_max[1]))) {
        float alpha[2];
#pragma unroll
        for (int r = 0; r < 2; ++r) {  // the row's max over its 4 lanes, then the rescale
          lane_max[r] = fmaxf(lane_max[r], __shfl_xor_sync(0xffffffffu, lane_max[r], 1));
          lane_max[r] = fmaxf(lane_max[r], __shfl_xor_sync(0xffffffffu, lane_max[r], 2));
          alpha[r] = row[r].rescale_to(lane_max[r]);
        }
#pragma unroll
        for (int nt = 0; nt < D / 8; ++nt)
#pragma unroll
          for (int i = 0; i < 4; ++i) o[nt][i] *= alpha[i / 2];
      }
#pragma unroll
      for (int nt = 0; nt < 2; ++nt)
#pragma unroll
        for (int i = 0; i < 4; ++i) s[nt][i] = row[i / 2].add(s[nt][i]);
      // P's A fragment is S's accumulators, two to a register (checked in tiles.cuh).
      const uint32_t pa[4] = {pack2<C::kBf16>(s[0][0], s[0][1]), pack2<C::kBf16>(s[0][2], s[0][3]),
                              pack2<C::kBf16>(s[1][0], s[1][1]), pack2<C::kBf16>(s[1][2], s[1][3])};
      accumulate(sk + C::kTile, pa, o);
    }
    arch::cp_async_wait<0>();
    __syncthreads();  // every warp is done with its stages: the merge reuses them
    trace(p, kTraceLoopDone);
    // The next kernel (a dependent launch) may start once every CTA is here: when the plan says
    // its CTAs would not crowd this grid's SMs (plan.hpp, trigger_early).
    if (p.trigger_early) arch::launch_dependents();

    // 6. Merge the 4 warps: (max, sum) per row and O in shared memory.
    const MergeBuffers m = merge_buffers();
    constexpr auto column = C::o_column();
#pragma unroll
    for (int r = 0; r < 2; ++r) {
      row[r].sum += __shfl_xor_sync(0xffffffffu, row[r].sum, 1);
      row[r].sum += __shfl_xor_sync(0xffffffffu, row[r].sum, 2);
      if (s_at.column == 0) {  // the row's lane that holds column 0
        m.max[warp * kRows + s_at.row + SAcc::row_step(2 * r)] = row[r].max;
        m.sum[warp * kRows + s_at.row + SAcc::row_step(2 * r)] = row[r].sum;
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
      float* dst = m.o + (warp * kRows + s_at.row + OAcc::row_step(2 * r)) * C::kMergeRow;
      const int n = s_at.column;  // the elements' column in each n8 tile
      if constexpr (!C::kFp8) {   // one 8-byte store
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
    __syncthreads();
    trace(p, kTraceWarpsIn);
    finish();
  }

  // ---- the epilogue (decode_epilogue.cuh) -----------------------------------------------------
  __device__ void finish();
  __device__ void merge_spread_over_unit();
  __device__ void write_output(int row, int d0, const float (&acc)[8], float inv, float lse2) const;
};

}  // namespace cotile::attention::detail

#include "decode_epilogue.cuh"  // DecodeCta's epilogue

namespace cotile::attention::detail {

template <int D, int KvType, bool Pairs = false, bool Tokens = false>
__global__ void __launch_bounds__(kThreads, COTILE_DECODE_MIN_CTAS) decode_kernel(const __grid_constant__ Params p) {
  extern __shared__ __align__(1024) uint8_t smem[];
  DecodeCta<D, KvType, Pairs, Tokens> cta{p, smem};
  cta.tid = int(threadIdx.x);
  cta.warp = cta.tid / 32;
  cta.lane = cta.tid % 32;
  cta.split = int(blockIdx.x) % p.splits;  // = the rank in the cluster when clustered
  cta.unit = int(blockIdx.x) / p.splits;
  cta.m_tile = cta.unit % p.m_tiles;
  cta.h = cta.unit / p.m_tiles % p.heads_kv;
  cta.b = cta.unit / p.m_tiles / p.heads_kv;
  cta.valid_rows = ::min(kRows, (Tokens ? p.group * p.q_len : p.group) - kRows * cta.m_tile);
  if constexpr (Tokens) cta.inv_group = __fdividef(1.0f, float(p.group));
  // A programmatic dependent launch: this CTA may start during the previous kernel's tail, so
  // global memory is used only after that kernel completes; before, at most L2 prefetch hints.
  // (The next kernel's early start: p.trigger_early, "Launch" in docs/design/decode.md.)
  cta.prefetch_before_wait();
  arch::grid_dependency_wait();
  cta.stagger();
  trace(p, kTraceStart);
  cta.start_q();
  cta.locate(p.seqlen[cta.b]);
  cta.run();
}

}  // namespace cotile::attention::detail
