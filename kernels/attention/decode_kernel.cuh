// The GQA decode kernel for Hopper (sm_90a). One CTA = (sequence b, KV head h, KV split, m-tile):
// the up to 16 query heads h*G + 16*m_tile + m (m < 16) that share KV head h are the rows of
// the MMA's M dimension, and every K/V row is read once per m-tile. With several query tokens a
// CTA may take MB consecutive m-tiles (row blocks): each warp computes every block against each
// K/V tile it loads, so the tile is read once for 16 MB rows.
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
// instantiation so that the others carry none of its code (decode_pairs.cu; with Tokens,
// decode_pairs_tokens.cu).
// MB: the row blocks (m-tiles of 16 query rows) a CTA computes against each K/V tile (several
// tokens only: 32 rows at head_dim <= 128; launch.hpp, LaunchHeads). MB = 4: the warpgroup
// kernel (decode_rows.cuh), 64 rows a CTA by wgmma, warp w's rows block w.
// Cache: the launches the kernel serves (params.hpp, CacheKind): any, or those on a contiguous or a
// paged cache without remap, appended tokens, window or soft-cap (the plain kernels; of one token a
// sequence, or with Tokens of several, one row block a CTA).
template <int D, int KvType, bool Pairs = false, bool Tokens = false, int MB = 1, int Cache = kAnyCache>
struct DecodeCta {
  using C = Config<D, KvType, MB>;
  static constexpr int kR = C::kR, kStages = C::kStages;
  static_assert(MB == 1 || Tokens, "decode: several row blocks a CTA are for several query tokens");
  static_assert(MB == 1 || MB == 4 || !C::kFp8,
                "decode: fp8 caches take one row block a CTA, or the warpgroup kernel's four (plan.hpp)");
  static_assert(MB != 4 || (D == 128 && !Pairs), "decode: the warpgroup kernel is head_dim 128, one KV head a CTA");
  static_assert(Cache == kAnyCache || (MB == 1 && !Pairs),
                "decode: the plain kernels are kernels of one KV head and one row block a CTA");
  // What the launch may hold (a plain kernel's answers are constants, so its code has no other path).
  static constexpr bool kAny = Cache == kAnyCache;
  __device__ bool paged() const { return Cache == kPagedCache || (kAny && rows.pages != nullptr); }
  __device__ bool appends() const { return kAny && p.k_new != nullptr; }
  __device__ int window() const { return kAny ? p.window : 0; }
  __device__ bool capped() const { return kAny && p.softcap > 0.0f; }

  const Params& p;
  uint8_t* smem;
  int tid, warp, lane;
  int b, h, split;
  int m_tile, unit;     // the row block being merged (the CTA's first until the epilogue) and its unit
  int blocks;           // the CTA's row blocks that hold query rows (<= MB; derived in the epilogue
                        // instead, the two-block kernels' code grew 1.5 KiB)
  int seqlen, lo, hi;   // this CTA's rows [lo, hi) of the sequence
  int first_end;        // L - q_len + 1: token 0 attends to rows [.., first_end), token j to [.., first_end + j)
  int valid_rows;       // query rows of the block m_tile that are the KV head's (<= 16, < G x q_len; in
                        // a spread merge of several blocks, the CTA's: finish_blocks)
  float out_scale;      // V's dequantization scale, applied to O once at the end (a pair: its first head's)
  float out_scale_two;  // a pair's second head's
  KvRows rows;
  uint64_t kv_policy;  // L2 evict-first when K/V are read once: the code and the merge's partials stay

  // A pair of KV heads (Params::pair_rows > 0 in a launch of the Pairs kernel): byte x of a row of
  // the pair is byte x of its first head's row, or byte x - R / 2 of its second's, `pair_stride`
  // / 2 further (the launch's head stride is the pair's).
  static_assert(!Pairs || (D == 128 && C::kFp8), "decode: pairs of KV heads are head_dim 64 fp8 heads");
  __device__ static constexpr bool paired() { return Pairs; }
  __device__ int64_t pair_byte(int x, int64_t pair_stride) const {
    return paired() && x >= kR / 2 ? x - kR / 2 + pair_stride / 2 : x;
  }
  // Whether the unit's query row m is its pair's second head's: the pair's query heads are the
  // launch's group (2G), the second head's from G = pair_rows on, in each token's rows (q_row).
  __device__ bool second_head(int m) const { return (Tokens ? m - token_of_row(m) * p.group : m) >= p.pair_rows; }
  // The KV head (of the pair h, or h) that query row `row` of this m-tile attends to.
  __device__ int kv_head(int row) const { return paired() ? 2 * h + second_head(kRows * m_tile + row) : h; }

  // ---- loading ------------------------------------------------------------------------------

  // Shared memory after Q: the warps' K/V stages, then (after the main loop) the merges.
  __device__ uint8_t* after_q() const { return smem + C::kQRawBytes + C::kQcBytes; }

  // The 4 warps' merge, where their stages were: O [warp][row][kMergeRow], max and sum [warp][row],
  // of each row block (C::kMergeBytes apart); the split merges' scratch after them (merge_scratch).
  struct MergeBuffers {
    float *o, *max, *sum;
  };
  __device__ MergeBuffers merge_buffers(int mb = 0) const {
    constexpr int kW = C::kMergeWarps;
    float* o = reinterpret_cast<float*>(after_q() + mb * C::kMergeBytes);
    return {o, o + kW * kRows * C::kMergeRow, o + kW * kRows * C::kMergeRow + kW * kRows};
  }
  __device__ uint8_t* merge_scratch() const { return after_q() + (MB > 1 ? MB * C::kMergeBytes : 0); }

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
    if (paged()) issue_rows<true>(lc, t, s, page_of_tile(t));  // CTA-uniform
    else issue_rows<false>(lc, t, s, 0);
  }
  // One 16-byte K/V copy (zero fill unless pred), with the CTA's L2 policy.
  __device__ __forceinline__ void copy_kv(uint8_t* dst, const uint8_t* src, bool pred) const {
    arch::cp_async_zfill<16, arch::CacheOp::kGlobal>(dst, src, pred, kv_policy);
  }
  // The tile's copies, `page` its page when Paged (decode_load.cuh).
  template <bool Paged>
  __device__ __forceinline__ void issue_rows(const Copy& lc, int t, int s, int32_t page) const;

  // Q converted to the compute type (decode_load.cuh).
  __device__ void prepare_q() const;

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
    q_base = as_loaded || C::kQInPlace ? smem : smem + C::kQRawBytes;
    k_lane = int(RowSwizzle<kR>{}(C::kFp8 ? lanes_rows_first<kR>()(lane) : lanes_chunks_first<kR>()(lane)));
    v_lane = int(RowSwizzle<kR>{}(lanes_rows_first<kR>()(lane)));
  }

  // Q's A fragments of row block mb (decode_load.cuh).
  __device__ void q_fragments(uint32_t (&qa)[D / 16][4], int mb = 0) const;
  // The fragments of all row blocks (kQInRegisters), or, per k-step, of block mb from shared memory.
  using QFragments = uint32_t[C::kQInRegisters ? MB : 1][D / 16][4];
  __device__ __forceinline__ void q_step(const QFragments& qa, int mb, int ks, uint32_t (&f)[4]) const {
    if constexpr (C::kQInRegisters || MB == 1) {
#pragma unroll
      for (int i = 0; i < 4; ++i) f[i] = qa[C::kQInRegisters ? mb : 0][ks][i];
    } else {  // 16-bit fragments from the converted Q (several blocks: never as loaded)
      arch::ldmatrix_x4(f[0], f[1], f[2], f[3], q_base + mb * kRows * C::kQr + (q_lane ^ (32 * ks)));
    }
  }

  // ---- computing (decode_mma.cuh) -----------------------------------------------------------
  __device__ void scores(const uint8_t* sk, const QFragments& qa, float (&s)[MB][2][4]) const;
  __device__ void accumulate(const uint8_t* sv, const uint32_t (&pa)[MB][4], float (&o)[MB][D / 8][4]) const;
  // P of a 16 x 16 block of scores (the softmax's last step, shared by both kernels).
  __device__ __forceinline__ static void to_p(float (&s)[2][4], SoftmaxRow (&row)[2], uint32_t (&pa)[4]);

  // ---- the CTA's work -------------------------------------------------------------------------

  // The scores' scale of KV head kh: y = y_scale_of(kh) * (q . k as computed), in base 2 (before the
  // soft-cap's tanh when capped: p.softcap > 0); O's: V's dequantization scale.
  __device__ __forceinline__ float y_scale_of(int kh, bool capped) const {
    const float k_scale = p.k_scale * (p.k_scale_h ? p.k_scale_h[kh] : 1.0f) * kFp8Factor<KvType>;
    const float x_scale = p.scale * k_scale;  // x = x_scale * (q . k as computed)
    return capped ? x_scale / p.softcap : x_scale * kLog2e;
  }
  __device__ __forceinline__ float v_scale_of(int kh) const {
    return p.v_scale * (p.v_scale_h ? p.v_scale_h[kh] : 1.0f) * kFp8Factor<KvType>;
  }

  // The rows this split attends to, for sequence length seqlen_b: [start, L) cut into p.splits
  // chunks of whole tiles; and where they are. Token j (of q_len) attends to [.., L - q_len + 1 + j),
  // its last `window` rows with a window: the first token's window starts first.
  template <bool L2Only = false>
  __device__ void locate(int seqlen_b) {
    seqlen = seqlen_b;
    const int q_len = Tokens ? p.q_len : 1;
    const int L = seqlen + (appends() ? q_len : 0);
    first_end = L - q_len + 1;
    const int start = window() > 0 ? ::max(0, first_end - window()) : 0;
    constexpr int kChunk = MB == 4 ? kGroupRows : kRows;  // whole tiles a split
    const int chunk = ((L - start + p.splits - 1) / p.splits + kChunk - 1) / kChunk * kChunk;
    lo = ::min(L, start + split * chunk);
    hi = ::min(L, lo + chunk);
    rows = KvRows::make<L2Only, Cache>(p, b, h, seqlen);
  }

  // 0. Before the previous kernel has completed (a dependent launch's head start; only the first
  //    wave's CTAs can start that early, and only when the plan enables it, plan.hpp
  //    prefetch_before_wait): L2 prefetches of the warp's first kStages - 1 K/V tiles, at the
  //    addresses the sequence length, remap and page table give now. Hints only: nothing read here
  //    is used after the wait (locate runs again), the reads bypass L1 (no stale line is left for
  //    the reads after the wait), and a prefetch of a stale, even unmapped, address is harmless.
  //    A paged cache's page-table entry is a real load: only entries [0, p.pt_len) of the row (the
  //    run's page_table_len; the plan prefetches paged caches only where it is told), whatever
  //    length is found here. Measured: docs/design/decode.md, "Launch".
  __device__ void prefetch_before_wait() {
    if (int(blockIdx.x) >= p.early_ctas) return;
    locate<true>(__ldcg(p.seqlen + b));
    const int my_tiles = my_tile_count();
    // The page-table entries of all kStages - 1 tiles are loaded first, so that their round trips
    // overlap (one, not kStages - 1, before the first prefetch leaves).
    bool go[kStages - 1];
    int32_t page[kStages - 1];
#pragma unroll
    for (int t = 0; t < kStages - 1; ++t) {
      const int n = tile_row(t) + lane % kRows;  // lanes 0-15: K rows, 16-31: V rows
      const int entry = n >> rows.log2_page;     // (n < 0, from a stale length, reads nothing)
      go[t] =
          t < my_tiles && n < hi && !rows.template is_appended<Tokens>(n) && (!paged() || (n >= 0 && entry < p.pt_len));
      page[t] = paged() && go[t] ? __ldcg(rows.pages + entry) : 0;
    }
#pragma unroll
    for (int t = 0; t < kStages - 1; ++t) {
      const int n = tile_row(t) + lane % kRows;
      if (go[t]) {
        const RowAddress a = paged() ? rows.in_page(page[t], n) : rows.cache<false>(n);
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
    // Several tokens of a pair tell a row's head by second_head; the others by pair_rows inside
    // load_q (passing them the same function made the one-token pairs kernel 384 bytes longer).
    if constexpr (Tokens && Pairs) {  // a pair's rows are one m-tile: CTA row r is the unit's
      const auto second = [this](int r) { return second_head(r); };
      if (p.q_bytes == 2) load_q<2 * D>(q, rows_at, 0, cta_rows(), pair_rows, smem, tid, second);
      else load_q<D>(q, rows_at, 0, cta_rows(), pair_rows, smem, tid, second);
    } else if (p.q_bytes == 2) {
      load_q<2 * D, MB * kRows>(q, rows_at, kRows * m_tile, cta_rows(), pair_rows, smem, tid);
    } else {
      load_q<D, MB * kRows>(q, rows_at, kRows * m_tile, cta_rows(), pair_rows, smem, tid);
    }
    arch::cp_async_commit();
  }
  // The KV head's query rows (G x q_len), and those of `blocks` row blocks from m_tile on.
  __device__ int head_rows() const { return Tokens ? p.group * p.q_len : p.group; }
  __device__ int rows_from_m_tile(int blocks) const { return ::min(blocks * kRows, head_rows() - kRows * m_tile); }
  // The query rows of the CTA's blocks that are the KV head's.
  __device__ int cta_rows() const { return MB == 1 ? valid_rows : rows_from_m_tile(MB); }
  // CTAs a (sequence, KV head, split): one a row block of MB m-tiles.
  __device__ int m_ctas() const { return (p.m_tiles + MB - 1) / MB; }

  // The token of the CTA's query row `row` (rows past the unit's: its last token).
  __device__ int token_of(int row) const { return ::min(token_of_row(kRows * m_tile + row), p.q_len - 1); }

  __device__ void run() {
    // 2. The appended tokens go into the cache (once: the m-tile-0 CTA whose rows hold each, token
    //    j by warp j % 4); every CTA reads them from k_new/v_new, so no CTA waits for these stores.
    if (appends() && m_tile == 0 && (Tokens || warp == 0))
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

    if constexpr (MB == 4) return run_rows();
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
    // Evict-first unless several CTAs of a head read the same K/V (the others hit L2): m_ctas() > 1,
    // written out (through m_ctas() the two-block kernels' code grew 128 bytes).
    kv_policy = arch::l2_policy(MB == 1 ? p.m_tiles == 1 : p.m_tiles <= MB);
    if (paged() && rows.log2_page < TilePages::kLog2PageLimit) tile_pages.start(page_entries(), lane);
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
    QFragments qa;
    if constexpr (C::kQInRegisters)
#pragma unroll
      for (int mb = 0; mb < MB; ++mb) q_fragments(qa[mb], mb);

    // 5. The main loop: per warp, per tile: S = Q K^T, online softmax, O += P V.
    // Where this lane's accumulators sit (tiles.cuh): element i of n8 tile nt of the 16 x 16 score
    // tile S is at row s_at.row + SAcc::row_step(i), column s_at.column + SAcc::column_step(i, nt).
    const SAcc s_at = SAcc::of_lane(lane);
    // The scales of the lane's two rows (elements 0, 1 and 2, 3): their KV heads' (kv_head).
    const bool capped = this->capped();
    const float y_cap = p.softcap * kLog2e;
    float y_scale[2];
    y_scale[0] = y_scale_of(kv_head(s_at.row + SAcc::row_step(0)), capped);
    y_scale[1] = paired() ? y_scale_of(kv_head(s_at.row + SAcc::row_step(2)), capped) : y_scale[0];
    out_scale = v_scale_of(paired() ? 2 * h : h);
    out_scale_two = paired() ? v_scale_of(2 * h + 1) : out_scale;
    // Several query tokens: the lane's two rows of each block attend to [front, end) (their
    // tokens'); the CTA's tiles from mask_end on, or before mask_front, hold a row's masked columns
    // (warp-uniform tests). (One token: every row ends at hi and starts at or before the CTA's first row.)
    int row_front[MB][2] = {}, row_end[MB][2], mask_end = hi, mask_front = 0;
#pragma unroll
    for (int mb = 0; mb < MB; ++mb) row_end[mb][0] = row_end[mb][1] = hi;
    if constexpr (Tokens) {
#pragma unroll
      for (int mb = 0; mb < MB; ++mb)
#pragma unroll
        for (int r = 0; r < 2; ++r) {
          const int end = first_end + token_of(kRows * mb + s_at.row + SAcc::row_step(2 * r));
          row_end[mb][r] = ::min(hi, end);
          row_front[mb][r] = window() > 0 ? end - window() : 0;
        }
      mask_end = ::min(hi, first_end + token_of(0));
      mask_front = window() > 0 ? first_end + token_of(cta_rows() - 1) - window() : 0;
    }
    float o[MB][D / 8][4] = {};
    SoftmaxRow row[MB][2];  // block mb's rows of elements 0, 1 and 2, 3 of this lane's accumulators (softmax.cuh)
    for (int t = 0, stage = 0; t < my_tiles; ++t, stage = stage + 1 == kStages ? 0 : stage + 1) {
      arch::cp_async_wait<kStages - 2>();
      __syncwarp();
      trace_progress(p, t, my_tiles);
      // Tile t + kStages - 1 goes where tile t - 1 was (computed in the previous iteration).
      if (t + kStages - 1 < my_tiles) issue_tile(lc, t + kStages - 1, stage == 0 ? kStages - 1 : stage - 1);
      arch::cp_async_commit();
      const uint8_t* sk = stage_k(stage);
      if constexpr (!C::kQInRegisters && MB == 1) q_fragments(qa[0]);
      float s[MB][2][4] = {};
      scores(sk, qa, s);
      const int n0 = tile_row(t);
#pragma unroll
      for (int mb = 0; mb < MB; ++mb) {
        to_base2(s[mb], capped, y_scale, y_cap);
        if constexpr (Tokens) {
          if (n0 + kRows > mask_end || n0 < mask_front) [[unlikely]]
            s_at.mask_rows(s[mb], n0, row_front[mb], row_end[mb]);  // warp-uniform: a sequence's last tiles
        } else if (n0 + kRows > hi) [[unlikely]] {
          s_at.mask_past(s[mb], n0, hi);  // warp-uniform: a sequence's last tile
        }
      }
      // The online softmax's update (softmax.cuh): the rows' reference moves (and O is rescaled)
      // only when a lane's score exceeds the row's max by more than kLazyRescale, which a warp
      // vote on the lanes' own scores decides; most tiles skip the rows' cross-lane max.
      float lane_max[MB][2];
      bool moves = false;
#pragma unroll
      for (int mb = 0; mb < MB; ++mb) {
        lane_max[mb][0] = lane_max[mb][1] = -INFINITY;
#pragma unroll
        for (int nt = 0; nt < 2; ++nt)
#pragma unroll
          for (int i = 0; i < 4; ++i) lane_max[mb][i / 2] = fmaxf(lane_max[mb][i / 2], s[mb][nt][i]);
        moves = moves || row[mb][0].moves(lane_max[mb][0]) || row[mb][1].moves(lane_max[mb][1]);
      }
      if (__any_sync(0xffffffffu, moves)) {
#pragma unroll
        for (int mb = 0; mb < MB; ++mb) {
          float alpha[2];
#pragma unroll
          for (int r = 0; r < 2; ++r) {  // the row's max over its 4 lanes, then the rescale
            lane_max[mb][r] = fmaxf(lane_max[mb][r], __shfl_xor_sync(0xffffffffu, lane_max[mb][r], 1));
            lane_max[mb][r] = fmaxf(lane_max[mb][r], __shfl_xor_sync(0xffffffffu, lane_max[mb][r], 2));
            alpha[r] = row[mb][r].rescale_to(lane_max[mb][r]);
          }
#pragma unroll
          for (int nt = 0; nt < D / 8; ++nt)
#pragma unroll
            for (int i = 0; i < 4; ++i) o[mb][nt][i] *= alpha[i / 2];
        }
      }
      uint32_t pa[MB][4];
#pragma unroll
      for (int mb = 0; mb < MB; ++mb) to_p(s[mb], row[mb], pa[mb]);
      accumulate(sk + C::kTile, pa, o);
    }
    arch::cp_async_wait<0>();
    __syncthreads();  // every warp is done with its stages: the merge reuses them
    trace(p, kTraceLoopDone);
    // The next kernel (a dependent launch) may start once every CTA is here: when the plan says
    // its CTAs would not crowd this grid's SMs (plan.hpp, trigger_early).
    if (p.trigger_early) arch::launch_dependents();

      // 6. Merge the 4 warps: (max, sum) per row and O in shared memory, each row block's in its own
      //    buffers.
#pragma unroll
    for (int mb = 0; mb < MB; ++mb) store_block(merge_buffers(mb), row[mb], o[mb], s_at);
    __syncthreads();
    trace(p, kTraceWarpsIn);
    finish_blocks();
  }

  // ---- the warpgroup kernel (decode_rows.cuh) ----------------------------------------------------
  static constexpr int kGroupRows = 64;                       // a tile's K/V rows, and the CTA's query rows (wgmma's M)
  static constexpr int kGroupTileBytes = kGroupRows * 2 * D;  // a 16-bit K or V tile
  static_assert(!C::kConverts || C::kConvBytes == 2 * kGroupTileBytes, "decode: Config's converted K/V tiles");
  static constexpr int kGroupChunks = kR / 16,
                       kGroupRowStep = kThreads / kGroupChunks,  // copies: a row's, a pass's rows
      kGroupCopies = kGroupRows / kGroupRowStep;                 // a thread's rows of a tile
  // Paged caches: the page-table entry of each of this thread's rows of the next tile to issue
  using GroupPages = int32_t[kGroupCopies];
  __device__ uint8_t* group_stage(int s) const { return after_q() + s * 2 * kGroupRows * kR; }
  // fp8 caches: the converted K and V tiles, after the stages (Config::kConvBytes; Q as loaded first)
  __device__ uint8_t* converted_tile() const { return group_stage(kStages); }
  __device__ void start_q_rows() const;
  __device__ void load_group_pages(int n0, GroupPages& pages) const;
  __device__ void issue_group_tile(int n0, int s, const GroupPages& pages) const;
  __device__ void convert_q_rows() const;
  __device__ void convert_group_tile(int s) const;
  __device__ void run_rows();

  // ---- the epilogue (decode_epilogue.cuh) -----------------------------------------------------
  __device__ void finish(int mb, bool publish_only = false);
  __device__ void finish_blocks();
  __device__ void store_block(const MergeBuffers& m, SoftmaxRow (&row)[2], const float (&o)[D / 8][4],
                              const SAcc& s_at) const;
  __device__ void merge_spread_over_unit();
  __device__ void write_output(int row, int d0, const float (&acc)[8], float inv, float lse2) const;
};

}  // namespace cotile::attention::detail

#include "decode_epilogue.cuh"  // DecodeCta's epilogue
#include "decode_load.cuh"      // DecodeCta's K/V copies and Q
#include "decode_mma.cuh"       // DecodeCta's MMAs
#include "decode_rows.cuh"      // DecodeCta's warpgroup kernel (MB = 4)

namespace cotile::attention::detail {

template <int D, int KvType, bool Pairs = false, bool Tokens = false, int MB = 1, int Cache = kAnyCache>
__global__ void __launch_bounds__(kThreads, COTILE_DECODE_MIN_CTAS) decode_kernel(const __grid_constant__ Params p) {
  extern __shared__ __align__(1024) uint8_t smem[];
  DecodeCta<D, KvType, Pairs, Tokens, MB, Cache> cta{p, smem};
  cta.tid = int(threadIdx.x);
  cta.warp = cta.tid / 32;
  cta.lane = cta.tid % 32;
  cta.split = int(blockIdx.x) % p.splits;  // = the rank in the cluster when clustered
  // CTA = ((b * Hkv + h) * m_ctas + c) * splits + split, of m-tiles MB c ..; the unit (b, h, m-tile)
  // of its first, (b * Hkv + h) * m_tiles + m-tile: with one m-tile a CTA, the CTA's split group
  // (computed from it: the same arithmetic in the other order made the fp8 kernels' code 11 KiB
  // smaller, a change of their SASS not measured).
  if constexpr (MB == 1) {
    cta.unit = int(blockIdx.x) / p.splits;
    cta.m_tile = cta.unit % p.m_tiles;
    cta.h = cta.unit / p.m_tiles % p.heads_kv;
    cta.b = cta.unit / p.m_tiles / p.heads_kv;
    cta.blocks = 1;
  } else {
    const int c = int(blockIdx.x) / p.splits, m_ctas = cta.m_ctas();
    cta.m_tile = MB * (c % m_ctas);
    cta.h = c / m_ctas % p.heads_kv;
    cta.b = c / m_ctas / p.heads_kv;
    cta.unit = (cta.b * p.heads_kv + cta.h) * p.m_tiles + cta.m_tile;
    cta.blocks = ::min(MB, p.m_tiles - cta.m_tile);
  }
  cta.valid_rows = cta.rows_from_m_tile(1);
  if constexpr (Tokens) cta.inv_group = __fdividef(1.0f, float(p.group));
  // A programmatic dependent launch: this CTA may start during the previous kernel's tail, so
  // global memory is used only after that kernel completes; before, at most L2 prefetch hints.
  // (The next kernel's early start: p.trigger_early, "Launch" in docs/design/decode.md.)
  cta.prefetch_before_wait();
  arch::grid_dependency_wait();
  cta.stagger();
  trace(p, kTraceStart);
  if constexpr (MB == 4) cta.start_q_rows();
  else cta.start_q();
  cta.locate(p.seqlen[cta.b]);
  cta.run();
}

}  // namespace cotile::attention::detail
