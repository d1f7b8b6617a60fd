// What the decode library's host entry points share: their error reporting (the calling thread's
// last error, read by cotile_decode_last_error) and a launch configuration.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "decode.h"
#include "decode_config.hpp"

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

}  // namespace cotile::attention::detail
