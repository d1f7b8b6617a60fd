// left_inverse sorts the modes by stride: the strides must be static (CuTe refuses too).
// expect: left_inverse: the layout must have static strides; stride at mode (0) is dynamic (int); make the strides static Int<N> (the inverse's structure depends on their order)
#include "cotile/ct/ct.hpp"
using namespace cotile::ct;

auto inverse(int ld) {
#ifdef COTILE_FAIL
  return left_inverse(make_layout(make_shape(_4{}, _8{}), make_stride(ld, _1{})));
#else
  (void)ld;
  return left_inverse(make_layout(make_shape(_4{}, _8{}), make_stride(_8{}, _1{})));
#endif
}
