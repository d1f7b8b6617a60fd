// Values as bits. Packed sub-byte values (ct/subbyte.hpp): integer_subbyte's conversions,
// sizeof_bits, and the laws of array_subbyte's references on every value at every position,
// against a plain array that holds the same values unpacked. Mixed bits (ct/mixed_bits.hpp) and
// bit fields (ct/bit_field.hpp).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "cotile/ct/ct.hpp"

using namespace cotile::ct;

namespace {
// Values the compiler cannot see.
int64_t opaque(int64_t x) {
  volatile int64_t v = x;
  return v;
}
}  // namespace

// A packed element's value as an int (a reference converts to its T, as CuTe's does, and T to int).
template <class Ref>
constexpr int val(const Ref& r) {
  return int(typename Ref::value_type(r));
}

// x modulo 2^B, signed two's-complement when S: as C++ converts to a narrower integer type.
TEST(Subbyte, IntegerSubbyteWrapsAsCppNarrowing) {
  EXPECT_EQ(int(int4_t(7)), 7);
  EXPECT_EQ(int(int4_t(8)), -8);
  EXPECT_EQ(int(int4_t(-5)), -5);
  EXPECT_EQ(int(int4_t(14)), -2);
  EXPECT_EQ(int(uint2_t(-5)), 3);
  EXPECT_EQ(int(uint6b_t(13)), 13);
  EXPECT_EQ(int(uint6b_t(64 + 13)), 13);
  for (int x = -300; x <= 300; ++x) {
    EXPECT_EQ(int(int4_t(x)), int(int8_t(x << 4)) >> 4) << x;  // the same narrowing, by int8_t
    EXPECT_EQ(int(uint6b_t(x)), int(uint8_t(x)) & 63) << x;
  }
  EXPECT_TRUE(int4_t(-1) < int4_t(0));  // ordered by value, not by bits
  EXPECT_TRUE(uint2_t(3) > uint2_t(1));
  static_assert(int(int4_t(-3)) == -3 && int4_t(5) == int4_t(5 + 16));
}

TEST(Subbyte, SizeofBits) {
  static_assert(sizeof_bits_v<int4_t> == 4 && sizeof_bits_v<uint2_t> == 2 && sizeof_bits_v<uint6b_t> == 6);
  static_assert(sizeof_bits_v<bool> == 1 && sizeof_bits_v<uint8_t> == 8 && sizeof_bits_v<const float> == 32);
  static_assert(sizeof_bits_v<void> == 0);
  // ceil(N · bits / 8) bytes
  static_assert(sizeof_bits_v<array_subbyte<int4_t, 14>> == 56);
  static_assert(sizeof_bits_v<array_subbyte<int4_t, 15>> == 64);
  static_assert(sizeof_bits_v<array_subbyte<uint2_t, 14>> == 32);
  static_assert(sizeof_bits_v<array_subbyte<uint6b_t, 4>> == 24);
  static_assert(sizeof_bits_v<array_subbyte<bool, 9>> == 16);
  static_assert(sizeof_bits_v<array_subbyte<uint16_t, 3>> == 48);
}

// Element i occupies bits [i·b, (i+1)·b): int4 pairs share a byte, low nibble first.
TEST(Subbyte, BitOrder) {
  array_subbyte<int4_t, 4> a{};
  a[0] = int4_t(1);
  a[1] = int4_t(-2);  // 0xE
  a[3] = int4_t(7);
  EXPECT_EQ(a.data()[0], 0xE1);
  EXPECT_EQ(a.data()[1], 0x70);
  array_subbyte<uint6b_t, 2> b{};
  b[1] = uint6b_t(0x3F);  // bits 6..11: the top two of byte 0 and the low four of byte 1
  EXPECT_EQ(b.data()[0], 0xC0);
  EXPECT_EQ(b.data()[1], 0x0F);
}

// read(write(a, i, v), i) == v and read(write(a, i, v), j) == read(a, j) for j != i, for every
// value v of T at every position i, starting from a pseudo-random array.
template <class T, size_t N>
void check_laws(int values) {
  array_subbyte<T, N> a{};
  std::vector<T> mirror(N);
  uint32_t seed = 12345;
  for (size_t i = 0; i < N; ++i) {
    seed = seed * 1103515245u + 12345u;
    mirror[i] = T(int(seed >> 16) % values);
    a[i] = mirror[i];
  }
  for (size_t i = 0; i < N; ++i) {
    for (int x = 0; x < values; ++x) {
      const T v = T(x);
      a[i] = v;
      mirror[i] = v;
      for (size_t j = 0; j < N; ++j) ASSERT_EQ(T(a[j]), mirror[j]) << "position " << j << " after writing " << i;
    }
  }
  // the same through the iterator and a tensor over it
  auto t = make_tensor(a.begin(), make_shape(int(N)));
  for (size_t i = 0; i < N; ++i) ASSERT_EQ(T(t(int(i))), mirror[i]);
  int64_t count = 0;
  for (auto it = a.begin(); it != a.end(); ++it) ++count;
  EXPECT_EQ(count, int64_t(N));
}

TEST(Subbyte, ArrayLaws) {
  check_laws<int4_t, 15>(16);
  check_laws<uint2_t, 13>(4);
  check_laws<uint6b_t, 11>(64);  // straddles bytes
  check_laws<uint1b_t, 17>(2);
  check_laws<bool, 19>(2);
  check_laws<uint8_t, 7>(256);
  check_laws<uint16_t, 5>(1000);
}

TEST(Subbyte, ReferencesAssignValuesNotTargets) {
  array_subbyte<int4_t, 6> a{};
  fill(a, int4_t(-3));
  a[1] = int4_t(5);
  a[4] = a[1];  // the value moves; a[4] still refers to element 4
  EXPECT_EQ(val(a[4]), 5);
  EXPECT_EQ(val(a[1]), 5);
  a[1] = int4_t(2);
  EXPECT_EQ(val(a[4]), 5);
  const auto& c = a;
  EXPECT_EQ(val(c.back()), -3);
  EXPECT_EQ(val(c[1]), 2);
  clear(a);
  for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(val(a[i]), 0);
}

TEST(Subbyte, TensorOverPackedValues) {
  array_subbyte<uint2_t, 12> a{};
  auto t = make_tensor(a.begin(), Layout<Shape<_3, _4>>{});  // (i, j) at i + 3j
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 3; ++i) t(i, j) = uint2_t(i + j);
  for (int k = 0; k < 12; ++k) EXPECT_EQ(val(a[k]), (k % 3 + k / 3) % 4);
  auto col = t(_, 2);  // a slice moves the iterator by whole elements
  EXPECT_EQ(val(col(1)), 3);
}

// Usable in constant expressions.
constexpr int packed_sum() {
  array_subbyte<uint6b_t, 9> a{};
  for (int i = 0; i < 9; ++i) a[i] = uint6b_t(7 * i);
  int s = 0;
  for (int i = 0; i < 9; ++i) s += val(a[i]);
  return s;
}
static_assert(packed_sum() == 7 * 36);

// Mixed bits: the value of a & b, a | b, a ^ b is the operands' values combined, and every bit
// the operands decide stays static (a static integer when no run-time bit is left).
TEST(Bits, MixedBitsKeepTheBitsTheyKnow) {
  const uint32_t d = uint32_t(opaque(0b101));
  const auto m = make_mixed_bits(_1{}, d, _6{});  // bit 0 static 1, bits 1-2 run-time
  static_assert(std::is_same_v<decltype(m), const MixedBits<1, 6>>);
  EXPECT_EQ(uint32_t(m), 0b101u);
  static_assert(std::is_same_v<decltype(make_mixed_bits(_4{}, d, _0{})), _4>);
  static_assert(std::is_same_v<decltype(make_mixed_bits(_6{}, d, _6{})), _6>);  // static bits win
  static_assert(std::is_same_v<decltype(m & _1{}), _1>);                        // only known bits left
  static_assert(std::is_same_v<decltype(m | _7{}), _7>);
  static_assert(std::is_same_v<decltype(m ^ _2{}), MixedBits<1, 6>>);
  EXPECT_EQ(uint32_t(m ^ _2{}), 0b111u);
  EXPECT_EQ(uint32_t(m << _2{}), 0b10100u);
  EXPECT_EQ(uint32_t(m >> _1{}), 0b10u);
  int checked = 0;
  for_each(make_tuple(_0{}, _3{}, _5{}, C<6u>{}), [&](auto s0) {
    for_each(make_tuple(_0{}, _3{}, _6{}), [&](auto f0) {
      for_each(make_tuple(_1{}, _4{}, _6{}), [&](auto s1) {
        for_each(make_tuple(_0{}, _5{}, _7{}), [&](auto f1) {
          for (uint32_t d0 = 0; d0 < 8; ++d0)
            for (uint32_t d1 = 0; d1 < 8; ++d1) {
              const auto a = make_mixed_bits(s0, uint32_t(opaque(int(d0))), f0);
              const auto b = make_mixed_bits(s1, uint32_t(opaque(int(d1))), f1);
              ASSERT_EQ(uint32_t(a), uint32_t(s0) | (d0 & uint32_t(f0)));
              ASSERT_EQ(uint32_t(a & b), uint32_t(a) & uint32_t(b));
              ASSERT_EQ(uint32_t(a | b), uint32_t(a) | uint32_t(b));
              ASSERT_EQ(uint32_t(a ^ b), uint32_t(a) ^ uint32_t(b));
              ++checked;
            }
        });
      });
    });
  });
  EXPECT_EQ(checked, 4 * 3 * 3 * 3 * 64);
}

// bit_field: NumBits bits from bit BitStart of its words, across word boundaries, as an unsigned
// integer or any type of as many bits.
TEST(Bits, BitFieldsRoundTrip) {
  bit_field<30, 40> a;  // bits 30-69: three words
  static_assert(sizeof(a) == 12 && std::is_same_v<decltype(uint64_t(a)), uint64_t>);
  a = uint64_t(0xABCDEF1234);
  EXPECT_EQ(uint64_t(a), 0xABCDEF1234u);
  EXPECT_EQ(a.storage[0], 0u);                                    // value bits 0-1 (00) at bits 30-31
  EXPECT_EQ(a.storage[1], uint32_t(0xABCDEF1234 >> 2));           // value bits 2-33
  EXPECT_EQ(a.storage[2], uint32_t(0xABCDEF1234 >> 34) & 0x3Fu);  // value bits 34-39 at bits 64-69
  bit_field<5, 3> b;
  b = uint8_t(5);
  EXPECT_EQ(uint8_t(b), 5);
  EXPECT_EQ(b.storage[0], 5u << 5);
  bit_field<100, 32, float> f;
  f = 3.14f;
  EXPECT_EQ(float(f), 3.14f);
  bit_field<0, 64> full;
  full = ~uint64_t(0);
  EXPECT_EQ(uint64_t(full), ~uint64_t(0));
  // fields at word boundaries and across them: the value back, the storage around it untouched
  int checked = 0;
  for_each(make_tuple(_0{}, _1{}, Int<31>{}, _32{}, Int<33>{}, Int<63>{}, _64{}, Int<95>{}), [&](auto start) {
    for_each(make_tuple(_1{}, _7{}, _32{}, Int<33>{}, _64{}), [&](auto nbits) {
      bit_field<uint32_t(start), uint32_t(nbits)> f;
      for (auto& w : f.storage) w = 0x5A5A5A5Au;
      const uint64_t v = 0x9E3779B97F4A7C15ull & (nbits == 64 ? ~uint64_t(0) : (uint64_t(1) << nbits) - 1);
      f = typename decltype(f)::value_type(v);
      EXPECT_EQ(uint64_t(f), v) << start << " " << nbits;
      for (uint32_t bit = 0; bit < 32 * f.kWords; ++bit) {  // bits outside the field keep 0x5A..
        if (bit < start || bit >= start + nbits) {
          EXPECT_EQ((f.storage[bit / 32] >> (bit % 32)) & 1, (0x5A5A5A5Au >> (bit % 32)) & 1) << bit;
        }
      }
      ++checked;
    });
  });
  EXPECT_EQ(checked, 40);
}
