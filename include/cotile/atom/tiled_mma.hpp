// TiledMMA: an MMA atom repeated over threads (atom_layout) and which thread owns which element
// of A (M,K), B (N,K) and C (M,N).
#pragma once

#include "../algebra/divide.hpp"
#include "../algebra/product.hpp"
#include "../slice.hpp"
#include "mma_traits.hpp"

namespace cotile {

struct TiledMMA {
  MmaTraits atom;
  Layout thr_layout_vmnk;  // (atom thread, m, n, k) -> thread index
  Tile permutation;        // per M, N, K: '_' or a layout/integer tiler
};

// make_tiled_mma(atom, atom_layout, permutations):
//   thr_layout_vmnk = tiled_product(ThrID, append<3>(atom_layout, _1:_0))
// Requires rank(atom_layout) <= 3; permutations a tile of rank <= 3 ('_' where absent).
COTILE_HD constexpr TiledMMA make_tiled_mma(const MmaTraits& atom, const Layout& atom_layout = Layout{},
                                            const Tile& perm = Tile::tuple()) {
  if (atom_layout.rank() > 3)
    fail("make_tiled_mma", "the atom layout has more than three modes (M,N,K)", nullptr,
         arg("atom_layout", atom_layout));
  const Layout mnk = append_to_rank(atom_layout.is_leaf() ? make_layout_concat(atom_layout) : atom_layout, 3);
  Tile p = perm.is_leaf() ? coord(perm) : perm;
  if (p.rank() > 3)
    fail("make_tiled_mma", "the permutation has more than three modes", nullptr, arg("permutation", perm));
  while (p.rank() < 3) p.push_back(tile_underscore());
  return TiledMMA{atom, tiled_product(atom.thr_id, tile_layout(mnk)), p};
}

// permutation_mnk<I>: the permutation of mode I, or the integer tile size
// size<I>(Shape_MNK) * size<I+1>(thr_layout_vmnk) where it is '_'.
COTILE_HD constexpr Tile permutation_mnk(const TiledMMA& t, int i) {
  const Tile p = t.permutation.get(i);
  if (p.is_leaf() && p.value().kind == TileLeaf::kUnderscore)
    return tile_int(t.atom.shape_mnk.mode_value(i) * size(t.thr_layout_vmnk.get(i + 1)));
  return p;
}

// tile_size_mnk<I> = size(permutation_mnk<I>).
COTILE_HD constexpr Int tile_size_mnk(const TiledMMA& t, int i) {
  const Tile p = permutation_mnk(t, i);
  if (p.is_leaf() && p.value().kind == TileLeaf::kInt) return p.value().integer();
  if (p.is_leaf()) return size(p.value().layout);
  Int s = static_int(1);
  for (int k = 0; k < p.rank(); ++k) {
    const Tile q = p.get(k);
    s = s * (q.value().kind == TileLeaf::kInt ? q.value().integer() : size(q.value().layout));
  }
  return s;
}

// thrfrg_X(tensor), X in {A: (M,K) with atom modes (0,2), B: (N,K) (1,2), C: (M,N) (0,1)}:
//   t_tensor   = logical_divide(tensor, (perm_x, perm_y))
//   a_tensor   = zipped_divide(t_tensor, (size_x(atom):_1, size_y(atom):_1))   ((AtomX,AtomY),(RestX,RestY))
//   tv_tensor  = a_tensor o (AtomLayoutX_TV, _)                                ((ThrV,FrgV),(RestX,RestY))
//   thr_tensor = zipped_divide(tv_tensor, (_, (size(thr_x):_1, size(thr_y):_1)))
//              -> ((ThrV,(ThrX,ThrY)),(FrgV,(RestX,RestY)))
enum class Operand : uint8_t { kA, kB, kC };

// The (M,N,K) modes (x, y) an operand spans: A (M,K) = (0,2), B (N,K) = (1,2), C (M,N) = (0,1).
struct OperandModes {
  int x, y;
};
COTILE_HD constexpr OperandModes operand_modes(Operand op) {
  return {op == Operand::kB ? 1 : 0, op == Operand::kC ? 1 : 2};
}

COTILE_HD constexpr Layout thrfrg(const TiledMMA& t, const Layout& tensor, Operand op) {
  if (tensor.rank() < 2) fail("thrfrg", "the tensor needs at least two modes", nullptr, arg("tensor", tensor));
  const auto [x, y] = operand_modes(op);
  const Layout atom_tv = op == Operand::kA ? t.atom.a : op == Operand::kB ? t.atom.b : t.atom.c;
  const Layout t_tensor = logical_divide(tensor, coord(permutation_mnk(t, x), permutation_mnk(t, y)));
  const Layout a_tensor =
      zipped_divide(t_tensor, coord(tile_layout(make_layout(int_tuple(t.atom.shape_mnk.mode_value(x)))),
                                    tile_layout(make_layout(int_tuple(t.atom.shape_mnk.mode_value(y))))));
  const Layout tv_tensor = composition(a_tensor, coord(tile_layout(atom_tv), tile_underscore()));
  const Tile thr_tile =
      coord(tile_underscore(), coord(tile_layout(make_layout(int_tuple(size(t.thr_layout_vmnk.get(x + 1))))),
                                     tile_layout(make_layout(int_tuple(size(t.thr_layout_vmnk.get(y + 1)))))));
  return zipped_divide(tv_tensor, thr_tile);
}

// get_flat_coord(thr): the (v,m,n,k) coordinate of a thread index in thr_layout_vmnk.
COTILE_HD constexpr Int idx_in_mode(const Int& idx, const IntTuple& s, const IntTuple& d);
COTILE_HD constexpr IntTuple thr_vmnk(const TiledMMA& t, const Int& thr) {
  IntTuple r = IntTuple::tuple();
  for (int i = 0; i < t.thr_layout_vmnk.rank(); ++i) {
    const Layout m = t.thr_layout_vmnk.get(i);
    r.push_back(int_tuple(idx_in_mode(thr, m.shape, m.stride)));
  }
  return r;
}

// The colexicographic index within one mode of the hierarchical coordinate idx2crd(idx, s, d):
// leaf coordinates (idx / d) % s (static _0 for a static _1 shape), combined by Horner's rule.
COTILE_HD constexpr Int idx_in_mode(const Int& idx, const IntTuple& s, const IntTuple& d) {
  if (s.is_leaf()) return is_constant(s.value(), 1) ? static_int(0) : (idx / d.value()) % s.value();
  const int n = s.num_leaves();
  Int acc = static_int(0);
  for (int k = n - 1; k >= 0; --k) {
    const Int c = is_constant(s.leaf_at(k), 1) ? static_int(0) : (idx / d.leaf_at(k)) % s.leaf_at(k);
    acc = k == n - 1 ? c : c + s.leaf_at(k) * acc;
  }
  return acc;
}

// partition_X(tensor) for thread thr: thrfrg_X(tensor)((v,(x,y)), (_, (_,_))) -> (FrgV, RestX, RestY)
COTILE_HD constexpr SlicedLayout partition(const TiledMMA& t, const Layout& tensor, const Int& thr, Operand op) {
  const Layout f = thrfrg(t, tensor, op);
  const IntTuple v = thr_vmnk(t, thr);
  const auto [x, y] = operand_modes(op);  // thread modes x+1, y+1 of (v,m,n,k)
  const Tile thr_coord = coord(v.mode_value(0), coord(v.mode_value(x + 1), v.mode_value(y + 1)));
  const int rest_rank = f.get(1).get(1).rank();
  return slice_and_offset(coord(thr_coord, coord(tile_underscore(), repeat_underscore(rest_rank))), f);
}

// get_layoutX_TV: (thread index, value) -> coordinate in the (tile_x, tile_y) tile.
COTILE_HD constexpr Layout get_layout_tv(const TiledMMA& t, Operand op) {
  const auto [x, y] = operand_modes(op);
  const Layout ref = make_layout(make_tuple(tile_size_mnk(t, x), tile_size_mnk(t, y)));
  const Layout f = thrfrg(t, ref, op);
  const Layout thridx_2_thrid = right_inverse(t.thr_layout_vmnk);
  if (op == Operand::kC) return composition(f, coord(tile_layout(thridx_2_thrid), tile_underscore()));
  // (ThrV,(ThrX,ThrY)) -> (ThrV,(ThrM,ThrN,ThrK)): insert the operand's missing thread mode.
  const Int sm = size(t.thr_layout_vmnk.get(1)), sn = size(t.thr_layout_vmnk.get(2));
  const Layout lift = op == Operand::kA ? Layout{make_tuple(sm, sn), make_tuple(static_int(1), static_int(0))}
                                        : Layout{make_tuple(sm, sn), make_tuple(static_int(0), static_int(1))};
  const Layout lifted =
      composition(f, coord(coord(tile_underscore(), coord(tile_layout(lift), tile_underscore())), tile_underscore()));
  return composition(lifted, coord(tile_layout(thridx_2_thrid), tile_underscore()));
}

}  // namespace cotile
