// The streaming-read probe: the bandwidth the benchmarks state their targets against
// (cotile_bandwidth_probe), and a plain read of given bytes launched as the decode is
// (cotile_stream_read), so that a decode is compared with a read of its own bytes.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "cotile/arch/dependent_launch.hpp"
#include "decode.h"
#include "launch.hpp"

namespace cotile::attention::detail {
__device__ uint32_t g_read_sink;  // written only if the xor of everything read is one value: keeps the loads

// Reads n 16-byte words with 4 independent loads in flight a thread. As a dependent launch it waits
// for the previous kernel like the decode does, and lets the next read's CTAs start at once.
__global__ void stream_read(const uint4* __restrict__ src, uint64_t n) {
  arch::grid_dependency_wait();
  arch::launch_dependents();
  uint32_t x = 0;
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + 3 * stride < n; i += 4 * stride) {
    uint4 v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u)
      asm volatile("ld.global.nc.L1::no_allocate.v4.u32 {%0,%1,%2,%3}, [%4];"
                   : "=r"(v[u].x), "=r"(v[u].y), "=r"(v[u].z), "=r"(v[u].w)
                   : "l"(src + i + u * stride));
#pragma unroll
    for (int u = 0; u < 4; ++u) x ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
  }
  for (; i < n; i += stride) {
    const uint4 v = src[i];
    x ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (x == 0x9e3779b9u) g_read_sink = x;
}

// The current device's multiprocessor count.
cudaError_t current_sms(int* sms) {
  int dev = 0;
  if (cudaError_t e = cudaGetDevice(&dev); e != cudaSuccess) return e;
  return cudaDeviceGetAttribute(sms, cudaDevAttrMultiProcessorCount, dev);
}

// One read of `bytes` at src: 8 CTAs of 256 threads on each of `sms` SMs (full occupancy),
// optionally as a programmatic dependent launch (Launch).
cudaError_t launch_stream_read(const void* src, uint64_t bytes, int sms, cudaStream_t stream, bool dependent) {
  const Launch launch(int64_t(sms) * 8, 256, 0, 1, stream, dependent);
  return cudaLaunchKernelEx(&launch.config, stream_read, static_cast<const uint4*>(src), bytes / 16);
}
}  // namespace cotile::attention::detail

using namespace cotile::attention::detail;

extern "C" cotile_status cotile_bandwidth_probe(const void* src, uint64_t bytes, int32_t repeats, float* ms,
                                                void* stream) {
  if (!src || !ms || bytes % 16 || bytes == 0 || repeats < 1)
    return fail(COTILE_ERROR_INVALID_ARGUMENT,
                "cotile_bandwidth_probe: src, ms non-NULL, bytes a positive multiple of 16, repeats >= 1");
  cudaStream_t st = static_cast<cudaStream_t>(stream);
  int sms = 0;  // queried once, outside the timed launches
  COTILE_CUDA_TRY(current_sms(&sms), "cotile_bandwidth_probe: device");
  cudaEvent_t e0, e1;
  COTILE_CUDA_TRY(cudaEventCreate(&e0), "cotile_bandwidth_probe");
  COTILE_CUDA_TRY(cudaEventCreate(&e1), "cotile_bandwidth_probe");
  std::vector<float> t;
  for (int r = 0; r <= repeats; ++r) {  // the first pass warms up
    cudaEventRecord(e0, st);
    COTILE_CUDA_TRY(launch_stream_read(src, bytes, sms, st, false), "cotile_bandwidth_probe: launch");
    cudaEventRecord(e1, st);
    COTILE_CUDA_TRY(cudaEventSynchronize(e1), "cotile_bandwidth_probe: kernel");
    float x = 0;
    cudaEventElapsedTime(&x, e0, e1);
    if (r) t.push_back(x);
  }
  std::sort(t.begin(), t.end());
  *ms = t[t.size() / 2];
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  return ok();
}

extern "C" cotile_status cotile_stream_read(const void* src, uint64_t bytes, void* stream) {
  if (!src || bytes % 16 || bytes == 0)
    return fail(COTILE_ERROR_INVALID_ARGUMENT, "cotile_stream_read: src non-NULL, bytes a positive multiple of 16");
  int sms = 0;
  COTILE_CUDA_TRY(current_sms(&sms), "cotile_stream_read: device");
  COTILE_CUDA_TRY(launch_stream_read(src, bytes, sms, static_cast<cudaStream_t>(stream), true),
                  "cotile_stream_read: launch");
  return ok();
}
