// Where a warp runs: its SM (%smid) and its hardware warp slot on that SM (%warpid). The values are
// what the hardware reports at the moment of the read (PTX: a warp may move when it is preempted),
// so they serve placement heuristics and diagnostics, never correctness. Device-only, with host
// stubs that report the misuse.
#pragma once

#include "copy.hpp"

namespace cotile::arch {

enum class SpecialRegister { kSmId, kWarpId };

// One read of a 32-bit special register.
template <SpecialRegister R>
COTILE_HD inline uint32_t special_register() {
#if defined(__CUDA_ARCH__)
  uint32_t v;
  if constexpr (R == SpecialRegister::kSmId) asm volatile("mov.u32 %0, %%smid;" : "=r"(v));
  else asm volatile("mov.u32 %0, %%warpid;" : "=r"(v));
  return v;
#else
  COTILE_DEVICE_ONLY(special_register)
  return 0;
#endif
}

// The SM this warp runs on, 0 .. SMs - 1 (with gaps on some parts).
COTILE_HD inline uint32_t sm_id() { return special_register<SpecialRegister::kSmId>(); }

// This warp's slot among the warps resident on its SM, 0 .. max warps per SM - 1. The warps
// resident at one time on one SM hold different slots; on the H200 a CTA of w warps (w = 4) gets
// the w slots of one aligned block, the first CTA on an SM 0 .. w - 1, the next w .. 2w - 1
// (arch_test checks both the distinct slots and the aligned blocks; decode_kernel.cuh's stagger
// uses slot / w as the CTA's place on its SM).
COTILE_HD inline uint32_t warp_slot() { return special_register<SpecialRegister::kWarpId>(); }

}  // namespace cotile::arch
