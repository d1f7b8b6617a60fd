// An independent fp32 reference for decode attention: plain kernels, one score per thread, the
// softmax in two passes, dequantization through CUDA's own fp8 conversions. It shares no code
// with the kernel under test (only the problem's definition, decode.h).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <cstdint>

#include "decode.h"

namespace ref {

__host__ __device__ inline int elem_bytes(int t) { return t == COTILE_F16 || t == COTILE_BF16 ? 2 : 1; }

__device__ inline float to_float(const void* base, int64_t i, int t) {
  switch (t) {
    case COTILE_F16: return __half2float(static_cast<const __half*>(base)[i]);
    case COTILE_BF16: return __bfloat162float(static_cast<const __nv_bfloat16*>(base)[i]);
    case COTILE_E4M3: {
      __nv_fp8_e4m3 x;
      x.__x = static_cast<const uint8_t*>(base)[i];
      return float(x);
    }
    default: {
      __nv_fp8_e5m2 x;
      x.__x = static_cast<const uint8_t*>(base)[i];
      return float(x);
    }
  }
}

// Rows of the reference: (b, token, hq), hq fastest; O [rows][D] and LSE [rows] as the kernel's
// [B, q_len, Hq, D] and [B, q_len, Hq] when contiguous.
struct Problem {
  cotile_decode_args_t a;
  int B, Hq, Hkv, D, q_type, kv_type;
  int max_len;  // most positions attended (seqlen + append)
  int q_len = 1;
};

// Element index (in elements of the cache) of row n, element 0, of K (is_v = false) or V.
__device__ inline int64_t row_index(const Problem& p, int b, int h, int n, bool is_v, const void** base) {
  const cotile_decode_args_t& a = p.a;
  const int j = n - a.seqlen_kv[b];  // appended token j
  if (a.k_new && j >= 0 && j < p.q_len) {
    *base = is_v ? a.v_new : a.k_new;
    return is_v ? b * a.v_new_stride_b + j * a.v_new_stride_t + h * a.v_new_stride_h
                : b * a.k_new_stride_b + j * a.k_new_stride_t + h * a.k_new_stride_h;
  }
  *base = is_v ? a.v : a.k;
  int64_t page, row;
  if (a.page_table) {
    page = a.page_table[b * a.page_table_stride + n / a.page_size];
    row = n % a.page_size;
  } else {
    page = a.cache_batch_idx ? a.cache_batch_idx[b] : b;
    row = n;
  }
  return is_v ? page * a.v_stride_b + row * a.v_stride_n + h * a.v_stride_h
              : page * a.k_stride_b + row * a.k_stride_n + h * a.k_stride_h;
}

// Token t of sequence b attends to rows [start, len): causally, the rows up to its own (the last
// q_len of the L rows are the tokens'), its last `window` of them with a window.
__device__ inline void attended(const Problem& p, int b, int t, int* start, int* len) {
  const int L = p.a.seqlen_kv[b] + (p.a.k_new ? p.q_len : 0);
  const int end = L - p.q_len + 1 + t;
  *len = end;
  *start = p.a.window > 0 && end > p.a.window ? end - p.a.window : 0;
}

// Row r of the reference: sequence, token, query head.
struct Row {
  int b, t, hq;
};
__device__ inline Row row_of(const Problem& p, int r) { return {r / (p.q_len * p.Hq), r / p.Hq % p.q_len, r % p.Hq}; }

// scores[bh][n] = softcap(scale * kscale * q . k), -inf outside the attended rows.
__global__ void scores(Problem p, float* s) {
  const int bh = blockIdx.y;
  const Row r = row_of(p, bh);
  const int b = r.b, hq = r.hq, h = hq / (p.Hq / p.Hkv);
  const int n = blockIdx.x * blockDim.x + threadIdx.x;
  if (n >= p.max_len) return;
  int start, len;
  attended(p, b, r.t, &start, &len);
  float x = -INFINITY;
  if (n >= start && n < len) {
    const void* kb;
    const int64_t kr = row_index(p, b, h, n, false, &kb);
    float dot = 0.0f;
    for (int d = 0; d < p.D; ++d)
      dot += to_float(p.a.q, b * p.a.q_stride_b + r.t * p.a.q_stride_t + hq * p.a.q_stride_h + d, p.q_type) *
             to_float(kb, kr + d, p.kv_type);
    const float ks = p.a.k_scale * (p.a.k_scale_per_head ? p.a.k_scale_per_head[h] : 1.0f);
    x = p.a.softmax_scale * ks * dot;
    if (p.a.softcap > 0.0f) x = p.a.softcap * tanhf(x / p.a.softcap);
  }
  s[int64_t(bh) * p.max_len + n] = x;
}

// Per (b, hq): max and sum of exp (one block).
__global__ void softmax_stats(Problem p, const float* s, float* mx, float* sum) {
  __shared__ float red[256];
  const int bh = blockIdx.x;
  const float* row = s + int64_t(bh) * p.max_len;
  float m = -INFINITY;
  for (int n = threadIdx.x; n < p.max_len; n += blockDim.x) m = fmaxf(m, row[n]);
  red[threadIdx.x] = m;
  __syncthreads();
  for (int k = blockDim.x / 2; k; k /= 2) {
    if (threadIdx.x < k) red[threadIdx.x] = fmaxf(red[threadIdx.x], red[threadIdx.x + k]);
    __syncthreads();
  }
  m = red[0];
  __syncthreads();
  float t = 0.0f;
  if (m > -INFINITY)
    for (int n = threadIdx.x; n < p.max_len; n += blockDim.x) t += expf(row[n] - m);
  red[threadIdx.x] = t;
  __syncthreads();
  for (int k = blockDim.x / 2; k; k /= 2) {
    if (threadIdx.x < k) red[threadIdx.x] += red[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) mx[bh] = m, sum[bh] = red[0];
}

// acc[bh][d] += sum over a chunk of rows of exp(s - max) * vscale * v (thread = d).
__global__ void weighted_values(Problem p, const float* s, const float* mx, float* acc, int chunk) {
  const int bh = blockIdx.y;
  const Row r = row_of(p, bh);
  const int b = r.b, h = r.hq / (p.Hq / p.Hkv);
  const int d = threadIdx.x;
  if (mx[bh] == -INFINITY) return;
  const float vs = p.a.v_scale * (p.a.v_scale_per_head ? p.a.v_scale_per_head[h] : 1.0f);
  float t = 0.0f;
  const int n_end = min(p.max_len, (blockIdx.x + 1) * chunk);
  for (int n = blockIdx.x * chunk; n < n_end; ++n) {
    const float x = s[int64_t(bh) * p.max_len + n];
    if (x == -INFINITY) continue;
    const void* vb;
    const int64_t vr = row_index(p, b, h, n, true, &vb);
    t += expf(x - mx[bh]) * vs * to_float(vb, vr + d, p.kv_type);
  }
  atomicAdd(acc + int64_t(bh) * p.D + d, t);
}

__global__ void finalize(Problem p, const float* acc, const float* mx, const float* sum, float* o, float* lse) {
  const int bh = blockIdx.x, d = threadIdx.x;
  const float l = sum[bh];
  o[int64_t(bh) * p.D + d] = l > 0.0f ? acc[int64_t(bh) * p.D + d] / l : 0.0f;
  if (d == 0) lse[bh] = l > 0.0f ? mx[bh] + logf(l) : -INFINITY;
}

}  // namespace ref
