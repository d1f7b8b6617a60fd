// The typed layer on the device: layouts, tensors, the FMHA decode kernel's Q-load partition, a swizzled
// shared-memory layout and the tuple algorithms evaluated in a kernel, compared with the engine on the host. Skipped (exit 77) without a GPU.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../gpu_skip.hpp"
#include "cotile/atom/fmha_gen_q.hpp"
#include "cotile/ct/ct.hpp"

using namespace cotile::ct;

namespace {

constexpr int kThreads = 64;
constexpr int kPerThread = 16;

__global__ void evaluate(int64_t* out, int64_t ld) {
  const int t = int(threadIdx.x);
  int64_t* o = out + t * kPerThread;
  // A static layout and a layout with a run-time stride.
  const auto s = make_layout(make_shape(_8{}, _8{}), make_stride(_8{}, _1{}));
  const auto d = make_layout(make_shape(_128{}, _128{}), make_stride(ld, _1{}));
  o[0] = s(t);
  o[1] = d(t, t % 7);
  o[2] = composition(d, make_layout(make_shape(_4{}, _16{}), make_stride(_16{}, _1{})))(t);
  // The FMHA decode kernel's Q-load path (§5–§8): the offset of each thread's source partition.
  uint8_t* base = nullptr;
  const auto gQ = make_tensor(make_gmem_ptr(base + 4096), d);
  const auto mma =
      make_tiled_mma<cotile::MmaFamily::kSm100_Umma_SS, cotile::Elem::kE5M2, cotile::Elem::kE5M2, 128, 64>();
  const auto tSgQ = partition_A(mma, gQ, 0);
  const auto data = make_layout(shape(tSgQ.layout()),
                                replace<0>(stride(tSgQ.layout()), replace<0>(get<0>(stride(tSgQ.layout())), _128{})));
  const auto atom =
      make_layout(make_shape(make_shape(_2{}, _32{}), _16{}), make_stride(make_stride(_16{}, _32{}), _1{}));
  const auto tc = make_cotiled_copy<cotile::CopyOp::kCpAsync16B, cotile::Elem::kE5M2>(atom, data);
  const auto part = partition_S(tc, tSgQ, t);
  o[3] = part.data().get() - base;
  o[4] = int64_t(part.layout()(5));
  // Tiles, partitions and coordinates.
  const auto tile = local_tile(make_tensor(make_gmem_ptr(base), d), make_tile(_16{}, _8{}), make_coord(1, 2));
  o[5] = &tile(t % 16, t / 16 % 8) - base;
  const auto id = make_identity_tensor(make_shape(_8{}, _16{}));
  o[6] = elem_less(id(t % 8, t / 8), make_coord(5, 6));
  o[7] = size(d);
  // A swizzled shared-memory tile.
  const auto sw =
      tile_to_shape(composition(Swizzle<3, 4, 3>{}, make_layout(make_shape(_8{}, _64{}), make_stride(_64{}, _1{}))),
                    make_shape(_64{}, _128{}));
  o[8] = sw(t * 37 % 8192);
  // The tuple library (tuple_algorithms.hpp): run-time and static elements in one tuple.
  const auto tup = make_tuple(t, _3{}, ld);
  o[9] = fold(reverse(tup), _0{}, [](auto a, auto x) { return a * _2{} + x; });  // (2 ld + 3) 2 + t
  o[10] = apply(tuple_cat(select<1, 0>(tup), make_tuple(_5{})), [](auto a, auto b, auto c) { return a * b + c; });
  // zip_with over two tuples, the quantifiers, and the shape predicates on run-time values.
  o[11] = transform_apply(
      make_tuple(t, _2{}), make_tuple(_3{}, ld), [](auto a, auto b) { return a * b; },
      [](auto a, auto b) { return a + b; });
  const auto even = [](auto x) { return x % _2{} == _0{}; };
  o[12] = int(all_of(make_tuple(t, _4{}), even)) + 2 * int(none_of(make_tuple(t, ld), [](auto x) { return x == 5; }));
  o[13] = evenly_divides(make_shape(t + 1, _8{}), make_shape(_2{}, _4{}));
  o[14] = domain_distribute(make_shape(Int<15>{}, Int<14>{}), _6{})(t % 6);
  // An integer sequence of uint32_t: static integers times a run-time one; a static predicate.
  o[15] = fold(make_integer_sequence<uint32_t, 4>{}, int64_t(0), [t](auto a, auto c) { return a + c * t; }) +
          100 * decltype(weakly_congruent(make_shape(t, _2{}), make_shape(_1{}, make_shape(_2{}, ld))))::value;
}

}  // namespace

int main() {
  skip_without_gpu();
  const int64_t ld = 128;
  int64_t* d_out = nullptr;
  cudaMalloc(&d_out, sizeof(int64_t) * kThreads * kPerThread);
  evaluate<<<1, kThreads>>>(d_out, ld);
  std::vector<int64_t> out(kThreads * kPerThread);
  cudaMemcpy(out.data(), d_out, sizeof(int64_t) * out.size(), cudaMemcpyDeviceToHost);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::printf("FAIL kernel error: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 1;
  }
  cudaFree(d_out);

  // The same with the engine on the host.
  using namespace cotile;
  const cotile::Layout s =
      make_layout(make_tuple(static_int(8), static_int(8)), make_tuple(static_int(8), static_int(1)));
  const cotile::Layout d =
      make_layout(make_tuple(static_int(128), static_int(128)), make_tuple(dynamic_int(ld), static_int(1)));
  const cotile::Layout c = cotile::composition(
      d, make_layout(make_tuple(static_int(4), static_int(16)), make_tuple(static_int(16), static_int(1))));
  const FmhaGenQ q = fmha_gen_q(Elem::kE5M2, static_int(128), static_int(128),
                                cotile::Layout{make_tuple(make_tuple(static_int(2), static_int(32)), static_int(16)),
                                               make_tuple(make_tuple(static_int(16), static_int(32)), static_int(1))});
  const cotile::ComposedLayout sw = cotile::tile_to_shape(
      cotile::composition(make_swizzle(3, 4, 3), make_layout(make_tuple(static_int(8), static_int(64)),
                                                             make_tuple(static_int(64), static_int(1)))),
      make_tuple(static_int(64), static_int(128)));
  int failures = 0, checks = 0;
  auto check = [&](int t, int k, int64_t want) {
    ++checks;
    if (out[t * kPerThread + k] != want) {
      ++failures;
      if (failures < 20)
        std::printf("FAIL thread %d value %d: device %lld, host %lld\n", t, k, (long long)out[t * kPerThread + k],
                    (long long)want);
    }
  };
  for (int t = 0; t < kThreads; ++t) {
    check(t, 0, eval(s, t).value);
    check(t, 1, eval(d, make_tuple(dynamic_int(t), dynamic_int(t % 7))).value);
    check(t, 2, eval(c, t).value);
    const SlicedLayout p = partition_S(q.copy, q.tSgQ, dynamic_int(t));
    check(t, 3, 4096 + p.offset.value);
    check(t, 4, eval(p.layout, 5).value);
    check(t, 5, (16 + t % 16) * ld + 16 + t / 16 % 8);
    check(t, 6, (t % 8 < 5 && t / 8 < 6) ? 1 : 0);
    check(t, 7, 128 * 128);
    check(t, 8, eval(sw, int_tuple(dynamic_int(t * 37 % 8192))));
    check(t, 9, (2 * ld + 3) * 2 + t);
    check(t, 10, 3 * t + 5);
    check(t, 11, 3 * t + 2 * ld);
    check(t, 12, (t % 2 == 0 ? 1 : 0) + 2 * (t != 5 ? 1 : 0));
    check(
        t, 13,
        evenly_divides(make_tuple(dynamic_int(t + 1), static_int(8)), make_tuple(static_int(2), static_int(4))).value);
    check(t, 14, eval(domain_distribute(make_tuple(static_int(15), static_int(14)), static_int(6)), t % 6).value);
    check(t, 15, 6 * t + 100);
  }
  std::printf("%d passed, %d failed\n", checks - failures, failures);
  return failures ? 1 : 0;
}
