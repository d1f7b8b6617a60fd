// Copy instructions described purely as layouts (the "what"; arch/ holds the "how").
//
// Each trait gives, in bits: ThrID (atom thread -> thread index), and the Src, Dst and Ref
// layouts (thread, bit) -> bit offset. A Copy_Atom for an element type views them in elements:
// ValLayout = upcast<bits(elem)>(BitLayout).
#pragma once

#include "../layout.hpp"
#include "../algebra/cast.hpp"
#include "element.hpp"

namespace cotile {

enum class CopyOp : uint8_t { kU32, kU64, kU128, kCpAsync16B, kLdsmX1, kLdsmX2, kLdsmX4 };

struct CopyTraits {
  CopyOp op;
  const char* name;
  Layout thr_id, src_bits, dst_bits, ref_bits;
};

namespace detail {
// (_1,_N):(_0,_1): one thread moving N contiguous bits.
COTILE_HD constexpr Layout one_thread_bits(int64_t n) {
  return Layout{make_tuple(static_int(1), static_int(n)), make_tuple(static_int(0), static_int(1))};
}
// ldmatrix destination: thread t holds 32 bits of each 8x8 b16 matrix; matrices 1024 bits apart.
COTILE_HD constexpr Layout ldsm_dst(int64_t matrices) {
  if (matrices == 1)
    return Layout{make_tuple(static_int(32), static_int(32)), make_tuple(static_int(32), static_int(1))};
  return Layout{make_tuple(static_int(32), make_tuple(static_int(32), static_int(matrices))),
                make_tuple(static_int(32), make_tuple(static_int(1), static_int(1024)))};
}
// ldmatrix source: 8*matrices threads each give one 128-bit row address; the rest repeat them.
COTILE_HD constexpr Layout ldsm_src(int64_t matrices) {
  if (matrices == 4)
    return Layout{make_tuple(static_int(32), static_int(128)), make_tuple(static_int(128), static_int(1))};
  const int64_t rows = 8 * matrices;
  return Layout{make_tuple(make_tuple(static_int(rows), static_int(32 / rows)), static_int(128)),
                make_tuple(make_tuple(static_int(128), static_int(0)), static_int(1))};
}
}  // namespace detail

COTILE_HD constexpr CopyTraits copy_traits(CopyOp op) {
  switch (op) {
    case CopyOp::kU32: {
      const Layout b = detail::one_thread_bits(32);
      return {op, "copy.u32", Layout{}, b, b, b};
    }
    case CopyOp::kU64: {
      const Layout b = detail::one_thread_bits(64);
      return {op, "copy.u64", Layout{}, b, b, b};
    }
    case CopyOp::kU128: {
      const Layout b = detail::one_thread_bits(128);
      return {op, "copy.u128", Layout{}, b, b, b};
    }
    case CopyOp::kCpAsync16B: {
      const Layout b = detail::one_thread_bits(128);
      return {op, "cp.async.16B", Layout{}, b, b, b};
    }
    case CopyOp::kLdsmX1:
    case CopyOp::kLdsmX2:
    case CopyOp::kLdsmX4: {
      const int64_t m = op == CopyOp::kLdsmX1 ? 1 : op == CopyOp::kLdsmX2 ? 2 : 4;
      const Layout dst = detail::ldsm_dst(m);
      return {op,
              m == 1   ? "ldmatrix.x1"
              : m == 2 ? "ldmatrix.x2"
                       : "ldmatrix.x4",
              Layout{int_tuple(static_int(32)), int_tuple(static_int(1))},
              detail::ldsm_src(m),
              dst,
              dst};
    }
  }
  return {op, "?", Layout{}, Layout{}, Layout{}, Layout{}};
}

// A copy instruction applied to one element type (CuTe's Copy_Atom<Op, T>).
struct CopyAtom {
  CopyTraits traits;
  Elem elem;
  Layout val_src, val_dst, val_ref;  // (thread, value) -> element offset
};

// Requires: the element type divides the bits each thread moves.
COTILE_HD constexpr CopyAtom make_copy_atom(CopyOp op, Elem e) {
  const CopyTraits t = copy_traits(op);
  const int64_t per_thread = size(t.ref_bits.get(1)).value;
  if (per_thread % bits(e) != 0)
    fail("Copy_Atom", "the instruction moves a number of bits per thread that the element type does not divide",
         "choose an element type whose size divides the instruction's width", arg("atom", t.name),
         arg("element", name(e)), arg("RefLayout (bits)", t.ref_bits));
  return CopyAtom{t, e, upcast(t.src_bits, bits(e)), upcast(t.dst_bits, bits(e)), upcast(t.ref_bits, bits(e))};
}

}  // namespace cotile
