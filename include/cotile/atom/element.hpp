// Element types that copy and MMA atoms take, by their CuTe names.
#pragma once

#include "../config.hpp"

namespace cotile {

enum class Elem : uint8_t { kHalf, kBFloat16, kE5M2, kE4M3, kFloat };

COTILE_HD constexpr int bits(Elem e) {
  switch (e) {
    case Elem::kHalf:
    case Elem::kBFloat16: return 16;
    case Elem::kE5M2:
    case Elem::kE4M3: return 8;
    case Elem::kFloat: return 32;
  }
  return 0;
}

COTILE_HD constexpr const char* name(Elem e) {
  switch (e) {
    case Elem::kHalf: return "half_t";
    case Elem::kBFloat16: return "bfloat16_t";
    case Elem::kE5M2: return "float_e5m2_t";
    case Elem::kE4M3: return "float_e4m3_t";
    case Elem::kFloat: return "float";
  }
  return "?";
}

}  // namespace cotile
