// CuTe's array<T, N>: N values of one type, usable in constant expressions and on the device
// (std::array is not, without flags); get<I>, tuple_size and reverse as for tuples.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include "cotile/config.hpp"

namespace cotile::ct {

template <class T, size_t N>
struct array {
  T elems_[N > 0 ? N : 1];  // an aggregate: array<int, 2>{1, 2}; (array<T, 0> keeps one unused slot)

  COTILE_HD static constexpr size_t size() { return N; }
  COTILE_HD constexpr T& operator[](size_t i) { return elems_[i]; }
  COTILE_HD constexpr const T& operator[](size_t i) const { return elems_[i]; }
  COTILE_HD constexpr T* data() { return elems_; }
  COTILE_HD constexpr const T* data() const { return elems_; }
  COTILE_HD constexpr T* begin() { return elems_; }
  COTILE_HD constexpr T* end() { return elems_ + N; }
  COTILE_HD constexpr const T* begin() const { return elems_; }
  COTILE_HD constexpr const T* end() const { return elems_ + N; }
};

template <class T>
struct is_array : std::false_type {};
template <class T, size_t N>
struct is_array<array<T, N>> : std::true_type {};
template <class T>
inline constexpr bool is_array_v = is_array<std::remove_cvref_t<T>>::value;

template <size_t I, class T, size_t N>
COTILE_HD constexpr T& get(array<T, N>& a) {
  static_assert(I < N, "get<I>: I is past the array's last element");
  return a.elems_[I];
}
template <size_t I, class T, size_t N>
COTILE_HD constexpr const T& get(const array<T, N>& a) {
  static_assert(I < N, "get<I>: I is past the array's last element");
  return a.elems_[I];
}
template <size_t I, class T, size_t N>
COTILE_HD constexpr T&& get(array<T, N>&& a) {
  static_assert(I < N, "get<I>: I is past the array's last element");
  return std::move(a.elems_[I]);
}

// reverse(a): the same values, last first.
template <class T, size_t N>
COTILE_HD constexpr array<T, N> reverse(const array<T, N>& a) {
  array<T, N> r{};
  for (size_t i = 0; i < N; ++i) r.elems_[i] = a.elems_[N - 1 - i];
  return r;
}

// fill(a, v): every element v (CuTe's fill of a container).
template <class T, size_t N, class V>
COTILE_HD constexpr void fill(array<T, N>& a, const V& v) {
  for (size_t i = 0; i < N; ++i) a.elems_[i] = T(v);
}

}  // namespace cotile::ct
