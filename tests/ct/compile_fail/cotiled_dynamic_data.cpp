// The Q-load chain's pitfall: tSgQ's row stride is a run-time int, so it cannot be make_cotiled_copy's
// data_layout; the Q-load chain's replace<0> makes it static.
// expect: make_cotiled_copy: data_layout must be static; stride at mode (0,0) is dynamic (int); make it a static Int<...> as the Q-load chain's replace<0> does
#include "cotile/ct/ct.hpp"
using namespace cotile::ct;

void load_q(uint8_t* q, int head_dim) {
  auto gQ = make_tensor(make_gmem_ptr(q), make_layout(make_shape(_128{}, _128{}), make_stride(head_dim, _1{})));
  auto mma = make_tiled_mma<cotile::MmaFamily::kSm100_Umma_SS, cotile::Elem::kE5M2, cotile::Elem::kE5M2, 128, 64>();
  auto tSgQ = partition_A(mma, gQ, 0);
  auto atom_q_tv =
      make_layout(make_shape(make_shape(_2{}, _32{}), _16{}), make_stride(make_stride(_16{}, _32{}), _1{}));
#ifdef COTILE_FAIL
  auto data = tSgQ.layout();
#else
  auto data = make_layout(shape(tSgQ.layout()),
                          replace<0>(stride(tSgQ.layout()), replace<0>(get<0>(stride(tSgQ.layout())), _128{})));
#endif
  auto copy = make_cotiled_copy<cotile::CopyOp::kCpAsync16B, cotile::Elem::kE5M2>(atom_q_tv, data);
  (void)copy;
}
