// TiledCopy: a copy atom repeated over a tile, and which thread owns which element.
//
// A TiledCopy is (atom, layout_tv, tiler): layout_tv maps (thread, value) to a coordinate of the
// tile selected by `tiler`; values are in the atom's Ref coordinates. partition_S/D give each
// thread its fragment of a source/destination tensor through the same (thread, value) map.
#pragma once

#include "../algebra/divide.hpp"
#include "../algebra/product.hpp"
#include "../laws/tiled_copy.hpp"
#include "../slice.hpp"
#include "copy_traits.hpp"

namespace cotile {

struct TiledCopy {
  CopyAtom atom;
  Layout layout_tv;  // (thr, val) -> tile coordinate
  Tile tiler;        // selects the tile from a tensor (shape of integers, or layouts per mode)
};

// The intermediate layouts of make_cotiled_copy (qload.md §7), for explanation tools.
struct CotiledTrace {
  Layout data_layout, coalesced, left_inverse, inv_data_layout, layout_tv_data;
  IntTuple flat_data_shape;
  Layout projection[8];  // composition(make_layout(flat, e_i), layout_tv_data), before filter
  int modes = 0;
  Tile tiler;
  Layout tile2data, layout_tv;
};

// The intermediate layouts of tile2thrfrg (qload.md §8.1).
struct ThrFrgTrace {
  Layout ref2trg, atom_layout_tv, trg_layout_tv, zipped, thrval2mn, tv_tensor, result;
};

namespace detail {
COTILE_HD constexpr void check_tiled_copy(const TiledCopy& tc) {
  const int64_t atom_thr = size(tc.atom.val_ref.get(0)).value, atom_val = size(tc.atom.val_ref.get(1)).value;
  if (tc.layout_tv.rank() != 2)
    fail("TiledCopy", "the TV layout must have two modes (thread, value)", nullptr, arg("layout_tv", tc.layout_tv));
  if (size(tc.layout_tv.get(0)).value % atom_thr != 0)
    fail("TiledCopy", "the TV layout uses too few threads for the copy atom", "use a multiple of the atom's threads",
         arg("layout_tv", tc.layout_tv), arg("atom ValLayoutRef", tc.atom.val_ref));
  if (size(tc.layout_tv.get(1)).value % atom_val != 0)
    fail("TiledCopy", "the values per thread are not a multiple of the atom's values per thread",
         "give each thread a multiple of the atom's vector (e.g. 16 bytes for cp.async.16B)",
         arg("layout_tv", tc.layout_tv), arg("atom ValLayoutRef", tc.atom.val_ref));
}
}  // namespace detail

// make_tiled_copy_tv(atom, layout_tv, tiler) (CuTe's make_tiled_copy_impl).
COTILE_HD constexpr TiledCopy make_tiled_copy_tv(const CopyAtom& atom, const Layout& layout_tv, const Tile& tiler) {
  const TiledCopy tc{atom, layout_tv, tiler};
  detail::check_tiled_copy(tc);
  return tc;
}

// make_tiled_copy(atom, thr, val): thr maps (m,n) -> thread, val maps (m,n) -> value.
//   layout_mn = raked_product(thr, val)                 (m,n) -> (thr, val)
//   layout_tv = right_inverse(layout_mn) o make_layout((size(thr), size(val)))
//   tiler     = product_each(shape(layout_mn))
// Law: layout_mn(layout_tv(t, v)) = t + size(thr) v for every thread t and value v
// (laws/tiled_copy.hpp). It is the right inverse's own law when R = right_inverse(layout_mn) has
// size(thr) size(val) indices. CuTe's R follows static strides only: a run-time shape or stride
// makes it shorter, and layout_tv reads it beyond its size (for thr = 4:1 every thread gets
// element 0). Where that breaks the law, cotile follows the run-time values (right_inverse_by_value),
// as left_inverse and complement take them, unless strict (CuTe's mode), which refuses.
COTILE_HD constexpr TiledCopy make_tiled_copy(const CopyAtom& atom, const Layout& thr, const Layout& val,
                                              Options opt = {}) {
  const Layout layout_mn = raked_product(thr, val, opt);
  const Tile tiler = tile_of_shape(product_each(layout_mn.shape));
  const Layout tv_shape = make_layout(make_tuple(size(thr), size(val)));
  const Layout inv = right_inverse(layout_mn, opt), layout_tv = composition(inv, tv_shape, opt);
  if (opt.strict)
    return lawful(
        opt, [&] { return laws::tiled_copy(thr, val, layout_mn, inv, layout_tv); },
        make_tiled_copy_tv(atom, layout_tv, tiler));
  // (the report is never deferred: lawful() would return a holding one's result as it is)
  if (laws::tiled_copy(thr, val, layout_mn, inv, layout_tv).holds) return make_tiled_copy_tv(atom, layout_tv, tiler);
  const Layout by_value = right_inverse_by_value(layout_mn, opt);
  const Layout tv = composition(by_value, tv_shape, opt);
  return lawful(
      opt, [&] { return laws::tiled_copy(thr, val, layout_mn, by_value, tv, &layout_tv); },
      make_tiled_copy_tv(atom, tv, tiler));
}

// tile2data(tiler, data) = make_layout(product_each(shape(data))) o tiler: a tile coordinate ->
// the data coordinate (one index per mode of data).
COTILE_HD constexpr Layout tile2data(const Tile& tiler, const Layout& data) {
  return composition(make_layout(product_each(data.shape)), tiler);
}

// make_cotiled_copy(atom, atom_tv, data): threads and values given as offsets of a data layout.
//   inv_data_layout = (left_inverse(data), _1:_0)          offset -> data coordinate
//   layout_tv_data  = inv_data_layout o atom_tv            (thr, val) -> data coordinate
//   tiler_i         = filter(make_layout(flat, e_i) o layout_tv_data)  per mode of data
//   tile2data       = make_layout(flat) o tiler            tile coordinate -> data coordinate
//   layout_tv       = left_inverse(tile2data) o layout_tv_data
// Requires: static atom_tv and data (in strict mode; otherwise dynamic strides are inverted by
// value); the offsets of atom_tv exist in data.
COTILE_HD constexpr TiledCopy make_cotiled_copy(const CopyAtom& atom, const Layout& atom_tv, const Layout& data,
                                                Options opt = {}, CotiledTrace* trace = nullptr) {
  if (opt.strict) {
    if (!is_static(data.shape) || !is_static(data.stride))
      fail("make_cotiled_copy",
           "data_layout must be static (CuTe static_asserts is_static<DataLayout>); a leaf is dynamic",
           "make it a static Int<...> as the Q-load chain's replace<0> does", arg("data_layout", data));
    if (!is_static(atom_tv.shape) || !is_static(atom_tv.stride))
      fail("make_cotiled_copy", "atom_tv_layout must be static (CuTe static_asserts is_static<AtomTVLayout>)", nullptr,
           arg("atom_tv_layout", atom_tv));
  }
  const Layout inv = make_layout_concat(left_inverse(data, opt), Layout{});
  const Layout tv_data = composition(inv, atom_tv);
  if (atom_tv.rank() != 2)
    fail("make_cotiled_copy", "atom_tv_layout must have two modes (thread, value)", nullptr,
         arg("atom_tv_layout", atom_tv));
  const Layout check_lhs = coalesce(composition(data, tv_data.get(1))), check_rhs = coalesce(atom_tv.get(1));
  if (!(check_lhs == check_rhs))
    fail("make_cotiled_copy", "the memory pointed to by atom_tv_layout does not exist in data_layout",
         "make the atom's offsets lie inside the data layout's codomain", arg("atom_tv_layout", atom_tv),
         arg("data_layout", data), arg("data o layout_tv_data values", check_lhs));
  const IntTuple flat = product_each(data.shape);
  Tile tiler = Tile::tuple();
  if (trace) {
    trace->data_layout = data;
    trace->coalesced = coalesce(data);
    trace->left_inverse = left_inverse(data, opt);
    trace->inv_data_layout = inv;
    trace->layout_tv_data = tv_data;
    trace->flat_data_shape = flat;
    trace->modes = flat.rank();
  }
  for (int i = 0; i < flat.rank(); ++i) {
    IntTuple e = repeat_like(flat, static_int(0));
    e = replace(e, i, int_tuple(static_int(1)));
    const Layout proj = composition(make_layout(flat, e), tv_data);
    if (trace && i < 8) trace->projection[i] = proj;
    tiler.push_back(tile_layout(filter(proj)));
  }
  const Layout t2d = tile2data(tiler, data);
  const Layout layout_tv = composition(left_inverse(t2d, opt), tv_data);
  if (trace) {
    trace->tiler = tiler;
    trace->tile2data = t2d;
    trace->layout_tv = layout_tv;
  }
  return make_tiled_copy_tv(atom, layout_tv, tiler);
}

// tile2thrfrg(tc, tensor, ref2trg): tensor is ((tile coords),(rest)); the tile mode is re-indexed
// by (thread, value):
//   atom_layout_TV = zipped_divide(layout_tv, (AtomNumThr, AtomNumVal))
//   trg_layout_TV  = atom_layout_TV o (ref2trg, _)
//   thrval2mn      = coalesce(zip(trg_layout_TV), (_1,(_1,_1)))
//   result         = (tensor o (thrval2mn, _))((_,_), _)     -> (thr, val, rest)
COTILE_HD constexpr Layout tile2thrfrg(const TiledCopy& tc, const Layout& tensor, const Layout& ref2trg,
                                       ThrFrgTrace* trace = nullptr) {
  const Int atom_thr = size(tc.atom.val_ref.get(0)), atom_val = size(tc.atom.val_ref.get(1));
  const Layout atom_layout_tv = zipped_divide(tc.layout_tv, coord(atom_thr, atom_val));
  const Layout trg_layout_tv = composition(atom_layout_tv, coord(tile_layout(ref2trg), tile_underscore()));
  const Layout zipped = zip(trg_layout_tv);
  const Layout thrval2mn = coalesce(zipped, make_tuple(static_int(1), make_tuple(static_int(1), static_int(1))));
  const Layout tv_tensor = composition(tensor, coord(tile_layout(thrval2mn), tile_underscore()));
  const Layout result =
      slice_and_offset(coord(coord(tile_underscore(), tile_underscore()), tile_underscore()), tv_tensor).layout;
  if (trace) *trace = ThrFrgTrace{ref2trg, atom_layout_tv, trg_layout_tv, zipped, thrval2mn, tv_tensor, result};
  return result;
}

// right_inverse(Ref) o Src (resp. Dst): from the source (destination) atom's (thread, value) to
// the reference (thread, value).
COTILE_HD constexpr Layout ref2src(const TiledCopy& tc) {
  return composition(right_inverse(tc.atom.val_ref), tc.atom.val_src);
}
COTILE_HD constexpr Layout ref2dst(const TiledCopy& tc) {
  return composition(right_inverse(tc.atom.val_ref), tc.atom.val_dst);
}

// tidfrg_S/D(tensor): (M,N,...) -> ((thr), val, (rest...)) through the tiler.
COTILE_HD constexpr Layout tidfrg(const TiledCopy& tc, const Layout& tensor, bool src, ThrFrgTrace* trace = nullptr) {
  if (tensor.rank() < tc.tiler.rank())
    fail("partition", "the tensor has fewer modes than the tiled copy's tiler", nullptr, arg("tensor", tensor),
         arg("tiler", tc.tiler));
  return tile2thrfrg(tc, zipped_divide(tensor, tc.tiler), src ? ref2src(tc) : ref2dst(tc), trace);
}

// The shape the tiler selects: the tiler itself for integers, the layouts' shapes otherwise.
COTILE_HD constexpr IntTuple tiler_shape(const Tile& t) {
  if (t.is_leaf()) {
    const TileLeaf& x = t.value();
    if (x.kind == TileLeaf::kInt) return int_tuple(x.integer());
    if (x.kind == TileLeaf::kLayout) return x.layout.shape;
    fail("TiledCopy", "a tiler mode cannot be '_'", nullptr, arg("tiler", t));
  }
  IntTuple r = IntTuple::tuple();
  for (int i = 0; i < t.rank(); ++i) r.push_back(tiler_shape(t.get(i)));
  return r;
}

// get_layoutS_TV / get_layoutD_TV: (thread, value) -> coordinate in the tile, for the source /
// destination side: tile2thrfrg(make_layout((shape(tiler), _1)), ref2src)(_, _, 0).
COTILE_HD constexpr Layout get_layout_tv(const TiledCopy& tc, bool src) {
  const Layout ref = make_layout(make_tuple(tiler_shape(tc.tiler), static_int(1)));
  const Layout t = tile2thrfrg(tc, ref, src ? ref2src(tc) : ref2dst(tc));
  return slice_and_offset(coord(tile_underscore(), tile_underscore(), static_int(0)), t).layout;
}
COTILE_HD constexpr Layout get_layoutS_TV(const TiledCopy& tc) { return get_layout_tv(tc, true); }
COTILE_HD constexpr Layout get_layoutD_TV(const TiledCopy& tc) { return get_layout_tv(tc, false); }

// partition_S/D(tensor) for thread t: tidfrg(tensor)(t, _, (_,...)) -> (val, rest...) and the
// offset of the thread's first element.
COTILE_HD constexpr SlicedLayout partition(const TiledCopy& tc, const Layout& tensor, const Int& thr, bool src) {
  const Layout t = tidfrg(tc, tensor, src);
  return slice_and_offset(coord(thr, tile_underscore(), repeat_underscore(tensor.rank())), t);
}
COTILE_HD constexpr SlicedLayout partition_S(const TiledCopy& tc, const Layout& tensor, const Int& thr) {
  return partition(tc, tensor, thr, true);
}
COTILE_HD constexpr SlicedLayout partition_D(const TiledCopy& tc, const Layout& tensor, const Int& thr) {
  return partition(tc, tensor, thr, false);
}

// retile(tensor): a thread's fragment (e.g. registers) reshaped to the copy's (atom values,
// repetitions) structure, assuming its first size<0>(tensor) values are the thread's first values
// in layout_tv (CuTe's retile_S/retile_D, which are the same):
//   frg_mn = upcast<threads*V>(right_inverse(layout_tv) o make_layout(shape(tiler)))
//   frg_v  = zipped_divide(logical_product(make_layout(V), right_inverse(frg_mn)), AtomNumVal)
//   result = (zipped_divide(tensor, (V, product_each(shape(frg_mn))...)) o (frg_v, _))(_, (0,_,...))
COTILE_HD constexpr Layout retile(const TiledCopy& tc, const Layout& tensor) {
  const int r = tensor.rank();
  const Int v = size(tensor.get(0));
  const Int threads = size(tc.layout_tv.get(0));
  if (!v.is_static || !threads.is_static)
    fail("retile", "the fragment's first mode and the copy's threads must be static", nullptr, arg("tensor", tensor));
  const Layout frg_mn =
      upcast(composition(right_inverse(tc.layout_tv), make_layout(tiler_shape(tc.tiler))), (threads * v).value);
  const Layout frg_v = zipped_divide(logical_product(make_layout(int_tuple(v)), right_inverse(frg_mn)),
                                     tile_layout(make_layout(int_tuple(size(tc.atom.val_ref.get(1))))));
  const Tile tiler = tile_of_shape(prepend(product_each(frg_mn.shape), int_tuple(v)));
  const Layout t = zipped_divide(tensor, tiler);
  const Layout vt = composition(t, coord(tile_layout(frg_v), tile_underscore()));
  Tile rest = Tile::tuple();
  rest.push_back(tile_int(static_int(0)));
  for (int i = 1; i < r; ++i) rest.push_back(tile_underscore());
  return slice_and_offset(coord(tile_underscore(), r == 1 ? tile_int(static_int(0)) : rest), vt).layout;
}

// The number of threads of a tiled copy.
COTILE_HD constexpr Int size(const TiledCopy& tc) { return size(tc.layout_tv.get(0)); }

}  // namespace cotile
