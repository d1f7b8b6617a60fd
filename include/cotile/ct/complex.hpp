// CuTe's complex<T> (a pair of T, real and imaginary) and the conjugate functor, host and device.
#pragma once

#include "cotile/config.hpp"

namespace cotile::ct {

template <class T>
struct complex {
  T re{}, im{};
  constexpr complex() = default;
  COTILE_HD constexpr complex(T r, T i = T{}) : re(r), im(i) {}
  COTILE_HD constexpr T real() const { return re; }
  COTILE_HD constexpr T imag() const { return im; }
  COTILE_HD friend constexpr bool operator==(const complex& a, const complex& b) {
    return a.re == b.re && a.im == b.im;
  }
  COTILE_HD friend constexpr bool operator!=(const complex& a, const complex& b) { return !(a == b); }
  COTILE_HD friend constexpr complex operator+(const complex& a, const complex& b) {
    return {a.re + b.re, a.im + b.im};
  }
  COTILE_HD friend constexpr complex operator-(const complex& a, const complex& b) {
    return {a.re - b.re, a.im - b.im};
  }
  COTILE_HD friend constexpr complex operator*(const complex& a, const complex& b) {
    return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
  }
};

// conj(z) = re - i im; a real number is its own conjugate.
template <class T>
COTILE_HD constexpr complex<T> conj(const complex<T>& z) {
  return {z.re, -z.im};
}
template <class T>
COTILE_HD constexpr T conj(const T& x) {
  return x;
}
struct conjugate {
  template <class T>
  COTILE_HD constexpr auto operator()(const T& x) const {
    return conj(x);
  }
};

}  // namespace cotile::ct
