// A value-level precondition found inside the engine while it runs at compile time: the first
// error names cotile::fail and the following lines show the rule.
// expect-first-any: call to non-|must have a constant value
// expect-anywhere: stride divisibility violated
#include "cotile/ct/ct.hpp"
using namespace cotile::ct;

auto compose() {
  const auto a = make_layout(make_shape(_4{}, _8{}), make_stride(_2{}, _16{}));
#ifdef COTILE_FAIL
  return composition(a, make_layout(_2{}, _6{}));
#else
  return composition(a, make_layout(_2{}, _4{}));
#endif
}
