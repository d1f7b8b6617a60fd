// The Q-load chain of CUTLASS's Blackwell FMHA generation kernel (docs/qload.md walks through it), derived from the
// kernel's parameters: element type, head dim D, Q tile rows M and the copy's atom_q_tv.
//
//   MMA atom   = 1-SM UMMA M x 64 x (256 / bits), K-major; make_tiled_mma(atom); thread 0
//   gQ         = (_M,_D):(D,_1)                 (run-time row stride D, qload.md §5.2)
//   tSgQ       = partition_A(gQ)                (qload.md §5.4)
//   data_layout = tSgQ with stride<0,0> replaced by the static _D (the two replace<0>, qload.md §6)
//   tiled_copy = make_cotiled_copy(cp.async.16B, atom_q_tv, data_layout) (qload.md §7)
//   partition_S_thr0 = partition_S(tSgQ) for thread 0 (qload.md §8.2)
#pragma once

#include "tiled_copy.hpp"
#include "tiled_mma.hpp"

namespace cotile {

struct FmhaGenQ {
  TiledMMA mma;
  Layout gQ, tSgQ;
  CotiledTrace trace;  // data_layout ... layout_tv
  TiledCopy copy;
  SlicedLayout partition_S_thr0;
};

COTILE_HD constexpr FmhaGenQ fmha_gen_q(Elem e, const Int& d, const Int& m, const Layout& atom_q_tv, Options opt = {}) {
  if (!d.is_static || !m.is_static)
    fail("fmha_gen_q", "the head dim D and the tile rows M are template parameters: they must be static", nullptr,
         arg("D", d), arg("M", m));
  FmhaGenQ q{};
  const MmaTraits atom = mma_traits(MmaFamily::kSm100_Umma_SS, e, e, int(m.value), 64);
  q.mma = make_tiled_mma(atom);
  q.gQ = Layout{make_tuple(m, d), make_tuple(dynamic_int(d.value), static_int(1))};
  q.tSgQ = partition(q.mma, q.gQ, dynamic_int(0), Operand::kA).layout;
  // replace<0>(stride(tSgQ), replace<0>(stride<0>(tSgQ), _D))
  const IntTuple st = q.tSgQ.stride;
  const IntTuple data_stride = replace(st, 0, replace(st.get(0), 0, int_tuple(d)));
  const Layout data = make_layout(q.tSgQ.shape, data_stride);
  q.copy = make_cotiled_copy(make_copy_atom(CopyOp::kCpAsync16B, e), atom_q_tv, data, opt, &q.trace);
  q.partition_S_thr0 = partition_S(q.copy, q.tSgQ, dynamic_int(0));
  return q;
}

}  // namespace cotile
