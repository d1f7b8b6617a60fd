// The typed layer's static integers and '_' (CuTe's Int<N>, _N and Underscore).
#pragma once

#include <cstdint>
#include <type_traits>

#include "cotile/config.hpp"

namespace cotile::ct {

// --- integers -------------------------------------------------------------------------------

// A static integer: its value is its type (CuTe's Int<N>, printed _N).
template <int64_t N>
struct Int {
  static constexpr int64_t value = N;
  COTILE_HD constexpr operator int64_t() const { return N; }
};
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
using _24 = Int<24>;
using _48 = Int<48>;
using _96 = Int<96>;
using _192 = Int<192>;
using _384 = Int<384>;
using _768 = Int<768>;
using _2048 = Int<2048>;
using _4096 = Int<4096>;
using _8192 = Int<8192>;
using _16 = Int<16>;
using _32 = Int<32>;
using _64 = Int<64>;
using _128 = Int<128>;
using _256 = Int<256>;
using _512 = Int<512>;
using _1024 = Int<1024>;

// '_': keep this mode (slicing), leave this mode alone (tiles).
struct Underscore {};
inline constexpr Underscore _{};

template <class T>
struct is_static_int : std::false_type {};
template <int64_t N>
struct is_static_int<Int<N>> : std::true_type {};
// A standard integral constant is a static integer too (CuTe's integral_constant<T, v>, what
// iterating an integer sequence gives); bool constants are answers, not integers.
template <class T, T V>
struct is_static_int<std::integral_constant<T, V>> : std::bool_constant<!std::is_same_v<T, bool>> {};

}  // namespace cotile::ct
