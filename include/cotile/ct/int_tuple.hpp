// CuTe's functions of integers and integer tuples on typed values: each lifts the engine's
// (cotile/int.hpp, cotile/int_tuple.hpp), so a static result is a static type and the rules are
// written once.
//     max, min, gcd, lcm, round_up (integers; ceil_div: layout.hpp);  gcd(x, y, z, ...) of any
//     number of integers and tuples (their leaves);
//     max(t), min(t): the largest / smallest leaf of a tuple;  sum(t);
//     product_like(t, guide), elem_scale(a, b): products of subtrees at another tuple's leaves;
//     compact_col_major(S[, current]), compact_row_major(S[, current]): the compact strides of S;
//     inner_product(a, b) = sum a_i b_i;  lex_less, colex_less: the orders of coordinates, and
//     their leq/gtr/geq; elem_gtr;
//     a == b, a != b on tuples: congruent and equal leaf by leaf (static where the leaves are);
//     congruent, weakly_congruent, compatible (of tuples or layouts' shapes): always static but
//     compatible, which compares sizes;  evenly_divides(shape, tiler): whole tiles;
//     domain_distribute(shape, n): a tile of n elements that divides the shape evenly.
#pragma once

#include "integer_ops.hpp"
#include "layout.hpp"
#include "tuple.hpp"
#include "typed.hpp"

namespace cotile::ct {

namespace op {
constexpr const IntTuple& shape_of(const IntTuple& t) { return t; }
constexpr const IntTuple& shape_of(const ::cotile::Layout& l) { return l.shape; }
struct Max {
  constexpr EInt operator()(const EInt& a, const EInt& b) const { return ::cotile::max(a, b); }
};
struct Min {
  constexpr EInt operator()(const EInt& a, const EInt& b) const { return ::cotile::min(a, b); }
};
struct Gcd {
  constexpr EInt operator()(const EInt& a, const EInt& b) const { return ::cotile::gcd(a, b); }
};
struct Lcm {
  constexpr EInt operator()(const EInt& a, const EInt& b) const { return ::cotile::lcm(a, b); }
};
struct RoundUp {
  constexpr EInt operator()(const EInt& a, const EInt& b) const { return ::cotile::round_up(a, b); }
};
struct CompactColMajor {
  constexpr IntTuple operator()(const IntTuple& s) const { return ::cotile::compact_col_major(s); }
  constexpr IntTuple operator()(const IntTuple& s, const EInt& c) const { return ::cotile::compact_col_major(s, c); }
};
struct CompactRowMajor {
  constexpr IntTuple operator()(const IntTuple& s) const { return ::cotile::compact_row_major(s); }
  constexpr IntTuple operator()(const IntTuple& s, const EInt& c) const { return ::cotile::compact_row_major(s, c); }
};
struct InnerProduct {
  constexpr EInt operator()(const IntTuple& a, const IntTuple& b) const { return ::cotile::inner_product(a, b); }
};
// The largest (Largest) or the smallest leaf of a tuple (an integer: itself), the engine's max or
// min folded over the leaves.
template <bool Largest>
struct ExtremeLeaf {
  constexpr EInt operator()(const IntTuple& t) const {
    const char* name = Largest ? "max" : "min";
    if (t.num_leaves() == 0) fail(name, "the tuple has no integer", "pass a non-empty tuple");
    EInt r = t.leaf_at(0);
    for (int k = 1; k < t.num_leaves(); ++k)
      r = Largest ? ::cotile::max(r, t.leaf_at(k)) : ::cotile::min(r, t.leaf_at(k));
    return r;
  }
};
// The gcd of every leaf of every argument (the engine's gcd folded from _0, its identity).
struct GcdOfLeaves {
  template <class... Ts>
  constexpr EInt operator()(const Ts&... ts) const {
    EInt r = static_int(0);
    (
        [&] {
          for (int k = 0; k < ts.num_leaves(); ++k) r = ::cotile::gcd(r, ts.leaf_at(k));
        }(),
        ...);
    return r;
  }
};
// Tuples equal: the same profile (else a static 0) and every pair of leaves equal, as the
// engine's booleans (static where both leaves are).
struct TupleEqual {
  constexpr EInt operator()(const IntTuple& a, const IntTuple& b) const {
    if (!a.same_profile(b)) return static_int(0);
    EInt r = static_int(1);
    for (int k = 0; k < a.num_leaves(); ++k) r = logical_and(r, equal(a.leaf_at(k), b.leaf_at(k)));
    return r;
  }
};
struct LexLess {
  constexpr EInt operator()(const IntTuple& a, const IntTuple& b) const { return ::cotile::lex_less(a, b); }
};
struct ColexLess {
  constexpr EInt operator()(const IntTuple& a, const IntTuple& b) const { return ::cotile::colex_less(a, b); }
};
// The other relations of a strict order Less: a > b is b < a, a <= b is !(b < a), a >= b is !(a < b).
template <class Less, bool Swap, bool Negate>
struct OrderFrom {
  constexpr EInt operator()(const IntTuple& a, const IntTuple& b) const {
    const EInt r = Swap ? Less{}(b, a) : Less{}(a, b);
    return Negate ? equal(r, static_int(0)) : r;
  }
};
struct ProductLike {
  constexpr IntTuple operator()(const IntTuple& t, const IntTuple& g) const { return ::cotile::product_like(t, g); }
};
struct ElemScale {
  constexpr IntTuple operator()(const IntTuple& a, const IntTuple& b) const { return ::cotile::elem_scale(a, b); }
};
struct Sum {
  constexpr EInt operator()(const IntTuple& t) const { return ::cotile::sum(t); }
};
// Predicates of profiles and shapes; a layout answers for its shape (as CuTe's do).
struct Congruent {
  template <class A, class B>
  constexpr EInt operator()(const A& a, const B& b) const {
    return ::cotile::congruent(shape_of(a), shape_of(b));
  }
};
struct WeaklyCongruent {
  template <class A, class B>
  constexpr EInt operator()(const A& a, const B& b) const {
    return ::cotile::weakly_congruent(shape_of(a), shape_of(b));
  }
};
struct Compatible {
  template <class A, class B>
  constexpr EInt operator()(const A& a, const B& b) const {
    return ::cotile::compatible(shape_of(a), shape_of(b));
  }
};
struct EvenlyDivides {
  template <class A>
  constexpr EInt operator()(const A& s, const ETile& t) const {
    return ::cotile::evenly_divides(shape_of(s), t);
  }
};
struct DomainDistribute {
  template <class A>
  constexpr EL operator()(const A& a, const EInt& n) const {
    return ::cotile::domain_distribute(shape_of(a), n);
  }
};
struct TupleNotEqual {
  constexpr EInt operator()(const IntTuple& a, const IntTuple& b) const {
    return equal(TupleEqual{}(a, b), static_int(0));
  }
};
// Layouts are equal when their shapes and their strides are (as integer tuples: the same
// profile and equal leaves; static where every leaf compared is).
struct LayoutEqual {
  constexpr EInt operator()(const ::cotile::Layout& a, const ::cotile::Layout& b) const {
    return logical_and(TupleEqual{}(a.shape, b.shape), TupleEqual{}(a.stride, b.stride));
  }
};
struct LayoutNotEqual {
  constexpr EInt operator()(const ::cotile::Layout& a, const ::cotile::Layout& b) const {
    return equal(LayoutEqual{}(a, b), static_int(0));
  }
};
}  // namespace op

// Integers: at least one typed (a static Int<N>) or both plain; the result as lift gives it.
template <class A, class B>
inline constexpr bool int_operands = (is_static_int<A>::value || std::is_integral_v<A>)&&(is_static_int<B>::value ||
                                                                                          std::is_integral_v<B>);
#define COTILE_CT_INT_FUNCTION(name, NAME)                                   \
  template <class A, class B, std::enable_if_t<int_operands<A, B>, int> = 0> \
  COTILE_HD COTILE_INLINE constexpr auto name(const A& a, const B& b) {      \
    return lift<op::NAME, Kind::kInt, Kind::kInt>(a, b);                     \
  }
COTILE_CT_INT_FUNCTION(max, Max)
COTILE_CT_INT_FUNCTION(min, Min)
COTILE_CT_INT_FUNCTION(gcd, Gcd)
COTILE_CT_INT_FUNCTION(lcm, Lcm)
COTILE_CT_INT_FUNCTION(round_up, RoundUp)
#undef COTILE_CT_INT_FUNCTION

// gcd(t), gcd(x, y, z, ...): the gcd of every leaf of the arguments, integers or tuples (CuTe's
// variadic gcd); static arguments (the engine's gcd of a run-time value is refused).
namespace detail {
template <class T>
struct IsIntTuple : std::bool_constant<is_tuple_v<T>> {};
template <auto S>
struct IsIntTuple<Tuple<S>> : std::true_type {};
template <class>
inline constexpr Kind kAsTuple = Kind::kTuple;
}  // namespace detail
template <class T>
requires(detail::IsIntTuple<T>::value) COTILE_HD COTILE_INLINE constexpr auto gcd(const T& t) {
  return lift<op::GcdOfLeaves, Kind::kTuple>(t);
}
template <class X0, class X1, class... Xs>
requires(sizeof...(Xs) > 0 || !int_operands<X0, X1>) COTILE_HD COTILE_INLINE
    constexpr auto gcd(const X0& x0, const X1& x1, const Xs&... xs) {
  return lift<op::GcdOfLeaves, Kind::kTuple, Kind::kTuple, detail::kAsTuple<Xs>...>(x0, x1, xs...);
}

// max(t), min(t): over every leaf of an integer tuple (CuTe's max/min of one tuple).
template <class T>
requires(is_tuple_v<T>) COTILE_HD COTILE_INLINE constexpr auto max(const T& t) {
  return lift<op::ExtremeLeaf<true>, Kind::kTuple>(t);
}
template <class T>
requires(is_tuple_v<T>) COTILE_HD COTILE_INLINE constexpr auto min(const T& t) {
  return lift<op::ExtremeLeaf<false>, Kind::kTuple>(t);
}

template <class S>
COTILE_HD COTILE_INLINE constexpr auto compact_col_major(const S& s) {
  return lift<op::CompactColMajor, Kind::kTuple>(s);
}
template <class S, class C>
COTILE_HD COTILE_INLINE constexpr auto compact_col_major(const S& s, const C& current) {
  return lift<op::CompactColMajor, Kind::kTuple, Kind::kInt>(s, current);
}
template <class S>
COTILE_HD COTILE_INLINE constexpr auto compact_row_major(const S& s) {
  return lift<op::CompactRowMajor, Kind::kTuple>(s);
}
template <class S, class C>
COTILE_HD COTILE_INLINE constexpr auto compact_row_major(const S& s, const C& current) {
  return lift<op::CompactRowMajor, Kind::kTuple, Kind::kInt>(s, current);
}
template <class A, class B>
COTILE_HD COTILE_INLINE constexpr auto inner_product(const A& a, const B& b) {
  return lift<op::InnerProduct, Kind::kTuple, Kind::kTuple>(a, b);
}

// lex_less(a, b) (first leaf most significant), colex_less(a, b) (last leaf most significant).
template <class A, class B>
COTILE_HD COTILE_INLINE constexpr auto lex_less(const A& a, const B& b) {
  return lift<op::LexLess, Kind::kTuple, Kind::kTuple>(a, b);
}
template <class A, class B>
COTILE_HD COTILE_INLINE constexpr auto colex_less(const A& a, const B& b) {
  return lift<op::ColexLess, Kind::kTuple, Kind::kTuple>(a, b);
}
// Their other relations (total orders, so the negations are the non-strict orders): lex_leq,
// lex_gtr, lex_geq, colex_leq, colex_gtr, colex_geq; and elem_gtr(a, b) = elem_less(b, a) (CuTe's
// elem_leq/elem_geq, the negations of elem_less, are not the leafwise <= and >=: left out).
#define COTILE_CT_ORDER(name, LESS, SWAP, NEGATE)                                         \
  template <class A, class B>                                                             \
  COTILE_HD COTILE_INLINE constexpr auto name(const A& a, const B& b) {                   \
    return lift<op::OrderFrom<op::LESS, SWAP, NEGATE>, Kind::kTuple, Kind::kTuple>(a, b); \
  }
COTILE_CT_ORDER(lex_leq, LexLess, true, true)
COTILE_CT_ORDER(lex_gtr, LexLess, true, false)
COTILE_CT_ORDER(lex_geq, LexLess, false, true)
COTILE_CT_ORDER(colex_leq, ColexLess, true, true)
COTILE_CT_ORDER(colex_gtr, ColexLess, true, false)
COTILE_CT_ORDER(colex_geq, ColexLess, false, true)
COTILE_CT_ORDER(elem_gtr, ElemLess, true, false)
#undef COTILE_CT_ORDER

// product_like(t, guide): guide's nesting with the product of t's subtree at each of its leaves;
// elem_scale(a, b): a's nesting with each leaf times the product of b's subtree there (the
// engine's; guide must be weakly congruent to t, and a to b).
template <class T, class G>
COTILE_HD COTILE_INLINE constexpr auto product_like(const T& t, const G& guide) {
  return lift<op::ProductLike, Kind::kTuple, Kind::kTuple>(t, guide);
}
template <class A, class B>
COTILE_HD COTILE_INLINE constexpr auto elem_scale(const A& a, const B& b) {
  return lift<op::ElemScale, Kind::kTuple, Kind::kTuple>(a, b);
}

// sum(t) = _0 + the leaves of t (the engine's; static where the leaves are).
template <class T>
COTILE_HD COTILE_INLINE constexpr auto sum(const T& t) {
  return lift<op::Sum, Kind::kTuple>(t);
}

// == and != between integer tuples (ct::tuple or a typed result), when at least one is a ct::tuple.
template <class A, class B>
requires(is_tuple_v<A> || is_tuple_v<B>) COTILE_HD COTILE_INLINE constexpr auto operator==(const A& a, const B& b) {
  return lift<op::TupleEqual, Kind::kTuple, Kind::kTuple>(a, b);
}
template <class A, class B>
requires(is_tuple_v<A> || is_tuple_v<B>) COTILE_HD COTILE_INLINE constexpr auto operator!=(const A& a, const B& b) {
  return lift<op::TupleNotEqual, Kind::kTuple, Kind::kTuple>(a, b);
}
// a == b, a != b for layouts: the same shape and the same stride (CuTe's; an Int<0|1> where
// static, else a run-time 0 or 1).
template <auto A, auto B>
COTILE_HD COTILE_INLINE constexpr auto operator==(const TypedLayout<A>& a, const TypedLayout<B>& b) {
  return lift<op::LayoutEqual, Kind::kLayout, Kind::kLayout>(a, b);
}
template <auto A, auto B>
COTILE_HD COTILE_INLINE constexpr auto operator!=(const TypedLayout<A>& a, const TypedLayout<B>& b) {
  return lift<op::LayoutNotEqual, Kind::kLayout, Kind::kLayout>(a, b);
}

// congruent(a, b): the same profile;  weakly_congruent(a, b): a's profile is b's with subtrees
// collapsed to integers;  compatible(a, b): every coordinate of a is one of b. Of integer tuples
// or layouts (their shapes); the first two are always static, compatible where the sizes it
// compares are.
// A layout-like value that is no TypedLayout (a swizzled layout, a basis layout) answers them for
// its shape: its header specializes answers_by_shape.
template <class T>
struct answers_by_shape : std::false_type {};
namespace detail {
template <class T>
COTILE_HD COTILE_INLINE constexpr decltype(auto) shape_arg(const T& t) {
  if constexpr (answers_by_shape<T>::value) return shape(t);
  else return (t);
}
template <class A, class B>
inline constexpr bool kByShape = answers_by_shape<A>::value || answers_by_shape<B>::value;
}  // namespace detail
template <class A, class B>
COTILE_HD COTILE_INLINE constexpr auto congruent(const A& a, const B& b) {
  if constexpr (detail::kByShape<A, B>) return congruent(detail::shape_arg(a), detail::shape_arg(b));
  else return lift<op::Congruent, tuple_kind<A>, tuple_kind<B>>(a, b);
}
template <class A, class B>
COTILE_HD COTILE_INLINE constexpr auto weakly_congruent(const A& a, const B& b) {
  if constexpr (detail::kByShape<A, B>) return weakly_congruent(detail::shape_arg(a), detail::shape_arg(b));
  else return lift<op::WeaklyCongruent, tuple_kind<A>, tuple_kind<B>>(a, b);
}
template <class A, class B>
COTILE_HD COTILE_INLINE constexpr auto compatible(const A& a, const B& b) {
  if constexpr (detail::kByShape<A, B>) return compatible(detail::shape_arg(a), detail::shape_arg(b));
  else return lift<op::Compatible, tuple_kind<A>, tuple_kind<B>>(a, b);
}
// evenly_divides(shape, tiler): the tiler (an integer, a layout, '_' or a tuple of them) cuts the
// shape (or a layout's shape) into whole tiles, mode by mode (the engine's, algebra/divide.hpp).
template <class S, class T>
COTILE_HD COTILE_INLINE constexpr auto evenly_divides(const S& s, const T& t) {
  return lift<op::EvenlyDivides, tuple_kind<S>, Kind::kTile>(s, t);
}

// domain_distribute(shape, n): an ordered tile of (at most) n elements of the shape's domain (or a
// layout's shape), gcd by gcd from the first leaf; static arguments (as CuTe's).
// domain_distribute(make_shape(_15{}, _14{}), _6{}) is (_3,_2):(_1,_15).
template <class S, class N>
COTILE_HD COTILE_INLINE constexpr auto domain_distribute(const S& s, const N& n) {
  return lift<op::DomainDistribute, tuple_kind<S>, Kind::kInt>(s, n);
}

}  // namespace cotile::ct
