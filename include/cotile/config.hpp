// cotile configuration: host/device annotations and capacities shared by every header.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define COTILE_HD __host__ __device__
#else
#define COTILE_HD
#endif

// CUDA sources: forced inlining and unrolling, so that register fragments stay registers and
// static indices fold (bench/zero_overhead compares the SASS). Host-only sources: the compiler
// decides, as for CuTe's host code (forced, a CuTe core test compiled 1.3x slower, for nothing
// the host needs).
#if defined(__CUDACC__)
#define COTILE_INLINE __forceinline__
#define COTILE_UNROLL _Pragma("unroll")
#else
#define COTILE_INLINE inline
#define COTILE_UNROLL
#endif

// Stop: __trap() on the device, __builtin_trap() on the host.
#if defined(__CUDA_ARCH__)
#define COTILE_TRAP() __trap()
#else
#define COTILE_TRAP() __builtin_trap()
#endif

namespace cotile {

// Fixed capacities: every value is allocation-free so that the same code runs at compile time,
// on the host and on the device. Exceeding a capacity is reported as an error, never UB.
inline constexpr int kMaxLeaves = 64;     // integers in one int-tuple (shape or stride)
inline constexpr int kMaxNodes = 128;     // leaves plus tuple nodes of one int-tuple
inline constexpr int kMaxTileLeaves = 8;  // layouts / integers / '_' in one tile
inline constexpr int kMaxTileNodes = 16;

}  // namespace cotile
