// Without COTILE_DEVICE_CHECKS: a decision the typed layer took at compile time on a run-time value
// (int.hpp, assume) is checked by the program on the device, a comparison, and traps where the
// value contradicts it instead of returning a wrong layout. filter of (4,n):(_1,_0) takes n as
// non-zero (the _0-stride mode dropped, 4:_1); for n = 0 the layout is empty and 4:_1 would reach
// offsets it never does. complement, lifted as the engine computes it on run-time strides, takes
// (_2,_2):(a,b) in the order written; for a > b its program would give (4,0,3):(_1,8,2). The trap
// ends the CUDA context, so those cases run in a child process (this program with --contradict).
// Skipped (exit 77) without a GPU.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "../child_process.hpp"
#include "../gpu_skip.hpp"
#include "cotile/ct/ct.hpp"

using namespace cotile::ct;

namespace {

struct OwnComplement {  // the engine's complement on its default options (run-time strides ordered by value)
  constexpr cotile::Layout operator()(const cotile::Layout& l) const { return cotile::complement(l); }
};

// out: filter's size and R(0..3), then complement's shape and stride leaves (6).
__global__ void decide(int64_t* out, int64_t n, int64_t a, int64_t b) {
  const auto f = filter(make_layout(make_shape(_4{}, n), make_stride(_1{}, _0{})));
  out[0] = int64_t(size(f));
  for (int i = 0; i < 4; ++i) out[1 + i] = int64_t(f(i));
  const auto c = lift<OwnComplement, Kind::kLayout>(make_layout(make_shape(_2{}, _2{}), make_stride(a, b)));
  out[5] = int64_t(get<0>(shape(c))), out[6] = int64_t(get<1>(shape(c))), out[7] = int64_t(get<2>(shape(c)));
  out[8] = int64_t(get<0>(stride(c))), out[9] = int64_t(get<1>(stride(c))), out[10] = int64_t(get<2>(stride(c)));
}

int run(int64_t n, int64_t a, int64_t b, int64_t* host) {
  int64_t* d = nullptr;
  cudaMalloc(&d, 11 * sizeof(int64_t));
  decide<<<1, 1>>>(d, n, a, b);
  const cudaError_t e = cudaDeviceSynchronize();
  if (e == cudaSuccess) cudaMemcpy(host, d, 11 * sizeof(int64_t), cudaMemcpyDeviceToHost);
  return int(e);
}

// The contradicting case `which` in a child process: it must trap (exit 3).
bool traps(const char* self, const char* which) {
  std::string out;
  const bool trapped = child_exit_code(std::string(self) + " --contradict " + which, out) == 3;
  if (!trapped) std::printf("FAIL %s: did not trap\n%s", which, out.c_str());
  return trapped;
}

}  // namespace

int main(int argc, char** argv) {
  skip_without_gpu();
  if (argc > 2 && std::strcmp(argv[1], "--contradict") == 0) {
    int64_t h[11] = {};
    const bool empty = std::strcmp(argv[2], "empty") == 0;
    const int e = empty ? run(0, 1, 4, h) : run(3, 4, 1, h);
    std::printf("kernel status %d\n", e);
    return e == cudaSuccess ? 0 : 3;  // 3: the kernel trapped, as it must
  }
  // The decisions hold: filter 4:_1, complement((_2,_2):(1,4)) = (1,2,1):(_1,2,8) (the engine's).
  int64_t h[11] = {};
  int failures = 0;
  if (const int e = run(3, 1, 4, h); e != cudaSuccess) {
    std::printf("FAIL the kernel did not run: %s\n", cudaGetErrorString(cudaError_t(e)));
    return 1;
  }
  const int64_t want[11] = {4, 0, 1, 2, 3, 1, 2, 1, 1, 2, 8};
  for (int i = 0; i < 11; ++i)
    if (h[i] != want[i]) {
      std::printf("FAIL out[%d] = %lld, want %lld\n", i, (long long)h[i], (long long)want[i]);
      ++failures;
    }
  failures += !traps(argv[0], "empty");
  failures += !traps(argv[0], "order");
  std::printf("%d passed, %d failed\n", failures ? 0 : 3, failures);
  return failures ? 1 : 0;
}
