// The engine's layout operations as function objects, one a struct: what the typed layer's
// functions (layout.hpp) lift (typed.hpp) and evaluate twice, on the types at compile time and on
// the run-time values. Each calls the engine function of its name; those with a law carry the
// Options the typed layer sets during the symbolic evaluation.
#pragma once

#include "typed.hpp"

namespace cotile::ct::op {

using EL = ::cotile::Layout;
inline constexpr Options kStrict{true};

struct MakeLayoutS {
  constexpr EL operator()(const IntTuple& s) const { return make_layout(s); }
};
struct MakeLayoutSD {
  constexpr EL operator()(const IntTuple& s, const IntTuple& d) const { return make_layout(s, d); }
};
struct MakeLayoutRight {
  constexpr EL operator()(const IntTuple& s) const { return make_layout_right(s); }
};
struct MakeOrdered {
  constexpr EL operator()(const IntTuple& s, const IntTuple& o) const { return make_ordered_layout(s, o); }
};
struct Concat {
  template <class... Ls>
  constexpr EL operator()(const Ls&... ls) const {
    return make_layout_concat(ls...);
  }
};
struct Size {
  constexpr EInt operator()(const EL& l) const { return size(l); }
  constexpr EInt operator()(const IntTuple& t) const { return size(t); }
};
struct Cosize {
  constexpr EInt operator()(const EL& l) const { return cosize(l); }
};
struct Rank {
  constexpr EInt operator()(const EL& l) const { return rank(l); }
  constexpr EInt operator()(const IntTuple& t) const { return rank(t); }
};
struct Depth {
  constexpr EInt operator()(const EL& l) const { return depth(l); }
  constexpr EInt operator()(const IntTuple& t) const { return depth(t); }
};
struct Shape {
  constexpr IntTuple operator()(const EL& l) const { return l.shape; }
};
struct Stride {
  constexpr IntTuple operator()(const EL& l) const { return l.stride; }
};
template <int... Is>
struct Get {
  constexpr EL operator()(const EL& l) const {
    EL r = l;
    ((r = r.get(Is)), ...);
    return r;
  }
  constexpr IntTuple operator()(const IntTuple& t) const {
    IntTuple r = t;
    ((r = r.get(Is)), ...);
    return r;
  }
};
template <int... Is>
struct Select {
  constexpr EL operator()(const EL& l) const { return select(l, ::cotile::make_tuple(int_tuple(static_int(Is))...)); }
};
template <int B, int E>
struct Take {
  constexpr EL operator()(const EL& l) const { return take(l, B, E); }
};
template <int B, int E>
struct Group {
  constexpr EL operator()(const EL& l) const { return group(l, B, E); }
};
template <int N>
struct AppendN {
  constexpr EL operator()(const EL& l) const { return append_to_rank(l, N); }
};
struct Append {
  constexpr EL operator()(const EL& l, const EL& x) const { return append(l, x); }
};
template <int N>
struct Replace {
  constexpr EL operator()(const EL& l, const EL& x) const { return replace(l, N, x); }
  constexpr IntTuple operator()(const IntTuple& t, const IntTuple& x) const { return replace(t, N, x); }
};
struct Flatten {
  constexpr EL operator()(const EL& l) const { return flatten(l); }
  constexpr IntTuple operator()(const IntTuple& t) const { return flatten(t); }
};
struct ProductEach {
  constexpr IntTuple operator()(const IntTuple& t) const { return product_each(t); }
};
struct Coalesce {
  constexpr EL operator()(const EL& l) const { return coalesce(l); }
  constexpr EL operator()(const EL& l, const IntTuple& p) const { return coalesce(l, p); }
};
struct Filter {
  static constexpr const char* name = "filter";
  constexpr EL operator()(const EL& l) const { return filter(l); }
};
struct FilterZeros {
  static constexpr const char* name = "filter_zeros";
  constexpr EL operator()(const EL& l) const { return filter_zeros(l); }
};
struct Zip {
  constexpr EL operator()(const EL& l) const { return zip(l); }
};
// Operations with a law carry their Options: the typed layer sets them during the symbolic
// evaluation (typed.hpp, configured) and leaves the default (strict, checked) for the run-time check.
struct Lawful {
  Options opt = kStrict;
};
struct Composition : Lawful {
  constexpr EL operator()(const EL& a, const EL& b) const { return composition(a, b, opt); }
  constexpr EL operator()(const EL& a, const ETile& t) const { return composition(a, t, opt); }
};
struct Complement : Lawful {
  constexpr EL operator()(const EL& l) const { return complement(l, opt); }
  constexpr EL operator()(const EL& l, const IntTuple& t) const { return complement(l, t, opt); }
};
struct Nullspace : Lawful {
  constexpr EL operator()(const EL& l) const { return nullspace(l, opt); }
};
struct LeftInverse : Lawful {
  constexpr EL operator()(const EL& l) const { return left_inverse(l, opt); }
};
struct RightInverse : Lawful {
  constexpr EL operator()(const EL& l) const { return right_inverse(l, opt); }
};
#define COTILE_CT_TILER_OP(NAME, FN)                                                               \
  struct NAME : Lawful {                                                                           \
    constexpr EL operator()(const EL& a, const EL& b) const { return FN(a, tile_layout(b), opt); } \
    constexpr EL operator()(const EL& a, const ETile& t) const { return FN(a, t, opt); }           \
  };
COTILE_CT_TILER_OP(LogicalDivide, logical_divide)
COTILE_CT_TILER_OP(ZippedDivide, zipped_divide)
COTILE_CT_TILER_OP(TiledDivide, tiled_divide)
COTILE_CT_TILER_OP(FlatDivide, flat_divide)
COTILE_CT_TILER_OP(LogicalProduct, logical_product)
COTILE_CT_TILER_OP(ZippedProduct, zipped_product)
COTILE_CT_TILER_OP(TiledProduct, tiled_product)
#undef COTILE_CT_TILER_OP
struct BlockedProduct : Lawful {
  constexpr EL operator()(const EL& a, const EL& b) const { return blocked_product(a, b, opt); }
};
struct RakedProduct : Lawful {
  constexpr EL operator()(const EL& a, const EL& b) const { return raked_product(a, b, opt); }
};
template <int N>
struct Upcast : Lawful {
  constexpr EL operator()(const EL& l) const { return upcast(l, N, opt); }
};
template <int N>
struct Downcast {
  constexpr EL operator()(const EL& l) const { return downcast(l, N); }
};
struct MaxCommonVector : Lawful {
  constexpr EInt operator()(const EL& a, const EL& b) const { return max_common_vector(a, b, opt); }
};
struct MaxAlignment {
  constexpr EInt operator()(const EL& l) const { return max_alignment(l); }
};
struct MaxCommonLayout : Lawful {
  constexpr EL operator()(const EL& a, const EL& b) const { return max_common_layout(a, b, opt); }
};
struct ShapeDiv {
  constexpr IntTuple operator()(const IntTuple& a, const IntTuple& b) const { return shape_div(a, b); }
};
struct CeilDiv {
  constexpr IntTuple operator()(const IntTuple& a, const IntTuple& b) const { return ceil_div(a, b); }
};
struct Idx2Crd {
  static constexpr const char* name = "idx2crd";
  constexpr IntTuple operator()(const IntTuple& c, const IntTuple& s) const { return idx2crd(c, s); }
  constexpr IntTuple operator()(const IntTuple& c, const IntTuple& s, const IntTuple& d) const {
    return idx2crd(c, s, d);
  }
};
struct Crd2Idx {
  static constexpr const char* name = "crd2idx";
  constexpr EInt operator()(const IntTuple& c, const IntTuple& s, const IntTuple& d) const { return crd2idx(c, s, d); }
};
// The shape s itself, whose known extents are >= 0 (check_extents, in the name of the operation Op
// that counts in it): a static negative one is a compile error. Its run-time ones are left to
// check_shape_extents, on their values.
template <class Op>
struct Extents {
  constexpr IntTuple operator()(const IntTuple& s) const { return check_extents(Op::name, s, true), s; }
};
struct HierCoord {
  constexpr IntTuple operator()(const EL& l, const EInt& i) const { return idx2crd(int_tuple(i), l.shape, l.stride); }
};
struct ElemLess {
  constexpr EInt operator()(const IntTuple& a, const IntTuple& b) const { return elem_less(a, b); }
};
struct Product {
  constexpr EInt operator()(const IntTuple& t) const { return product(t); }
};
}  // namespace cotile::ct::op
