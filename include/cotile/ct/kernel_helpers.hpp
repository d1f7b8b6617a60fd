// CuTe's small kernel helpers under its names: raw_pointer_cast, thread0, cp_async_fence,
// cp_async_wait<N> (arch/copy.hpp does the work).
#pragma once

#include "../arch/copy.hpp"
#include "tensor.hpp"

namespace cotile::ct {

// The plain pointer behind a tagged (gmem/smem) pointer, or the pointer itself.
template <class T, Space M>
COTILE_HD constexpr T* raw_pointer_cast(const tagged_ptr<T, M>& p) {
  return p.get();
}
template <class T>
COTILE_HD constexpr T* raw_pointer_cast(T* p) {
  return p;
}

// True in thread 0 of block 0 (on the host: true), for printing once from a kernel.
COTILE_HD inline bool thread0() {
#if defined(__CUDA_ARCH__)
  return threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0 && blockIdx.x == 0 && blockIdx.y == 0 &&
         blockIdx.z == 0;
#else
  return true;
#endif
}

// Close the group of cp.async copies issued so far; wait until at most N groups are in flight.
COTILE_HD inline void cp_async_fence() { arch::cp_async_commit(); }
template <int N>
COTILE_HD inline void cp_async_wait() {
  arch::cp_async_wait<N>();
}

}  // namespace cotile::ct
