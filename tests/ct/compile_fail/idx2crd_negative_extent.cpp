// idx2crd in a static negative extent is a compile error, as make_layout's: the shape counts
// coordinates (CuTe gives (1,-1) for this one).
// expect-first-any: call to non-|must have a constant value
// expect-anywhere: a layout's shape must not be negative
#include "cotile/ct/ct.hpp"
using namespace cotile::ct;

auto coordinate() {
#ifdef COTILE_FAIL
  return idx2crd(_5{}, make_shape(Int<-4>{}, _2{}));
#else
  return idx2crd(_5{}, make_shape(Int<4>{}, _2{}));
#endif
}
