// left_inverse of a static layout that is not injective: CuTe returns a layout R with
// L(R(L(i))) != L(i); the typed layer refuses it at compile time, naming a collision.
// expect: left_inverse: L(R(L(i))) = L(i) with R(L(i)) an index of L fails at i = 23 (L(23) = 192, R(192) = 8, L(8) = 12)
// expect-anywhere: L is not injective: L(1) = L(16) = 24
#include "cotile/ct/ct.hpp"
using namespace cotile::ct;

auto invert() {
#ifdef COTILE_FAIL
  return left_inverse(make_layout(make_shape(_8{}, _4{}), make_stride(_24{}, _12{})));
#else
  return left_inverse(make_layout(make_shape(_8{}, _4{}), make_stride(_4{}, _32{})));
#endif
}
