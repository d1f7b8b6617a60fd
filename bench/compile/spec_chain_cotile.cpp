// The FMHA decode kernel's Q-load chain (docs/qload.md §5-§8) in cotile's typed layer: spec_chain_cute.cpp's
// chain, line for line (bench/compile/run.py compiles both and checks that they print the same lines).
#include <cstdio>

#include "cotile/ct/ct.hpp"

using namespace cotile::ct;
using cotile::CopyOp;
using cotile::Elem;
using cotile::MmaFamily;

int chain(uint8_t* q, int d, int t) {
  auto gQ = make_tensor(make_gmem_ptr(q), make_layout(make_shape(_128{}, _128{}), make_stride(d, _1{})));
  const auto mma = make_tiled_mma<MmaFamily::kSm100_Umma_SS, Elem::kE5M2, Elem::kE5M2, 128, 64>();
  auto tSgQ = partition_A(mma, gQ, 0);
  auto data = make_layout(shape(tSgQ.layout()),
                          replace<0>(stride(tSgQ.layout()), replace<0>(get<0>(stride(tSgQ.layout())), _128{})));
  auto atom = make_layout(make_shape(make_shape(_2{}, _32{}), _16{}), make_stride(make_stride(_16{}, _32{}), _1{}));
  auto tc = make_cotiled_copy<CopyOp::kCpAsync16B, Elem::kE5M2>(atom, data);
  auto part = partition_S(tc, tSgQ, t);
  print(tSgQ.layout());
  printf("\n");
  print(part.layout());
  printf("\n");
  return int(part.data().get() - q);
}

int main() {
  static uint8_t q[128 * 128];
  for (int t : {0, 9, 63}) printf("%d\n", chain(q, 128, t));
}
