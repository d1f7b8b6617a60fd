// A result that violates composition's law, on static values: CuTe computes it without an error;
// the typed layer refuses it at compile time with the law's message in the first error line.
// expect: composition: R(c) = A(B(c)) fails at c = 2 (R(2) = 1, A(B(2)) = A(4) = 9)
// expect-anywhere: CuTe 4.7 returns ((_2,_2),_2):((_16,_1),_8) here
#include "cotile/ct/ct.hpp"
using namespace cotile::ct;

auto compose() {
  const auto a = make_layout(make_shape(_3{}, _4{}), make_stride(_8{}, _1{}));
#ifdef COTILE_FAIL
  return composition(a, make_layout(make_shape(_4{}, _2{}), make_stride(_2{}, _1{})));
#else
  return composition(a, make_layout(make_shape(_3{}, _2{}), make_stride(_1{}, _3{})));
#endif
}
