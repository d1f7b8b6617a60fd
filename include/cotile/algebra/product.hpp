// Products: repeat a block layout according to a tiler layout.
#pragma once

#include "divide.hpp"

namespace cotile {

// logical_product(A, B) = (A, complement(A, size(A) * cosize(B)) o B)
// Mode 0 is the block A; mode 1 places copies of it as B says, in the offsets A leaves free.
// Law: this definition, with the laws of complement and composition (each checked).
COTILE_HD constexpr Layout logical_product(const Layout& a, const Layout& b, Options opt = {}) {
  return make_layout_concat(a, composition(complement(a, int_tuple(size(a) * cosize(b)), opt), b, opt));
}
COTILE_HD constexpr Layout logical_product(const Layout& a, const Tile& t, Options opt = {}) {
  if (t.is_leaf()) {
    const TileLeaf& x = t.value();
    if (x.kind == TileLeaf::kUnderscore) return a;
    if (x.kind == TileLeaf::kInt) return logical_product(a, make_layout(int_tuple(x.integer())), opt);
    return logical_product(a, x.layout, opt);
  }
  if (t.rank() > a.rank())
    fail("logical_product", "the tile has more modes than the layout", nullptr, arg("layout", a), arg("tile", t));
  LayoutList r;
  for (int i = 0; i < a.rank(); ++i) r.push_back(i < t.rank() ? logical_product(a.get(i), t.get(i), opt) : a.get(i));
  return r.layout();
}

// zipped_product(A, T) = ((block modes), (product modes))
COTILE_HD constexpr Layout zipped_product(const Layout& a, const Tile& t, Options opt = {}) {
  return zip2_by(logical_product(a, t, opt), t);
}

// tiled_product(A, T) = ((block modes), product_0, product_1, ...)
COTILE_HD constexpr Layout tiled_product(const Layout& a, const Tile& t, Options opt = {}) {
  const Layout z = zipped_product(a, t, opt);
  LayoutList r;
  r.push_back(z.get(0));
  detail::unpack_into(r, z.get(1));
  return r.layout();
}

namespace detail {
// zip(X, Y) of a blocked (X the block, Y the placements) or raked (X the placements, Y the block)
// product: mode k is (X_k, Y_k), so a tuple X needs Y of its rank.
COTILE_HD constexpr Layout zip_product_modes(const char* op, const Layout& x, const Layout& y, const Layout& a,
                                             const Layout& b, const Layout& block, const Layout& placements) {
  if (!x.shape.is_leaf() && x.rank() != y.rank())
    fail(op,
         "mode k of the result pairs mode k of the block and of the product's placements, and these have "
         "different ranks",
         "make the extents static: with run-time ones the placements keep modes (of extent 1) that static ones "
         "drop (CuTe does not compile these inputs either)",
         arg("A", a), arg("B", b), arg("block", block), arg("placements", placements));
  return zip(x, y);
}
}  // namespace detail

// blocked_product(A, B): with both padded by _1:_0 modes to R = max(rank A, rank B) and
// (A, C) = logical_product(A, B), mode k of the result is (A_k, C_k): blocks laid out by B.
COTILE_HD constexpr Layout blocked_product(const Layout& a, const Layout& b, Options opt = {}) {
  const int r = a.rank() > b.rank() ? a.rank() : b.rank();
  const Layout p = logical_product(append_to_rank(a, r), append_to_rank(b, r), opt);
  return detail::zip_product_modes("blocked_product", p.get(0), p.get(1), a, b, p.get(0), p.get(1));
}

// raked_product(A, B): as blocked_product with mode k = (C_k, A_k): blocks interleaved.
COTILE_HD constexpr Layout raked_product(const Layout& a, const Layout& b, Options opt = {}) {
  const int r = a.rank() > b.rank() ? a.rank() : b.rank();
  const Layout p = logical_product(append_to_rank(a, r), append_to_rank(b, r), opt);
  return detail::zip_product_modes("raked_product", p.get(1), p.get(0), a, b, p.get(0), p.get(1));
}

namespace laws {

inline constexpr const char* kTileToShapeLaw = "product_each(shape(R)) = product_each(S)";

// R = tile_to_shape(A, S): R has the target's extents, mode by mode (its blocks are A's, by
// blocked_product's law). It holds when A's extents divide S's; CuTe checks that only where both
// are static and rounds a run-time target up to whole blocks.
COTILE_HD constexpr LawReport tile_to_shape(const Layout& block, const IntTuple& trg, const Layout& r) {
  LawReport rep = holding("tile_to_shape", kTileToShapeLaw, known(trg) && known(r));
  if (rep.deferred) return rep;
  const IntTuple want = product_each(trg), got = product_each(r.shape);
  for (int i = 0; i < trg.rank(); ++i) {
    if (got.mode_value(i).value == want.mode_value(i).value) continue;
    const IntTuple blk = product_each(block.shape);
    LawReport f = failed("tile_to_shape", kTileToShapeLaw);
    f.message.add(" at mode ")
        .num(i)
        .add(" (R's extent ")
        .num(got.mode_value(i).value)
        .add(", S's ")
        .num(want.mode_value(i).value)
        .add("): the block's extent ")
        .num(blk.rank() > i ? blk.mode_value(i).value : 1)
        .add(" does not divide it");
    line(f, "A", block);
    line(f, "S", trg);
    cute(f, r);
    fix(f,
        "give S extents that are multiples of the block's (round them up to whole blocks and mask what lies past S)");
    return f;
  }
  return proven(rep);
}

}  // namespace laws

// tile_to_shape(A, S, O): A repeated to cover shape S, the repetitions ordered by O
// (column-major when O is absent): blocked_product(A', make_ordered_layout(ceil_div(S', s(A')), O))
// with A' = A padded to rank(S), S' = product_each(S), s(A') = product_each(shape(A')).
// Requires rank(A) <= rank(S), S >= 0; when S is static, S' evenly divided by s(A'). Law (above):
// R has S's extents, which a run-time S that s(A') does not divide breaks (CuTe rounds it up:
// tile_to_shape(_2:_1, (3)) is CuTe's ((_2,(2))):((_1,(_2))), 4 elements for 3).
COTILE_HD constexpr Layout tile_to_shape(const Layout& block, const IntTuple& trg, const IntTuple* order = nullptr,
                                         Options opt = {}) {
  const int r = trg.rank();
  if (block.rank() > r)
    fail("tile_to_shape", "the block has more modes than the target shape", nullptr, arg("block", block),
         arg("shape", trg));
  check_extents("tile_to_shape", trg);
  const Layout padded = append_to_rank(block, r);
  const IntTuple block_shape = product_each(padded.shape), target_shape = product_each(trg);
  for (int i = 0; i < r; ++i) {
    const Int t = target_shape.mode_value(i), b = block_shape.mode_value(i);
    if (b.value <= 0) fail("tile_to_shape", "the block has a mode of size <= 0", nullptr, arg("block", block));
    if (t.is_static && b.is_static && t.value % b.value != 0)
      fail("tile_to_shape", "the block shape does not divide the target shape", nullptr, arg("block", block),
           arg("shape", trg));
  }
  const IntTuple product_shape = ceil_div(target_shape, block_shape);
  const Layout tiler = order ? make_ordered_layout(product_shape, *order) : make_layout(product_shape);
  const Layout tiled = blocked_product(padded, tiler, opt);
  return lawful(
      opt, [&] { return laws::tile_to_shape(block, trg, tiled); }, tiled);
}

}  // namespace cotile
