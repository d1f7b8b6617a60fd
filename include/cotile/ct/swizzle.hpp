// Typed swizzles and swizzled layouts for kernels' shared-memory tiles: Sw<B,M,S> o offset o L.
// The swizzle function, tile_to_shape and the printed form are the engine's; a typed swizzled
// layout only carries its typed inner layout and its offset (Int<N> or a run-time integer).
#pragma once

#include "int_tuple.hpp"
#include "layout.hpp"

namespace cotile::ct {

// Sw<B,M,S>: x -> x ^ ((x & (((1 << B) - 1) << (M + S))) >> S)  (the engine's Swizzle).
template <int B, int M, int S>
struct Swizzle {
  static constexpr ::cotile::Swizzle value = make_swizzle(B, M, S);  // checks B, M, S
  COTILE_HD COTILE_INLINE constexpr int64_t operator()(int64_t x) const {
    return ::cotile::Swizzle{value.b, value.m, value.s}(x);  // scalars: usable in device code
  }
};

// x -> swizzle(offset + layout(x)).
template <class Sw, class Off, class L>
struct ComposedLayout {
  Sw swizzle;
  Off offset;
  L layout;
  template <class... C>
  COTILE_HD COTILE_INLINE constexpr int64_t operator()(const C&... c) const {
    return swizzle(int64_t(offset) + int64_t(layout(c...)));
  }
};

template <class T>
struct is_composed_layout : std::false_type {};
template <class Sw, class Off, class L>
struct is_composed_layout<ComposedLayout<Sw, Off, L>> : std::true_type {};

// composition(Sw, L) = Sw o _0 o L.
template <int B, int M, int S, class L>
COTILE_HD COTILE_INLINE constexpr auto composition(const Swizzle<B, M, S>& sw, const L& l) {
  static_assert(is_layout_v<L>, "composition(Swizzle, L): L must be a layout");
  return ComposedLayout<Swizzle<B, M, S>, _0, L>{sw, _0{}, l};
}

namespace op {
struct TileToShape {
  constexpr EL operator()(const EL& l, const IntTuple& s) const { return tile_to_shape(l, s); }
  constexpr EL operator()(const EL& l, const IntTuple& s, const IntTuple& o) const { return tile_to_shape(l, s, &o); }
};
}  // namespace op

// tile_to_shape(A, S[, O]): A repeated to cover shape S (engine: algebra/product.hpp); for a
// swizzled atom, its inner layout is tiled and the swizzle and offset kept.
template <class L, class... ShapeOrder>
COTILE_HD COTILE_INLINE constexpr auto tile_to_shape(const L& l, const ShapeOrder&... so) {
  static_assert(sizeof...(ShapeOrder) == 1 || sizeof...(ShapeOrder) == 2, "tile_to_shape(A, shape[, order])");
  if constexpr (is_composed_layout<L>::value) {
    const auto inner = tile_to_shape(l.layout, so...);
    return ComposedLayout<decltype(l.swizzle), decltype(l.offset), std::remove_cv_t<decltype(inner)>>{l.swizzle,
                                                                                                      l.offset, inner};
  } else {
    return lift<op::TileToShape, Kind::kLayout, tuple_kind<ShapeOrder>...>(l, so...);
  }
}

// max_alignment: a swizzle keeps the low M bits, so blocks of 2^M; a swizzled layout, the gcd of
// its swizzle's, its (static) offset's and its layout's (CuTe's).
template <int B, int M, int S>
COTILE_HD constexpr auto max_alignment(const Swizzle<B, M, S>&) {
  return Int<(int64_t(1) << M)>{};
}
template <class Sw, class Off, class L>
COTILE_HD COTILE_INLINE constexpr auto max_alignment(const ComposedLayout<Sw, Off, L>& c) {
  static_assert(!std::is_integral_v<Off>,
                "max_alignment(Sw o offset o L): the offset must be static (its alignment is its value)");
  return gcd(max_alignment(c.swizzle), max_alignment(c.offset), max_alignment(c.layout));
}

// The engine value (host or device) and the printed form, "Sw<B,M,S> o OFFSET o LAYOUT".
template <class Sw, class Off, class L>
COTILE_HD constexpr ::cotile::ComposedLayout engine(const ComposedLayout<Sw, Off, L>& c) {
  const ::cotile::Int off = std::is_integral_v<Off> ? D(int64_t(c.offset)) : S(int64_t(c.offset));
  return ::cotile::ComposedLayout{Sw::value, off, engine(c.layout)};
}
template <int B, int M, int S>
inline std::string to_string(const Swizzle<B, M, S>&) {
  return ::cotile::to_string(Swizzle<B, M, S>::value);
}
template <class Sw, class Off, class L>
inline std::string to_string(const ComposedLayout<Sw, Off, L>& c) {
  return ::cotile::to_string(engine(c));
}

}  // namespace cotile::ct
