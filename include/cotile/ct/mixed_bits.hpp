// Mixed bits (CuTe's MixedBits): a 32-bit unsigned value whose bits are partly static. Its value
// is S | (d & F): the bits in F are known at run time only (d), the others statically (S, with
// S & F = 0). Bitwise &, |, ^ and shifts by static amounts keep static every bit the operands
// decide: a bit of a & b is static when both are, or either is a static 0; of a | b when both
// are, or either is a static 1; of a ^ b when both are. With no run-time bit left, the value is
// the static integer Int<S> itself. Law: uint32_t(a op b) = uint32_t(a) op uint32_t(b).
#pragma once

#include <cstdint>
#include <type_traits>

#include "integer.hpp"

namespace cotile::ct {

template <uint32_t S, uint32_t F>
struct MixedBits {
  static_assert(F != 0, "MixedBits: at least one run-time bit (else it is the static Int<S>)");
  static_assert((S & F) == 0, "MixedBits: a bit is static or run-time, not both");
  uint32_t dynamic_bits = 0;  // within F
  COTILE_HD constexpr operator uint32_t() const { return S | dynamic_bits; }
};

namespace detail {
// An operand's static bits S, run-time bits F and run-time value: a static integer (F = 0), mixed
// bits, or a run-time integer (every bit run-time).
template <class T, class = void>
struct Bits;
template <class T>
struct Bits<T, std::enable_if_t<is_static_int<T>::value>> {
  static constexpr uint32_t s = uint32_t(T::value), f = 0;
  COTILE_HD static constexpr uint32_t d(const T&) { return 0; }
};
template <uint32_t S, uint32_t F>
struct Bits<MixedBits<S, F>> {
  static constexpr uint32_t s = S, f = F;
  COTILE_HD static constexpr uint32_t d(const MixedBits<S, F>& m) { return m.dynamic_bits; }
};
template <class T>
struct Bits<T, std::enable_if_t<std::is_integral_v<T>>> {
  static constexpr uint32_t s = 0, f = ~uint32_t(0);
  COTILE_HD static constexpr uint32_t d(const T& x) { return uint32_t(x); }
};
template <class T>
concept MixedOperand = requires {
  Bits<std::remove_cvref_t<T>>::s;
};
// a or b mixed bits, or both static: the operators below (a run-time integer with a static one
// keeps C++'s own).
template <class A, class B>
inline constexpr bool kMixedPair = MixedOperand<A>&& MixedOperand<B> &&
                                   (Bits<A>::f != ~uint32_t(0) || Bits<B>::f != ~uint32_t(0)) &&
                                   !(Bits<A>::f == 0 && std::is_integral_v<B>)&&!(Bits<B>::f == 0 &&
                                                                                  std::is_integral_v<A>);

// S | (d & F) with F's static bits removed: Int<S> when no run-time bit is left.
template <uint32_t S, uint32_t F>
COTILE_HD constexpr auto mixed(uint32_t d) {
  constexpr uint32_t f = F & ~S;
  if constexpr (f == 0) return Int<int64_t(S)>{};
  else return MixedBits<S, f>{d & f};
}
}  // namespace detail

// make_mixed_bits(s, d, f) = s | (d & f), s and f static (CuTe's; f's bits that s sets are static).
template <class Sv, class D, class Fv>
COTILE_HD constexpr auto make_mixed_bits(const Sv&, const D& d, const Fv&) {
  constexpr uint32_t s = uint32_t(Sv::value), f = uint32_t(Fv::value);
  using B = detail::Bits<D>;
  if constexpr (B::f == 0) return Int<int64_t(s | (B::s & f))>{};
  else return detail::mixed<s, f>(B::d(d));
}

// a & b, a | b, a ^ b: the value from both operands' values, static where they decide it.
template <class A, class B>
requires detail::kMixedPair<A, B> COTILE_HD constexpr auto operator&(const A& a, const B& b) {
  using X = detail::Bits<A>;
  using Y = detail::Bits<B>;
  constexpr uint32_t f = (X::f & Y::f) | (X::f & Y::s) | (Y::f & X::s);
  return detail::mixed<(X::s & Y::s) & ~f, f>((X::s | X::d(a)) & (Y::s | Y::d(b)));
}
template <class A, class B>
requires detail::kMixedPair<A, B> COTILE_HD constexpr auto operator|(const A& a, const B& b) {
  using X = detail::Bits<A>;
  using Y = detail::Bits<B>;
  constexpr uint32_t f = (X::f & ~Y::s) | (Y::f & ~X::s);
  return detail::mixed<(X::s | Y::s) & ~f, f>((X::s | X::d(a)) | (Y::s | Y::d(b)));
}
template <class A, class B>
requires detail::kMixedPair<A, B> COTILE_HD constexpr auto operator^(const A& a, const B& b) {
  using X = detail::Bits<A>;
  using Y = detail::Bits<B>;
  constexpr uint32_t f = X::f | Y::f;
  return detail::mixed<(X::s ^ Y::s) & ~f, f>((X::s | X::d(a)) ^ (Y::s | Y::d(b)));
}
// m << k, m >> k by a static k.
template <uint32_t S, uint32_t F, class K>
requires(is_static_int<K>::value) COTILE_HD constexpr auto operator<<(const MixedBits<S, F>& m, const K&) {
  return detail::mixed<(S << K::value), (F << K::value)>(m.dynamic_bits << K::value);
}
template <uint32_t S, uint32_t F, class K>
requires(is_static_int<K>::value) COTILE_HD constexpr auto operator>>(const MixedBits<S, F>& m, const K&) {
  return detail::mixed<(S >> K::value), (F >> K::value)>(m.dynamic_bits >> K::value);
}

}  // namespace cotile::ct
