// GPU tests exit 77 (ctest SKIP_RETURN_CODE) when the machine has no GPU.
#pragma once
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

inline void skip_without_gpu() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no GPU: skipped\n");
    std::exit(77);
  }
}
