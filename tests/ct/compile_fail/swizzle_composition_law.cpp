// composition(L, Sw) where L does not carry the swizzle's bits: CuTe rewrites L o Sw as
// Sw' o _0 o L, which is not L o Sw there; the typed layer refuses it at compile time.
// expect: composition: R(x) = L(Sw(x)) fails at x = 3 (R(x) = 3, L(Sw(x)) = 2)
#include "cotile/ct/ct.hpp"
using namespace cotile::ct;

auto compose() {
#ifdef COTILE_FAIL
  return composition(Layout<Shape<_2, _2>, Stride<_1, _1>>{}, Swizzle<1, 1, 1>{});
#else
  return composition(Layout<Shape<_2, _2>, Stride<_1, _2>>{}, Swizzle<1, 1, 1>{});
#endif
}
