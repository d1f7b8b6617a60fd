// gmem_ptr's parameter is the pointer type, as in CuTe: gmem_ptr<float*>, not gmem_ptr<float>.
// expect: gmem_ptr<P> / smem_ptr<P>: P is a pointer type, as in CuTe (gmem_ptr<float*>, not gmem_ptr<float>)
#include "cotile/ct/ct.hpp"
using namespace cotile::ct;

float first(float* p) {
#ifdef COTILE_FAIL
  const gmem_ptr<float> g = make_gmem_ptr(p);
#else
  const gmem_ptr<float*> g = make_gmem_ptr(p);
#endif
  return g[0];
}
