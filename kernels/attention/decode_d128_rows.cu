// The warpgroup decode kernels (64 query rows a CTA by wgmma: decode_rows.cuh), head_dim 128, one
// per 16-bit cache type (their own translation unit: parallel builds stay balanced).
#include "decode_kernel.cuh"
#define COTILE_DECODE_KERNEL_DEFINITIONS
#include "kernels.hpp"

cotile::attention::detail::KernelInfo cotile::attention::detail::kernel_d128_rows(int kv_type) {
  return kernel_for_cache_type<128, false, true, 4>(kv_type);
}
