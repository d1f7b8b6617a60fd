// The decode kernels of pairs of head_dim-64 KV heads, run as one head of 128 (fp8 caches;
// plan.hpp, pair_heads): their own translation unit, built in parallel with the others.
#include "decode_kernel.cuh"
#define COTILE_DECODE_KERNEL_DEFINITIONS
#include "kernels.hpp"

cotile::attention::detail::KernelInfo cotile::attention::detail::kernel_pairs(int kv_type) {
  return kernel_for_cache_type<128, true>(kv_type);
}
