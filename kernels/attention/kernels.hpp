// The compiled decode kernels: one per (head_dim, cache type), in decode_d64/128/256.cu.
#pragma once

namespace cotile::attention::detail {

struct KernelInfo {
  const void* fn = nullptr;  // __global__ void(Params)
  int smem = 0;              // dynamic shared memory bytes
  int stages = 0;            // cp.async stages per warp
};

KernelInfo kernel_d64(int kv_type);
KernelInfo kernel_d128(int kv_type);
KernelInfo kernel_d256(int kv_type);

}  // namespace cotile::attention::detail
