// The FMHA decode kernel's Q-load chain (docs/qload.md §5-§8) in CuTe: Q's UMMA partition, the data layout with
// stride _128, the cotiled cp.async copy, a thread's partition. bench/compile/run.py compiles it against CuTe;
// spec_chain_cotile.cpp is the same chain in cotile's typed layer (both print the same lines).
#include <cute/atom/copy_traits_sm80.hpp>
#include <cute/atom/mma_traits_sm100.hpp>
#include <cute/tensor.hpp>

#include <cstdio>

using namespace cute;

int chain(uint8_t* q, int d, int t) {
  auto* p = reinterpret_cast<float_e5m2_t*>(q);
  auto gQ = make_tensor(make_gmem_ptr(p), make_layout(make_shape(_128{}, _128{}), make_stride(d, _1{})));
  TiledMMA mma =
      make_tiled_mma(SM100_MMA_F8F6F4_SS<float_e5m2_t, float_e5m2_t, float, 128, 64, UMMA::Major::K, UMMA::Major::K>{});
  auto tSgQ = mma.get_slice(0).partition_A(gQ);
  auto data = make_layout(shape(tSgQ.layout()),
                          replace<0>(stride(tSgQ.layout()), replace<0>(get<0>(stride(tSgQ.layout())), _128{})));
  auto atom = make_layout(make_shape(make_shape(_2{}, _32{}), _16{}), make_stride(make_stride(_16{}, _32{}), _1{}));
  auto tc = make_cotiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, float_e5m2_t>{}, atom, data);
  auto part = tc.get_slice(t).partition_S(tSgQ);
  print(tSgQ.layout());
  printf("\n");
  print(part.layout());
  printf("\n");
  return int(part.data().get() - p);
}

int main() {
  static uint8_t q[128 * 128];
  for (int t : {0, 9, 63}) printf("%d\n", chain(q, 128, t));
}
