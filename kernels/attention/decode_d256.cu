// Decode kernels for head_dim 256, one per cache type (a translation unit per head_dim keeps
// parallel builds balanced).
#include "decode_kernel.cuh"
#define COTILE_DECODE_KERNEL_DEFINITIONS
#include "kernels.hpp"

cotile::attention::detail::KernelInfo cotile::attention::detail::kernel_d256(int kv_type) {
  return kernel_for_cache_type<256>(kv_type);
}
