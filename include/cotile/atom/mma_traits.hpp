// MMA instructions described purely as layouts: Shape_MNK, ThrID (atom thread -> thread index)
// and the A, B, C layouts (thread, value) -> linear (m,k) / (n,k) / (m,n) index (column-major in
// the atom's tile).
#pragma once

#include "../layout.hpp"
#include "element.hpp"

namespace cotile {

enum class MmaFamily : uint8_t {
  kSm80_16x8x16,   // mma.sync.m16n8k16 f16/bf16 -> f32
  kSm89_16x8x32,   // mma.sync.m16n8k32 e4m3/e5m2 -> f32
  kSm90_Gmma_SS,   // wgmma 64xNxK, both operands in shared memory
  kSm100_Umma_SS,  // tcgen05.mma MxNxK, 1 SM, both operands in shared memory (layout data only)
  kUniversalFma,   // one thread's c += a * b (CuTe's UniversalFMA): 1x1x1, any arithmetic types
};

struct MmaTraits {
  MmaFamily family;
  Elem a_type, b_type;
  int m, n, k;
  bool a_k_major = true, b_k_major = true;
  IntTuple shape_mnk;
  Layout thr_id, a, b, c;
};

namespace detail {
COTILE_HD constexpr IntTuple T2(int64_t a, int64_t b) { return make_tuple(static_int(a), static_int(b)); }
COTILE_HD constexpr IntTuple T3(int64_t a, int64_t b, int64_t c) {
  return make_tuple(static_int(a), static_int(b), static_int(c));
}
// ((_4,_8),(_2,_2)):((_32,_1),(_16,_8)): the m16n8 accumulator of mma.sync.
COTILE_HD constexpr Layout sm80_c() { return Layout{make_tuple(T2(4, 8), T2(2, 2)), make_tuple(T2(32, 1), T2(16, 8))}; }
// (_T,(X,K)):(_0,(_1,X)) for tensor-core instructions whose operand comes from shared memory.
COTILE_HD constexpr Layout smem_operand(int64_t threads, int64_t x, int64_t k) {
  return Layout{make_tuple(static_int(threads), T2(x, k)), make_tuple(static_int(0), T2(1, x))};
}
}  // namespace detail

// Requires: the shape is one the instruction has (checked with a message naming the rule).
COTILE_HD constexpr MmaTraits mma_traits(MmaFamily f, Elem a, Elem b, int m, int n, bool a_k_major = true,
                                         bool b_k_major = true) {
  using namespace detail;
  MmaTraits t{f, a, b, m, n, 0, a_k_major, b_k_major, IntTuple{}, Layout{}, Layout{}, Layout{}, Layout{}};
  const bool fp8 = bits(a) == 8;
  if (f == MmaFamily::kUniversalFma) {  // (_1,_1):(_0,_0) for A, B and C; one thread (_1:_0)
    const Layout one{T2(1, 1), make_tuple(static_int(0), static_int(0))};
    t.m = t.n = t.k = 1;
    t.thr_id = Layout{int_tuple(static_int(1)), int_tuple(static_int(0))};
    t.a = t.b = t.c = one;
    t.shape_mnk = T3(1, 1, 1);
    return t;
  }
  if (bits(a) != bits(b) || (bits(a) != 8 && bits(a) != 16))
    fail("MMA_Atom", "A and B must be both 16-bit (half_t/bfloat16_t) or both 8-bit (e4m3/e5m2)", nullptr,
         arg("A", name(a)), arg("B", name(b)));
  switch (f) {
    case MmaFamily::kSm80_16x8x16:
    case MmaFamily::kSm89_16x8x32:
      if (fp8 != (f == MmaFamily::kSm89_16x8x32))
        fail("MMA_Atom", "m16n8k16 takes 16-bit operands, m16n8k32 takes 8-bit ones", nullptr, arg("A", name(a)));
      t.m = 16;
      t.n = 8;
      t.k = fp8 ? 32 : 16;
      t.thr_id = Layout{int_tuple(static_int(32)), int_tuple(static_int(1))};
      t.a = fp8 ? Layout{make_tuple(T2(4, 8), T3(4, 2, 2)), make_tuple(T2(64, 1), T3(16, 8, 256))}
                : Layout{make_tuple(T2(4, 8), T3(2, 2, 2)), make_tuple(T2(32, 1), T3(16, 8, 128))};
      t.b = fp8 ? Layout{make_tuple(T2(4, 8), T2(4, 2)), make_tuple(T2(32, 1), T2(8, 128))}
                : Layout{make_tuple(T2(4, 8), T2(2, 2)), make_tuple(T2(16, 1), T2(8, 64))};
      t.c = sm80_c();
      break;
    case MmaFamily::kSm90_Gmma_SS:
      if (m != 64 || n < 8 || n > 256 || n % 8 != 0)
        fail("MMA_Atom", "wgmma has M = 64 and N a multiple of 8 in [8, 256]", nullptr, arg("M", m), arg("N", n));
      if (fp8 && (!a_k_major || !b_k_major))
        fail("MMA_Atom", "8-bit wgmma needs K-major A and B (TN)", nullptr, arg("A", name(a)));
      t.k = fp8 ? 32 : 16;
      t.thr_id = Layout{int_tuple(static_int(128)), int_tuple(static_int(1))};
      t.a = smem_operand(128, m, t.k);
      t.b = smem_operand(128, n, t.k);
      t.c = Layout{make_tuple(T3(4, 8, 4), T3(2, 2, n / 8)), make_tuple(T3(128, 1, 16), T3(64, 8, 512))};
      break;
    case MmaFamily::kSm100_Umma_SS:
      if ((m != 64 && m != 128) || n < 8 || n > 256 || n % 8 != 0)
        fail("MMA_Atom", "1-SM tcgen05.mma has M = 64 or 128 and N a multiple of 8 in [8, 256]", nullptr, arg("M", m),
             arg("N", n));
      t.k = 256 / bits(a);
      t.thr_id = Layout{};
      t.a = smem_operand(1, m, t.k);
      t.b = smem_operand(1, n, t.k);
      t.c = Layout{make_tuple(static_int(1), T2(m, n)), make_tuple(static_int(0), T2(1, m))};
      break;
    case MmaFamily::kUniversalFma: break;  // returned above
  }
  t.shape_mnk = T3(t.m, t.n, t.k);
  return t;
}

}  // namespace cotile
