// The decode kernels of pairs of head_dim-64 KV heads with several query tokens a sequence (fp8
// caches; plan.hpp, pair_heads: 2G x q_len <= 16 rows): their own translation unit.
#include "decode_kernel.cuh"
#define COTILE_DECODE_KERNEL_DEFINITIONS
#include "kernels.hpp"

cotile::attention::detail::KernelInfo cotile::attention::detail::kernel_pairs_tokens(int kv_type) {
  return kernel_for_cache_type<128, true, true>(kv_type);
}
