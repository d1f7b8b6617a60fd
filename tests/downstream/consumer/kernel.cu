// A CUDA source of a downstream project: a static layout evaluated in device code.
#include <cotile/ct/ct.hpp>

__global__ void offsets(int* out) {
  using namespace cotile::ct;
  const auto l = make_layout(make_shape(_4{}, _8{}), make_stride(_8{}, _1{}));
  out[threadIdx.x] = int(l(int(threadIdx.x) % 32));
}

int main() {
  int* out = nullptr;
  if (cudaMalloc(&out, 32 * sizeof(int)) != cudaSuccess) return 77;  // no GPU: compiled, not run
  offsets<<<1, 32>>>(out);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
