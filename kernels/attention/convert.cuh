// Register-level conversions of the decode kernel: fp8 pairs to 16-bit MMA operands, float pairs
// to packed halves, and scalar loads of any input type. The fp8 -> f16 paths are bit moves only:
//
//   e5m2 is the top byte of an fp16:   f16(x) = x << 8                          (exact)
//   e4m3 shifted into an fp16:         h = sign(x) << 15 | (x & 0x7f) << 7
//                                      value(h) = value(x) * 2^-8               (exact, subnormals too)
//
// so the 2^8 of e4m3 is folded into the softmax scale (K) and the output scale (V).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <cstdint>

#include "decode.h"

namespace cotile::attention::detail {

// prmt.b32: byte k of the result is byte sel[k] of {b, a} (a: bytes 0-3, b: 4-7).
__device__ __forceinline__ uint32_t prmt(uint32_t a, uint32_t b, uint32_t sel) {
  uint32_t r;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(sel));
  return r;
}

// COTILE_FP8_CVT = 1 (default) converts with the hardware's cvt.rn.f16x2.{e4m3,e5m2}x2; 0 with the
// bit moves above. Measured on the H200 (bench/decode, fp8-e4m3 KV, D = 128): cvt 58-78% of the
// streaming probe, bit moves 47-59% (the integer pipe saturates: 3 ALU operations per pair).
#ifndef COTILE_FP8_CVT
#define COTILE_FP8_CVT 1
#endif

// The factor an fp8 -> f16 bit move leaves out (value = factor * f16 value).
template <int KvType>
inline constexpr float kFp8Factor = (KvType == COTILE_E4M3 && !COTILE_FP8_CVT) ? 256.0f : 1.0f;

// Two fp8 values, each already in the high byte of a 16-bit half, as f16x2 (see above).
template <int KvType>
__device__ __forceinline__ uint32_t fp8_high_bytes_to_f16x2(uint32_t t) {
  if constexpr (KvType == COTILE_E4M3) return ((t >> 1) & 0x3F803F80u) | (t & 0x80008000u);
  else return t;
}

// Four fp8 values of a word as two f16x2: Pairs = false: (byte 0, byte 1), (byte 2, byte 3);
// Pairs = true (ldmatrix.trans of byte pairs): (byte 0, byte 2), (byte 1, byte 3). The e4m3
// bit moves leave out a factor 2^8 (kFp8Factor); cvt is exact.
template <int KvType, bool Transposed>
__device__ __forceinline__ void fp8x4_to_f16x2(uint32_t w, uint32_t& lo, uint32_t& hi) {
#if COTILE_FP8_CVT
  const uint32_t t = Transposed ? prmt(w, 0u, 0x3120u) : w;  // bytes (0, 2, 1, 3)
  if constexpr (KvType == COTILE_E4M3)
    asm("{ .reg .b16 l, h; mov.b32 {l, h}, %2; cvt.rn.f16x2.e4m3x2 %0, l; cvt.rn.f16x2.e4m3x2 %1, h; }"
        : "=r"(lo), "=r"(hi)
        : "r"(t));
  else
    asm("{ .reg .b16 l, h; mov.b32 {l, h}, %2; cvt.rn.f16x2.e5m2x2 %0, l; cvt.rn.f16x2.e5m2x2 %1, h; }"
        : "=r"(lo), "=r"(hi)
        : "r"(t));
#else
  // Byte I to the high byte of the low half, byte J to the high byte of the high half (4 = zero).
  constexpr uint32_t kLo = Transposed ? 0x2404u : 0x1404u, kHi = Transposed ? 0x3414u : 0x3424u;
  lo = fp8_high_bytes_to_f16x2<KvType>(prmt(w, 0u, kLo));
  hi = fp8_high_bytes_to_f16x2<KvType>(prmt(w, 0u, kHi));
#endif
}

// (lo, hi) floats as a packed f16x2 or bf16x2 (lo in the low half).
template <bool Bf16>
__device__ __forceinline__ uint32_t pack2(float lo, float hi) {
  if constexpr (Bf16) {
    const __nv_bfloat162 v = __floats2bfloat162_rn(lo, hi);
    return *reinterpret_cast<const uint32_t*>(&v);
  } else {
    const __half2 v = __floats2half2_rn(lo, hi);
    return *reinterpret_cast<const uint32_t*>(&v);
  }
}

// A packed f16x2 or bf16x2 as two floats (lo, hi).
template <bool Bf16>
__device__ __forceinline__ float2 unpack2(uint32_t w) {
  if constexpr (Bf16) return __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162*>(&w));
  else return __half22float2(*reinterpret_cast<const __half2*>(&w));
}

// One element of type `t` at p, as a float (exact for every input type).
__device__ __forceinline__ float load_as_float(const uint8_t* p, int t) {
  switch (t) {
    case COTILE_F16: return __half2float(*reinterpret_cast<const __half*>(p));
    case COTILE_BF16: return __bfloat162float(*reinterpret_cast<const __nv_bfloat16*>(p));
    case COTILE_E4M3: return __half2float(__half(__nv_cvt_fp8_to_halfraw(*p, __NV_E4M3)));
    default: return __half2float(__half(__nv_cvt_fp8_to_halfraw(*p, __NV_E5M2)));
  }
}

}  // namespace cotile::attention::detail
