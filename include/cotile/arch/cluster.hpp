// Thread-block clusters (sm_90): the cluster-wide barrier, and
// loads from another CTA's shared memory (distributed shared memory). One thin wrapper per PTX
// instruction; device-only, with host stubs that report the misuse.
#pragma once

#include <cstdint>

#include "copy.hpp"

namespace cotile::arch {

// Every thread of every CTA of the cluster arrives, then waits for all: shared-memory writes made
// before the barrier (release) are visible to every CTA's reads after it (acquire).
COTILE_HD inline void cluster_sync() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("barrier.cluster.arrive.release.aligned;\n"
               "barrier.cluster.wait.acquire.aligned;\n" ::
                   : "memory");
#else
  COTILE_DEVICE_ONLY(cluster_sync)
#endif
}

// The barrier alone, without release/acquire ordering: every CTA of the cluster waits until all
// have arrived (e.g. so that none exits while others still read its shared memory), and no
// memory fence is implied (a release would first wait for the CTA's global stores to complete).
COTILE_HD inline void cluster_wait_all() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("barrier.cluster.arrive.relaxed.aligned;\n"
               "barrier.cluster.wait.aligned;\n" ::
                   : "memory");
#else
  COTILE_DEVICE_ONLY(cluster_wait_all)
#endif
}

// The shared::cluster address of `p` (this CTA's shared memory) in the CTA of rank `rank`.
COTILE_HD inline uint32_t cluster_map(const void* p, uint32_t rank) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  uint32_t a;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;\n" : "=r"(a) : "r"(smem_addr(p)), "r"(rank));
  return a;
#else
  (void)p, (void)rank;
  COTILE_DEVICE_ONLY(cluster_map)
  return 0;
#endif
}

// Loads from a shared::cluster address (cluster_map); volatile, so never moved across cluster_sync.
COTILE_HD inline float cluster_load(uint32_t addr) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  float x;
  asm volatile("ld.shared::cluster.f32 %0, [%1];\n" : "=f"(x) : "r"(addr));
  return x;
#else
  (void)addr;
  COTILE_DEVICE_ONLY(cluster_load)
  return 0.0f;
#endif
}

struct Float4 {
  float x, y, z, w;
};
COTILE_HD inline Float4 cluster_load4(uint32_t addr) {  // 16-byte aligned
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  Float4 v;
  asm volatile("ld.shared::cluster.v4.f32 {%0, %1, %2, %3}, [%4];\n"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
               : "r"(addr));
  return v;
#else
  (void)addr;
  COTILE_DEVICE_ONLY(cluster_load4)
  return {};
#endif
}

}  // namespace cotile::arch
