// CuTe's tensor algorithms on typed tensors (global/shared memory, registers, coordinates):
// element by element over the 1-D index i of the tensors' layouts (colexicographic coordinates),
//   copy(src, dst)            dst(i) = src(i)
//   copy(tiled_copy, src, dst) a thread's partitions (CPY, ...): each atom's values (mode 0) by the
//                             copy's instruction (one 4/8/16-byte load and store, or a 16-byte cp.async)
//   copy_if(pred, src, dst)   dst(i) = src(i) where pred(i)
//   fill(t, v), clear(t)      t(i) = v, t(i) = T{}
//   axpby(a, x, b, y)         y(i) = a x(i) + b y(i)
//   transform(t, f)           t(i) = f(t(i));  transform(src, dst, f): dst(i) = f(src(i))
//   gemm(mma, a, b, c)        a thread's partitions (V,M,K) x (V,N,K) => (V,M,N) by a tiled MMA:
//                             UniversalFMA atoms (V = 1): c(0,m,n) += sum_k a(0,m,k) b(0,n,k);
//                             mma.sync m16n8k16 atoms (V = 8, 4, 4: the atom's fragments, values in
//                             register order): one instruction a (m, n, k), on the device
//   gemm(a, b, c)             by the tensors' ranks: (V) x (V) => (V)       c(v) += a(v) b(v)
//                                                     (M) x (N) => (M,N)     c(m,n) += a(m) b(n)
//                                                     (M,K) x (N,K) => (M,N) c(m,n) += sum_k a(m,k) b(n,k)
// The tensors' sizes must be equal: a compile error when both are static, else an error at run
// time (cotile::Error on the host, a trap on the device), never a partial result.
// make_tensor_like<T>(t) / make_fragment_like<T>(t): registers laid out by make_layout_like /
// make_fragment_like of t's layout (algebra/like.hpp), for static layouts.
#pragma once

#include <bit>
#include <type_traits>

#include "../algebra/like.hpp"
#include "../arch/mma_sm80.hpp"
#include "atom.hpp"
#include "tensor.hpp"

namespace cotile::ct {

namespace op {
struct LayoutLike {
  constexpr EL operator()(const EL& l) const { return ::cotile::make_layout_like(l); }
};
struct FragmentLike {
  constexpr EL operator()(const EL& l) const { return ::cotile::make_fragment_like(l); }
};
}  // namespace op

// make_layout_like(L), make_fragment_like(L): the engine's (algebra/like.hpp), typed.
template <class L>
requires is_layout_v<L> COTILE_HD COTILE_INLINE constexpr auto make_layout_like(const L& l) {
  return lift<op::LayoutLike, Kind::kLayout>(l);
}
template <class L>
requires is_layout_v<L> COTILE_HD COTILE_INLINE constexpr auto make_fragment_like(const L& l) {
  return lift<op::FragmentLike, Kind::kLayout>(l);
}

namespace detail {
template <class T>
struct tensor_value {
  using type = std::remove_cv_t<std::remove_reference_t<decltype(std::declval<T&>()(int64_t(0)))>>;
};
template <class T, class Tn>
using value_or = std::conditional_t<std::is_void_v<T>, typename tensor_value<const Tn>::type, T>;
}  // namespace detail

// Registers laid out like a layout, or like a tensor (value type T, by default the tensor's).
template <class T, class L>
requires is_layout_v<L> COTILE_HD COTILE_INLINE constexpr auto make_tensor_like(const L& l) {
  return make_tensor<T>(make_layout_like(l));
}
template <class T = void, tensor_like Tn>
COTILE_HD COTILE_INLINE constexpr auto make_tensor_like(const Tn& t) {
  return make_tensor<detail::value_or<T, Tn>>(make_layout_like(t.layout()));
}
template <class T, class L>
requires is_layout_v<L> COTILE_HD COTILE_INLINE constexpr auto make_fragment_like(const L& l) {
  return make_tensor<T>(make_fragment_like(l));
}
template <class T = void, tensor_like Tn>
COTILE_HD COTILE_INLINE constexpr auto make_fragment_like(const Tn& t) {
  return make_tensor<detail::value_or<T, Tn>>(make_fragment_like(t.layout()));
}

namespace detail {
// f(i) for i in [0, n): unrolled when n is static (registers stay registers).
template <class N, class F>
COTILE_HD COTILE_INLINE constexpr void for_index(const N& n, F&& f) {
  if constexpr (is_static_int<std::remove_cv_t<N>>::value) {
    COTILE_UNROLL
    for (int64_t i = 0; i < N::value; ++i) f(i);
  } else {
    for (int64_t i = 0; i < int64_t(n); ++i) f(i);
  }
}

// The common size of tensors a and b for algorithm `what`: checked equal.
template <class A, class B>
COTILE_HD COTILE_INLINE constexpr auto common_size(const A& a, const B& b, const char* what) {
  const auto na = size(a.layout());
  const auto nb = size(b.layout());
  if constexpr (is_static_int<std::remove_cv_t<decltype(na)>>::value &&
                is_static_int<std::remove_cv_t<decltype(nb)>>::value) {
    static_assert(decltype(na)::value == decltype(nb)::value,
                  "copy/copy_if/axpby/transform: the tensors differ in size (both sizes are static)");
    (void)what;
    return na;
  } else {
    if (int64_t(na) != int64_t(nb))
      ::cotile::fail(what, "the tensors differ in size", "partition or slice them to the same number of elements",
                     ::cotile::arg("first", long(int64_t(na))), ::cotile::arg("second", long(int64_t(nb))));
    return int64_t(na);
  }
}
}  // namespace detail

template <tensor_like Src, class Dst>
COTILE_HD COTILE_INLINE constexpr void copy(const Src& src, Dst&& dst) {
  const auto n = detail::common_size(src, dst, "copy");
  detail::for_index(n, [&](int64_t i) { dst(i) = src(i); });
}

namespace detail {
template <int Bytes>
struct word;
template <>
struct word<4> {
  using type = uint32_t;
};
template <>
struct word<8> {
  using type = uint64_t;
};
template <>
struct word<16> {
  using type = uint128_t;
};
// Mode 0 of a partition holds n contiguous elements (static stride _1 when n > 1).
template <class L, int N>
constexpr bool contiguous_mode0() {
  if constexpr (N == 1) {
    return true;
  } else {
    using M0 = decltype(coalesce(get<0>(std::declval<const L&>())));
    return is_static_v<M0> && decltype(size(std::declval<const M0&>()))::value == N &&
           decltype(stride(std::declval<const M0&>()))::value == 1;
  }
}
}  // namespace detail

template <class Gen, tensor_like Src, class Dst>
COTILE_HD COTILE_INLINE constexpr void copy(const TiledCopy<Gen>&, const Src& src, Dst&& dst) {
  using T = typename detail::tensor_value<const Src>::type;
  constexpr CopyOp op = TiledCopy<Gen>::op;
  static_assert(op == CopyOp::kU32 || op == CopyOp::kU64 || op == CopyOp::kU128 || op == CopyOp::kCpAsync16B,
                "copy(tiled_copy, src, dst): ldmatrix copies fill MMA fragments; use cotile/arch's ldmatrix_x*");
  constexpr int bytes = op == CopyOp::kU32 ? 4 : op == CopyOp::kU64 ? 8 : 16;
  static_assert(bytes % sizeof(T) == 0, "copy(tiled_copy, src, dst): the element does not divide the instruction");
  constexpr int per_atom = bytes / int(sizeof(T));
  using SL = std::remove_cvref_t<decltype(src.layout())>;
  using DL = std::remove_cvref_t<decltype(dst.layout())>;
  static_assert(decltype(size(get<0>(std::declval<const SL&>())))::value == per_atom,
                "copy(tiled_copy, src, dst): mode 0 of the partitions must be the atom's values (partition_S/D)");
  static_assert(detail::contiguous_mode0<SL, per_atom>() && detail::contiguous_mode0<DL, per_atom>(),
                "copy(tiled_copy, src, dst): an atom's values must be contiguous in both tensors");
  const auto n = detail::common_size(src, dst, "copy");
  // the atoms, unrolled like the element-wise algorithms when the size is static (register tensors)
  const auto atoms = [&] {
    if constexpr (is_static_int<std::remove_cv_t<decltype(n)>>::value) return Int<decltype(n)::value / per_atom>{};
    else return int64_t(n) / per_atom;
  }();
  detail::for_index(atoms, [&](int64_t r) {
    const T* s = &src(r * per_atom);
    T* d = const_cast<T*>(&dst(r * per_atom));
    if constexpr (op == CopyOp::kCpAsync16B) {
      arch::cp_async<16>(d, s);
    } else {
      using W = typename detail::word<bytes>::type;
      *reinterpret_cast<W*>(d) = *reinterpret_cast<const W*>(s);
    }
  });
}

template <class Pred, tensor_like Src, class Dst>
COTILE_HD COTILE_INLINE constexpr void copy_if(const Pred& pred, const Src& src, Dst&& dst) {
  const auto n = detail::common_size(src, dst, "copy_if");
  if constexpr (requires { pred.layout(); }) (void)detail::common_size(pred, src, "copy_if");
  detail::for_index(n, [&](int64_t i) {
    if (pred(i)) dst(i) = src(i);
  });
}

template <class Tn, class V>
requires tensor_like<std::remove_reference_t<Tn>> COTILE_HD COTILE_INLINE constexpr void fill(Tn&& t, const V& v) {
  const auto n = size(t.layout());
  detail::for_index(n, [&](int64_t i) { t(i) = v; });
}

template <class Tn>
requires tensor_like<std::remove_reference_t<Tn>> COTILE_HD COTILE_INLINE constexpr void clear(Tn&& t) {
  using V = typename detail::tensor_value<std::remove_reference_t<Tn>>::type;
  fill(t, V{});
}

template <class A, tensor_like X, class B, class Y>
COTILE_HD COTILE_INLINE constexpr void axpby(const A& a, const X& x, const B& b, Y&& y) {
  const auto n = detail::common_size(x, y, "axpby");
  detail::for_index(n, [&](int64_t i) { y(i) = a * x(i) + b * y(i); });
}

namespace detail {
template <class Tn>
inline constexpr int rank_of = int(decltype(rank(std::declval<const Tn&>().layout()))::value);
// Mode I of a and mode J of b have the same extent (static: at compile time).
template <int I, int J, class A, class B>
COTILE_HD COTILE_INLINE constexpr auto common_extent(const A& a, const B& b) {
  const auto na = size(get<I>(shape(a.layout())));
  const auto nb = size(get<J>(shape(b.layout())));
  if constexpr (is_static_int<std::remove_cv_t<decltype(na)>>::value &&
                is_static_int<std::remove_cv_t<decltype(nb)>>::value) {
    static_assert(decltype(na)::value == decltype(nb)::value, "gemm: the operands' M, N or K extents differ");
    return na;
  } else {
    if (int64_t(na) != int64_t(nb))
      ::cotile::fail("gemm", "the operands' M, N or K extents differ", "partition A, B and C by the same MMA",
                     ::cotile::arg("extent", long(int64_t(na))), ::cotile::arg("other", long(int64_t(nb))));
    return int64_t(na);
  }
}
}  // namespace detail

template <tensor_like A, tensor_like B, class C>
COTILE_HD COTILE_INLINE constexpr void gemm(const A& a, const B& b, C&& c) {
  constexpr int ra = detail::rank_of<A>, rb = detail::rank_of<B>, rc = detail::rank_of<std::remove_cvref_t<C>>;
  if constexpr (ra == 1 && rb == 1 && rc == 1) {
    const auto n = detail::common_size(a, c, "gemm");
    (void)detail::common_size(b, c, "gemm");
    detail::for_index(n, [&](int64_t v) { c(v) += a(v) * b(v); });
  } else if constexpr (ra == 1 && rb == 1 && rc == 2) {
    const auto m = detail::common_extent<0, 0>(a, c);
    const auto n = detail::common_extent<0, 1>(b, c);
    detail::for_index(n, [&](int64_t j) { detail::for_index(m, [&](int64_t i) { c(i, j) += a(i) * b(j); }); });
  } else if constexpr (ra == 2 && rb == 2 && rc == 2) {
    const auto m = detail::common_extent<0, 0>(a, c);
    const auto n = detail::common_extent<0, 1>(b, c);
    const auto k = detail::common_extent<1, 1>(a, b);
    detail::for_index(k, [&](int64_t p) {
      detail::for_index(n, [&](int64_t j) { detail::for_index(m, [&](int64_t i) { c(i, j) += a(i, p) * b(j, p); }); });
    });
  } else {
    static_assert(ra == 0, "gemm(a, b, c): ranks (V)x(V)=>(V), (M)x(N)=>(M,N) or (M,K)x(N,K)=>(M,N)");
  }
}

namespace detail {
// Two 16-bit values as one register, the first in the low half (an MMA fragment's pair).
template <class T>
COTILE_HD COTILE_INLINE uint32_t pack_pair(const T& lo, const T& hi) {
  static_assert(sizeof(T) == 2 && std::is_trivially_copyable_v<T>,
                "gemm(tiled_mma, a, b, c): m16n8k16 fragments hold 16-bit values (half, bfloat16)");
  return uint32_t(std::bit_cast<uint16_t>(lo)) | (uint32_t(std::bit_cast<uint16_t>(hi)) << 16);
}
template <int I, class Tn>
inline constexpr int64_t static_extent =
    int64_t(decltype(size(get<I>(shape(std::declval<const Tn&>().layout()))))::value);
}  // namespace detail

template <class Gen, tensor_like A, tensor_like B, class C>
COTILE_HD COTILE_INLINE constexpr void gemm(const TiledMMA<Gen>&, const A& a, const B& b, C&& c) {
  constexpr MmaFamily family = TiledMMA<Gen>::value.atom.family;
  static_assert(family == MmaFamily::kUniversalFma || family == MmaFamily::kSm80_16x8x16,
                "gemm(tiled_mma, a, b, c): here for UniversalFMA and mma.sync m16n8k16 atoms; wgmma and fp8 atoms "
                "are issued through cotile/arch (wgmma.hpp, mma_sm80.hpp)");
  static_assert(detail::rank_of<A> == 3 && detail::rank_of<B> == 3 && detail::rank_of<std::remove_cvref_t<C>> == 3,
                "gemm(tiled_mma, a, b, c): a thread's partitions (V,M,K), (V,N,K) and (V,M,N)");
  const auto m = detail::common_extent<1, 1>(a, c);
  const auto n = detail::common_extent<1, 2>(b, c);
  const auto k = detail::common_extent<2, 2>(a, b);
  if constexpr (family == MmaFamily::kUniversalFma) {
    detail::for_index(k, [&](int64_t p) {
      detail::for_index(n, [&](int64_t j) {
        detail::for_index(m, [&](int64_t i) { c(_0{}, i, j) += a(_0{}, i, p) * b(_0{}, j, p); });
      });
    });
  } else {
    // The atom's fragments: A's 8 values are its 4 registers' halves, B's 4 its 2, C's 4 floats.
    static_assert(detail::static_extent<0, A> == 8 && detail::static_extent<0, B> == 4 &&
                      detail::static_extent<0, std::remove_cvref_t<C>> == 4,
                  "gemm(tiled_mma, a, b, c): an m16n8k16 thread's values: 8 of A, 4 of B and 4 of C (mode 0 of "
                  "partition_A/B/C by this MMA)");
    constexpr bool bf16 = TiledMMA<Gen>::value.atom.a_type == Elem::kBFloat16;
    detail::for_index(k, [&](int64_t p) {
      detail::for_index(n, [&](int64_t j) {
        detail::for_index(m, [&](int64_t i) {
          const uint32_t ra[4] = {detail::pack_pair(a(0, i, p), a(1, i, p)), detail::pack_pair(a(2, i, p), a(3, i, p)),
                                  detail::pack_pair(a(4, i, p), a(5, i, p)), detail::pack_pair(a(6, i, p), a(7, i, p))};
          const uint32_t rb[2] = {detail::pack_pair(b(0, j, p), b(1, j, p)), detail::pack_pair(b(2, j, p), b(3, j, p))};
          const float rc[4] = {float(c(0, i, j)), float(c(1, i, j)), float(c(2, i, j)), float(c(3, i, j))};
          float rd[4];
          ::cotile::arch::mma_m16n8k16<bf16>(rd, ra, rb, rc);
          for (int v = 0; v < 4; ++v) c(v, i, j) = rd[v];
        });
      });
    });
  }
}

// transform: only tensors (ct::transform of tuples, tuple_algorithms.hpp, takes the rest); a
// const tensor over memory is written through (a view), a const register tensor is not.
template <tensor_like Tn, class F>
COTILE_HD COTILE_INLINE constexpr void transform(Tn& t, F&& f) {
  const auto n = size(t.layout());
  detail::for_index(n, [&](int64_t i) { t(i) = f(t(i)); });
}
template <tensor_like Tn, class F>
COTILE_HD COTILE_INLINE constexpr void transform(const Tn& t, F&& f) {
  const auto n = size(t.layout());
  detail::for_index(n, [&](int64_t i) { t(i) = f(t(i)); });
}
template <tensor_like Src, tensor_like Dst, class F>
COTILE_HD COTILE_INLINE constexpr void transform(const Src& src, Dst& dst, F&& f) {
  const auto n = detail::common_size(src, dst, "transform");
  detail::for_index(n, [&](int64_t i) { dst(i) = f(src(i)); });
}
template <tensor_like Src, tensor_like Dst, class F>
COTILE_HD COTILE_INLINE constexpr void transform(const Src& src, const Dst& dst, F&& f) {
  const auto n = detail::common_size(src, dst, "transform");
  detail::for_index(n, [&](int64_t i) { dst(i) = f(src(i)); });
}

}  // namespace cotile::ct
