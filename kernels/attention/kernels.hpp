// The compiled decode kernels: one per (head_dim, cache type), in decode_d64/128/256.cu, and as
// many for several query tokens a sequence, in decode_d64/128/256_tokens.cu.
#pragma once

namespace cotile::attention::detail {

struct KernelInfo {
  const void* fn = nullptr;  // __global__ void(Params)
  int smem = 0;              // dynamic shared memory bytes
};

KernelInfo kernel_d64(int kv_type);
KernelInfo kernel_d128(int kv_type);
KernelInfo kernel_d256(int kv_type);
KernelInfo kernel_pairs(int kv_type);       // pairs of head_dim-64 KV heads (fp8 only; else none)
KernelInfo kernel_d64_tokens(int kv_type);  // q_len > 1 (Params::q_len)
KernelInfo kernel_d128_tokens(int kv_type);
KernelInfo kernel_d256_tokens(int kv_type);

// The kernel of head_dim D for a cache type (included by the decode_d*.cu files only).
#ifdef COTILE_DECODE_KERNEL_DEFINITIONS
template <int D, bool Pairs = false, bool Tokens = false>
KernelInfo kernel_for_cache_type(int kv_type) {
  auto info = [](auto kv) -> KernelInfo {
    constexpr int T = decltype(kv)::value;
    return {reinterpret_cast<const void*>(&decode_kernel<D, T, Pairs, Tokens>), Config<D, T>::kSmem};
  };
  switch (kv_type) {
    case COTILE_F16:
      if constexpr (Pairs) return {};
      else return info(std::integral_constant<int, COTILE_F16>{});
    case COTILE_BF16:
      if constexpr (Pairs) return {};
      else return info(std::integral_constant<int, COTILE_BF16>{});
    case COTILE_E4M3: return info(std::integral_constant<int, COTILE_E4M3>{});
    case COTILE_E5M2: return info(std::integral_constant<int, COTILE_E5M2>{});
    default: return {};
  }
}
#endif

}  // namespace cotile::attention::detail
