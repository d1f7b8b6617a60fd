// The online softmax of the decode kernel, in base 2: a query row's scores x become
// y = log2(e) x (and e^x = 2^y), so every exponential is one MUFU.EX2.
//
// The state of one row over the keys seen so far:
//     m,     l = sum_y 2^(y - r),     O = sum_y 2^(y - r) v_y,     r = ref(m)
// where m is the row's max as of its last rescale (the lazy update below lets later scores exceed
// it by up to kLazyRescale; any m gives the same result, l and O being relative to it) and
// ref(m) = m, or 0 while m = -inf (nothing seen: every 2^(y - r) is then 2^-inf = 0, never NaN).
// The row's result is O / l and its log-sum-exp lse = m + log2 l (result below).
//
// update, for a tile of scores with max m' (SoftmaxRow): when m' > m, the reference moves to
// r* = ref(max(m, m')) and what was summed is rescaled by alpha = 2^(r - r*) (l and O); then each
// score adds p = 2^(y - r*) to l and p v_y to O. Lazily: the reference moves only when m' exceeds
// m by more than kLazyRescale, so p <= 2^kLazyRescale (exact to f16/bf16 precision, the fp32 sums
// far from overflow) and most tiles skip the rescale.
//
// merge, of states (m_i, l_i, O_i) of one row (the 4 warps of a CTA, a cluster's splits):
//     M = max m_i,     f_i = 2^(m_i - ref(M)) (merge_weight),     l = sum f_i l_i,     O = sum f_i O_i.
// A normalized partial (O_s / l_s, lse_s) is the state (lse_s, 1, O_s / l_s): merging those gives
// lse = M + log2 sum 2^(lse_s - ref(M)), and each partial's weight in the result is 2^(lse_s - lse).
#pragma once

#include <cuda_runtime.h>

namespace cotile::attention::detail {

constexpr float kLog2e = 1.4426950408889634f, kLn2 = 0.6931471805599453f;
// The reference moves only when a score exceeds the running max by more than this (base 2).
constexpr float kLazyRescale = 8.0f;

// 2^x (MUFU.EX2; flushes subnormal results, which are below any probability that matters).
__device__ __forceinline__ float exp2_fast(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

// ref(m): the running max, or 0 while it is -inf.
__device__ __forceinline__ float exp2_reference(float mx) { return mx == -INFINITY ? 0.0f : mx; }

// f_i = 2^(m_i - r): the weight of a state with max m_i in a merge whose reference is r (also a
// normalized partial's weight 2^(lse_s - lse)).
__device__ __forceinline__ float merge_weight(float m_i, float r) { return exp2_fast(m_i - r); }

// A merged row's result: the factor 1 / l that normalizes O (0 for an empty row) and lse = M + log2 l
// (-inf for an empty row).
struct RowResult {
  float inv, lse;
};
__device__ __forceinline__ RowResult result(float m, float l) {
  return {l > 0.0f ? 1.0f / l : 0.0f, l > 0.0f ? m + log2f(l) : -INFINITY};
}

// Scaling: a warp's scores as base-2 logits, y = log2(e) x with x = x_scale (q . k); soft-capped,
// y = log2(e) cap tanh(x / cap) (y_scale = x_scale log2(e), or x_scale / cap when capped;
// y_cap = cap log2(e)). One branch a tile, not a score.
// y_scale[r]: of the lane's row r (elements 2r, 2r + 1 of each n8 tile; the two rows' heads may
// differ in a pair of KV heads, decode_kernel.cuh).
template <int T>
__device__ __forceinline__ void to_base2(float (&s)[T][4], bool capped, const float (&y_scale)[2], float y_cap) {
  if (capped) {
#pragma unroll
    for (int nt = 0; nt < T; ++nt)
#pragma unroll
      for (int i = 0; i < 4; ++i) s[nt][i] = y_cap * tanhf(s[nt][i] * y_scale[i / 2]);
  } else {
#pragma unroll
    for (int nt = 0; nt < T; ++nt)
#pragma unroll
      for (int i = 0; i < 4; ++i) s[nt][i] *= y_scale[i / 2];
  }
}

// One row's running state in a warp's main loop (O lives in the MMA accumulators beside it).
struct SoftmaxRow {
  float max = -INFINITY;  // m: the row's max as of its last rescale
  float ref = 0.0f;       // r = ref(m), kept beside m so that add() needs no select
  float sum = 0.0f;       // l, relative to ref

  // Whether a tile whose max is m' moves the reference (the lazy test).
  __device__ __forceinline__ bool moves(float m_tile) const { return m_tile > max + kLazyRescale; }
  // Moves the reference to ref(max(m, m')) and rescales l; returns alpha, which rescales O.
  __device__ __forceinline__ float rescale_to(float m_tile) {
    const float m_new = fmaxf(max, m_tile);
    const float r_new = exp2_reference(m_new);  // an all-masked row so far: exp2(-inf) = 0
    const float alpha = exp2_fast(ref - r_new);
    max = m_new;
    ref = r_new;
    sum *= alpha;
    return alpha;
  }
  // p = 2^(y - r) of a score y, added to l; returns p (the caller adds p v_y to O).
  __device__ __forceinline__ float add(float y) {
    const float p = exp2_fast(y - ref);
    sum += p;
    return p;
  }
};

}  // namespace cotile::attention::detail
