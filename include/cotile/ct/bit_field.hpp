// CuTe's bit_field<BitStart, NumBits, T>: NumBits bits starting at bit BitStart of its own storage
// (whole 32-bit words, bit k of word w is bit 32 w + k), written from and read as a T: by default
// the smallest unsigned integer of at least NumBits bits; any trivially copyable T of at least
// NumBits bits (its low NumBits bits are stored). Law: T(bf = v) == v when v fits NumBits bits.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "cotile/config.hpp"

namespace cotile::ct {

namespace detail {
template <uint32_t N>
using uint_bits_t =
    std::conditional_t<(N <= 8), uint8_t,
                       std::conditional_t<(N <= 16), uint16_t, std::conditional_t<(N <= 32), uint32_t, uint64_t>>>;
}  // namespace detail

template <uint32_t BitStart, uint32_t NumBits, class T = detail::uint_bits_t<NumBits>>
struct bit_field {
  static_assert(NumBits >= 1 && NumBits <= 64, "bit_field: 1 to 64 bits");
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) * 8 >= NumBits && sizeof(T) <= 8,
                "bit_field: the value type holds the field's bits (at most 64)");
  using value_type = T;
  static constexpr uint32_t kWords = (BitStart + NumBits + 31) / 32;
  uint32_t storage[kWords] = {};

  // The field lies in the (at most three) words from w0 = BitStart / 32, at bit off of them.
  static constexpr uint32_t w0 = BitStart / 32, off = BitStart % 32;
  static constexpr uint64_t mask = NumBits == 64 ? ~uint64_t(0) : (uint64_t(1) << NumBits) - 1;
  static constexpr bool third = off + NumBits > 64;  // the field reaches a third word

  COTILE_HD bit_field& operator=(const T& v) {
    uint64_t bits = 0;
    memcpy(&bits, &v, sizeof(T));
    bits &= mask;
    uint64_t lo = storage[w0];
    if constexpr (w0 + 1 < kWords) lo |= uint64_t(storage[w0 + 1]) << 32;
    lo = (lo & ~(mask << off)) | (bits << off);
    storage[w0] = uint32_t(lo);
    if constexpr (w0 + 1 < kWords) storage[w0 + 1] = uint32_t(lo >> 32);
    if constexpr (third) {  // the field's bits above 64 - off
      const uint32_t high_mask = uint32_t(mask >> (64 - off));
      storage[w0 + 2] = (storage[w0 + 2] & ~high_mask) | uint32_t(bits >> (64 - off));
    }
    return *this;
  }
  COTILE_HD operator T() const {
    uint64_t lo = storage[w0];
    if constexpr (w0 + 1 < kWords) lo |= uint64_t(storage[w0 + 1]) << 32;
    uint64_t bits = lo >> off;
    if constexpr (third) bits |= uint64_t(storage[w0 + 2]) << (64 - off);
    bits &= mask;
    T v;
    memcpy(&v, &bits, sizeof(T));
    return v;
  }
};

}  // namespace cotile::ct
