// domain_distribute's gcds decide the result's shape: the shape must be static (CuTe refuses too).
// The engine refuses while it runs at compile time: the first error names cotile::fail and the
// following lines show the rule.
// expect-first-any: call to non-|must have a constant value
// expect-anywhere: the shape and the size must be static
#include "cotile/ct/ct.hpp"
using namespace cotile::ct;

auto distribute(int n) {
#ifdef COTILE_FAIL
  return domain_distribute(make_shape(n, _4{}), _2{});
#else
  (void)n;
  return domain_distribute(make_shape(_8{}, _4{}), _2{});
#endif
}
