// The warpgroup decode kernel: DecodeCta with MB = 4 (decode_kernel.cuh), for a KV head's query
// rows beyond 16 (several tokens; plan.hpp, group_rows_pay). The CTA's 64 query rows (4 m-tiles)
// are computed together against each 64-row K/V tile by warpgroup MMAs reading shared memory, so
// the tile costs each of its 4 warps 12 wgmma, where the per-warp kernel's warps issue 512
// mma.sync and 256 ldmatrix for the same rows and tile, and its copies are shared by the CTA's
// 128 threads.
//
//   What is loaded and computed (layouts: group_tile):
//     Q tile      64 rows x 128      cp.async, once, into wgmma's 128-byte-swizzled K-major layout;
//                                    rows past the KV head's G x q_len zero-filled
//     K/V tiles   64 rows x 128      cp.async by all 128 threads into the same layout, kStages stages
//     S = Q K^T                      8 wgmma m64n64k16, Q and K from shared memory (K-major)
//     O += P V                       4 wgmma m64n128k16, P from registers (S's accumulators, packed
//                                    as the per-warp kernel packs them), V read N-major (the same
//                                    bytes; the descriptor transposes)
//   wgmma's accumulators of warp w are rows 16w .. 16w + 15 in the m16n8 tiles' places, so each
//   warp runs the per-warp kernel's softmax on its rows (row block w) and stores its state as the
//   only one of its block (Config::kMergeWarps = 1); the split merges are the per-warp kernel's.
//   The pipeline: at tile t each thread waits for its copies of tile t, and one block barrier makes
//   them visible to the async proxy and shows that every warp's wgmma of tile t - 1 is done, so
//   tile t + kStages - 1 may go into the stage tile t - 1 left.
//   fp8 caches (Config::kConverts): the stages hold the tiles' raw 128-byte rows, and after that
//   barrier each thread converts the chunks it copied itself (no barrier between its copy and its
//   conversion) into the one 16-bit K/V tile (converted_tile) the wgmma read; a second barrier
//   makes the conversion visible. Q, of any type, is loaded there first and converted once into
//   the Q tile.
#pragma once

#include "cotile/arch/wgmma.hpp"

namespace cotile::attention::detail {

// A warpgroup tile of `Rows` rows of 256 bytes (128 16-bit elements): two column halves of
// Rows x 128 bytes, rows 128 bytes apart, each row's 16-byte chunk c at c ^ (row mod 8)
// (Swizzle<3,4,3> of the byte offset): (row, byte) -> shared-memory offset. wgmma reads it as the
// 128-byte-swizzled K-major layout (Q, K: 8-row groups 1024 bytes apart) and, for V, as the
// N-major one (the next 64 columns Rows x 128 bytes on). Tiles start on 1024-byte boundaries.
template <int Rows>
COTILE_HD constexpr auto group_tile() {
  return ct::composition(ct::Swizzle<3, 4, 3>{},
                         ct::make_layout(ct::make_shape(Int<Rows>{}, ct::make_shape(Int<128>{}, _2{})),
                                         ct::make_stride(Int<128>{}, ct::make_stride(_1{}, Int<Rows * 128>{}))));
}
static_assert(
    [] {
      constexpr auto tile = group_tile<64>();
      for (int r = 0; r < 64; ++r)
        for (int c = 0; c < 16; ++c)
          if (int(tile(r, 16 * c)) != (c / 8) * 64 * 128 + r * 128 + (((c % 8) ^ (r % 8)) << 4)) return false;
      return true;
    }(),
    "decode: the warpgroup tile is not wgmma's 128-byte swizzle");

// wgmma's shared-memory descriptors of a group tile. K-major (Q as A, K as B) at k-step ks:
// columns 16 ks .., from row 0's byte 32 ks (leading offset unused, 8-row groups 1024 bytes apart).
// N-major (V as B) at k-step kk: K rows 16 kk .. (8-row groups 1024 apart), N = 128 columns in two
// halves Rows x 128 bytes apart.
template <int Rows>
__device__ __forceinline__ uint64_t k_major_desc(const uint8_t* tile, int ks) {
  return arch::make_smem_desc(tile + int(group_tile<Rows>()(0, 32 * ks)), 16, 1024, arch::GmmaSwizzle::k128B);
}
template <int Rows>
__device__ __forceinline__ uint64_t n_major_desc(const uint8_t* tile, int kk) {
  return arch::make_smem_desc(tile + int(group_tile<Rows>()(16 * kk, 0)), Rows * 128, 1024, arch::GmmaSwizzle::k128B);
}

// The two products' instructions for the compute type.
template <bool Bf16>
struct GroupMma {
  using S = arch::WgmmaBF16SS<64>;
  using O = arch::WgmmaBF16RS<128>;
};
template <>
struct GroupMma<false> {
  using S = arch::WgmmaF16SS<64>;
  using O = arch::WgmmaF16RS<128>;
};

// 1. Q's 64 rows (those of the CTA's blocks that are the head's), one cp.async group issued first:
//    into the Q tile (16-bit caches: Q in the compute type, the plan's rule), or as loaded where the
//    converted tile will be (fp8 caches: any Q, convert_q_rows).
template <int D, int KvType, bool Pairs, bool Tokens, int MB, int Cache>
inline __device__ void DecodeCta<D, KvType, Pairs, Tokens, MB, Cache>::start_q_rows() const {
  constexpr auto tile = group_tile<kGroupRows>();
  const uint8_t* q = p.q + b * p.q_sb + h * p.group * p.q_sh;
  const int rows_here = cta_rows(), j = tid % 16;
  if constexpr (C::kConverts) {  // rows of D x q_bytes bytes as loaded, row r at r x that (convert_q_rows)
    const int chunks = D * p.q_bytes / 16;
#pragma unroll 1
    for (int i = tid; i < kGroupRows * chunks; i += kThreads) {
      const int r = i / chunks, c = i % chunks;
      const bool valid = r < rows_here;
      const uint8_t* src = q + (valid ? q_row(kRows * m_tile + r) : 0) + 16 * c;
      arch::cp_async_zfill<16, arch::CacheOp::kGlobal>(converted_tile() + 16 * i, src, valid);
    }
  } else {
#pragma unroll
    for (int x = 0; x < kGroupRows * 16 / kThreads; ++x) {  // chunk j of rows tid / 16 + 8x
      const int r = tid / 16 + 8 * x;
      const bool valid = r < rows_here;
      const uint8_t* src = q + (valid ? q_row(kRows * m_tile + r) : 0) + 16 * j;
      arch::cp_async_zfill<16, arch::CacheOp::kGlobal>(smem + int(tile(r, 16 * j)), src, valid);
    }
  }
  arch::cp_async_commit();
}

// Paged caches: the page-table entries of this thread's rows of the tile at n0 (issue_group_tile's
// rows; 0 past hi, not read), loaded one tile before issue_group_tile uses them, so that its copies
// do not wait for a load (as the per-warp kernel's TilePages). Contiguous caches: nothing.
template <int D, int KvType, bool Pairs, bool Tokens, int MB, int Cache>
__device__ __forceinline__ void DecodeCta<D, KvType, Pairs, Tokens, MB, Cache>::load_group_pages(
    int n0, GroupPages& pages) const {
  if (!rows.pages) return;
  const int r0 = tid / kGroupChunks;
#pragma unroll
  for (int x = 0; x < kGroupCopies; ++x) {
    const int n = n0 + r0 + kGroupRowStep * x;
    pages[x] = n < hi ? rows.pages[n >> rows.log2_page] : 0;
  }
}

// The copies of the K/V tile of rows n0 .. n0 + 63 into stage s: thread tid copies chunk
// tid % kGroupChunks of rows tid / kGroupChunks + kGroupRowStep x (16-bit rows: 16 chunks, 8 rows a
// pass; fp8: 8 and 16); rows past hi are zero-filled without being read. A contiguous tile of
// cache rows only takes one row address a thread; a paged one takes its rows' pages from `pages`
// (load_group_pages of n0). No L2 policy on these copies: with one (and the stage's base in a
// uniform register), ptxas 13.0 emitted cp.async instructions that read uniform registers it never
// wrote, an illegal instruction on the H200.
template <int D, int KvType, bool Pairs, bool Tokens, int MB, int Cache>
inline __device__ void DecodeCta<D, KvType, Pairs, Tokens, MB, Cache>::issue_group_tile(int n0, int s,
                                                                                        const GroupPages& pages) const {
  constexpr auto tile = group_tile<kGroupRows>();  // fp8 rows (128 bytes): its first column half
  uint8_t* sk = group_stage(s);
  uint8_t* sv = sk + kGroupRows * kR;
  const int j = tid % kGroupChunks, r0 = tid / kGroupChunks;
  const auto copy = [](uint8_t* dst, const uint8_t* src, bool pred) {
    arch::cp_async_zfill<16, arch::CacheOp::kGlobal>(dst, src, pred);
  };
  const bool appended_here = unsigned(n0 + kGroupRows - 1 - rows.appended) < unsigned(kGroupRows - 1 + rows.n_appended);
  if (!rows.pages && !appended_here && n0 + kGroupRows <= hi) {  // CTA-uniform
    const RowAddress a = rows.cache<false>(n0 + r0);
#pragma unroll
    for (int x = 0; x < kGroupCopies; ++x) {
      const int at = int(tile(r0 + kGroupRowStep * x, 16 * j));
      copy(sk + at, a.k + int64_t(kGroupRowStep * x) * rows.k_sn + 16 * j, true);
      copy(sv + at, a.v + int64_t(kGroupRowStep * x) * rows.v_sn + 16 * j, true);
    }
    return;
  }
#pragma unroll
  for (int x = 0; x < kGroupCopies; ++x) {
    const int n = n0 + r0 + kGroupRowStep * x, at = int(tile(r0 + kGroupRowStep * x, 16 * j));
    const bool valid = n < hi, in_cache = rows.pages && !rows.is_appended<Tokens>(n);
    const RowAddress a = in_cache ? rows.in_page(pages[x], n) : rows.attended<false, Tokens>(valid ? n : lo);
    copy(sk + at, a.k + 16 * j, valid);
    copy(sv + at, a.v + 16 * j, valid);
  }
}

// fp8 caches: Q as loaded (any type, where converted_tile is: start_q_rows) -> the Q tile in the
// compute type (f16), 8 columns a thread a step. Rows past the head's were zero-filled.
template <int D, int KvType, bool Pairs, bool Tokens, int MB, int Cache>
inline __device__ void DecodeCta<D, KvType, Pairs, Tokens, MB, Cache>::convert_q_rows() const {
  constexpr auto tile = group_tile<kGroupRows>();
  const uint8_t* raw = converted_tile();
#pragma unroll 1
  for (int i = tid; i < kGroupRows * D / 8; i += kThreads) {
    const int r = i / (D / 8), k0 = 8 * (i % (D / 8));
    uint32_t w[4];
#pragma unroll
    for (int e = 0; e < 4; ++e)
      w[e] = pack2<C::kBf16>(load_as_float(raw + (r * D + k0 + 2 * e) * p.q_bytes, p.q_type),
                             load_as_float(raw + (r * D + k0 + 2 * e + 1) * p.q_bytes, p.q_type));
    *reinterpret_cast<uint4*>(smem + int(tile(r, 2 * k0))) = make_uint4(w[0], w[1], w[2], w[3]);
  }
}

// fp8 caches: the 16-byte chunks of stage s this thread copied (issue_group_tile's, so that its own
// cp.async wait makes them readable) -> the 16-bit K and V tiles: the 16 fp8 columns 16j .. 16j + 15
// of row r become bytes 32j .. 32j + 31 of its row, in the tiles wgmma reads (group_tile).
template <int D, int KvType, bool Pairs, bool Tokens, int MB, int Cache>
__device__ __forceinline__ void DecodeCta<D, KvType, Pairs, Tokens, MB, Cache>::convert_group_tile(int s) const {
  constexpr auto tile = group_tile<kGroupRows>();
  const uint8_t* raw = group_stage(s);
  uint8_t* conv = converted_tile();
  const int j = tid % kGroupChunks, r0 = tid / kGroupChunks;
#pragma unroll
  for (int kv = 0; kv < 2; ++kv)  // K, then V
#pragma unroll
    for (int x = 0; x < kGroupCopies; ++x) {
      const int r = r0 + kGroupRowStep * x;
      const uint4 w = *reinterpret_cast<const uint4*>(raw + kv * kGroupRows * kR + int(tile(r, 16 * j)));
      uint32_t f[8];
      fp8x4_to_f16x2<KvType, false>(w.x, f[0], f[1]);
      fp8x4_to_f16x2<KvType, false>(w.y, f[2], f[3]);
      fp8x4_to_f16x2<KvType, false>(w.z, f[4], f[5]);
      fp8x4_to_f16x2<KvType, false>(w.w, f[6], f[7]);
      uint8_t* dst = conv + kv * kGroupTileBytes;
      *reinterpret_cast<uint4*>(dst + int(tile(r, 32 * j))) = make_uint4(f[0], f[1], f[2], f[3]);
      *reinterpret_cast<uint4*>(dst + int(tile(r, 32 * j + 16))) = make_uint4(f[4], f[5], f[6], f[7]);
    }
}

template <int D, int KvType, bool Pairs, bool Tokens, int MB, int Cache>
inline __device__ void DecodeCta<D, KvType, Pairs, Tokens, MB, Cache>::run_rows() {
  using Mma = GroupMma<C::kBf16>;
  const int tiles = hi > lo ? (hi - lo + kGroupRows - 1) / kGroupRows : 0;
  GroupPages pages = {};
  load_group_pages(lo, pages);
#pragma unroll 1
  for (int t = 0; t < kStages - 1; ++t) {
    if (t < tiles) {
      issue_group_tile(lo + kGroupRows * t, t, pages);
      load_group_pages(lo + kGroupRows * (t + 1), pages);
    }
    arch::cp_async_commit();
  }
  if constexpr (C::kConverts) {  // Q (the oldest group) into the Q tile
    arch::cp_async_wait<kStages - 1>();
    __syncthreads();
    convert_q_rows();
  }
  trace(p, kTraceQReady);
  // The warp's rows are block `warp`'s; in each 16-column block of S (and 8-column tile of O) a
  // lane's accumulators sit where the per-warp kernel's do (s_at).
  const SAcc s_at = SAcc::of_lane(lane);
  const bool capped = p.softcap > 0.0f;
  const float y_cap = p.softcap * kLog2e;
  const float y_one = y_scale_of(h, capped), y_scale[2] = {y_one, y_one};
  out_scale = out_scale_two = v_scale_of(h);
  // The per-warp kernel's row bounds and rescale (decode_kernel.cuh, run) for row block `warp`,
  // written out again: as functions shared with run() they changed the head_dim-256 kernels' SASS
  // (+128 bytes one token, +3.3 KiB several), which the sweep's figures were not measured with.
  int row_front[2], row_end[2];
#pragma unroll
  for (int r = 0; r < 2; ++r) {
    const int end = first_end + token_of(kRows * warp + s_at.row + SAcc::row_step(2 * r));
    row_end[r] = ::min(hi, end);
    row_front[r] = p.window > 0 ? end - p.window : 0;
  }
  const int mask_end = ::min(hi, first_end + token_of(0));
  const int mask_front = p.window > 0 ? first_end + token_of(cta_rows() - 1) - p.window : 0;
  const bool live = warp < blocks;  // the warp's block holds query rows (warp-uniform)
  float o[D / 8][4] = {};
  SoftmaxRow row[2];
#pragma unroll 1
  for (int t = 0, stage = 0; t < tiles; ++t, stage = stage + 1 == kStages ? 0 : stage + 1) {
    arch::cp_async_wait<kStages - 2>();
    if constexpr (!C::kConverts) arch::fence_proxy_async_shared();
    __syncthreads();
    if (t + kStages - 1 < tiles) {
      issue_group_tile(lo + kGroupRows * (t + kStages - 1), stage == 0 ? kStages - 1 : stage - 1, pages);
      load_group_pages(lo + kGroupRows * (t + kStages), pages);
    }
    arch::cp_async_commit();
    const uint8_t* sk = group_stage(stage);
    if constexpr (C::kConverts) {  // (the raw stage's chunks were this thread's: the barrier above freed the tile)
      convert_group_tile(stage);
      arch::fence_proxy_async_shared();
      __syncthreads();
      sk = converted_tile();
    }
    float s[kGroupRows / 16][2][4] = {};  // S's 16-column blocks
    float(&s_flat)[kGroupRows / 2] = reinterpret_cast<float(&)[kGroupRows / 2]>(s);
    arch::warpgroup_arrive();
#pragma unroll
    for (int ks = 0; ks < D / 16; ++ks)
      Mma::S::mma(s_flat, k_major_desc<kGroupRows>(smem, ks), k_major_desc<kGroupRows>(sk, ks), 1);
    arch::warpgroup_commit();
    arch::warpgroup_wait<0>();
    arch::warpgroup_fence_operands(s_flat);
    uint32_t pa[kGroupRows / 16][4] = {};
    if (live) {  // the per-warp kernel's softmax (decode_kernel.cuh, run), over 64 columns
      const int n0 = lo + kGroupRows * t;
      float lane_max[2] = {-INFINITY, -INFINITY};
#pragma unroll
      for (int q = 0; q < kGroupRows / 16; ++q) {
        to_base2(s[q], capped, y_scale, y_cap);
        if (n0 + kGroupRows > mask_end || n0 < mask_front) [[unlikely]]
          s_at.mask_rows(s[q], n0 + 16 * q, row_front, row_end);
#pragma unroll
        for (int nt = 0; nt < 2; ++nt)
#pragma unroll
          for (int i = 0; i < 4; ++i) lane_max[i / 2] = fmaxf(lane_max[i / 2], s[q][nt][i]);
      }
      if (__any_sync(0xffffffffu, row[0].moves(lane_max[0]) || row[1].moves(lane_max[1]))) {
        float alpha[2];
#pragma unroll
        for (int r = 0; r < 2; ++r) {
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
      for (int q = 0; q < kGroupRows / 16; ++q) to_p(s[q], row, pa[q]);
    }
    float(&o_flat)[D / 2] = reinterpret_cast<float(&)[D / 2]>(o);
    arch::warpgroup_arrive();
#pragma unroll
    for (int kk = 0; kk < kGroupRows / 16; ++kk)
      Mma::O::template mma<1, 1, 1>(o_flat, pa[kk], n_major_desc<kGroupRows>(sk + kGroupTileBytes, kk), 1);
    arch::warpgroup_commit();
    arch::warpgroup_wait<0>();
    arch::warpgroup_fence_operands(o_flat);
  }
  arch::cp_async_wait<0>();
  __syncthreads();  // every wgmma is done with the stages: the merge buffers go there
  trace(p, kTraceLoopDone);
  if (p.trigger_early) arch::launch_dependents();
  // Each block's state is its warp's alone; the blocks merge one after the other, as with MB = 2.
  if (live) store_block(merge_buffers(warp), row, o, s_at);
  __syncthreads();
  trace(p, kTraceWarpsIn);
  finish_blocks();
}

}  // namespace cotile::attention::detail
