// composition(A, B) where two leaves of B's scaled basis strides move one hierarchical mode of A:
// CuTe composes each leaf with that mode and returns (_2,_2):(_3,_3), which is not A o B there;
// the typed layer refuses it at compile time, naming a point.
// expect: composition: R(c) = A(B(c)) fails at c = 3 (R(c) = 6, A(B(c)) = 1)
#include "cotile/ct/ct.hpp"
using namespace cotile::ct;

auto compose() {
  const auto a = make_layout(Shape<_4, Shape<_2, _3>>{}, Stride<_6, Stride<_3, _1>>{});
#ifdef COTILE_FAIL
  return composition(a, make_layout(Shape<_2, _2>{}, Stride<E<1>, E<1>>{}));
#else
  return composition(a, make_layout(Shape<_2, _3>{}, Stride<E<1, 0>, E<1, 1>>{}));
#endif
}
