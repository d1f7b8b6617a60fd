// The decode CTA's MMAs (decode_kernel.cuh, DecodeCta): the scores S = Q K^T of a K tile and
// O += P V of a V tile, for each of the CTA's row blocks, from fragments each lane reads once a
// tile; and P, the softmax's step between them that both kernels share.
// Included by decode_kernel.cuh after DecodeCta.
#pragma once

namespace cotile::attention::detail {

// s[mb][nt] = Q K^T for row block mb and the 16 K rows of the tile at sk: n8 tile nt = rows
// 8nt..8nt+7. Even and odd k-steps accumulate separately (two dependency chains per tile), then
// add. Each K fragment (loaded and converted once) serves every row block.
template <int D, int KvType, bool Pairs, bool Tokens, int MB, int Cache>
inline __device__ void DecodeCta<D, KvType, Pairs, Tokens, MB, Cache>::scores(const uint8_t* sk, const QFragments& qa,
                                                                              float (&s)[MB][2][4]) const {
  float odd[MB][2][4] = {};
  if constexpr (!C::kFp8) {  // k_lane: chunks first
#pragma unroll
    for (int ks = 0; ks < D / 16; ++ks) {
      uint32_t b0[2], b1[2];
      arch::ldmatrix_x4(b0[0], b0[1], b1[0], b1[1], sk + (k_lane ^ (32 * ks)));
#pragma unroll
      for (int mb = 0; mb < MB; ++mb) {
        uint32_t a[4];
        q_step(qa, mb, ks, a);
        float(&acc)[2][4] = ks % 2 ? odd[mb] : s[mb];
        arch::mma_m16n8k16<C::kBf16>(acc[0], a, b0, acc[0]);
        arch::mma_m16n8k16<C::kBf16>(acc[1], a, b1, acc[1]);
      }
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
#pragma unroll
        for (int mb = 0; mb < MB; ++mb) {
          uint32_t a[4];
          q_step(qa, mb, ks + i / 2, a);
          float(&acc)[2][4] = i / 2 ? odd[mb] : s[mb];
          arch::mma_m16n8k16<false>(acc[i % 2], a, bf, acc[i % 2]);
        }
      }
    }
  }
#pragma unroll
  for (int mb = 0; mb < MB; ++mb)
#pragma unroll
    for (int nt = 0; nt < 2; ++nt)
#pragma unroll
      for (int i = 0; i < 4; ++i) s[mb][nt][i] += odd[mb][nt][i];
}

// o[mb][nt] += P V for the tile at sv (P: the A fragment of row block mb's 16 x 16 probabilities).
template <int D, int KvType, bool Pairs, bool Tokens, int MB, int Cache>
inline __device__ void DecodeCta<D, KvType, Pairs, Tokens, MB, Cache>::accumulate(const uint8_t* sv,
                                                                                  const uint32_t (&pa)[MB][4],
                                                                                  float (&o)[MB][D / 8][4]) const {
  if constexpr (!C::kFp8) {
#pragma unroll
    for (int j = 0; j < D / 8; j += 2) {  // chunks j, j + 1 of 8 elements
      uint32_t b0[2], b1[2];
      arch::ldmatrix_x4<true>(b0[0], b0[1], b1[0], b1[1], sv + (v_lane ^ (16 * j)));
#pragma unroll
      for (int mb = 0; mb < MB; ++mb) {
        arch::mma_m16n8k16<C::kBf16>(o[mb][j], pa[mb], b0, o[mb][j]);
        arch::mma_m16n8k16<C::kBf16>(o[mb][j + 1], pa[mb], b1, o[mb][j + 1]);
      }
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
#pragma unroll
        for (int mb = 0; mb < MB; ++mb) {
          arch::mma_m16n8k16<false>(o[mb][2 * (j + c)], pa[mb], even, o[mb][2 * (j + c)]);
          arch::mma_m16n8k16<false>(o[mb][2 * (j + c) + 1], pa[mb], odd, o[mb][2 * (j + c) + 1]);
        }
      }
    }
  }
}

// P = 2^(y - r) of a 16 x 16 block of scores, added to its rows' sums and packed as P V's A
// fragment: S's accumulators, two to a register (checked in tiles.cuh).
template <int D, int KvType, bool Pairs, bool Tokens, int MB, int Cache>
__device__ __forceinline__ void DecodeCta<D, KvType, Pairs, Tokens, MB, Cache>::to_p(float (&s)[2][4],
                                                                                     SoftmaxRow (&row)[2],
                                                                                     uint32_t (&pa)[4]) {
#pragma unroll
  for (int nt = 0; nt < 2; ++nt)
#pragma unroll
    for (int i = 0; i < 4; ++i) s[nt][i] = row[i / 2].add(s[nt][i]);
  pa[0] = pack2<C::kBf16>(s[0][0], s[0][1]), pa[1] = pack2<C::kBf16>(s[0][2], s[0][3]);
  pa[2] = pack2<C::kBf16>(s[1][0], s[1][1]), pa[3] = pack2<C::kBf16>(s[1][2], s[1][3]);
}

}  // namespace cotile::attention::detail
