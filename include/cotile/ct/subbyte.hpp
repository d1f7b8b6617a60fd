// Sub-byte values packed bit to bit: CuTe's integer_subbyte<Bits, Signed> (int4_t, uint2_t,
// uint6b_t, ...), sizeof_bits<T>, and array_subbyte<T, N>, N values of sizeof_bits<T> bits each
// in ceil(N·bits / 8) bytes, with the proxy references and iterators that reach them.
//
// Element i of a packed sequence occupies bits [i·b, (i+1)·b) of its bytes, bit k of the
// sequence being bit k % 8 of byte k / 8 (so an element of 6 bits may straddle two bytes).
// Laws (tests/ct/subbyte_test.cpp, every value at every position):
//   read(write(a, i, v), i) == v                       a stored value reads back
//   read(write(a, i, v), j) == read(a, j),   j != i    its neighbours' bits are untouched
// integer_subbyte<B, S>(x) is x modulo 2^B, read back two's-complement when S: the conversion
// C++ applies from int to a narrower integer type (int8_t(300) == 44), so uint2_t(-5) == 3.
#pragma once

#include <bit>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "bit_field.hpp"
#include "cotile/config.hpp"

namespace cotile::ct {

// A signed or unsigned integer of 1 to 7 bits, held in the low bits of a byte.
template <int Bits, bool Signed = true>
struct integer_subbyte {
  static_assert(Bits >= 1 && Bits < 8, "integer_subbyte<Bits, Signed>: 1 to 7 bits (8 and more: a built-in type)");
  static constexpr int bits = Bits;
  static constexpr bool is_signed = Signed;
  static constexpr uint8_t mask = uint8_t((1u << Bits) - 1);
  uint8_t storage = 0;  // the value's Bits low bits; the others are 0

  constexpr integer_subbyte() = default;
  // x modulo 2^Bits (see above).
  template <std::integral I>
  COTILE_HD constexpr explicit integer_subbyte(I x) : storage(uint8_t(uint64_t(x) & mask)) {}
  // The value: sign-extended from bit Bits - 1 when Signed.
  COTILE_HD constexpr operator int() const {
    if constexpr (Signed) return (storage & (1u << (Bits - 1))) ? int(storage) - (1 << Bits) : int(storage);
    else return int(storage);
  }
  COTILE_HD static constexpr integer_subbyte from_bits(uint64_t b) {
    integer_subbyte r;
    r.storage = uint8_t(b & mask);
    return r;
  }
  COTILE_HD friend constexpr bool operator==(integer_subbyte a, integer_subbyte b) { return a.storage == b.storage; }
  COTILE_HD friend constexpr auto operator<=>(integer_subbyte a, integer_subbyte b) { return int(a) <=> int(b); }
};

// CuTe's and CUTLASS's names.
using int2b_t = integer_subbyte<2, true>;
using uint1b_t = integer_subbyte<1, false>;
using uint2b_t = integer_subbyte<2, false>;
using int4b_t = integer_subbyte<4, true>;
using uint4b_t = integer_subbyte<4, false>;
using uint6b_t = integer_subbyte<6, false>;
using int4_t = int4b_t;
using uint1_t = uint1b_t;
using uint2_t = uint2b_t;
using uint4_t = uint4b_t;

// sizeof_bits<T>: the bits a T takes in packed storage: 8·sizeof(T), Bits for an
// integer_subbyte, 1 for bool.
template <class T>
struct sizeof_bits : std::integral_constant<int, int(sizeof(T) * 8)> {};
template <class T>
struct sizeof_bits<const T> : sizeof_bits<T> {};
template <class T>
struct sizeof_bits<volatile T> : sizeof_bits<T> {};
template <class T>
struct sizeof_bits<const volatile T> : sizeof_bits<T> {};
template <>
struct sizeof_bits<void> : std::integral_constant<int, 0> {};
template <>
struct sizeof_bits<bool> : std::integral_constant<int, 1> {};
template <int Bits, bool Signed>
struct sizeof_bits<integer_subbyte<Bits, Signed>> : std::integral_constant<int, Bits> {};
template <class T>
inline constexpr int sizeof_bits_v = sizeof_bits<T>::value;

namespace detail {
template <class T>
struct is_integer_subbyte : std::false_type {};
template <int B, bool S>
struct is_integer_subbyte<integer_subbyte<B, S>> : std::true_type {};

// A value's packed bits, and back.
template <class T>
COTILE_HD constexpr uint64_t to_bits(const T& v) {
  if constexpr (is_integer_subbyte<T>::value) return v.storage;
  else if constexpr (std::is_same_v<T, bool>) return v ? 1 : 0;
  else return uint64_t(std::bit_cast<uint_bits_t<uint32_t(sizeof_bits_v<T>)>>(v));
}
template <class T>
COTILE_HD constexpr T from_bits(uint64_t b) {
  if constexpr (is_integer_subbyte<T>::value) return T::from_bits(b);
  else if constexpr (std::is_same_v<T, bool>) return (b & 1) != 0;
  else return std::bit_cast<T>(uint_bits_t<uint32_t(sizeof_bits_v<T>)>(b));
}

// n bits (n <= 64) from bit `bit` of p, a byte at a time.
COTILE_HD constexpr uint64_t load_bits(const uint8_t* p, int64_t bit, int n) {
  uint64_t v = 0;
  for (int got = 0; got < n;) {
    const int64_t b = bit + got;
    const int off = int(b & 7), take = n - got < 8 - off ? n - got : 8 - off;
    v |= uint64_t((unsigned(p[b >> 3]) >> off) & ((1u << take) - 1)) << got;
    got += take;
  }
  return v;
}
COTILE_HD constexpr void store_bits(uint8_t* p, int64_t bit, int n, uint64_t v) {
  for (int put = 0; put < n;) {
    const int64_t b = bit + put;
    const int off = int(b & 7), take = n - put < 8 - off ? n - put : 8 - off;
    const unsigned field = ((1u << take) - 1) << off;
    p[b >> 3] = uint8_t((p[b >> 3] & ~field) | ((unsigned(v >> put) << off) & field));
    put += take;
  }
}

template <class T>
inline constexpr bool kPackable = std::is_trivially_copyable_v<T>&& sizeof_bits_v<T> >= 1 && sizeof_bits_v<T> <= 64 &&
                                  (sizeof_bits_v<T> < 8 || sizeof_bits_v<T> % 8 == 0);
}  // namespace detail

// A reference to element `bit / b` of a packed sequence: reads and writes its bits, never its
// neighbours'. Assigning a reference assigns the value (as T& does), not where it refers.
template <class T>
struct subbyte_reference {
  static_assert(detail::kPackable<std::remove_const_t<T>>,
                "subbyte_reference<T>: T is a trivially copyable type of 1-7 bits or whole bytes (at most 64 bits)");
  using value_type = std::remove_const_t<T>;
  using byte_type = std::conditional_t<std::is_const_v<T>, const uint8_t, uint8_t>;
  static constexpr int kBits = sizeof_bits_v<value_type>;
  byte_type* bytes;
  int64_t bit;

  COTILE_HD constexpr value_type get() const {
    return detail::from_bits<value_type>(detail::load_bits(bytes, bit, kBits));
  }
  COTILE_HD constexpr operator value_type() const { return get(); }
  COTILE_HD constexpr const subbyte_reference& operator=(const value_type& v) const requires(!std::is_const_v<T>) {
    detail::store_bits(bytes, bit, kBits, detail::to_bits(v));
    return *this;
  }
  COTILE_HD constexpr const subbyte_reference& operator=(const subbyte_reference& r) const
      requires(!std::is_const_v<T>) {
    return *this = r.get();
  }
  template <class U>
  COTILE_HD constexpr const subbyte_reference& operator=(const subbyte_reference<U>& r) const
      requires(!std::is_const_v<T> && std::is_same_v<std::remove_const_t<U>, value_type>) {
    return *this = r.get();
  }
};

// An iterator over a packed sequence: a byte address and a bit offset from it.
template <class T>
struct subbyte_iterator {
  using value_type = std::remove_const_t<T>;
  using reference = subbyte_reference<T>;
  using difference_type = int64_t;
  static constexpr int kBits = sizeof_bits_v<value_type>;
  typename reference::byte_type* bytes = nullptr;
  int64_t bit = 0;

  COTILE_HD constexpr reference operator*() const { return {bytes, bit}; }
  COTILE_HD constexpr reference operator[](int64_t i) const { return {bytes, bit + i * kBits}; }
  COTILE_HD constexpr subbyte_iterator operator+(int64_t i) const { return {bytes, bit + i * kBits}; }
  COTILE_HD constexpr subbyte_iterator operator-(int64_t i) const { return {bytes, bit - i * kBits}; }
  COTILE_HD constexpr int64_t operator-(const subbyte_iterator& o) const {
    return ((bytes - o.bytes) * 8 + bit - o.bit) / kBits;
  }
  COTILE_HD constexpr subbyte_iterator& operator++() {
    bit += kBits;
    return *this;
  }
  COTILE_HD constexpr subbyte_iterator& operator+=(int64_t i) {
    bit += i * kBits;
    return *this;
  }
  COTILE_HD friend constexpr bool operator==(const subbyte_iterator& a, const subbyte_iterator& b) {
    return a - b == 0;
  }
};

// N values of T packed in ceil(N · sizeof_bits<T> / 8) bytes (at least one).
template <class T, size_t N>
struct array_subbyte {
  static_assert(detail::kPackable<T>,
                "array_subbyte<T, N>: T is a trivially copyable type of 1-7 bits or whole bytes (at most 64 bits)");
  using value_type = T;
  using reference = subbyte_reference<T>;
  using const_reference = subbyte_reference<const T>;
  using iterator = subbyte_iterator<T>;
  using const_iterator = subbyte_iterator<const T>;
  static constexpr size_t kBytes = (N * sizeof_bits_v<T> + 7) / 8;
  uint8_t storage[kBytes > 0 ? kBytes : 1] = {};

  COTILE_HD static constexpr size_t size() { return N; }
  COTILE_HD constexpr reference operator[](size_t i) { return begin()[int64_t(i)]; }
  COTILE_HD constexpr const_reference operator[](size_t i) const { return begin()[int64_t(i)]; }
  COTILE_HD constexpr reference front() { return (*this)[0]; }
  COTILE_HD constexpr const_reference front() const { return (*this)[0]; }
  COTILE_HD constexpr reference back() { return (*this)[N - 1]; }
  COTILE_HD constexpr const_reference back() const { return (*this)[N - 1]; }
  COTILE_HD constexpr iterator begin() { return {storage, 0}; }
  COTILE_HD constexpr iterator end() { return begin() + int64_t(N); }
  COTILE_HD constexpr const_iterator begin() const { return {storage, 0}; }
  COTILE_HD constexpr const_iterator end() const { return begin() + int64_t(N); }
  COTILE_HD constexpr uint8_t* data() { return storage; }
  COTILE_HD constexpr const uint8_t* data() const { return storage; }
};

// fill(a, v): every element v; clear(a): every element T{}.
template <class T, size_t N, class V>
COTILE_HD constexpr void fill(array_subbyte<T, N>& a, const V& v) {
  for (size_t i = 0; i < N; ++i) a[i] = T(v);
}
template <class T, size_t N>
COTILE_HD constexpr void clear(array_subbyte<T, N>& a) {
  fill(a, T{});
}

}  // namespace cotile::ct
