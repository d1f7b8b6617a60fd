// Integers that know whether they are static.
//
// CuTe distinguishes compile-time integers (Int<N>, printed _N) from run-time integers (int,
// printed N). cotile represents both as the value type Int and follows CuTe's promotion rules:
// the result of an operation is static when it is determined by static operands alone:
//
//   static op static        -> static            dynamic op anything -> dynamic, except
//   _0 * x, x * _0, _0 / x, _0 % x, x % _1, x % _-1, _0 & x  -> static _0
//   _false && x, x && _false -> static false      _true || x, x || _true -> static true
//
// Multiplying by _1 is not special: _1 * 5 is the dynamic 5.
// Every operation detects 64-bit overflow and division by zero.
#pragma once

#include "config.hpp"
#include "error.hpp"

#if !defined(__CUDA_ARCH__)
#include <string>
#endif

namespace cotile {

struct Int {
  int64_t value = 0;
  bool is_static = false;

  friend COTILE_HD constexpr bool operator==(const Int& a, const Int& b) {
    return a.value == b.value && a.is_static == b.is_static;
  }
};

// Constructors by staticness: S(128) is _128, D(128) is the run-time 128.
COTILE_HD constexpr Int S(int64_t v) { return Int{v, true}; }
COTILE_HD constexpr Int D(int64_t v) { return Int{v, false}; }

// is_constant<n>(x): x is static and equals n (CuTe's is_constant<n, T>).
COTILE_HD constexpr bool is_constant(const Int& x, int64_t n) { return x.is_static && x.value == n; }

#if !defined(__CUDA_ARCH__)
inline std::string to_string(const Int& x) {
  return (x.is_static ? "_" : "") + std::to_string(x.value);
}
#endif

namespace detail {

inline constexpr int64_t kIntMax = 0x7fffffffffffffffLL;
inline constexpr int64_t kIntMin = -kIntMax - 1;

COTILE_HD constexpr int64_t checked_add(int64_t a, int64_t b) {
  if ((b > 0 && a > kIntMax - b) || (b < 0 && a < kIntMin - b))
    fail("integer arithmetic", "64-bit overflow in a + b", "use smaller shapes or strides",
         arg("a", a), arg("b", b));
  return a + b;
}

COTILE_HD constexpr int64_t checked_sub(int64_t a, int64_t b) {
  if ((b < 0 && a > kIntMax + b) || (b > 0 && a < kIntMin + b))
    fail("integer arithmetic", "64-bit overflow in a - b", "use smaller shapes or strides",
         arg("a", a), arg("b", b));
  return a - b;
}

COTILE_HD constexpr int64_t checked_mul(int64_t a, int64_t b) {
  if (a == 0 || b == 0) return 0;
  // Compare magnitudes in unsigned arithmetic; the product fits iff |a| <= limit / |b|.
  const bool neg = (a < 0) != (b < 0);
  const uint64_t ua = a < 0 ? uint64_t(0) - uint64_t(a) : uint64_t(a);
  const uint64_t ub = b < 0 ? uint64_t(0) - uint64_t(b) : uint64_t(b);
  const uint64_t limit = neg ? uint64_t(kIntMax) + 1 : uint64_t(kIntMax);
  if (ua > limit / ub)
    fail("integer arithmetic", "64-bit overflow in a * b", "use smaller shapes or strides",
         arg("a", a), arg("b", b));
  const uint64_t p = ua * ub;
  return neg ? int64_t(uint64_t(0) - p) : int64_t(p);
}

COTILE_HD constexpr void check_divisor(int64_t a, int64_t b, const char* rule) {
  if (b == 0) fail("integer arithmetic", rule, nullptr, arg("a", a), arg("b", b));
  if (a == kIntMin && b == -1)
    fail("integer arithmetic", "64-bit overflow in a / b", nullptr, arg("a", a), arg("b", b));
}

}  // namespace detail

// --- arithmetic with CuTe's staticness rules -------------------------------------------------

COTILE_HD constexpr Int operator+(const Int& a, const Int& b) {
  return Int{detail::checked_add(a.value, b.value), a.is_static && b.is_static};
}
COTILE_HD constexpr Int operator-(const Int& a, const Int& b) {
  return Int{detail::checked_sub(a.value, b.value), a.is_static && b.is_static};
}
COTILE_HD constexpr Int operator*(const Int& a, const Int& b) {
  const bool zero = is_constant(a, 0) || is_constant(b, 0);
  return Int{zero ? 0 : detail::checked_mul(a.value, b.value), (a.is_static && b.is_static) || zero};
}
// Truncating division (C++ semantics).
COTILE_HD constexpr Int operator/(const Int& a, const Int& b) {
  detail::check_divisor(a.value, b.value, "division by zero in a / b");
  return Int{a.value / b.value, (a.is_static && b.is_static) || is_constant(a, 0)};
}
COTILE_HD constexpr Int operator%(const Int& a, const Int& b) {
  detail::check_divisor(a.value, b.value, "division by zero in a % b");
  const bool zero = is_constant(a, 0) || is_constant(b, 1) || is_constant(b, -1);
  return Int{a.value % b.value, (a.is_static && b.is_static) || zero};
}
COTILE_HD constexpr Int operator-(const Int& a) { return S(0) - a; }

// Booleans are Ints holding 0 or 1 (CuTe prints static ones as _0/_1).
COTILE_HD constexpr Int equal(const Int& a, const Int& b) {
  return Int{a.value == b.value ? 1 : 0, a.is_static && b.is_static};
}
COTILE_HD constexpr Int less(const Int& a, const Int& b) {
  return Int{a.value < b.value ? 1 : 0, a.is_static && b.is_static};
}
COTILE_HD constexpr Int logical_and(const Int& a, const Int& b) {
  const bool static_false = is_constant(a, 0) || is_constant(b, 0);
  return Int{(a.value != 0 && b.value != 0) ? 1 : 0, (a.is_static && b.is_static) || static_false};
}
COTILE_HD constexpr Int logical_or(const Int& a, const Int& b) {
  const bool static_true = (a.is_static && a.value != 0) || (b.is_static && b.value != 0);
  return Int{(a.value != 0 || b.value != 0) ? 1 : 0, (a.is_static && b.is_static) || static_true};
}

COTILE_HD constexpr Int abs(const Int& a) {
  if (a.value == detail::kIntMin) fail("integer arithmetic", "64-bit overflow in abs(a)", nullptr, arg("a", a.value));
  return Int{a.value < 0 ? -a.value : a.value, a.is_static};
}
COTILE_HD constexpr Int signum(const Int& a) {
  return Int{a.value > 0 ? 1 : (a.value < 0 ? -1 : 0), a.is_static};
}
COTILE_HD constexpr Int min(const Int& a, const Int& b) {
  return Int{a.value < b.value ? a.value : b.value, a.is_static && b.is_static};
}
COTILE_HD constexpr Int max(const Int& a, const Int& b) {
  return Int{a.value < b.value ? b.value : a.value, a.is_static && b.is_static};
}
COTILE_HD constexpr Int gcd(const Int& a, const Int& b) {
  int64_t x = a.value < 0 ? -a.value : a.value, y = b.value < 0 ? -b.value : b.value;
  while (y != 0) {
    const int64_t t = x % y;
    x = y;
    y = t;
  }
  return Int{x, a.is_static && b.is_static};
}
// ceil_div(a, b) = (a + b - 1) / b, CuTe's formula (exact for positive a, b).
COTILE_HD constexpr Int ceil_div(const Int& a, const Int& b) { return (a + b - S(1)) / b; }

}  // namespace cotile
