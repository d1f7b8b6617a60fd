// What the decode library's host entry points (decode_plan.cu, decode_api.cu) share: their error
// reporting (the calling thread's last error, read by cotile_decode_last_error), the heads and
// kernel of a launch, and a launch configuration.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "decode.h"
#include "decode_config.hpp"
#include "kernels.hpp"

namespace cotile::attention::detail {

// Records a printf-style message as the calling thread's last error and returns `code`.
cotile_status fail(cotile_status code, const char* fmt, ...);
// Clears the last error and returns COTILE_OK.
cotile_status ok();

#define COTILE_CUDA_TRY(call, what)                                                                            \
  do {                                                                                                         \
    const cudaError_t e_ = (call);                                                                             \
    if (e_ != cudaSuccess) return fail(COTILE_ERROR_CUDA, "%s: %s (%s)", what, cudaGetErrorString(e_), #call); \
  } while (0)

// A launch configuration: `grid` CTAs of `threads` with `smem` bytes of dynamic shared memory, in
// clusters of `cluster` CTAs along x (1: no cluster), and (`dependent`) as a programmatic dependent
// launch: its CTAs may start during the previous kernel's tail and wait for it in
// grid_dependency_wait.
struct Launch {
  cudaLaunchConfig_t config{};
  cudaLaunchAttribute attributes[2]{};
  Launch(int64_t grid, int threads, int smem, int cluster, cudaStream_t stream, bool dependent = false) {
    config.gridDim = dim3(unsigned(grid));
    config.blockDim = dim3(unsigned(threads));
    config.dynamicSmemBytes = size_t(smem);
    config.stream = stream;
    config.attrs = attributes;
    if (cluster > 1) {
      cudaLaunchAttribute& a = attributes[config.numAttrs++];
      a.id = cudaLaunchAttributeClusterDimension;
      a.val.clusterDim.x = unsigned(cluster), a.val.clusterDim.y = 1, a.val.clusterDim.z = 1;
    }
    if (dependent && COTILE_DECODE_PDL) {
      cudaLaunchAttribute& a = attributes[config.numAttrs++];
      a.id = cudaLaunchAttributeProgrammaticStreamSerialization;
      a.val.programmaticStreamSerializationAllowed = 1;
    }
  }
  Launch(const Launch&) = delete;  // config.attrs points into this object
};

inline const char* dtype_name(int32_t t) {
  switch (t) {
    case COTILE_F16: return "f16";
    case COTILE_BF16: return "bf16";
    case COTILE_E4M3: return "e4m3";
    case COTILE_E5M2: return "e5m2";
    default: return "unknown";
  }
}
inline bool known_dtype(int32_t t) { return t >= COTILE_F16 && t <= COTILE_E5M2; }

// Query tokens a sequence (shape.q_len; 0 means 1).
inline int64_t q_len_of(const cotile_decode_shape_t& s) { return s.q_len == 0 ? 1 : s.q_len; }

// The heads as the kernel sees them: kv_heads_per_cta = 2 launches the head_dim-128 kernel on
// heads_kv / 2 pairs of 2G query rows a token (plan.hpp, pair_heads; Params::pair_rows). A KV head's
// query rows are its G heads of each of the q_len tokens (rows = G x q_len, in m-tiles of 16).
// m_blocks = 2: two m-tiles a CTA (32 rows) where there are two or more (plan.hpp, two_m_tiles;
// head_dim 64 and 128 with a 16-bit cache: kernel_for finds no other); 4: the warpgroup kernel's
// 64 rows (plan.hpp, can_group_rows).
struct LaunchHeads {
  int64_t per_cta, heads_kv, group, head_dim, rows, m_tiles;
  bool tokens;         // q_len > 1: the Tokens kernels (decode_kernel.cuh)
  int m_blocks = 1;    // m-tiles a CTA (DecodeCta's MB)
  int64_t m_ctas = 1;  // CTAs a (sequence, KV head, split): ceil(m_tiles / m_blocks)
  static LaunchHeads of(const cotile_decode_shape_t& s, int64_t per_cta, int m_blocks) {
    const int64_t g = s.heads_q / s.heads_kv;
    LaunchHeads l{per_cta, s.heads_kv / per_cta, g * per_cta, s.head_dim * per_cta, 0, 0, q_len_of(s) > 1};
    l.rows = l.group * q_len_of(s);
    l.m_tiles = (l.rows + kRows - 1) / kRows;
    l.m_blocks = (m_blocks == 2 || m_blocks == 4) && l.m_tiles > 1 ? m_blocks : 1;
    l.m_ctas = (l.m_tiles + l.m_blocks - 1) / l.m_blocks;
    return l;
  }
};

// The kernel of the launch's head_dim and heads a CTA for cache type kv; for the launches `cache`
// says (params.hpp, CacheKind: a plain kernel where there is one; cotile_decode_run picks it).
KernelInfo kernel_for(const LaunchHeads& l, int32_t kv, int cache = kAnyCache);

}  // namespace cotile::attention::detail
