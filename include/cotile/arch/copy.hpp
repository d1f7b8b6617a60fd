// Copy instructions: one thin wrapper per PTX instruction, no layout logic (atom/ describes them
// as layouts). Device-only; every function has a host stub that reports the misuse.
#pragma once

#include <cstdint>

#include "../config.hpp"

namespace cotile::arch {

#if defined(__CUDA_ARCH__)
#define COTILE_DEVICE_ONLY(name)
#else
#define COTILE_DEVICE_ONLY(name) __builtin_trap();
#endif

// The shared-memory address of a generic pointer.
COTILE_HD inline uint32_t smem_addr(const void* p) {
#if defined(__CUDA_ARCH__)
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
#else
  (void)p;
  return 0;
#endif
}

// Universal copies of 4, 8 and 16 bytes (ld/st of one word).
template <int Bytes>
COTILE_HD inline void copy_universal(void* dst, const void* src) {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "copy_universal: 4, 8 or 16 bytes");
  if constexpr (Bytes == 4) *static_cast<uint32_t*>(dst) = *static_cast<const uint32_t*>(src);
  if constexpr (Bytes == 8) *static_cast<uint64_t*>(dst) = *static_cast<const uint64_t*>(src);
  if constexpr (Bytes == 16) {
    struct alignas(16) U128 {
      uint64_t lo, hi;
    };
    *static_cast<U128*>(dst) = *static_cast<const U128*>(src);
  }
}

// cp.async: an asynchronous global -> shared copy (sm_80+).
enum class CacheOp { kAlways, kGlobal };  // .ca (L1 and L2) or .cg (L2 only; 16 bytes)

template <int Bytes, CacheOp C = CacheOp::kAlways>
COTILE_HD inline void cp_async(void* smem, const void* gmem) {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "cp.async copies 4, 8 or 16 bytes");
  static_assert(C == CacheOp::kAlways || Bytes == 16, "cp.async.cg copies 16 bytes");
#if defined(__CUDA_ARCH__)
  if constexpr (C == CacheOp::kAlways)
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(smem_addr(smem)), "l"(gmem), "n"(Bytes));
  else asm volatile("cp.async.cg.shared.global [%0], [%1], %2;\n" ::"r"(smem_addr(smem)), "l"(gmem), "n"(Bytes));
#else
  (void)smem, (void)gmem;
  COTILE_DEVICE_ONLY(cp_async)
#endif
}

// cp.async with zero fill: copies Bytes when `pred`, else writes Bytes zeros (source size 0),
// without reading the source (qload.md §8.3: rows m >= G of the Q tile).
template <int Bytes, CacheOp C = CacheOp::kAlways>
COTILE_HD inline void cp_async_zfill(void* smem, const void* gmem, bool pred) {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "cp.async copies 4, 8 or 16 bytes");
  static_assert(C == CacheOp::kAlways || Bytes == 16, "cp.async.cg copies 16 bytes");
#if defined(__CUDA_ARCH__)
  const int src_size = pred ? Bytes : 0;
  if constexpr (C == CacheOp::kAlways)
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(smem_addr(smem)), "l"(gmem), "n"(Bytes),
                 "r"(src_size));
  else
    asm volatile("cp.async.cg.shared.global [%0], [%1], %2, %3;\n" ::"r"(smem_addr(smem)), "l"(gmem), "n"(Bytes),
                 "r"(src_size));
#else
  (void)smem, (void)gmem, (void)pred;
  COTILE_DEVICE_ONLY(cp_async_zfill)
#endif
}

// An L2 cache policy (createpolicy, sm_80+) for the accesses that carry it: evict-first marks
// data that is read once (a stream), so that it does not push out of L2 what is reused (code, a
// merge's partials); evict-normal is the default behaviour. The policy is an opaque 64-bit value,
// made once and passed to each access.
COTILE_HD inline uint64_t l2_policy(bool evict_first) {
#if defined(__CUDA_ARCH__)
  uint64_t policy;
  if (evict_first) asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;\n" : "=l"(policy));
  else asm volatile("createpolicy.fractional.L2::evict_normal.b64 %0, 1.0;\n" : "=l"(policy));
  return policy;
#else
  (void)evict_first;
  COTILE_DEVICE_ONLY(l2_policy)
  return 0;
#endif
}

// A hint: bring the 128-byte line holding `gmem` into L2 (prefetch.global.L2). It returns
// nothing and does not fault, so it may be issued early, from addresses that are only a guess.
COTILE_HD inline void prefetch_l2(const void* gmem) {
#if defined(__CUDA_ARCH__)
  asm volatile("prefetch.global.L2 [%0];\n" ::"l"(gmem));
#else
  (void)gmem;
  COTILE_DEVICE_ONLY(prefetch_l2)
#endif
}

// The same with an L2 cache policy (l2_policy) on the read; the L2-only form (.cg, 16 bytes).
template <int Bytes, CacheOp C>
COTILE_HD inline void cp_async_zfill(void* smem, const void* gmem, bool pred, uint64_t policy) {
  static_assert(Bytes == 16 && C == CacheOp::kGlobal, "cp.async with an L2 policy: the .cg form, 16 bytes");
#if defined(__CUDA_ARCH__)
  asm volatile("cp.async.cg.shared.global.L2::cache_hint [%0], [%1], 16, %2, %3;\n" ::"r"(smem_addr(smem)), "l"(gmem),
               "r"(pred ? 16 : 0), "l"(policy));
#else
  (void)smem, (void)gmem, (void)pred, (void)policy;
  COTILE_DEVICE_ONLY(cp_async_zfill)
#endif
}

// Close the current group of cp.async copies.
COTILE_HD inline void cp_async_commit() {
#if defined(__CUDA_ARCH__)
  asm volatile("cp.async.commit_group;\n" ::);
#else
  COTILE_DEVICE_ONLY(cp_async_commit)
#endif
}

// Wait until at most N groups of cp.async copies are still in flight.
template <int N>
COTILE_HD inline void cp_async_wait() {
#if defined(__CUDA_ARCH__)
  if constexpr (N == 0) asm volatile("cp.async.wait_all;\n" ::);
  else asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
#else
  COTILE_DEVICE_ONLY(cp_async_wait)
#endif
}

// ldmatrix: 1, 2 or 4 8x8 b16 matrices from shared memory; thread t gives the address of row
// t % 8 of matrix t / 8 and receives, per matrix, the two elements (t/4, 2*(t%4) + {0,1}).
// `.trans` delivers the transposed matrices.
template <bool Trans = false>
COTILE_HD inline void ldmatrix_x1(uint32_t& r0, const void* smem) {
#if defined(__CUDA_ARCH__)
  if constexpr (Trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];\n" : "=r"(r0) : "r"(smem_addr(smem)));
  else asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];\n" : "=r"(r0) : "r"(smem_addr(smem)));
#else
  (void)r0, (void)smem;
  COTILE_DEVICE_ONLY(ldmatrix_x1)
#endif
}
template <bool Trans = false>
COTILE_HD inline void ldmatrix_x2(uint32_t& r0, uint32_t& r1, const void* smem) {
#if defined(__CUDA_ARCH__)
  if constexpr (Trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n"
                 : "=r"(r0), "=r"(r1)
                 : "r"(smem_addr(smem)));
  else
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\n"
                 : "=r"(r0), "=r"(r1)
                 : "r"(smem_addr(smem)));
#else
  (void)r0, (void)r1, (void)smem;
  COTILE_DEVICE_ONLY(ldmatrix_x2)
#endif
}
template <bool Trans = false>
COTILE_HD inline void ldmatrix_x4(uint32_t& r0, uint32_t& r1, uint32_t& r2, uint32_t& r3, const void* smem) {
#if defined(__CUDA_ARCH__)
  if constexpr (Trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
                 : "r"(smem_addr(smem)));
  else
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
                 : "r"(smem_addr(smem)));
#else
  (void)r0, (void)r1, (void)r2, (void)r3, (void)smem;
  COTILE_DEVICE_ONLY(ldmatrix_x4)
#endif
}

}  // namespace cotile::arch
