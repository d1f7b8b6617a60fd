// make_tensor takes a layout (or a swizzled layout, or a shape), not a swizzle alone.
// expect: make_tensor(ptr, layout): the second argument must be a cotile::ct::Layout, a swizzled layout or a shape
#include "cotile/ct/ct.hpp"
using namespace cotile::ct;

float at(float* p) {
#ifdef COTILE_FAIL
  auto t = make_tensor(make_gmem_ptr(p), Swizzle<1, 0, 3>{});
#else
  auto t = make_tensor(make_gmem_ptr(p), composition(Swizzle<1, 0, 3>{}, make_layout(make_shape(_4{}, _8{}))));
#endif
  return t(1, 2);
}
