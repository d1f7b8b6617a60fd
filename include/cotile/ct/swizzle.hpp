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
namespace detail {
// Static when its offset and its layout are (the swizzle always is).
template <class Sw, class Off, class L>
struct is_static_type<ComposedLayout<Sw, Off, L>> : std::bool_constant<is_static_v<Off> && is_static_v<L>> {};
}  // namespace detail

// composition(Sw, L) = Sw o _0 o L.
template <int B, int M, int S, class L>
COTILE_HD COTILE_INLINE constexpr auto composition(const Swizzle<B, M, S>& sw, const L& l) {
  static_assert(is_layout_v<L>, "composition(Swizzle, L): L must be a layout");
  return ComposedLayout<Swizzle<B, M, S>, _0, L>{sw, _0{}, l};
}

namespace op {
// composition(L, Sw<B,M,S>) = Sw' o _0 o L (the engine's, algebra/swizzle_inverse.hpp, with its
// law L(Sw(x)) = Sw'(L(x)) checked on every x < size(L)): Sw' as (B', M', S').
template <int B, int M, int S>
struct LayoutAfterSwizzle {
  Options opt{};
  constexpr auto operator()(const EL& l) const {
    const ::cotile::ComposedLayout r = ::cotile::composition(l, ::cotile::Swizzle{B, M, S}, opt);
    return make_tuple(::cotile::static_int(r.swizzle.b), ::cotile::static_int(r.swizzle.m),
                      ::cotile::static_int(r.swizzle.s));
  }
};
}  // namespace op

// composition(L, Sw): x -> L(Sw(x)), written Sw' o _0 o L (CuTe's result; refused where L does
// not carry the swizzle's bits, where that rewrite is wrong).
template <class L, int B, int M, int S>
requires is_layout_v<L> COTILE_HD COTILE_INLINE constexpr auto composition(const L& l, const Swizzle<B, M, S>&) {
  static_assert(is_static_v<L>, "composition(L, Swizzle): L must be static (the result's swizzle is a type, made "
                                "from L's values on the swizzle's bits)");
  constexpr auto sw = decltype(lift<op::LayoutAfterSwizzle<B, M, S>, Kind::kLayout>(l))::spec;
  using Sw = Swizzle<int(sw.val[0]), int(sw.val[1]), int(sw.val[2])>;
  return ComposedLayout<Sw, _0, L>{Sw{}, _0{}, l};
}

// composition(Sw o k o L, T) = Sw o k o composition(L, T): x -> Sw(k + L(T(x))).
template <class Sw, class Off, class L, class T>
COTILE_HD COTILE_INLINE constexpr auto composition(const ComposedLayout<Sw, Off, L>& c, const T& t) {
  const auto inner = composition(c.layout, t);
  return ComposedLayout<Sw, Off, std::remove_cv_t<decltype(inner)>>{c.swizzle, c.offset, inner};
}

// composition(A, Sw o _0 o L) = composition(composition(A, Sw), L): x -> A(Sw(L(x))).
template <class A, class Sw, class Off, class L>
requires is_layout_v<A> COTILE_HD COTILE_INLINE constexpr auto composition(const A& a,
                                                                           const ComposedLayout<Sw, Off, L>& c) {
  static_assert(std::is_same_v<Off, _0>, "composition(A, Sw o offset o L): the offset must be _0 (A o Sw o offset "
                                         "is no swizzled layout: compose with Sw o _0 o L and add A(offset) apart)");
  return composition(composition(a, c.swizzle), c.layout);
}

namespace op {
// Lawful: strict as CuTe (a block with run-time strides of rank > 1 has no complement there), and
// the law of the target's extents checked on the values.
struct TileToShape : Lawful {
  constexpr EL operator()(const EL& l, const IntTuple& s) const { return tile_to_shape(l, s, nullptr, opt); }
  constexpr EL operator()(const EL& l, const IntTuple& s, const IntTuple& o) const {
    return tile_to_shape(l, s, &o, opt);
  }
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

namespace op {
// The inverse of Sw<B,M,S> o _0 o L (the engine's, algebra/swizzle_inverse.hpp), as its layout
// (Part 0: the laws checked here) or its swizzle's (B, M, S) (Part 1: the same result, computed
// again without re-checking the laws, which Part 0 did).
template <int B, int M, int S, bool Left, int Part>
struct SwizzledInverse {
  Options opt{};
  constexpr auto operator()(const EL& l) const {
    const ::cotile::ComposedLayout c{::cotile::Swizzle{B, M, S}, ::cotile::static_int(0), l};
    const Options o = Part == 0 ? opt : Options{opt.strict, true, nullptr};  // as_cute, no log: no law run
    const ::cotile::ComposedLayout r = swizzled_inverse(Left, c, o);
    if constexpr (Part == 0) return r.layout;
    else
      return make_tuple(::cotile::static_int(r.swizzle.b), ::cotile::static_int(r.swizzle.m),
                        ::cotile::static_int(r.swizzle.s));
  }
};
}  // namespace op

namespace detail {
template <bool Left, int B, int M, int S, class Off, class L>
COTILE_HD COTILE_INLINE constexpr auto swizzled_inverse(const ComposedLayout<Swizzle<B, M, S>, Off, L>& c) {
  static_assert(std::is_same_v<Off, _0>,
                "right_inverse/left_inverse(Sw o offset o L): the offset must be _0 (invert Sw o _0 o L and subtract "
                "the offset first)");
  static_assert(is_static_v<L>, "right_inverse/left_inverse(Sw o _0 o L): L must be static (the result's swizzle "
                                "is a type, made from L's values on the swizzle's bits)");
  const auto inner = lift<op::SwizzledInverse<B, M, S, Left, 0>, Kind::kLayout>(c.layout);
  constexpr auto sw = decltype(lift<op::SwizzledInverse<B, M, S, Left, 1>, Kind::kLayout>(c.layout))::spec;
  using Sw = Swizzle<int(sw.val[0]), int(sw.val[1]), int(sw.val[2])>;
  return ComposedLayout<Sw, _0, std::remove_cv_t<decltype(inner)>>{Sw{}, _0{}, inner};
}
}  // namespace detail

// right_inverse(Sw o _0 o L) = right_inverse(L) o Sw and left_inverse likewise, written as
// swizzled layouts Sw' o _0 o L' (CuTe's results; the engine's, which checks their laws
// C(R(i)) = i and C(R(C(i))) = C(i) on every point and refuses where CuTe's rule is wrong).
template <int B, int M, int S, class Off, class L>
COTILE_HD COTILE_INLINE constexpr auto right_inverse(const ComposedLayout<Swizzle<B, M, S>, Off, L>& c) {
  return detail::swizzled_inverse<false>(c);
}
template <int B, int M, int S, class Off, class L>
COTILE_HD COTILE_INLINE constexpr auto left_inverse(const ComposedLayout<Swizzle<B, M, S>, Off, L>& c) {
  return detail::swizzled_inverse<true>(c);
}

// A swizzled layout's domain is its layout's: shape, size, rank.
template <int... Is, class Sw, class Off, class L>
COTILE_HD COTILE_INLINE constexpr auto shape(const ComposedLayout<Sw, Off, L>& c) {
  return shape<Is...>(c.layout);
}
// congruent, weakly_congruent, compatible: a swizzled layout answers for its shape.
template <class Sw, class Off, class L>
struct answers_by_shape<ComposedLayout<Sw, Off, L>> : std::true_type {};

// layout(c) is c itself (a mode of it is no swizzled layout of its own: CuTe's layout<I> of one
// is not supported either).
template <int... Is, class Sw, class Off, class L>
COTILE_HD COTILE_INLINE constexpr auto layout(const ComposedLayout<Sw, Off, L>& c) {
  static_assert(sizeof...(Is) == 0, "layout<I...>(Sw o k o L): take the mode of its layout, c.layout");
  return c;
}
template <class Sw, class Off, class L>
COTILE_HD COTILE_INLINE constexpr auto size(const ComposedLayout<Sw, Off, L>& c) {
  return size(c.layout);
}
template <class Sw, class Off, class L>
COTILE_HD COTILE_INLINE constexpr auto rank(const ComposedLayout<Sw, Off, L>& c) {
  return rank(c.layout);
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
  const ::cotile::Int off = std::is_integral_v<Off> ? dynamic_int(int64_t(c.offset)) : static_int(int64_t(c.offset));
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
