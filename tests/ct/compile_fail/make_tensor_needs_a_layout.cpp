// make_tensor takes a layout, not a shape.
// expect: make_tensor(ptr, layout): the second argument must be a cotile::ct::Layout
#include "cotile/ct/ct.hpp"
using namespace cotile::ct;

float at(float* p) {
#ifdef COTILE_FAIL
  auto t = make_tensor(make_gmem_ptr(p), make_shape(_4{}, _8{}));
#else
  auto t = make_tensor(make_gmem_ptr(p), make_layout(make_shape(_4{}, _8{})));
#endif
  return t(1, 2);
}
