// complement of (_4,n):(_1,_1) is _4:_4 when n is 1 and refused otherwise (the modes overlap); with
// static strides CuTe's check refuses the mode before n is known, and so does the typed layer,
// naming the run-time extent (the calculator, on the value, drops an extent 1).
// expect-first-any: call to non-|must have a constant value
// expect-anywhere: it overlaps them unless that extent is 1, and only a static _1 is dropped
#include "cotile/ct/ct.hpp"
using namespace cotile::ct;

auto rest(int n) {
#ifdef COTILE_FAIL
  return complement(make_layout(make_shape(_4{}, n), make_stride(_1{}, _1{})), _16{});
#else
  return complement(make_layout(make_shape(_4{}, n), make_stride(_1{}, _4{})), Int<64>{});
#endif
}
