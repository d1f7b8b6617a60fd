// Hopper warpgroup MMA: shared-memory descriptors, the fences around wgmma, and the generated
// 64xNxK instructions (wgmma_generated.hpp).
#pragma once

#include <cstdint>

#include "copy.hpp"
#include "wgmma_generated.hpp"

namespace cotile::arch {

// Shared-memory matrix descriptor (PTX "matrix descriptor"): start address, leading-dimension
// byte offset (between core matrices adjacent in K), stride-dimension byte offset (between core
// matrices adjacent in M/N), swizzle mode. A core matrix is 8 rows of 16 bytes.
enum class GmmaSwizzle : uint64_t { kNone = 0, k128B = 1, k64B = 2, k32B = 3 };

COTILE_HD inline uint64_t make_smem_desc(const void* smem, uint32_t lbo_bytes, uint32_t sbo_bytes,
                                         GmmaSwizzle swizzle = GmmaSwizzle::kNone) {
  const uint64_t addr = smem_addr(smem);
  uint64_t d = 0;
  d |= (addr >> 4) & 0x3FFF;
  d |= uint64_t((lbo_bytes >> 4) & 0x3FFF) << 16;
  d |= uint64_t((sbo_bytes >> 4) & 0x3FFF) << 32;
  d |= uint64_t(swizzle) << 62;
  return d;
}

// Make register and shared-memory writes visible to the warpgroup's next wgmma.
COTILE_HD inline void warpgroup_arrive() {
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#endif
}
// Close the group of wgmma issued since the last commit.
COTILE_HD inline void warpgroup_commit() {
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#endif
}
// Wait until at most N groups are pending.
template <int N>
COTILE_HD inline void warpgroup_wait() {
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
#endif
}
// Order generic-proxy shared-memory writes before async-proxy (wgmma) reads.
COTILE_HD inline void fence_proxy_async_shared() {
#if defined(__CUDA_ARCH__)
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
}
// Keep the compiler from moving accumulator accesses across an in-flight wgmma.
template <int N>
COTILE_HD inline void warpgroup_fence_operands(float (&d)[N]) {
#if defined(__CUDA_ARCH__)
  for (int i = 0; i < N; ++i) asm volatile("" : "+f"(d[i])::"memory");
#else
  (void)d;
#endif
}

}  // namespace cotile::arch
