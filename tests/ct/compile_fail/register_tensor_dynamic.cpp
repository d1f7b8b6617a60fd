// A register tensor's size must be known at compile time.
// expect: make_tensor<T>(layout): a register tensor's layout must be static; shape at mode (1) is dynamic (int); its cosize is the number of registers: make every shape and stride an Int<N>
#include "cotile/ct/ct.hpp"
using namespace cotile::ct;

float first(int n) {
#ifdef COTILE_FAIL
  auto frag = make_tensor<float>(make_layout(make_shape(_4{}, n)));
#else
  auto frag = make_tensor<float>(make_layout(make_shape(_4{}, _8{})));
#endif
  frag(0, 0) = float(n);
  return frag(0, 0);
}
