// The plain decode kernels for head_dim 128 and several query tokens a sequence (params.hpp,
// CacheKind): one row block a CTA on a contiguous or a paged cache without remap, appended tokens,
// window or soft-cap, one per cache type.
#include "decode_kernel.cuh"
#define COTILE_DECODE_KERNEL_DEFINITIONS
#include "kernels.hpp"

cotile::attention::detail::KernelInfo cotile::attention::detail::kernel_d128_tokens_plain(int kv_type, int cache) {
  return plain_kernel_for<128, true>(kv_type, cache);
}
