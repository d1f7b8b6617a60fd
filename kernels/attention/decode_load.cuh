// The decode CTA's loads (decode_kernel.cuh, DecodeCta): the cp.async copies of a K/V tile's
// rows, Q converted to the compute type, and Q's A fragments.
// Included by decode_kernel.cuh after DecodeCta.
#pragma once

namespace cotile::attention::detail {

// The copies of the warp's tile t into stage s (issue_tile; `page` the tile's page when Paged):
// rows past hi are zero-filled without being read.
template <int D, int KvType, bool Pairs, bool Tokens, int MB, int Cache>
template <bool Paged>
__device__ __forceinline__ void DecodeCta<D, KvType, Pairs, Tokens, MB, Cache>::issue_rows(const Copy& lc, int t, int s,
                                                                                           int32_t page) const {
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

// Q as loaded -> Q in the compute type, columns in MMA order (qk_column), swizzled rows (row
// block j at j x 16 rows); a thread writes 8 columns (16 bytes) at a time. Several blocks
// (C::kQInPlace) convert where Q was loaded: every thread reads its items, then all write.
template <int D, int KvType, bool Pairs, bool Tokens, int MB, int Cache>
inline __device__ void DecodeCta<D, KvType, Pairs, Tokens, MB, Cache>::prepare_q() const {
  const uint8_t* raw = smem;
  uint8_t* qc = C::kQInPlace ? smem : smem + C::kQRawBytes;
  constexpr auto column = C::qk_column();
  constexpr auto qc_tile = tile_layout<C::kQr>();
  const auto convert = [&](int i) {  // item i: row i / (D / 8), columns 8 (i % (D / 8)) ..
    const int m = i / (D / 8), k0 = 8 * (i % (D / 8));
    uint32_t w[4];
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      const float x0 = load_as_float(raw + (m * D + int(column(k0 + 2 * e))) * p.q_bytes, p.q_type);
      const float x1 = load_as_float(raw + (m * D + int(column(k0 + 2 * e + 1))) * p.q_bytes, p.q_type);
      w[e] = pack2<C::kBf16>(x0, x1);
    }
    return make_uint4(w[0], w[1], w[2], w[3]);
  };
  const auto place = [&](int i) {
    const int m = i / (D / 8), k0 = 8 * (i % (D / 8));
    return MB == 1 ? int(qc_tile(m, 2 * k0)) : int(qc_tile(m % kRows, 2 * k0)) + m / kRows * kRows * C::kQr;
  };
  if constexpr (C::kQInPlace) {
    constexpr int kItems = MB * kRows * D / 8 / kThreads;
    static_assert(kItems * kThreads == MB * kRows * D / 8, "decode: Q's items divide among the threads");
    uint4 v[kItems];
#pragma unroll
    for (int j = 0; j < kItems; ++j) v[j] = convert(tid + j * kThreads);
    __syncthreads();
#pragma unroll
    for (int j = 0; j < kItems; ++j) *reinterpret_cast<uint4*>(qc + place(tid + j * kThreads)) = v[j];
  } else {
    for (int i = tid; i < kRows * D / 8; i += kThreads) *reinterpret_cast<uint4*>(qc + place(i)) = convert(i);
  }
}

// Q's A fragments, k-step ks = 16 columns: (rows 0-7 | 8-15) x (k 0-7 | 8-15). From Q as loaded
// for an fp8 cache, in its k order: k (2c, 2c + 1) and (8 + 2c, 9 + 2c) are columns
// 16 ks + 4c .. 4c + 3 of rows g and g + 8 (two 8-byte loads); else one ldmatrix. One branch
// for all k-steps. Row block mb's rows lie 16 rows further per block (the swizzle reads no bit
// of that step).
template <int D, int KvType, bool Pairs, bool Tokens, int MB, int Cache>
inline __device__ void DecodeCta<D, KvType, Pairs, Tokens, MB, Cache>::q_fragments(uint32_t (&qa)[D / 16][4],
                                                                                   int mb) const {
  const uint8_t* base = q_base + mb * kRows * C::kQr;
  if (C::kFp8 && q_as_loaded()) {
#pragma unroll
    for (int ks = 0; ks < D / 16; ++ks) {
      const uint2 r0 = *reinterpret_cast<const uint2*>(base + q_lane + 32 * ks);
      const uint2 r1 = *reinterpret_cast<const uint2*>(base + q_lane + 8 * C::kQr + 32 * ks);
      qa[ks][0] = r0.x, qa[ks][1] = r1.x, qa[ks][2] = r0.y, qa[ks][3] = r1.y;
    }
  } else {
#pragma unroll
    for (int ks = 0; ks < D / 16; ++ks)
      arch::ldmatrix_x4(qa[ks][0], qa[ks][1], qa[ks][2], qa[ks][3], base + (q_lane ^ (32 * ks)));
  }
}

}  // namespace cotile::attention::detail
