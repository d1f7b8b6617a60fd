// The typed layer's static integers and '_' (CuTe's Int<N>, _N and Underscore).
#pragma once

#include <cstdint>
#include <type_traits>

#include "cotile/config.hpp"

namespace cotile::ct {

// --- integers -------------------------------------------------------------------------------

// A static integer: its value is its type (CuTe's Int<N>, printed _N). value_type is the type
// CuTe computes it in: int where N fits one (CuTe's Int<N> is an int constant), else int64_t
// (where CuTe's would overflow); `value` is the exact N either way.
template <int64_t N>
struct Int {
  using value_type = std::conditional_t<(N >= INT32_MIN && N <= INT32_MAX), int, int64_t>;
  static constexpr int64_t value = N;
  COTILE_HD constexpr operator int64_t() const { return N; }
};
// CuTe's names of static integers: _N, and _mN for -N.
using _m32 = Int<-32>;
using _m24 = Int<-24>;
using _m16 = Int<-16>;
using _m12 = Int<-12>;
using _m10 = Int<-10>;
using _m9 = Int<-9>;
using _m8 = Int<-8>;
using _m7 = Int<-7>;
using _m6 = Int<-6>;
using _m5 = Int<-5>;
using _m4 = Int<-4>;
using _m3 = Int<-3>;
using _m2 = Int<-2>;
using _m1 = Int<-1>;
using _0 = Int<0>;
using _1 = Int<1>;
using _2 = Int<2>;
using _3 = Int<3>;
using _4 = Int<4>;
using _5 = Int<5>;
using _6 = Int<6>;
using _7 = Int<7>;
using _8 = Int<8>;
using _9 = Int<9>;
using _10 = Int<10>;
using _12 = Int<12>;
using _16 = Int<16>;
using _24 = Int<24>;
using _32 = Int<32>;
using _40 = Int<40>;
using _48 = Int<48>;
using _56 = Int<56>;
using _64 = Int<64>;
using _72 = Int<72>;
using _80 = Int<80>;
using _88 = Int<88>;
using _96 = Int<96>;
using _104 = Int<104>;
using _112 = Int<112>;
using _120 = Int<120>;
using _128 = Int<128>;
using _136 = Int<136>;
using _144 = Int<144>;
using _152 = Int<152>;
using _160 = Int<160>;
using _168 = Int<168>;
using _176 = Int<176>;
using _184 = Int<184>;
using _192 = Int<192>;
using _200 = Int<200>;
using _208 = Int<208>;
using _216 = Int<216>;
using _224 = Int<224>;
using _232 = Int<232>;
using _240 = Int<240>;
using _248 = Int<248>;
using _256 = Int<256>;
using _384 = Int<384>;
using _512 = Int<512>;
using _768 = Int<768>;
using _1024 = Int<1024>;
using _2048 = Int<2048>;
using _4096 = Int<4096>;
using _8192 = Int<8192>;
using _16384 = Int<16384>;
using _32768 = Int<32768>;
using _65536 = Int<65536>;
using _131072 = Int<131072>;
using _262144 = Int<262144>;
using _524288 = Int<524288>;
// C<v>: the standard integral constant of v's type and value (CuTe's C<v>), a static integer
// wherever an Int<N> is (bool constants excepted: is_static_int).
template <auto V>
using C = std::integral_constant<decltype(V), V>;

// CuTe's literal of a static integer: 0_c, 128_c are Int<0>, Int<128> (decimal digits).
namespace detail {
template <char... Ds>
constexpr int64_t decimal() {
  int64_t v = 0;
  ((v = v * 10 + (Ds - '0')), ...);
  return v;
}
}  // namespace detail
template <char... Ds>
constexpr auto operator""_c() {
  static_assert(((Ds >= '0' && Ds <= '9') && ...), "N_c: a static integer literal takes decimal digits only");
  return Int<detail::decimal<Ds...>()>{};
}

// '_': keep this mode (slicing), leave this mode alone (tiles).
struct Underscore {};
// Under nvcc also a device variable (internal linkage, as nvcc requires without -rdc), so that
// device code may pass `_` by reference: make_coord(m, n, _), as it may pass _4{}.
#if defined(__CUDACC__)
static __device__ constexpr Underscore _{};
#else
inline constexpr Underscore _{};
#endif

template <class T>
struct is_static_int : std::false_type {};
template <int64_t N>
struct is_static_int<Int<N>> : std::true_type {};
// A standard integral constant is a static integer too (CuTe's integral_constant<T, v>, what
// iterating an integer sequence gives); bool constants are answers, not integers.
template <class T, T V>
struct is_static_int<std::integral_constant<T, V>> : std::bool_constant<!std::is_same_v<T, bool>> {};

}  // namespace cotile::ct
