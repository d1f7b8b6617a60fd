// Zero overhead: a fully static cotile layout evaluated in a kernel compiles to the same SASS as
// the hand-written index expression. run.sh compiles this file for sm_90a and compares the two
// kernels' instructions.
#include "cotile/ct/ct.hpp"

using namespace cotile::ct;

// (8,(4,16)):(4,(1,32)) evaluated at i: cotile.
__global__ void cotile_index(const float* __restrict__ in, float* __restrict__ out) {
  constexpr auto layout =
      make_layout(make_shape(_8{}, make_shape(_4{}, _16{})), make_stride(_4{}, make_stride(_1{}, _32{})));
  const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
  out[i] = in[layout(i)];
}

// The same map written by hand, decomposing i = m + 8*(j + 4*k) mode by mode:
// 4*m + j + 32*k.
__global__ void hand_index(const float* __restrict__ in, float* __restrict__ out) {
  const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
  const int m = i % 8, r = i / 8;
  const int j = r % 4, k = r / 4;
  out[i] = in[4 * m + (j + 32 * k)];
}
