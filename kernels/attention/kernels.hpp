// The compiled decode kernels: one per (head_dim, cache type), in decode_d64/128/256.cu, and for
// several query tokens a sequence, in decode_d64/128/256_tokens.cu, one per row blocks a CTA too
// (16 or 32 query rows; 32 for 16-bit caches of head_dim 64 and 128 only), and the warpgroup
// kernels of 64 rows (decode_d128_rows.cu); the plain kernels (params.hpp, CacheKind) of one token
// at every head_dim and of several at head_dim 128 and 256.
#pragma once

#include "params.hpp"

namespace cotile::attention::detail {

struct KernelInfo {
  const void* fn = nullptr;  // __global__ void(Params)
  int smem = 0;              // dynamic shared memory bytes
  int m_blocks = 1;          // row blocks of 16 query rows a CTA (decode_kernel.cuh, DecodeCta's MB)
};

KernelInfo kernel_d64(int kv_type);
KernelInfo kernel_d128(int kv_type);
KernelInfo kernel_d256(int kv_type);
// The plain kernels of one token a sequence (params.hpp, CacheKind: kContiguousCache or kPagedCache),
// decode_d64/128/256_plain.cu; none for kAnyCache.
KernelInfo kernel_d64_plain(int kv_type, int cache);
KernelInfo kernel_d128_plain(int kv_type, int cache);
KernelInfo kernel_d256_plain(int kv_type, int cache);
// The plain kernels of several tokens a sequence, one row block a CTA (decode_d128/256_tokens_plain.cu).
KernelInfo kernel_d128_tokens_plain(int kv_type, int cache);
KernelInfo kernel_d256_tokens_plain(int kv_type, int cache);
KernelInfo kernel_pairs(int kv_type);                     // pairs of head_dim-64 KV heads (fp8 only; else none)
KernelInfo kernel_d64_tokens(int kv_type, int m_blocks);  // q_len > 1 (Params::q_len); m_blocks 1 or 2
KernelInfo kernel_d128_tokens(int kv_type, int m_blocks);
KernelInfo kernel_d128_rows(int kv_type);      // q_len > 1, 64 rows a CTA by wgmma
KernelInfo kernel_d128_rows_fp8(int kv_type);  // the same for fp8 caches (decode_d128_rows_fp8.cu; else none)
KernelInfo kernel_d256_tokens(int kv_type);    // one row block
KernelInfo kernel_pairs_tokens(int kv_type);   // pairs with q_len > 1 (2G x q_len <= 16 rows; fp8 only)

// The kernel of head_dim D for a cache type (included by the decode_d*.cu files only).
#ifdef COTILE_DECODE_KERNEL_DEFINITIONS
template <int D, int T, bool Pairs = false, bool Tokens = false, int MB = 1, int Cache = kAnyCache>
KernelInfo kernel_info() {
  return {reinterpret_cast<const void*>(&decode_kernel<D, T, Pairs, Tokens, MB, Cache>), Config<D, T, MB>::kSmem, MB};
}
// (MB = 4: 16-bit caches here, fp8 ones in their own translation unit, kernel_d128_rows_fp8.)
template <int D, bool Pairs = false, bool Tokens = false, int MB = 1, int Cache = kAnyCache>
KernelInfo kernel_for_cache_type(int kv_type) {
  auto info = [](auto kv) -> KernelInfo { return kernel_info<D, decltype(kv)::value, Pairs, Tokens, MB, Cache>(); };
  switch (kv_type) {
    case COTILE_F16:
      if constexpr (Pairs) return {};
      else return info(std::integral_constant<int, COTILE_F16>{});
    case COTILE_BF16:
      if constexpr (Pairs) return {};
      else return info(std::integral_constant<int, COTILE_BF16>{});
    case COTILE_E4M3:  // two m-tiles a CTA: 16-bit caches only (plan.hpp, can_two_m_tiles); four: above
      if constexpr (MB > 1) return {};
      else return info(std::integral_constant<int, COTILE_E4M3>{});
    case COTILE_E5M2:
      if constexpr (MB > 1) return {};
      else return info(std::integral_constant<int, COTILE_E5M2>{});
    default: return {};
  }
}
// The plain kernels of head_dim D (decode_d*_plain.cu; Tokens: decode_d*_tokens_plain.cu).
template <int D, bool Tokens = false>
KernelInfo plain_kernel_for(int kv_type, int cache) {
  return cache == kContiguousCache ? kernel_for_cache_type<D, false, Tokens, 1, kContiguousCache>(kv_type)
         : cache == kPagedCache    ? kernel_for_cache_type<D, false, Tokens, 1, kPagedCache>(kv_type)
                                   : KernelInfo{};
}
#endif

}  // namespace cotile::attention::detail
