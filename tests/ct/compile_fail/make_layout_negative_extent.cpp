// A static negative extent is a compile error: a layout's shape counts coordinates.
// expect-first-any: call to non-|must have a constant value
// expect-anywhere: a layout's shape must not be negative
#include "cotile/ct/ct.hpp"
using namespace cotile::ct;

auto layout() {
#ifdef COTILE_FAIL
  return make_layout(make_shape(_4{}, Int<-8>{}));
#else
  return make_layout(make_shape(_4{}, Int<8>{}));
#endif
}
