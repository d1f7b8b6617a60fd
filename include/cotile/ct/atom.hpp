// Typed TiledCopy and TiledMMA for kernels: the engine's objects, built at compile time from
// static layouts, applied to typed tensors (partition_S/D, partition_A/B/C).
#pragma once

#include "error.hpp"
#include "tensor.hpp"

namespace cotile::ct {

// A tiled copy whose engine value Gen::value() is a compile-time constant.
template <class Gen>
struct TiledCopy {
  static constexpr ::cotile::TiledCopy value = Gen::value();
  static constexpr CopyOp op = value.atom.traits.op;
  static constexpr Elem elem = value.atom.elem;
};

namespace op {
// One thread's partition of a tensor by a tiled copy (X: true = source, false = destination) or a
// tiled MMA (X: the operand): the engine's partition(...), its layout and its offset.
template <class Gen, auto X>
struct PartitionLayout {
  constexpr EL operator()(const EL& t, const EInt& thr) const { return partition(Gen::value(), t, thr, X).layout; }
};
template <class Gen, auto X>
struct PartitionOffset {
  constexpr EInt operator()(const EL& t, const EInt& thr) const { return partition(Gen::value(), t, thr, X).offset; }
};
template <class Gen>
struct LayoutTV {
  constexpr EL operator()() const { return Gen::value().layout_tv; }
};
template <class Gen, bool Src>
struct LayoutSDTV {
  constexpr EL operator()() const { return get_layout_tv(Gen::value(), Src); }
};
}  // namespace op

// The partitioned tensor: the lifted partition layout over the tensor's iterator moved by the offset.
template <class Gen, auto X, class Iter, class L, class Thr>
COTILE_HD COTILE_INLINE constexpr auto partition_tensor(const Tensor<Iter, L>& t, const Thr& thr) {
  const auto l = lift<op::PartitionLayout<Gen, X>, Kind::kLayout, Kind::kInt>(t.layout(), thr);
  const auto off = lift<op::PartitionOffset<Gen, X>, Kind::kLayout, Kind::kInt>(t.layout(), thr);
  return Tensor<Iter, std::remove_cv_t<decltype(l)>>{t.iter + int64_t(off), l};
}

// make_cotiled_copy<Op, Elem>(atom_tv, data): requires static layouts (CuTe static_asserts too).
template <CopyOp Op, Elem E, class AtomTV, class Data>
COTILE_HD constexpr auto make_cotiled_copy(const AtomTV&, const Data&) {
  static_assert(is_layout_v<AtomTV> && is_layout_v<Data>, "make_cotiled_copy: atom_tv and data_layout must be layouts");
  static_assert(is_static_v<AtomTV>,
                "make_cotiled_copy: atom_tv_layout must be static (every shape and stride an Int<N>)");
  static_assert(require_static<Data::spec, true, Message{"make_cotiled_copy: data_layout"},
                               Message{"make it a static Int<...> as the Q-load chain's replace<0> does"}>());
  struct Gen {
    static constexpr ::cotile::TiledCopy value() {
      return ::cotile::make_cotiled_copy(make_copy_atom(Op, E), ArgOf<AtomTV>::engine_layout(nullptr, 0),
                                         ArgOf<Data>::engine_layout(nullptr, 0), Options{true});
    }
  };
  return TiledCopy<Gen>{};
}

// make_tiled_copy<Op, Elem>(thr_layout, val_layout).
template <CopyOp Op, Elem E, class Thr, class Val>
COTILE_HD constexpr auto make_tiled_copy(const Thr&, const Val&) {
  static_assert(is_static_v<Thr> && is_static_v<Val>, "make_tiled_copy: thr_layout and val_layout must be static");
  struct Gen {
    static constexpr ::cotile::TiledCopy value() {
      return ::cotile::make_tiled_copy(make_copy_atom(Op, E), ArgOf<Thr>::engine_layout(nullptr, 0),
                                       ArgOf<Val>::engine_layout(nullptr, 0));
    }
  };
  return TiledCopy<Gen>{};
}

namespace op {
template <class Gen>
struct Retile {
  constexpr EL operator()(const EL& t) const { return retile(Gen::value(), t); }
};
template <class Gen>
struct Tile2Data {
  constexpr EL operator()(const EL& data) const { return tile2data(Gen::value().tiler, data); }
};
}  // namespace op

template <class Gen>
COTILE_HD constexpr auto size(const TiledCopy<Gen>&) {
  return Int<size(TiledCopy<Gen>::value).value>{};
}

// retile_S/retile_D: a thread's fragment reshaped to (atom values, repetitions) (same for both).
template <class Gen, class Iter, class L>
COTILE_HD COTILE_INLINE constexpr auto retile(const TiledCopy<Gen>&, const Tensor<Iter, L>& t) {
  const auto l = lift<op::Retile<Gen>, Kind::kLayout>(t.layout());
  return Tensor<Iter, std::remove_cv_t<decltype(l)>>{t.iter, l};
}
template <class Gen, class T, class L, int N>
COTILE_HD COTILE_INLINE constexpr auto retile(const TiledCopy<Gen>&, RegisterTensor<T, L, N>& t) {
  const auto l = lift<op::Retile<Gen>, Kind::kLayout>(t.layout());
  return Tensor<ArrayIter<T, N>, std::remove_cv_t<decltype(l)>>{ArrayIter<T, N>{&t.storage, 0}, l};
}
template <class Gen, class T>
COTILE_HD COTILE_INLINE constexpr auto retile_S(const TiledCopy<Gen>& tc, T&& t) {
  return retile(tc, t);
}
template <class Gen, class T>
COTILE_HD COTILE_INLINE constexpr auto retile_D(const TiledCopy<Gen>& tc, T&& t) {
  return retile(tc, t);
}

// The tile-to-data map of a cotiled copy (qload.md §7.5) for its data layout.
template <class Gen, class Data>
COTILE_HD COTILE_INLINE constexpr auto tile2data(const TiledCopy<Gen>&, const Data& data) {
  return lift<op::Tile2Data<Gen>, Kind::kLayout>(data);
}
template <class Gen>
COTILE_HD constexpr auto layout_tv(const TiledCopy<Gen>&) {
  return lift<op::LayoutTV<Gen>>();
}
template <class Gen>
COTILE_HD constexpr auto get_layoutS_TV(const TiledCopy<Gen>&) {
  return lift<op::LayoutSDTV<Gen, true>>();
}
template <class Gen>
COTILE_HD constexpr auto get_layoutD_TV(const TiledCopy<Gen>&) {
  return lift<op::LayoutSDTV<Gen, false>>();
}

// partition_S/D(tc, tensor, t): thread t's source/destination partition (CuTe's
// tc.get_slice(t).partition_S(tensor)).
template <class Gen, class Iter, class L, class Thr>
COTILE_HD COTILE_INLINE constexpr auto partition_S(const TiledCopy<Gen>&, const Tensor<Iter, L>& t, const Thr& thr) {
  return partition_tensor<Gen, true>(t, thr);
}
template <class Gen, class Iter, class L, class Thr>
COTILE_HD COTILE_INLINE constexpr auto partition_D(const TiledCopy<Gen>&, const Tensor<Iter, L>& t, const Thr& thr) {
  return partition_tensor<Gen, false>(t, thr);
}

// One thread's view of a tiled copy (CuTe's ThrCopy): tc.get_slice(t).partition_S(tensor).
template <class Gen, class Thr>
struct ThrCopy {
  Thr thr;
  template <class T>
  COTILE_HD COTILE_INLINE constexpr auto partition_S(const T& t) const {
    return ct::partition_S(TiledCopy<Gen>{}, t, thr);
  }
  template <class T>
  COTILE_HD COTILE_INLINE constexpr auto partition_D(const T& t) const {
    return ct::partition_D(TiledCopy<Gen>{}, t, thr);
  }
  template <class T>
  COTILE_HD COTILE_INLINE constexpr auto retile_S(T&& t) const {
    return ct::retile(TiledCopy<Gen>{}, t);
  }
  template <class T>
  COTILE_HD COTILE_INLINE constexpr auto retile_D(T&& t) const {
    return ct::retile(TiledCopy<Gen>{}, t);
  }
};
template <class Gen, class Thr>
COTILE_HD constexpr ThrCopy<Gen, Thr> get_slice(const TiledCopy<Gen>&, const Thr& thr) {
  return {thr};
}
template <class Gen, class Thr>
COTILE_HD constexpr ThrCopy<Gen, Thr> get_thread_slice(const TiledCopy<Gen>& tc, const Thr& thr) {
  return get_slice(tc, thr);
}

// CuTe's spellings of copy atoms: Copy_Atom<UniversalCopy<S>, T> (one S-wide load and store a
// thread: S of 4, 8 or 16 bytes), Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<S>, T> (a 16-byte cp.async;
// CACHEGLOBAL likewise), and make_tiled_copy(atom, thr_layout, val_layout).
struct alignas(16) uint128_t {
  uint64_t lo, hi;
};
template <class S, class D = S>
struct UniversalCopy {
  using SRegisters = S;
};
template <class S, class D = S>
struct SM80_CP_ASYNC_CACHEALWAYS {
  using SRegisters = S;
};
template <class S, class D = S>
struct SM80_CP_ASYNC_CACHEGLOBAL {
  using SRegisters = S;
};
namespace detail {
template <class Op>
struct copy_op_of;
template <class S, class D>
struct copy_op_of<UniversalCopy<S, D>> {
  static_assert(sizeof(S) == 4 || sizeof(S) == 8 || sizeof(S) == 16,
                "UniversalCopy<S>: cotile's universal copies move 4, 8 or 16 bytes a thread (uint32_t, uint64_t, "
                "uint128_t)");
  static constexpr CopyOp value = sizeof(S) == 4 ? CopyOp::kU32 : sizeof(S) == 8 ? CopyOp::kU64 : CopyOp::kU128;
};
template <class S, class D>
struct copy_op_of<SM80_CP_ASYNC_CACHEALWAYS<S, D>> {
  static_assert(sizeof(S) == 16, "SM80_CP_ASYNC_CACHEALWAYS<S>: cotile's cp.async moves 16 bytes (uint128_t)");
  static constexpr CopyOp value = CopyOp::kCpAsync16B;
};
template <class S, class D>
struct copy_op_of<SM80_CP_ASYNC_CACHEGLOBAL<S, D>> : copy_op_of<SM80_CP_ASYNC_CACHEALWAYS<S, D>> {};
// The engine's element of a value type: its width is what the atom's layouts need.
template <class T>
constexpr Elem elem_of() {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4,
                "Copy_Atom<Op, T>: T of 1, 2 or 4 bytes (fp8, half/bfloat16, float)");
  return sizeof(T) == 1 ? Elem::kE4M3 : sizeof(T) == 2 ? Elem::kHalf : Elem::kFloat;
}
}  // namespace detail
template <class Op, class T>
struct Copy_Atom {
  using ValType = T;
  static constexpr CopyOp op = detail::copy_op_of<Op>::value;
  static constexpr Elem elem = detail::elem_of<T>();
};
template <class Op, class T, class Thr, class Val>
COTILE_HD constexpr auto make_tiled_copy(const Copy_Atom<Op, T>&, const Thr& thr, const Val& val) {
  return make_tiled_copy<Copy_Atom<Op, T>::op, Copy_Atom<Op, T>::elem>(thr, val);
}

// The layouts of a copy instruction for an element type, typed (static).
template <CopyOp Op, Elem E>
struct CopyAtom {
  struct Gen {
    static constexpr ::cotile::CopyAtom value() { return make_copy_atom(Op, E); }
  };
  template <int Which>
  struct Get {
    constexpr ::cotile::Layout operator()() const {
      const ::cotile::CopyAtom a = Gen::value();
      return Which == 0   ? a.traits.thr_id
             : Which == 1 ? a.val_src
             : Which == 2 ? a.val_dst
             : Which == 3 ? a.val_ref
             : Which == 4 ? a.traits.src_bits
             : Which == 5 ? a.traits.dst_bits
                          : a.traits.ref_bits;
    }
  };
  COTILE_HD static constexpr auto thr_id() { return lift<Get<0>>(); }
  COTILE_HD static constexpr auto val_layout_src() { return lift<Get<1>>(); }
  COTILE_HD static constexpr auto val_layout_dst() { return lift<Get<2>>(); }
  COTILE_HD static constexpr auto val_layout_ref() { return lift<Get<3>>(); }
  COTILE_HD static constexpr auto src_layout_bits() { return lift<Get<4>>(); }
  COTILE_HD static constexpr auto dst_layout_bits() { return lift<Get<5>>(); }
  COTILE_HD static constexpr auto ref_layout_bits() { return lift<Get<6>>(); }
};

// --- TiledMMA -------------------------------------------------------------------------------

template <class Gen>
struct TiledMMA {
  static constexpr ::cotile::TiledMMA value = Gen::value();
};

namespace op {
template <class Gen, Operand X>
struct Thrfrg {
  constexpr EL operator()(const EL& t) const { return thrfrg(Gen::value(), t, X); }
};
template <class Gen, Operand X>
struct MmaLayoutTV {
  constexpr EL operator()() const { return get_layout_tv(Gen::value(), X); }
};
}  // namespace op

// make_tiled_mma<Family, A, B, M, N[, A K-major, B K-major]>(atom_layout).
template <MmaFamily F, Elem A, Elem B, int M, int N, bool AK = true, bool BK = true, class AtomLayout>
COTILE_HD constexpr auto make_tiled_mma(const AtomLayout&) {
  static_assert(is_static_v<AtomLayout>, "make_tiled_mma: the atom layout must be static");
  struct Gen {
    static constexpr ::cotile::TiledMMA value() {
      return ::cotile::make_tiled_mma(mma_traits(F, A, B, M, N, AK, BK), ArgOf<AtomLayout>::engine_layout(nullptr, 0));
    }
  };
  return TiledMMA<Gen>{};
}
template <MmaFamily F, Elem A, Elem B, int M, int N, bool AK = true, bool BK = true>
COTILE_HD constexpr auto make_tiled_mma() {
  return make_tiled_mma<F, A, B, M, N, AK, BK>(make_layout(make_shape(_1{}, _1{}, _1{})));
}

// CuTe's spellings of the scalar atom: make_tiled_mma(UniversalFMA<D, A, B, C>{}, atom_layout) and
// MMA_Atom<UniversalFMA<...>>: one thread's c += a * b (MmaFamily::kUniversalFma; the types are
// the fragments' own).
template <class D, class A = D, class B = A, class C = D>
struct UniversalFMA {
  using DType = D;
  using AType = A;
  using BType = B;
  using CType = C;
};
template <class Op>
struct MMA_Atom : Op {};
template <class D, class A, class B, class C, class AtomLayout>
COTILE_HD constexpr auto make_tiled_mma(const UniversalFMA<D, A, B, C>&, const AtomLayout& atom_layout) {
  return make_tiled_mma<MmaFamily::kUniversalFma, Elem::kFloat, Elem::kFloat, 1, 1>(atom_layout);
}
template <class D, class A, class B, class C>
COTILE_HD constexpr auto make_tiled_mma(const UniversalFMA<D, A, B, C>& op) {
  return make_tiled_mma(op, make_layout(make_shape(_1{}, _1{}, _1{})));
}

// CuTe's spellings of the mma.sync m16n8k16 atoms (A and B K-major, f32 accumulators):
// make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, atom_layout), MMA_Atom<...>.
struct SM80_16x8x16_F32F16F16F32_TN {};
struct SM80_16x8x16_F32BF16BF16F32_TN {};
template <class AtomLayout>
COTILE_HD constexpr auto make_tiled_mma(const SM80_16x8x16_F32F16F16F32_TN&, const AtomLayout& atom_layout) {
  return make_tiled_mma<MmaFamily::kSm80_16x8x16, Elem::kHalf, Elem::kHalf, 16, 8>(atom_layout);
}
template <class AtomLayout>
COTILE_HD constexpr auto make_tiled_mma(const SM80_16x8x16_F32BF16BF16F32_TN&, const AtomLayout& atom_layout) {
  return make_tiled_mma<MmaFamily::kSm80_16x8x16, Elem::kBFloat16, Elem::kBFloat16, 16, 8>(atom_layout);
}
template <class Op>
requires(std::is_base_of_v<SM80_16x8x16_F32F16F16F32_TN, Op> ||
         std::is_base_of_v<SM80_16x8x16_F32BF16BF16F32_TN, Op>) COTILE_HD constexpr auto make_tiled_mma(const Op& op) {
  return make_tiled_mma(op, make_layout(make_shape(_1{}, _1{}, _1{})));
}

namespace op {
template <class Gen>
struct TileMNK {  // (tile_size_mnk<0>, <1>, <2>)
  constexpr IntTuple operator()() const {
    const ::cotile::TiledMMA t = Gen::value();
    return ::cotile::make_tuple(tile_size_mnk(t, 0), tile_size_mnk(t, 1), tile_size_mnk(t, 2));
  }
};
template <class Gen>
struct ThrLayoutVMNK {
  constexpr EL operator()() const { return Gen::value().thr_layout_vmnk; }
};
}  // namespace op

// The (M, N, K) extent one tiled MMA covers, and its (atom thread, m, n, k) -> thread layout.
template <class Gen>
COTILE_HD constexpr auto tile_shape(const TiledMMA<Gen>&) {
  return lift<op::TileMNK<Gen>>();
}
template <int I, class Gen>
COTILE_HD constexpr auto tile_size(const TiledMMA<Gen>& m) {
  return get<I>(tile_shape(m));
}
template <class Gen>
COTILE_HD constexpr auto thr_layout_vmnk(const TiledMMA<Gen>&) {
  return lift<op::ThrLayoutVMNK<Gen>>();
}

template <Operand X, class Gen, class Iter, class L, class Thr>
COTILE_HD COTILE_INLINE constexpr auto partition(const TiledMMA<Gen>&, const Tensor<Iter, L>& t, const Thr& thr) {
  return partition_tensor<Gen, X>(t, thr);
}
template <class Gen, class T, class Thr>
COTILE_HD COTILE_INLINE constexpr auto partition_A(const TiledMMA<Gen>& m, const T& t, const Thr& i) {
  return partition<Operand::kA>(m, t, i);
}
template <class Gen, class T, class Thr>
COTILE_HD COTILE_INLINE constexpr auto partition_B(const TiledMMA<Gen>& m, const T& t, const Thr& i) {
  return partition<Operand::kB>(m, t, i);
}
template <class Gen, class T, class Thr>
COTILE_HD COTILE_INLINE constexpr auto partition_C(const TiledMMA<Gen>& m, const T& t, const Thr& i) {
  return partition<Operand::kC>(m, t, i);
}
template <class Gen, class L>
COTILE_HD COTILE_INLINE constexpr auto thrfrg_A(const TiledMMA<Gen>&, const L& l) {
  return lift<op::Thrfrg<Gen, Operand::kA>, Kind::kLayout>(l);
}
template <class Gen, class L>
COTILE_HD COTILE_INLINE constexpr auto thrfrg_B(const TiledMMA<Gen>&, const L& l) {
  return lift<op::Thrfrg<Gen, Operand::kB>, Kind::kLayout>(l);
}
template <class Gen, class L>
COTILE_HD COTILE_INLINE constexpr auto thrfrg_C(const TiledMMA<Gen>&, const L& l) {
  return lift<op::Thrfrg<Gen, Operand::kC>, Kind::kLayout>(l);
}
// partition_fragment_X: registers for a thread's partition (compact over its static shape).
template <Operand X, class T, class Gen, class Tensor_, class Thr>
COTILE_HD COTILE_INLINE constexpr auto partition_fragment(const TiledMMA<Gen>& m, const Tensor_& t, const Thr& i) {
  return make_tensor<T>(make_layout(shape(partition<X>(m, t, i).layout())));
}
template <class T, class Gen, class Tn, class Thr>
COTILE_HD COTILE_INLINE constexpr auto partition_fragment_A(const TiledMMA<Gen>& m, const Tn& t, const Thr& i) {
  return partition_fragment<Operand::kA, T>(m, t, i);
}
template <class T, class Gen, class Tn, class Thr>
COTILE_HD COTILE_INLINE constexpr auto partition_fragment_B(const TiledMMA<Gen>& m, const Tn& t, const Thr& i) {
  return partition_fragment<Operand::kB, T>(m, t, i);
}
template <class T, class Gen, class Tn, class Thr>
COTILE_HD COTILE_INLINE constexpr auto partition_fragment_C(const TiledMMA<Gen>& m, const Tn& t, const Thr& i) {
  return partition_fragment<Operand::kC, T>(m, t, i);
}

// One thread's view of a tiled MMA (CuTe's ThrMMA).
template <class Gen, class Thr>
struct ThrMMA {
  Thr thr;
  template <class T>
  COTILE_HD COTILE_INLINE constexpr auto partition_A(const T& t) const {
    return ct::partition<Operand::kA>(TiledMMA<Gen>{}, t, thr);
  }
  template <class T>
  COTILE_HD COTILE_INLINE constexpr auto partition_B(const T& t) const {
    return ct::partition<Operand::kB>(TiledMMA<Gen>{}, t, thr);
  }
  template <class T>
  COTILE_HD COTILE_INLINE constexpr auto partition_C(const T& t) const {
    return ct::partition<Operand::kC>(TiledMMA<Gen>{}, t, thr);
  }
};
template <class Gen, class Thr>
COTILE_HD constexpr ThrMMA<Gen, Thr> get_slice(const TiledMMA<Gen>&, const Thr& thr) {
  return {thr};
}
template <class Gen, class Thr>
COTILE_HD constexpr ThrMMA<Gen, Thr> get_thread_slice(const TiledMMA<Gen>& m, const Thr& thr) {
  return get_slice(m, thr);
}

// An MMA instruction's layouts, typed (static).
template <MmaFamily F, Elem A, Elem B, int M, int N, bool AK = true, bool BK = true>
struct MmaAtom {
  template <int Which>
  struct Get {
    constexpr ::cotile::Layout operator()() const {
      const MmaTraits t = mma_traits(F, A, B, M, N, AK, BK);
      return Which == 0 ? t.thr_id : Which == 1 ? t.a : Which == 2 ? t.b : t.c;
    }
  };
  struct Shape {
    constexpr IntTuple operator()() const { return mma_traits(F, A, B, M, N, AK, BK).shape_mnk; }
  };
  COTILE_HD static constexpr auto shape_mnk() { return lift<Shape>(); }
  COTILE_HD static constexpr auto thr_id() { return lift<Get<0>>(); }
  COTILE_HD static constexpr auto layout_a() { return lift<Get<1>>(); }
  COTILE_HD static constexpr auto layout_b() { return lift<Get<2>>(); }
  COTILE_HD static constexpr auto layout_c() { return lift<Get<3>>(); }
};

template <class Gen>
COTILE_HD constexpr auto get_layoutA_TV(const TiledMMA<Gen>&) {
  return lift<op::MmaLayoutTV<Gen, Operand::kA>>();
}
template <class Gen>
COTILE_HD constexpr auto get_layoutB_TV(const TiledMMA<Gen>&) {
  return lift<op::MmaLayoutTV<Gen, Operand::kB>>();
}
template <class Gen>
COTILE_HD constexpr auto get_layoutC_TV(const TiledMMA<Gen>&) {
  return lift<op::MmaLayoutTV<Gen, Operand::kC>>();
}

}  // namespace cotile::ct
