// Copying between tensors whose static sizes differ is a compile error, never a partial copy.
// expect: the tensors differ in size (both sizes are static)
#include "cotile/ct/ct.hpp"
using namespace cotile::ct;

void copy_tile(float* src, float* dst) {
  const auto s = make_tensor(make_gmem_ptr(src), make_layout(make_shape(_8{}, _4{})));
#ifdef COTILE_FAIL
  const auto d = make_tensor(make_gmem_ptr(dst), make_layout(make_shape(_8{}, _2{})));
#else
  const auto d = make_tensor(make_gmem_ptr(dst), make_layout(make_shape(_4{}, _8{})));
#endif
  copy(s, d);
}
