// The warpgroup decode kernels for fp8 caches (decode_rows.cuh, Config::kConverts: each tile
// converted to f16 for wgmma), head_dim 128, one per fp8 type (their own translation unit: parallel
// builds stay balanced).
#include "decode_kernel.cuh"
#define COTILE_DECODE_KERNEL_DEFINITIONS
#include "kernels.hpp"

cotile::attention::detail::KernelInfo cotile::attention::detail::kernel_d128_rows_fp8(int kv_type) {
  switch (kv_type) {
    case COTILE_E4M3: return kernel_info<128, COTILE_E4M3, false, true, 4>();
    case COTILE_E5M2: return kernel_info<128, COTILE_E5M2, false, true, 4>();
    default: return {};
  }
}
