// COTILE_DEVICE_CHECKS: the typed layer checks, on the device, the laws that depend on run-time
// values (on the host they are always checked). A lawful composition with a run-time stride
// runs as without the switch; one whose result violates composition's law prints the law's
// message and traps. The trap ends the CUDA context, so that case runs in a child process
// (this program with --violate). Skipped (exit 77) without a GPU.
#define COTILE_DEVICE_CHECKS 1
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "../child_process.hpp"
#include "../gpu_skip.hpp"
#include "cotile/ct/ct.hpp"

using namespace cotile::ct;

namespace {

// A = (_3,_4):(_8,_1) composed with B = (_4,_2):(stride,_1): lawful for stride 3 (B's first mode
// steps over A's first mode), a violation for stride 2 (R(2) = 1, but A(B(2)) = A(4) = 9).
__global__ void compose(int64_t* out, int64_t stride) {
  const auto a = make_layout(make_shape(_3{}, _4{}), make_stride(_8{}, _1{}));
  const auto r = composition(a, make_layout(make_shape(_4{}, _2{}), make_stride(stride, _1{})));
  for (int i = 0; i < 8; ++i) out[i] = r(i);
}

int run(int64_t stride, int64_t* host) {
  // The engine's check runs on the device with its values on the thread's stack (layouts, the
  // law's message): ~100 KiB (ptxas: a 52 KB frame plus its callees), far more than the default
  // 1 KiB; docs/design/typed-layer.md.
  if (cudaDeviceSetLimit(cudaLimitStackSize, 128 << 10) != cudaSuccess) return int(cudaGetLastError());
  int64_t* d = nullptr;
  cudaMalloc(&d, 8 * sizeof(int64_t));
  compose<<<1, 1>>>(d, stride);
  const cudaError_t e = cudaDeviceSynchronize();
  if (e == cudaSuccess) cudaMemcpy(host, d, 8 * sizeof(int64_t), cudaMemcpyDeviceToHost);
  return int(e);
}

}  // namespace

int main(int argc, char** argv) {
  skip_without_gpu();
  if (argc > 1 && std::strcmp(argv[1], "--violate") == 0) {
    int64_t h[8] = {};
    const int e = run(2, h);
    std::printf("kernel status %d\n", e);
    return e == cudaSuccess ? 0 : 3;  // 3: the kernel trapped, as it must
  }
  // Lawful: A o (_4,_2):(3,_1) = A(3i + j), the engine's values on the host.
  int64_t h[8] = {};
  int failures = 0;
  if (const int e = run(3, h); e != cudaSuccess) {
    std::printf("FAIL the lawful composition did not run: %s\n", cudaGetErrorString(cudaError_t(e)));
    return 1;
  }
  const cotile::Layout a = cotile::Layout{cotile::make_tuple(cotile::static_int(3), cotile::static_int(4)),
                                          cotile::make_tuple(cotile::static_int(8), cotile::static_int(1))};
  for (int i = 0; i < 8; ++i) {
    const int64_t want = cotile::eval(a, (i % 4) * 3 + i / 4).value;
    if (h[i] != want) {
      std::printf("FAIL R(%d) = %lld, A(B(%d)) = %lld\n", i, (long long)h[i], i, (long long)want);
      ++failures;
    }
  }
  // The violation, in a child process: it must trap after printing the law's message.
  std::string out;
  const bool trapped = child_exit_code(std::string(argv[0]) + " --violate", out) == 3;
  const bool message = out.find("cotile: composition: R(c) = A(B(c)) fails at c = 2 (R(2) = 1, A(B(2)) = A(4) = 9)") !=
                       std::string::npos;
  if (!trapped || !message) {
    std::printf("FAIL the violating composition: %s, %s\n%s", trapped ? "trapped" : "did not trap",
                message ? "message printed" : "no message", out.c_str());
    ++failures;
  }
  std::printf("%d passed, %d failed\n", failures ? 0 : 2, failures);
  return failures ? 1 : 0;
}
