// Swizzles: Sw<B,M,S>(x) = x ^ ((x & yyy) >> S), yyy = ((1<<B)-1) << (M + max(0,S)),
// a bijection on offsets that XORs B bits taken S positions above bit M into bits [M, M+B).
#pragma once

#include "layout.hpp"
#include "tile.hpp"
#include "algebra/product.hpp"

namespace cotile {

struct Swizzle {
  int b = 0, m = 0, s = 0;
  COTILE_HD friend constexpr bool operator==(const Swizzle& x, const Swizzle& y) {
    return x.b == y.b && x.m == y.m && x.s == y.s;
  }
  COTILE_HD constexpr int64_t operator()(int64_t x) const {
    const int64_t bits = (int64_t(1) << b) - 1;
    const int shift = s < 0 ? -s : s;
    if (s >= 0) {
      const int64_t yyy = bits << (m + s);
      return x ^ ((x & yyy) >> shift);
    }
    const int64_t yyy = bits << m;
    return x ^ ((x & yyy) << shift);
  }
};

// Sw<B,M,S> reads bits M + max(S, 0) ... + B - 1 of an offset and writes bits M + max(-S, 0) ...
// + B - 1: every one must be a bit of a non-negative 64-bit offset (0 ... 62), or the shifts above
// would leave the integer (undefined) or wrap into its sign (a silently wrong offset).
COTILE_HD constexpr Swizzle make_swizzle(int b, int m, int s) {
  if (b < 0 || m < 0 || m > 63 || s < -63 || s > 63 || (s < 0 ? -s : s) < b || m + (s < 0 ? -s : s) + b > 63)
    fail("Swizzle", "requires 0 <= B <= |S|, 0 <= M and M + |S| + B <= 63 (bits 0 to 62 of an offset)", nullptr,
         arg("B", b), arg("M", m), arg("S", s));
  return Swizzle{b, m, s};
}

// A layout composed after an offset and a swizzle: x -> Sw(offset + L(x)).
// Printed "Sw<B,M,S> o OFFSET o LAYOUT". With B == 0 and a static _0 offset it is just L.
struct ComposedLayout {
  Swizzle swizzle;
  Int offset = static_int(0);
  Layout layout;
  COTILE_HD constexpr bool is_plain() const { return swizzle.b == 0 && is_constant(offset, 0); }
};

// composition(Sw, L) = Sw o _0 o L.
COTILE_HD constexpr ComposedLayout composition(const Swizzle& sw, const Layout& l) {
  return ComposedLayout{sw, static_int(0), l};
}

COTILE_HD constexpr int64_t eval(const ComposedLayout& c, const IntTuple& x) {
  return c.swizzle((c.offset + eval(c.layout, x)).value);
}

// tile_to_shape of a swizzled atom tiles its inner layout and keeps the swizzle.
COTILE_HD constexpr ComposedLayout tile_to_shape(const ComposedLayout& c, const IntTuple& trg,
                                                 const IntTuple* order = nullptr) {
  return ComposedLayout{c.swizzle, c.offset, tile_to_shape(c.layout, trg, order)};
}

inline std::string to_string(const Swizzle& s) {
  return "Sw<" + std::to_string(s.b) + "," + std::to_string(s.m) + "," + std::to_string(s.s) + ">";
}
inline std::string to_string(const ComposedLayout& c) {
  if (c.is_plain()) return to_string(c.layout);
  return to_string(c.swizzle) + " o " + to_string(c.offset) + " o " + to_string(c.layout);
}

}  // namespace cotile
