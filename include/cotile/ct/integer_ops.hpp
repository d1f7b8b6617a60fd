// Arithmetic and comparisons on the typed layer's integers, with CuTe's staticness:
//     Int<a> op Int<b>   is the static integer Int<a op b> (a comparison: Int<0> or Int<1>);
//     Int<a> op x        (x a run-time integer) is static exactly where the engine's rules make
//                        it so (_0 * x = _0, x % _1 = _0, _0 / x = _0, ...), else the run-time value.
// Each operator lifts the engine's own (cotile/int.hpp), so the rules are written once, and an
// overflow or a division by zero between static integers is a compile error.
#pragma once

#include <cstdint>
#include <type_traits>

#include "typed.hpp"

namespace cotile::ct {

namespace op {
struct Add {
  constexpr EInt operator()(const EInt& a, const EInt& b) const { return a + b; }
};
struct Sub {
  constexpr EInt operator()(const EInt& a, const EInt& b) const { return a - b; }
};
struct Mul {
  constexpr EInt operator()(const EInt& a, const EInt& b) const { return a * b; }
};
struct Div {
  constexpr EInt operator()(const EInt& a, const EInt& b) const { return a / b; }
};
struct Mod {
  constexpr EInt operator()(const EInt& a, const EInt& b) const { return a % b; }
};
// Comparisons as the engine's booleans (0 or 1): a <= b is !(b < a), a != b is !(a == b).
struct Less {
  constexpr EInt operator()(const EInt& a, const EInt& b) const { return less(a, b); }
};
struct Greater {
  constexpr EInt operator()(const EInt& a, const EInt& b) const { return less(b, a); }
};
struct LessEqual {
  constexpr EInt operator()(const EInt& a, const EInt& b) const { return equal(less(b, a), static_int(0)); }
};
struct GreaterEqual {
  constexpr EInt operator()(const EInt& a, const EInt& b) const { return equal(less(a, b), static_int(0)); }
};
struct Equal {
  constexpr EInt operator()(const EInt& a, const EInt& b) const { return equal(a, b); }
};
struct NotEqual {
  constexpr EInt operator()(const EInt& a, const EInt& b) const { return equal(equal(a, b), static_int(0)); }
};
}  // namespace op

// At least one static operand, the other static or a plain integer.
template <class A, class B>
inline constexpr bool static_int_operands = (is_static_int<A>::value &&
                                             (is_static_int<B>::value || std::is_integral_v<B>)) ||
                                            (is_static_int<B>::value && std::is_integral_v<A>);

#define COTILE_CT_INT_OP(OP, NAME)                                                  \
  template <class A, class B, std::enable_if_t<static_int_operands<A, B>, int> = 0> \
  COTILE_HD COTILE_INLINE constexpr auto operator OP(const A& a, const B& b) {      \
    return lift<op::NAME, Kind::kInt, Kind::kInt>(a, b);                            \
  }
COTILE_CT_INT_OP(+, Add)
COTILE_CT_INT_OP(-, Sub)
COTILE_CT_INT_OP(*, Mul)
COTILE_CT_INT_OP(/, Div)
COTILE_CT_INT_OP(%, Mod)
COTILE_CT_INT_OP(<, Less)
COTILE_CT_INT_OP(>, Greater)
COTILE_CT_INT_OP(<=, LessEqual)
COTILE_CT_INT_OP(>=, GreaterEqual)
COTILE_CT_INT_OP(==, Equal)
COTILE_CT_INT_OP(!=, NotEqual)
#undef COTILE_CT_INT_OP

// -Int<a> = _0 - Int<a>.
template <int64_t A>
COTILE_HD COTILE_INLINE constexpr auto operator-(Int<A> a) {
  return Int<0>{} - a;
}

// is_constant_v<N, T>: T is the static integer N (CuTe's is_constant): Int<N> or a standard
// integral constant of value N (true and false are 1 and 0), through const and references.
template <int64_t N, class T>
struct is_constant : std::false_type {};
template <int64_t N, int64_t M>
struct is_constant<N, Int<M>> : std::bool_constant<N == M> {};
template <int64_t N, class T, T V>
struct is_constant<N, std::integral_constant<T, V>> : std::bool_constant<N == int64_t(V)> {};
template <int64_t N, class T>
struct is_constant<N, const T> : is_constant<N, T> {};
template <int64_t N, class T>
struct is_constant<N, T&> : is_constant<N, T> {};
template <int64_t N, class T>
struct is_constant<N, T&&> : is_constant<N, T> {};
template <int64_t N, class T>
inline constexpr bool is_constant_v = is_constant<N, T>::value;

}  // namespace cotile::ct
