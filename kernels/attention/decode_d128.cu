// Decode kernels for head_dim 128, one per cache type (a translation unit per head_dim keeps
// parallel builds balanced).
#include "decode_kernel.cuh"
#include "kernels.hpp"

namespace cotile::attention::detail {

template <int KvType>
static KernelInfo info() {
  return {reinterpret_cast<const void*>(&decode_kernel<128, KvType>), Config<128, KvType>::kSmem, Config<128, KvType>::kStages};
}

KernelInfo kernel_d128(int kv_type) {
  switch (kv_type) {
    case COTILE_F16: return info<COTILE_F16>();
    case COTILE_BF16: return info<COTILE_BF16>();
    case COTILE_E4M3: return info<COTILE_E4M3>();
    case COTILE_E5M2: return info<COTILE_E5M2>();
    default: return {};
  }
}

}  // namespace cotile::attention::detail
