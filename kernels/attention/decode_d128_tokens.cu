// Decode kernels for head_dim 128 and several query tokens a sequence, one per cache type (their
// own translation unit: parallel builds stay balanced).
#include "decode_kernel.cuh"
#define COTILE_DECODE_KERNEL_DEFINITIONS
#include "kernels.hpp"

cotile::attention::detail::KernelInfo cotile::attention::detail::kernel_d128_tokens(int kv_type, int m_blocks) {
  return m_blocks == 2 ? kernel_for_cache_type<128, false, true, 2>(kv_type)
                       : kernel_for_cache_type<128, false, true>(kv_type);
}
