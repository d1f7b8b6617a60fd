// What the decode kernel loads and where it lives: its compile-time configuration, the swizzled
// shared-memory tiles and ldmatrix lane maps (cotile layouts), K/V row addresses (contiguous or
// paged, the appended token), and Q's cotiled copy (qload.md §7, §8.3). decode_kernel.cuh computes.
#pragma once

#include <cuda_runtime.h>

#include <bit>
#include <cstdint>
#include <type_traits>

#include "cotile/arch/copy.hpp"
#include "cotile/arch/sm.hpp"
#include "cotile/ct/ct.hpp"
#include "decode_config.hpp"
#include "convert.cuh"
#include "softmax.cuh"
#include "params.hpp"

namespace cotile::attention::detail {

namespace ct = ::cotile::ct;
using ct::_1;
using ct::_16;
using ct::_2;
using ct::_4;
using ct::_8;
using ct::Int;

// COTILE_DECODE_TRACE = 1 (diagnostics builds only) records per-CTA phase times (%globaltimer,
// ns) in p.trace[cta][kTraceSlots] when set, at these slots (bench/decode/trace.py reads them by
// number):
enum TraceSlot : int {
  kTraceStart = 0,      // after the dependency wait (and the stagger)
  kTraceQReady = 1,     // Q in shared memory, the first tiles requested
  kTraceLoopDone = 2,   // the main loop's last tile computed
  kTracePublished = 3,  // the CTA's result (or partial) written
  kTraceMerged = 4,     // the unit's splits merged
  kTracePlace = 5,      // the SM (low 32 bits) and warp 0's hardware slot (high 32), at the start
  kTraceTile0 = 6,      // kTraceTile0 + k: warp 0's tile k * tiles / 8 arrived (k = 0 .. 7)
  kTraceWarpsIn = 14,   // the warps' results in shared memory
  kTraceCounted = 15,   // the split counter read
};
inline constexpr int kTraceSlots = 16;
__device__ __forceinline__ void trace(const Params& p, int slot) {
#if COTILE_DECODE_TRACE
  if (threadIdx.x == 0 && p.trace) {
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    p.trace[blockIdx.x * kTraceSlots + slot] = t;
    if (slot == kTraceStart) {
      p.trace[blockIdx.x * kTraceSlots + kTracePlace] = arch::sm_id() | uint64_t(arch::warp_slot()) << 32;
    }
  }
#else
  (void)p, (void)slot;
#endif
}
// Warp 0's progress through its `tiles` tiles: tile t arrived.
__device__ __forceinline__ void trace_progress(const Params& p, int t, int tiles) {
#if COTILE_DECODE_TRACE
  const int k = t * 8 / tiles;
  if ((k * tiles + 7) / 8 == t) trace(p, kTraceTile0 + k);
#else
  (void)p, (void)t, (void)tiles;
#endif
}

// The shared-memory swizzle of a tile whose rows are R bytes: the 16-byte chunk index is XORed
// with the row (mod 8), so that the 8 rows one ldmatrix phase reads fall in 8 different bank
// groups. R = 64 has 4 chunks a row: XOR with row / 2 instead.
template <int R>
using RowSwizzle = ct::Swizzle<(R == 64 ? 2 : 3), 4, (R == 64 ? 3 : int(std::bit_width(unsigned(R))) - 5)>;

// The tile itself: (row, byte) -> shared-memory offset.
template <int R>
COTILE_HD constexpr auto tile_layout() {
  return ct::composition(RowSwizzle<R>{},
                         ct::make_layout(ct::make_shape(_16{}, Int<R>{}), ct::make_stride(Int<R>{}, _1{})));
}

// ldmatrix.x4 addresses: lane l gives row l % 8 of matrix l / 8. Two orders of the 4 matrices of
// a 16-row tile, as maps lane -> byte offset (row * R + byte):
//   rows_first:  (rows 0-7, chunk 0), (rows 8-15, chunk 0), (rows 0-7, chunk 1), (rows 8-15, chunk 1)
//   chunks_first: (rows 0-7, chunk 0), (rows 0-7, chunk 1), (rows 8-15, chunk 0), (rows 8-15, chunk 1)
template <int R>
COTILE_HD constexpr auto lanes_rows_first() {
  return ct::make_layout(ct::make_shape(_8{}, _2{}, _2{}), ct::make_stride(Int<R>{}, Int<8 * R>{}, _16{}));
}
template <int R>
COTILE_HD constexpr auto lanes_chunks_first() {
  return ct::make_layout(ct::make_shape(_8{}, _2{}, _2{}), ct::make_stride(Int<R>{}, _16{}, Int<8 * R>{}));
}
// An MMA fragment's own 8 bytes: lane l = 4g + c reads bytes 8c.. of row g (and of row g + 8).
template <int R>
COTILE_HD constexpr auto lanes_fragment() {
  return ct::make_layout(ct::make_shape(_4{}, _8{}), ct::make_stride(_8{}, Int<R>{}));
}

// The warp's MMA, mma.sync m16n8k16 with f32 accumulators (the f16 atom: bf16's places are the
// same), and where a lane's accumulators sit in a 16 x N tile (N a multiple of 8): element i of n8
// tile nt is entry (i, 0, nt) of the MMA's partition of an identity tensor, a (row, column) pair.
COTILE_HD constexpr auto warp_mma() { return ct::make_tiled_mma(ct::SM80_16x8x16_F32F16F16F32_TN{}); }
template <int N>
struct Accumulators {
  COTILE_HD static constexpr auto coords(int lane) {
    return ct::partition_C(warp_mma(), ct::make_identity_tensor(ct::make_shape(_16{}, Int<N>{})), lane);
  }
  // Element (i, nt) is row_step(i) rows and column_step(i, nt) columns from the lane's element
  // (0, 0), the same for every lane (checked): one (row, column) a lane, the rest at compile time.
  static constexpr int row_step(int i) {
    return int(ct::get<0>(coords(0)(i, 0, 0))) - int(ct::get<0>(coords(0)(0, 0, 0)));
  }
  static constexpr int column_step(int i, int nt) {
    return int(ct::get<1>(coords(0)(i, 0, nt))) - int(ct::get<1>(coords(0)(0, 0, 0)));
  }
  static_assert(
      [] {
        int rows[4], columns[4][N / 8];  // row_step(i), column_step(i, nt), from lane 0
        const auto first = coords(0);
        for (int nt = 0; nt < N / 8; ++nt)
          for (int i = 0; i < 4; ++i) {
            const auto x = first(i, 0, nt);
            rows[i] = int(ct::get<0>(x)) - int(ct::get<0>(first(0, 0, 0)));
            columns[i][nt] = int(ct::get<1>(x)) - int(ct::get<1>(first(0, 0, 0)));
          }
        for (int lane = 1; lane < 32; ++lane) {
          const auto c = coords(lane);
          const auto x0 = c(0, 0, 0);
          for (int nt = 0; nt < N / 8; ++nt)
            for (int i = 0; i < 4; ++i) {
              const auto x = c(i, 0, nt);
              if (int(ct::get<0>(x)) - int(ct::get<0>(x0)) != rows[i] ||
                  int(ct::get<1>(x)) - int(ct::get<1>(x0)) != columns[i][nt])
                return false;
            }
        }
        return true;
      }(),
      "decode: a lane's accumulators must be at the same offsets from its first for every lane");

  int row, column;  // of the lane's element (0, 0)
  __device__ static Accumulators of_lane(int lane) {
    __builtin_assume(lane >= 0 && lane < 32);
    const auto c = coords(lane);
    return {int(ct::get<0>(c(0, 0, 0))), int(ct::get<1>(c(0, 0, 0)))};
  }
  // Masking, for scores whose column c is K row n0 + c: the scores of rows hi and after (past the
  // sequence's end) are -inf.
  __device__ __forceinline__ void mask_past(float (&s)[N / 8][4], int n0, int hi) const {
#pragma unroll
    for (int nt = 0; nt < N / 8; ++nt)
#pragma unroll
      for (int i = 0; i < 4; ++i)
        if (n0 + column + column_step(i, nt) >= hi) s[nt][i] = -INFINITY;
  }
  // Several query tokens (per row): the elements i of the lane's row i / 2 (rows
  // row and row + row_step(2)) outside [front[i / 2], end[i / 2]) are -inf (past the sequence's or
  // the split's end, after the row's token, before its window).
  __device__ __forceinline__ void mask_rows(float (&s)[N / 8][4], int n0, const int (&front)[2],
                                            const int (&end)[2]) const {
#pragma unroll
    for (int nt = 0; nt < N / 8; ++nt)
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        const int n = n0 + column + column_step(i, nt);
        if (n < front[i / 2] || n >= end[i / 2]) s[nt][i] = -INFINITY;
      }
  }
};
// P = softmax(S) feeds P V as the MMA's A operand straight from S's accumulators: lane l's A
// fragment of a 16 x 16 tile holds the same (row, column)s as its accumulators of that tile, in
// the order (n8 tile, element), two per 32-bit register.
static_assert(
    [] {
      for (int lane = 0; lane < 32; ++lane) {
        const auto acc = Accumulators<16>::coords(lane);
        const auto a = ct::partition_A(warp_mma(), ct::make_identity_tensor(ct::make_shape(_16{}, _16{})), lane);
        for (int nt = 0; nt < 2; ++nt)
          for (int i = 0; i < 4; ++i) {
            const int k = 4 * nt + i;  // A's value k is s[nt][i]; register j packs values 2j, 2j + 1
            if (int(ct::get<0>(acc(i, 0, nt))) != int(ct::get<0>(a(k, 0, 0))) ||
                int(ct::get<1>(acc(i, 0, nt))) != int(ct::get<1>(a(k, 0, 0))))
              return false;
          }
      }
      return true;
    }(),
    "decode: S's accumulators are not P's A fragment");

// Compile-time configuration for head dimension D, cache type KvType and MB row blocks of 16 query
// rows a CTA (decode_kernel.cuh: MB > 1 for several query tokens).
template <int D, int KvType, int MB = 1>
struct Config {
  static constexpr int kKvBytes = dtype_bytes(KvType);
  static constexpr bool kFp8 = kKvBytes == 1;
  static constexpr bool kBf16 = KvType == COTILE_BF16;  // compute type: bf16 for a bf16 cache, else f16
  static constexpr int kR = D * kKvBytes;               // bytes of one K or V row
  static constexpr int kTile = kRows * kR;              // bytes of one K or V tile
  static constexpr int kStagesRaw = COTILE_DECODE_WARP_SMEM / (2 * kTile);
  // The warpgroup kernel (MB = 4) of an fp8 cache converts each tile into one 16-bit K/V tile
  // (kConvBytes, after the stages; decode_rows.cuh) and keeps 4 stages of its raw tiles, so that
  // its CTA keeps the 16-bit warpgroup kernel's shared memory (two CTAs an SM).
  static constexpr bool kConverts = MB == 4 && kFp8;
  static constexpr int kConvBytes = kConverts ? 2 * 64 * 2 * D : 0;
  static constexpr int kStages = kConverts ? 4
                                 : kStagesRaw < COTILE_DECODE_MIN_STAGES
                                     ? COTILE_DECODE_MIN_STAGES
                                     : (kStagesRaw > COTILE_DECODE_MAX_STAGES ? COTILE_DECODE_MAX_STAGES : kStagesRaw);
  // fp8 operands read by ldmatrix from the raw bytes (the per-warp kernel's), in their column
  // orders (qk_column, o_column); the warpgroup kernel computes on converted 16-bit tiles.
  static constexpr bool kFp8Fragments = kFp8 && !kConverts;
  static constexpr int kQr = 2 * D;  // bytes of a Q row as loaded (<= 2 bytes an element) and as computed
  static constexpr bool kQInRegisters =
      COTILE_DECODE_Q_IN_REGISTERS && D * MB <= 128;  // else re-read per tile (ldmatrix)
  // Shared memory: Q as loaded | Q in compute type, MMA column order | K/V stages (later: the merge).
  // Several row blocks convert Q where it was loaded (kQInPlace), so that their CTA keeps the
  // one-block CTA's shared memory (two CTAs an SM).
  static constexpr bool kQInPlace = MB > 1;
  static constexpr int kQRawBytes = MB * kRows * kQr;
  static constexpr int kQcBytes = kQInPlace ? 0 : kRows * kQr;
  static constexpr int kPipeBytes = kWarps * kStages * 2 * kTile;
  // Floats per row of the warps' merge, padded so that the 8 lanes of one store phase hit distinct
  // banks: rows g, g + 1 are 8 banks apart for the 8-byte (16-bit caches), 16 for the 16-byte
  // stores (fp8).
  static constexpr int kMergeRow = D + (kFp8Fragments ? 16 : 8);
  // The warps whose states a row block merges: each warp's with per-warp streams, one with the
  // warpgroup's (MB = 4: warp w alone computes block w; decode_rows.cuh).
  static constexpr int kMergeWarps = MB == 4 ? 1 : kWarps;
  static constexpr int kMergeBytes = kMergeWarps * kRows * kMergeRow * 4 + 2 * kMergeWarps * kRows * 4;  // a block's
  // The split merge's scratch (merge.cuh, merge_workspace): where the buffers were with one row
  // block, after every block's with several (their merges run one after the other).
  static constexpr int kScratchBytes = (kMaxSplits * kRows + kRows + kThreads * 8) * 4;
  static constexpr int kMergeAll = MB == 1 ? kMergeBytes : MB * kMergeBytes + kScratchBytes;
  static constexpr int kMergeArea =
      kPipeBytes + kConvBytes > kMergeAll ? kPipeBytes + kConvBytes : kMergeAll;  // after Q
  static constexpr int kSmem = kQRawBytes + kQcBytes + kMergeArea + 16;
  static_assert(D == 64 || D == 128 || D == 256, "decode: head_dim must be 64, 128 or 256");
  static_assert(kSmem <= 227 * 1024,
                "decode: the CTA's shared memory (Q, stages, merge) exceeds sm_90's 227 KB per CTA");
  static_assert(kScratchBytes <= kMergeArea, "the split merge (merge.cuh) fits where the stages were");

  // Compute column k of Q / K (the MMA's K index) holds head-dim element qk_column(k). fp8 K
  // fragments come from ldmatrix as 4 consecutive bytes (d = 4c..4c+3 for lane c = l % 4), which
  // the MMA reads as k = {2c, 2c+1} and {8+2c, 8+2c+1}: within each 16, k = (2,4,2) -> d = (1,4,2).
  COTILE_HD static constexpr auto qk_column() {
    if constexpr (kFp8Fragments)
      return ct::make_layout(ct::make_shape(ct::make_shape(_2{}, _4{}, _2{}), Int<D / 16>{}),
                             ct::make_stride(ct::make_stride(_1{}, _4{}, _2{}), _16{}));
    else return ct::make_layout(Int<D>{});
  }
  // Accumulator column n (0-7) of O's n8 tile nt holds head-dim element o_column(n, nt): for fp8 V,
  // one ldmatrix.trans of b16 pairs yields the even and the odd elements of 16 as two n8 tiles.
  COTILE_HD static constexpr auto o_column() {
    if constexpr (kFp8Fragments)
      return ct::make_layout(ct::make_shape(_8{}, ct::make_shape(_2{}, Int<D / 16>{})),
                             ct::make_stride(_2{}, ct::make_stride(_1{}, _16{})));
    else return ct::make_layout(ct::make_shape(_8{}, Int<D / 8>{}), ct::make_stride(_1{}, _8{}));
  }
};

// A warp's copy of one 16-row tile of R-byte rows (K or V) into the swizzled tile: lanes along a
// row's 16-byte chunks, rows in passes. An object holds one lane's copies: tile rows and
// shared-memory offsets, and the byte in the row (the same for all of them).
template <int R>
struct TileCopy {
  static constexpr int kLanesPerRow = R / 16 < 32 ? R / 16 : 32;
  static constexpr int kCopies = kRows * R / 16 / 32;  // 16-byte copies per lane per tile
  COTILE_HD static constexpr auto copy() {
    return ct::make_tiled_copy<CopyOp::kCpAsync16B, Elem::kE4M3>(
        ct::make_layout(ct::make_shape(Int<32 / kLanesPerRow>{}, Int<kLanesPerRow>{}),
                        ct::make_stride(Int<kLanesPerRow>{}, _1{})),
        ct::make_layout(ct::make_shape(_1{}, _16{})));
  }
  COTILE_HD static constexpr auto coords(int lane) {
    return ct::partition_S(copy(), ct::make_identity_tensor(ct::make_shape(_16{}, Int<R>{})), lane);
  }
  // The tile row and row byte of copy j of a lane, at compile time.
  static constexpr int copy_row(int lane, int j) { return int(ct::get<0>(coords(lane)[16 * j])); }
  static constexpr int copy_byte(int lane, int j) { return int(ct::get<1>(coords(lane)[16 * j])); }
  // Copy j is row_step(j) rows below copy 0, at the same byte, for every lane (the copies are
  // passes over the rows): a tile in one page needs one row address per lane.
  static constexpr int row_step(int j) { return copy_row(0, j) - copy_row(0, 0); }
  static_assert(
      [] {
        for (int lane = 0; lane < 32; ++lane)
          for (int j = 0; j < kCopies; ++j)
            if (copy_row(lane, j) - copy_row(lane, 0) != row_step(j) || copy_byte(lane, j) != copy_byte(lane, 0))
              return false;
        return true;
      }(),
      "decode: a lane's copies must be whole rows apart");

  int row[kCopies], smem[kCopies], byte;
  __device__ static TileCopy of_lane(int lane) {
    const auto c = coords(lane);
    static_assert(decltype(ct::size(c))::value == 16 * kCopies, "16 bytes per copy");
    constexpr auto smem_tile = tile_layout<R>();
    TileCopy lc;
    lc.byte = int(ct::get<1>(c[0]));
#pragma unroll
    for (int j = 0; j < kCopies; ++j) {
      lc.row[j] = int(ct::get<0>(c[16 * j]));
      lc.smem[j] = int(smem_tile(lc.row[j], lc.byte));
    }
    return lc;
  }
};

// Where row n of K and V is for one (sequence, KV head): k + page * page_stride + row * row_stride,
// page = pages[n >> log2_page] when paged, else the sequence's base is folded into k and the row
// is n. Two 32 x 32 -> 64-bit multiply-adds a row (row and page strides are < 2^31 bytes,
// checked on the host). The appended token's row is read from k_new / v_new (only the tile that
// holds it checks).
struct RowAddress {
  const uint8_t* k;
  const uint8_t* v;
  // This address, opaque to the compiler: copies at fixed offsets from it add their offsets to it
  // (one 64-bit add each) instead of redoing row * stride per copy.
  __device__ __forceinline__ RowAddress opaque() const {
    RowAddress r = *this;
    asm("" : "+l"(r.k), "+l"(r.v));
    return r;
  }
};
struct KvRows {
  const uint8_t *k, *v;          // contiguous: row 0 of (b, h); paged: page 0, row 0, head h
  const uint8_t *k_new, *v_new;  // the first appended token of (b, h)
  const int32_t* pages;          // the sequence's page-table row, or null (contiguous)
  int32_t k_sn, v_sn, k_sp, v_sp, log2_page;
  int32_t appended, n_appended;  // the appended tokens' rows [appended, + n_appended) (seqlen, q_len), or -1, 0
  int32_t kn_st, vn_st;          // from one appended token to the next (bytes)

  // L2Only: the remap is read past L1 (a read before the dependency wait must leave no line in L1
  // that a read after it could hit).
  // Cache (params.hpp, CacheKind): a plain kernel's launch, whose page table is known to be absent
  // or present and whose remap and appended tokens absent, whatever Params holds.
  template <bool L2Only = false, int Cache = kAnyCache>
  __device__ static KvRows make(const Params& p, int b, int h, int seqlen) {
    KvRows r;
    if constexpr (Cache != kAnyCache) {
      const bool paged = Cache == kPagedCache;
      const int64_t seq = paged ? 0 : b;
      r.k = p.k + seq * p.k_sb + h * p.k_sh, r.v = p.v + seq * p.v_sb + h * p.v_sh;
      r.k_new = r.v_new = nullptr;
      r.pages = paged ? p.page_table + b * p.pt_stride : nullptr;
      r.k_sn = int32_t(p.k_sn), r.v_sn = int32_t(p.v_sn);
      r.k_sp = paged ? int32_t(p.k_sb) : 0, r.v_sp = paged ? int32_t(p.v_sb) : 0;
      r.log2_page = paged ? p.log2_page : 30;
      r.appended = -1, r.n_appended = 0, r.kn_st = r.vn_st = 0;
      return r;
    }
    const int64_t seq = p.page_table ? 0 : !p.batch_idx ? b : L2Only ? __ldcg(p.batch_idx + b) : p.batch_idx[b];
    r.k = p.k + seq * p.k_sb + h * p.k_sh;
    r.v = p.v + seq * p.v_sb + h * p.v_sh;
    r.k_new = p.k_new ? p.k_new + b * p.kn_sb + h * p.kn_sh : nullptr;
    r.v_new = p.v_new ? p.v_new + b * p.vn_sb + h * p.vn_sh : nullptr;
    r.pages = p.page_table ? p.page_table + b * p.pt_stride : nullptr;
    r.k_sn = int32_t(p.k_sn), r.v_sn = int32_t(p.v_sn);
    r.k_sp = p.page_table ? int32_t(p.k_sb) : 0, r.v_sp = p.page_table ? int32_t(p.v_sb) : 0;
    r.log2_page = p.page_table ? p.log2_page : 30;
    r.appended = p.k_new ? seqlen : -1;
    r.n_appended = p.k_new ? p.q_len : 0;
    r.kn_st = int32_t(p.kn_st), r.vn_st = int32_t(p.vn_st);
    return r;
  }
  // Tokens: several appended tokens (else one, at `appended`).
  template <bool Tokens>
  __device__ __forceinline__ bool is_appended(int n) const {
    return Tokens ? unsigned(n - appended) < unsigned(n_appended) : n == appended;
  }
  // Whether rows [n0, n0 + kRows) hold an appended token (one unsigned compare).
  template <bool Tokens>
  __device__ __forceinline__ bool appended_in_tile(int n0) const {
    return Tokens ? unsigned(n0 + kRows - 1 - appended) < unsigned(kRows - 1 + n_appended)
                  : unsigned(appended - n0) < unsigned(kRows);
  }
  // Every row of this thread's K, V, appended K and V `dk`, `dv`, `dkn`, `dvn` bytes further (a lane
  // whose bytes are a pair's second head: decode_kernel.cuh, pair_byte).
  __device__ void move_bases(int64_t dk, int64_t dv, int64_t dkn, int64_t dvn) {
    k += dk, v += dv;
    if (k_new) k_new += dkn, v_new += dvn;
  }
  // Row n in the cache when it lies in page `page` (paged caches).
  __device__ __forceinline__ RowAddress in_page(int32_t page, int n) const {
    const int row = n & ((1 << log2_page) - 1);
    return {k + int64_t(page) * k_sp + int64_t(row) * k_sn, v + int64_t(page) * v_sp + int64_t(row) * v_sn};
  }
  // Row n in the cache (where the appended token is stored, too); Paged: whether pages is set.
  template <bool Paged>
  __device__ __forceinline__ RowAddress cache(int n) const {
    if constexpr (Paged) {
      return in_page(pages[n >> log2_page], n);
    } else {
      return {k + int64_t(n) * k_sn, v + int64_t(n) * v_sn};
    }
  }
  __device__ __forceinline__ RowAddress cache(int n) const { return pages ? cache<true>(n) : cache<false>(n); }
  // Row n as attended: appended tokens are read from k_new / v_new.
  template <bool Paged, bool Tokens>
  __device__ __forceinline__ RowAddress attended(int n) const {
    if (!is_appended<Tokens>(n)) return cache<Paged>(n);
    if constexpr (!Tokens) return {k_new, v_new};
    const int j = n - appended;
    return {k_new + int64_t(j) * kn_st, v_new + int64_t(j) * vn_st};
  }
};

// A warp's page-table entries for its K/V tiles, asked for in issue order (t = 0, 1, 2, ...): lane
// i holds the page of tile 32k + i of the current block k, and block k + 1's entries are loaded
// when block k starts, 32 tiles before their first use. So a tile's copies wait for a shuffle,
// not for a load in their issue path (with 16-row pages, 10-17% of an fp8 call's time: measured in
// docs/design/decode.md, "Tiling"). entry(T): the lane's load for tile T (0 past the warp's
// tiles). The whole warp calls page().
struct TilePages {
  // Used for pages of fewer than 2^kLog2PageLimit rows; larger pages load the entry at the tile
  // (the block load measured up to 8% slower there: docs/design/decode.md, "Tiling").
  static constexpr int kLog2PageLimit = 6;
  int32_t now, next;
  int block;
  template <class Entry>
  __device__ void start(const Entry& entry, int lane) {
    block = 0, now = entry(lane), next = entry(32 + lane);
  }
  template <class Entry>
  __device__ __forceinline__ int32_t page(int t, const Entry& entry, int lane) {
    if (t >> 5 != block) block = t >> 5, now = next, next = entry(32 * (block + 1) + lane);
    return __shfl_sync(0xffffffffu, now, t & 31);
  }
};

// Q (M rows of RQ bytes) into shared memory: the cotiled copy of docs/qload.md §7 over 16-byte cp.async,
// zero fill for rows >= valid_rows (§8.3). Row r is at q + rows(first_row + r) (bytes; `rows` the
// layout of the unit's query rows, decode_kernel.cuh q_row). pair_rows > 0 (a pair of KV heads, decode_kernel.cuh):
// the rows of the pair's first head (rows < pair_rows; with several tokens, those second_of(r)
// says are not its second head's) fill bytes [0, RQ / 2) from their first RQ / 2 bytes and zero
// the rest, the second head's rows the reverse (their bytes [RQ / 2, RQ) from their first RQ / 2).
template <int RQ, int M = kRows, class Rows, class Second = std::nullptr_t>
__device__ __forceinline__ void load_q(const uint8_t* q, const Rows& rows, int first_row, int valid_rows, int pair_rows,
                                       uint8_t* sq, int tid, const Second& second_of = nullptr) {
  constexpr int kAtomThreads = RQ < kThreads ? RQ : kThreads;  // one 16-byte chunk each; M * RQ / 16 chunks
  const auto data = ct::make_layout(ct::make_shape(Int<M>{}, Int<RQ>{}), ct::make_stride(Int<RQ>{}, _1{}));
  const auto atom = ct::make_layout(ct::make_shape(Int<kAtomThreads>{}, _16{}), ct::make_stride(_16{}, _1{}));
  const auto copy = ct::make_cotiled_copy<CopyOp::kCpAsync16B, Elem::kE4M3>(atom, data);
  if (tid >= kAtomThreads) return;
  const auto sQ = ct::make_tensor(ct::make_smem_ptr(sq), data);
  const auto cQ = ct::make_identity_tensor(ct::shape(data));
  const auto ts = ct::partition_D(copy, sQ, tid);
  const auto tc = ct::partition_S(copy, cQ, tid);
  constexpr int kCopies = decltype(ct::size(tc))::value / 16;
#pragma unroll
  for (int j = 0; j < kCopies; ++j) {
    const int row = int(ct::get<0>(tc[16 * j])), column = int(ct::get<1>(tc[16 * j]));
    const bool second = column >= RQ / 2;  // a 16-byte chunk lies in one half
    bool in_second;
    if constexpr (std::is_same_v<Second, std::nullptr_t>) in_second = row >= pair_rows;
    else in_second = second_of(row);
    const bool valid = row < valid_rows && (pair_rows == 0 || second == in_second);
    const uint8_t* src = q + int64_t(rows(first_row + row)) + column - (pair_rows && second ? RQ / 2 : 0);
    arch::cp_async_zfill<16, arch::CacheOp::kGlobal>(&ts[16 * j], src, valid);
  }
}

}  // namespace cotile::attention::detail
