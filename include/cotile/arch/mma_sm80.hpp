// mma.sync instructions (one warp): register fragments as the SM80/SM89 atom traits describe them
// (atom/mma_traits.hpp: ALayout, BLayout, CLayout).
#pragma once

#include <cstdint>

#include "copy.hpp"

namespace cotile::arch {

// D = A * B + C, m16n8k16, A/B f16 (Bf16 = false) or bf16, accumulator f32.
// a: 4 registers of 2 halves, b: 2 registers, c/d: 4 floats.
template <bool Bf16 = false>
COTILE_HD inline void mma_m16n8k16(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2], const float (&c)[4]) {
#if defined(__CUDA_ARCH__)
  if constexpr (Bf16)
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%10,%11,%12,%13};\n"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]),
                   "f"(c[3]));
  else
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};\n"
        : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
#else
  (void)d, (void)a, (void)b, (void)c;
  COTILE_DEVICE_ONLY(mma_m16n8k16)
#endif
}

// D = A * B + C, m16n8k32, A and B each e4m3 or e5m2 (AE5M2, BE5M2), accumulator f32 (sm_89+).
// a: 4 registers of 4 bytes, b: 2 registers, c/d: 4 floats.
#define COTILE_MMA_FP8(A, B)                                                                                        \
  asm volatile("mma.sync.aligned.m16n8k32.row.col.f32." A "." B ".f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "      \
               "{%10,%11,%12,%13};\n"                                                                               \
               : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])                                                     \
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), \
                 "f"(c[3]))
template <bool AE5M2 = false, bool BE5M2 = AE5M2>
COTILE_HD inline void mma_m16n8k32_fp8(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2],
                                       const float (&c)[4]) {
#if defined(__CUDA_ARCH__)
  if constexpr (!AE5M2 && !BE5M2) COTILE_MMA_FP8("e4m3", "e4m3");
  else if constexpr (!AE5M2) COTILE_MMA_FP8("e4m3", "e5m2");
  else if constexpr (!BE5M2) COTILE_MMA_FP8("e5m2", "e4m3");
  else COTILE_MMA_FP8("e5m2", "e5m2");
#else
  (void)d, (void)a, (void)b, (void)c;
  COTILE_DEVICE_ONLY(mma_m16n8k32_fp8)
#endif
}
#undef COTILE_MMA_FP8

}  // namespace cotile::arch
