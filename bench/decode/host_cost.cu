// The host time of one decode_run (the C++ interface: argument checks and the launch), with the GPU
// otherwise idle: batches of 50 calls, synchronized between batches, each call timed on the host.
// Prints the median and the 90th percentile per configuration (issue target: <= 3 us), and this
// host's floor for it: the same launch (grid, threads, shared memory, cluster, dependent launch,
// a parameter of the kernel's size, through the driver's cuLaunchKernelEx as decode_run launches)
// of an empty kernel, timed alike; decode_run's own time is the difference.
//   build-release/bench/decode_host_cost
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "decode.hpp"
#include "params.hpp"

namespace {

using namespace cotile::attention;

// The floor's kernel: nothing, with decode_run's parameter (its size is what the launch copies).
__global__ void empty_kernel(const __grid_constant__ detail::Params) {}

using LaunchFn = CUresult (*)(const CUlaunchConfig*, CUfunction, void**, void**);

// The median host time of one launch of empty_kernel configured as `plan`'s, through the driver
// entry point decode_run uses; a negative value where it is not available.
double launch_floor_us(const DecodePlan& plan, cudaStream_t stream) {
  void* entry = nullptr;
  cudaDriverEntryPointQueryResult q{};
  cudaFunction_t fn = nullptr;
  if (cudaGetDriverEntryPointByVersion("cuLaunchKernelEx", &entry, 12000, cudaEnableDefault, &q) != cudaSuccess ||
      q != cudaDriverEntryPointSuccess || cudaGetFuncBySymbol(&fn, reinterpret_cast<const void*>(&empty_kernel)) ||
      cudaFuncSetAttribute(reinterpret_cast<const void*>(&empty_kernel), cudaFuncAttributeMaxDynamicSharedMemorySize,
                           plan.smem_bytes) != cudaSuccess) {
    cudaGetLastError();
    return -1.0;
  }
  const auto launch = reinterpret_cast<LaunchFn>(entry);
  CUlaunchAttribute attrs[2] = {};
  CUlaunchConfig c{};
  c.gridDimX = unsigned(plan.grid), c.gridDimY = c.gridDimZ = 1;
  c.blockDimX = unsigned(detail::kThreads), c.blockDimY = c.blockDimZ = 1;
  c.sharedMemBytes = unsigned(plan.smem_bytes);
  c.hStream = reinterpret_cast<CUstream>(stream);
  c.attrs = attrs;
  if (plan.cluster > 1) {
    CUlaunchAttribute& a = attrs[c.numAttrs++];
    a.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    a.value.clusterDim.x = unsigned(plan.cluster), a.value.clusterDim.y = 1, a.value.clusterDim.z = 1;
  }
  CUlaunchAttribute& a = attrs[c.numAttrs++];
  a.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
  a.value.programmaticStreamSerializationAllowed = 1;
  detail::Params p{};
  void* args[] = {&p};
  std::vector<double> us;
  for (int batch = 0; batch < 41; ++batch) {
    cudaStreamSynchronize(stream);
    for (int i = 0; i < 50; ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      const CUresult r = launch(&c, reinterpret_cast<CUfunction>(fn), args, nullptr);
      const auto t1 = std::chrono::steady_clock::now();
      if (r != CUDA_SUCCESS) return -1.0;
      if (batch > 0) us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
    }
  }
  cudaStreamSynchronize(stream);
  std::sort(us.begin(), us.end());
  return us[us.size() / 2];
}

struct Config {
  const char* name;
  int64_t batch, heads_q, heads_kv, head_dim, len;
  DType kv;
  int page_size;  // 0: contiguous
};

int measure(const Config& c) {
  DecodeShape s{
      c.batch, c.heads_q, c.heads_kv, c.head_dim, c.len, int32_t(DType::kBF16), int32_t(c.kv), int32_t(DType::kBF16),
      0,       0};
  DecodePlan plan{};
  if (const Status st = decode_plan(s, &plan); !st.ok()) {
    std::printf("%s: plan: %s\n", c.name, st.message.c_str());
    return 1;
  }
  const int64_t kvb = c.kv == DType::kBF16 ? 2 : 1;
  const size_t cache = size_t(c.batch * c.heads_kv * c.len * c.head_dim * kvb);
  void *q, *k, *v, *o, *ws = nullptr;
  int32_t *seqlen, *table = nullptr;
  cudaMalloc(&q, c.batch * c.heads_q * c.head_dim * 2);
  cudaMalloc(&o, c.batch * c.heads_q * c.head_dim * 2);
  cudaMalloc(&k, cache);
  cudaMalloc(&v, cache);
  cudaMalloc(&seqlen, c.batch * 4);
  std::vector<int32_t> lens(size_t(c.batch), int32_t(c.len));
  cudaMemcpy(seqlen, lens.data(), lens.size() * 4, cudaMemcpyHostToDevice);
  if (plan.workspace_bytes) {
    cudaMalloc(&ws, plan.workspace_bytes);
    cudaMemset(ws, 0, plan.workspace_bytes);
  }
  DecodeArgs a{};
  a.q = q, a.q_stride_b = c.heads_q * c.head_dim, a.q_stride_h = c.head_dim;
  a.o = o, a.o_stride_b = c.heads_q * c.head_dim, a.o_stride_h = c.head_dim;
  a.k = k, a.v = v;
  if (c.page_size) {  // [pages, page_size, Hkv, D], page p of sequence b = b * pages_per_seq + p
    const int64_t per_seq = c.len / c.page_size;
    std::vector<int32_t> t(size_t(c.batch * per_seq));
    for (size_t i = 0; i < t.size(); ++i) t[i] = int32_t(i);
    cudaMalloc(&table, t.size() * 4);
    cudaMemcpy(table, t.data(), t.size() * 4, cudaMemcpyHostToDevice);
    a.page_table = table, a.page_table_stride = per_seq, a.page_size = c.page_size, a.page_table_len = per_seq;
    a.k_stride_b = a.v_stride_b = c.page_size * c.heads_kv * c.head_dim;
    a.k_stride_n = a.v_stride_n = c.heads_kv * c.head_dim;
    a.k_stride_h = a.v_stride_h = c.head_dim;
  } else {  // [B, Hkv, N, D]
    a.k_stride_b = a.v_stride_b = c.heads_kv * c.len * c.head_dim;
    a.k_stride_h = a.v_stride_h = c.len * c.head_dim;
    a.k_stride_n = a.v_stride_n = c.head_dim;
  }
  a.seqlen_kv = seqlen;
  a.softmax_scale = 0.088f, a.k_scale = a.v_scale = 1.0f;
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  std::vector<double> us;
  for (int batch = 0; batch < 41; ++batch) {
    cudaStreamSynchronize(stream);
    for (int i = 0; i < 50; ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      const Status st = decode_run(plan, a, ws, plan.workspace_bytes, stream);
      const auto t1 = std::chrono::steady_clock::now();
      if (!st.ok()) {
        std::printf("%s: run: %s\n", c.name, st.message.c_str());
        return 1;
      }
      if (batch > 0) us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());  // batch 0 warms up
    }
  }
  cudaStreamSynchronize(stream);
  std::sort(us.begin(), us.end());
  std::printf("%-34s splits %3d%s  host us: median %.2f  p90 %.2f  min %.2f\n", c.name, plan.splits,
              plan.cluster > 1 ? "c" : " ", us[us.size() / 2], us[us.size() * 9 / 10], us[0]);
  const double floor = launch_floor_us(plan, stream);
  if (floor >= 0.0)
    std::printf("%-34s the same launch of an empty kernel: median %.2f us (decode_run's own: %.2f)\n", "", floor,
                us[us.size() / 2] - floor);
  cudaStreamDestroy(stream);
  for (void* p : {q, o, k, v, static_cast<void*>(seqlen), static_cast<void*>(table), ws}) cudaFree(p);
  return 0;
}

}  // namespace

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no GPU: skipped\n");
    return 77;
  }
  int status = 0;
  for (const Config& c : {Config{"(28,4,128) B=1 N=1024 bf16", 1, 28, 4, 128, 1024, DType::kBF16, 0},
                          Config{"(28,4,128) B=1 N=32768 bf16", 1, 28, 4, 128, 32768, DType::kBF16, 0},
                          Config{"(28,4,128) B=1 N=32768 fp8", 1, 28, 4, 128, 32768, DType::kE4M3, 0},
                          Config{"(16,2,128) B=8 N=8192 bf16 paged16", 8, 16, 2, 128, 8192, DType::kBF16, 16},
                          Config{"(32,8,128) B=64 N=2048 bf16", 64, 32, 8, 128, 2048, DType::kBF16, 0}})
    status |= measure(c);
  return status;
}
