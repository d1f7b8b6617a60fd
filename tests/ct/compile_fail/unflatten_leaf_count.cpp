// unflatten puts each flat element at one leaf of the profile: the counts must agree.
// expect: unflatten: the profile's leaves and the flat tuple's elements differ in number
#include "cotile/ct/ct.hpp"
using namespace cotile::ct;

auto nest(int a, int b) {
#ifdef COTILE_FAIL
  return unflatten(make_tuple(a, b), make_tuple(_0{}, make_tuple(_0{}, _0{})));
#else
  return unflatten(make_tuple(a, b, _3{}), make_tuple(_0{}, make_tuple(_0{}, _0{})));
#endif
}
