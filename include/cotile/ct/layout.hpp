// Typed layout operations: each is the engine's algorithm, lifted (typed.hpp). Arguments are
// typed values: Int<N>, plain integers, packs (make_shape/make_stride/make_coord/make_tile),
// Tuples and Layouts. Options follow CuTe exactly (strict): where CuTe refuses a dynamic
// argument, so does the typed layer.
#pragma once

#include "engine_ops.hpp"
#include "integer_ops.hpp"
#include "tuple.hpp"
#include "typed.hpp"

namespace cotile::ct {

template <class T>
inline constexpr bool is_layout_v = is_layout<std::remove_cv_t<std::remove_reference_t<T>>>::value;

// Arguments that are layouts enter as layouts; everything else as an integer tuple or a tile.
template <class T>
inline constexpr Kind tuple_kind = is_layout_v<T> ? Kind::kLayout : Kind::kTuple;
template <class T>
inline constexpr Kind tiler_kind = is_layout_v<T> ? Kind::kLayout : Kind::kTile;

// --- construction ---------------------------------------------------------------------------

// Strides that are scaled basis elements (CuTe's E<...>) make a BasisLayout (basis.hpp).
template <class T, int... Ns>
struct ScaledBasis;
template <class Shape, class Stride>
struct BasisLayout;
namespace detail {
template <class T>
struct has_basis : std::false_type {};
template <class T, int... Ns>
struct has_basis<ScaledBasis<T, Ns...>> : std::true_type {};
template <class... Ts>
struct has_basis<tuple<Ts...>> : std::bool_constant<(has_basis<Ts>::value || ...)> {};
}  // namespace detail

// make_layout(shape) (column-major), make_layout(shape, stride), make_layout(L0, L1, ...).
template <class S>
COTILE_HD COTILE_INLINE constexpr auto make_layout(const S& s) {
  if constexpr (is_layout_v<S>) return lift<op::Concat, Kind::kLayout>(s);
  else return lift<op::MakeLayoutS, Kind::kTuple>(s);
}
template <class S, class D, class... Ls>
COTILE_HD COTILE_INLINE constexpr auto make_layout(const S& s, const D& d, const Ls&... ls) {
  if constexpr (is_layout_v<S>)
    return lift<op::Concat, Kind::kLayout, Kind::kLayout, (ls, Kind::kLayout)...>(s, d, ls...);
  else if constexpr (detail::has_basis<D>::value) return make_basis_layout(s, d);
  else return lift<op::MakeLayoutSD, Kind::kTuple, Kind::kTuple>(s, d);
}
template <class S>
COTILE_HD COTILE_INLINE constexpr auto make_layout_right(const S& s) {
  return lift<op::MakeLayoutRight, Kind::kTuple>(s);
}
// CuTe's tags for the compact strides of make_layout(shape, tag): column-major (the first mode
// fastest, make_layout(shape)) and row-major (the last mode fastest, make_layout_right(shape)).
struct LayoutLeft {};
struct LayoutRight {};
using GenColMajor = LayoutLeft;
using GenRowMajor = LayoutRight;
template <class S>
COTILE_HD COTILE_INLINE constexpr auto make_layout(const S& s, LayoutLeft) {
  return make_layout(s);
}
template <class S>
COTILE_HD COTILE_INLINE constexpr auto make_layout(const S& s, LayoutRight) {
  return make_layout_right(s);
}
// CuTe's spelling of a layout type: Layout<Shape, Stride>, Stride by default the compact
// column-major strides of Shape (make_layout(shape)). It is the type make_layout returns for
// arguments of those types: Layout<Shape<_2, _4>, Stride<_4, _1>> is
// decltype(make_layout(Shape<_2, _4>{}, Stride<_4, _1>{})); a default-constructed one has its
// dynamic leaves 0. Shape and stride must be congruent (make_layout's law, a compile error).
namespace detail {
template <class Shape, class Stride, bool Basis = has_basis<Stride>::value>
struct LayoutType {
  using L = Lifted<op::MakeLayoutSD, Kinds<Kind::kTuple, Kind::kTuple>, Shape, Stride>;
  static_assert(L::law_holds);
  using type = TypedLayout<L::layout>;
};
template <class Shape, class Stride>
struct LayoutType<Shape, Stride, true> {
  using type = BasisLayout<Shape, Stride>;
};
template <class Shape>
struct LayoutType<Shape, void, false> {
  using L = Lifted<op::MakeLayoutS, Kinds<Kind::kTuple>, Shape>;
  static_assert(L::law_holds);
  using type = TypedLayout<L::layout>;
};
}  // namespace detail
template <class Shape, class Stride = void>
using Layout = typename detail::LayoutType<Shape, Stride>::type;

template <class S, class O>
COTILE_HD COTILE_INLINE constexpr auto make_ordered_layout(const S& s, const O& o) {
  return lift<op::MakeOrdered, Kind::kTuple, Kind::kTuple>(s, o);
}

// --- accessors ------------------------------------------------------------------------------

template <class T>
COTILE_HD COTILE_INLINE constexpr auto size(const T& x) {
  return lift<op::Size, tuple_kind<T>>(x);
}
template <class T>
COTILE_HD COTILE_INLINE constexpr auto rank(const T& x) {
  return lift<op::Rank, tuple_kind<T>>(x);
}
template <class T>
COTILE_HD COTILE_INLINE constexpr auto depth(const T& x) {
  return lift<op::Depth, tuple_kind<T>>(x);
}
// size<I...>(x), rank<I...>(x): of mode I... of x's shape (CuTe's); x a layout, a tensor, a
// swizzled layout or an integer tuple.
template <int I0, int... Is, class T>
COTILE_HD COTILE_INLINE constexpr auto size(const T& x) {
  return size(shape<I0, Is...>(x));
}
template <int I0, int... Is, class T>
COTILE_HD COTILE_INLINE constexpr auto rank(const T& x) {
  return rank(shape<I0, Is...>(x));
}
template <class L>
COTILE_HD COTILE_INLINE constexpr auto cosize(const L& l) {
  return lift<op::Cosize, Kind::kLayout>(l);
}
template <int... Is, class T>
requires(!is_tuple_like_v<T> && !is_array_v<T>)  // a ct::tuple's or array's get: its element
    COTILE_HD COTILE_INLINE constexpr auto get(const T& x) {
  return lift<op::Get<Is...>, tuple_kind<T>>(x);
}
// The typed integer tuple Tuple<S> (shape(L), stride(L), compact_col_major(S), ...) read by the
// tuple algorithms as the ct::tuple of its elements get<0>(t), get<1>(t), ... (each Int<N>, a
// run-time integer or a Tuple), so that transform(shape(L), f), for_each(stride(L), f) work as
// in CuTe; tuple_size is its rank.
template <auto S>
struct TupleView<Tuple<S>> {
  static constexpr size_t rank = size_t(decltype(lift<op::Rank, Kind::kTuple>(std::declval<const Tuple<S>&>()))::value);
  COTILE_HD static constexpr auto of(const Tuple<S>& t) {
    return [&]<size_t... Is>(std::index_sequence<Is...>) { return make_tuple(get<int(Is)>(t)...); }
    (std::make_index_sequence<rank>{});
  }
};
template <auto S>
struct tuple_size<Tuple<S>> : std::integral_constant<size_t, TupleView<Tuple<S>>::rank> {};

// shape<I...>(L), stride<I...>(L): of the whole layout, or of mode I... . An integer tuple (or
// integer) is its own shape, as in CuTe: shape<I...>(t) = get<I...>(t).
template <int... Is, class L>
COTILE_HD COTILE_INLINE constexpr auto shape(const L& l) {
  if constexpr (!is_layout_v<L>) {
    if constexpr (sizeof...(Is) == 0) return l;
    else return get<Is...>(l);
  } else if constexpr (sizeof...(Is) == 0) {
    return lift<op::Shape, Kind::kLayout>(l);
  } else {
    return get<Is...>(lift<op::Shape, Kind::kLayout>(l));
  }
}
template <int... Is, class L>
COTILE_HD COTILE_INLINE constexpr auto stride(const L& l) {
  if constexpr (sizeof...(Is) == 0) return lift<op::Stride, Kind::kLayout>(l);
  else return get<Is...>(lift<op::Stride, Kind::kLayout>(l));
}
template <int... Is, class L>
COTILE_HD COTILE_INLINE constexpr auto layout(const L& l) {
  return get<Is...>(l);
}
template <int... Is, class L>
requires(!is_tuple_like_v<L>) COTILE_HD COTILE_INLINE constexpr auto select(const L& l) {
  return lift<op::Select<Is...>, Kind::kLayout>(l);
}
template <int B, int E, class L>
requires(!is_tuple_like_v<L>) COTILE_HD COTILE_INLINE constexpr auto take(const L& l) {
  return lift<op::Take<B, E>, Kind::kLayout>(l);
}
template <int B, int E, class L>
COTILE_HD COTILE_INLINE constexpr auto group(const L& l) {
  return lift<op::Group<B, E>, Kind::kLayout>(l);
}
template <int N, class L>
COTILE_HD COTILE_INLINE constexpr auto append(const L& l) {
  return lift<op::AppendN<N>, Kind::kLayout>(l);
}
template <class L, class X>
requires(!is_tuple_like_v<L>) COTILE_HD COTILE_INLINE constexpr auto append(const L& l, const X& x) {
  return lift<op::Append, Kind::kLayout, Kind::kLayout>(l, x);
}
template <int N, class T, class X>
COTILE_HD COTILE_INLINE constexpr auto replace(const T& t, const X& x) {
  return lift<op::Replace<N>, tuple_kind<T>, tuple_kind<T>>(t, x);
}
template <class T>
COTILE_HD COTILE_INLINE constexpr auto flatten(const T& x) {
  return lift<op::Flatten, tuple_kind<T>>(x);
}
template <class T>
COTILE_HD COTILE_INLINE constexpr auto product_each(const T& x) {
  return lift<op::ProductEach, Kind::kTuple>(x);
}
template <class T>
COTILE_HD COTILE_INLINE constexpr auto product(const T& x) {
  return lift<op::Product, Kind::kTuple>(x);
}

// --- algebra --------------------------------------------------------------------------------

template <class L>
COTILE_HD COTILE_INLINE constexpr auto coalesce(const L& l) {
  return lift<op::Coalesce, Kind::kLayout>(l);
}
template <class L, class P>
COTILE_HD COTILE_INLINE constexpr auto coalesce(const L& l, const P& p) {
  return lift<op::Coalesce, Kind::kLayout, Kind::kTuple>(l, p);
}
// The typed layer's run-time checks, on the host (and on the device with COTILE_DEVICE_CHECKS),
// never in constant evaluation: x's run-time values are compared one by one (`suspect`), and only
// when one is suspect does `replay` see them all, to decide on the engine's values and name them.
template <class X, class Suspect, class Replay>
COTILE_HD COTILE_INLINE constexpr void check_run_time_values([[maybe_unused]] const X& x,
                                                             [[maybe_unused]] const Suspect& suspect,
                                                             [[maybe_unused]] const Replay& replay) {
#if !defined(__CUDA_ARCH__) || defined(COTILE_DEVICE_CHECKS)
  constexpr int n = ArgOf<X>::slots;
  if constexpr (n > 0) {
    if (!__builtin_is_constant_evaluated()) {
      int64_t v[n] = {};
      ArgOf<X>::gather(x, v);
      for (int k = 0; k < n; ++k)
        if (suspect(v[k])) return replay(static_cast<const int64_t*>(v));
    }
  }
#endif
}
COTILE_HD constexpr bool is_zero_value(int64_t v) { return v == 0; }

// filter and filter_zeros of a layout with a run-time extent 0, an empty layout: the engine keeps
// that extent, so R stays empty (filter's law: R reaches the offsets L reaches, none). The typed
// result's modes are fixed at compile time, where the extent was taken as non-zero (as CuTe takes
// it): where that made its mode of stride _0 a _1, R would not be empty, and differs from the
// engine's result on the values, which refuses it (apply_lifted; known_equal marked the decision).
template <class L>
COTILE_HD COTILE_INLINE constexpr auto filter(const L& l) {
  return lift<op::Filter, Kind::kLayout>(l);
}
template <class L>
COTILE_HD COTILE_INLINE constexpr auto filter_zeros(const L& l) {
  return lift<op::FilterZeros, Kind::kLayout>(l);
}
template <class L>
COTILE_HD COTILE_INLINE constexpr auto zip(const L& l) {
  return lift<op::Zip, Kind::kLayout>(l);
}
template <class A, class B>
COTILE_HD COTILE_INLINE constexpr auto composition(const A& a, const B& b) {
  return lift<op::Composition, Kind::kLayout, tiler_kind<B>>(a, b);
}
template <class L>
COTILE_HD COTILE_INLINE constexpr auto complement(const L& l) {
  return lift<op::Complement, Kind::kLayout>(l);
}
template <class L, class T>
COTILE_HD COTILE_INLINE constexpr auto complement(const L& l, const T& t) {
  return lift<op::Complement, Kind::kLayout, Kind::kTuple>(l, t);
}
template <class L>
COTILE_HD COTILE_INLINE constexpr auto right_inverse(const L& l) {
  return lift<op::RightInverse, Kind::kLayout>(l);
}
#define COTILE_CT_TILER_FN(NAME, OP)                                    \
  template <class A, class B>                                           \
  COTILE_HD COTILE_INLINE constexpr auto NAME(const A& a, const B& b) { \
    return lift<op::OP, Kind::kLayout, tiler_kind<B>>(a, b);            \
  }
COTILE_CT_TILER_FN(logical_divide, LogicalDivide)
COTILE_CT_TILER_FN(zipped_divide, ZippedDivide)
COTILE_CT_TILER_FN(tiled_divide, TiledDivide)
COTILE_CT_TILER_FN(flat_divide, FlatDivide)
COTILE_CT_TILER_FN(logical_product, LogicalProduct)
COTILE_CT_TILER_FN(zipped_product, ZippedProduct)
COTILE_CT_TILER_FN(tiled_product, TiledProduct)
#undef COTILE_CT_TILER_FN
template <class A, class B>
COTILE_HD COTILE_INLINE constexpr auto blocked_product(const A& a, const B& b) {
  return lift<op::BlockedProduct, Kind::kLayout, Kind::kLayout>(a, b);
}
template <class A, class B>
COTILE_HD COTILE_INLINE constexpr auto raked_product(const A& a, const B& b) {
  return lift<op::RakedProduct, Kind::kLayout, Kind::kLayout>(a, b);
}
template <int N, class L>
COTILE_HD COTILE_INLINE constexpr auto upcast(const L& l) {
  return lift<op::Upcast<N>, Kind::kLayout>(l);
}
// max_alignment(L): the widest N (static) with L's offsets in aligned contiguous blocks of N, from
// its static parts (the engine's, algebra/cast.hpp); of a static integer, itself (CuTe's).
template <auto S>
COTILE_HD COTILE_INLINE constexpr auto max_alignment(const TypedLayout<S>& l) {
  return lift<op::MaxAlignment, Kind::kLayout>(l);
}
template <int64_t N>
COTILE_HD constexpr Int<N> max_alignment(Int<N>) {
  return {};
}
template <class T, T V>
COTILE_HD constexpr auto max_alignment(std::integral_constant<T, V> c) {
  return c;
}
template <int N, class L>
COTILE_HD COTILE_INLINE constexpr auto downcast(const L& l) {
  return lift<op::Downcast<N>, Kind::kLayout>(l);
}
template <class A, class B>
COTILE_HD COTILE_INLINE constexpr auto max_common_vector(const A& a, const B& b) {
  return lift<op::MaxCommonVector, Kind::kLayout, Kind::kLayout>(a, b);
}
template <class A, class B>
COTILE_HD COTILE_INLINE constexpr auto max_common_layout(const A& a, const B& b) {
  return lift<op::MaxCommonLayout, Kind::kLayout, Kind::kLayout>(a, b);
}
template <class A, class B>
COTILE_HD COTILE_INLINE constexpr auto shape_div(const A& a, const B& b) {
  return lift<op::ShapeDiv, Kind::kTuple, Kind::kTuple>(a, b);
}
template <class A, class B>
COTILE_HD COTILE_INLINE constexpr auto ceil_div(const A& a, const B& b) {
  return lift<op::CeilDiv, Kind::kTuple, Kind::kTuple>(a, b);
}
// The coordinate functions count in a shape's extents, which are >= 0: a static negative one is
// a compile error (op::Extents), a run-time one is refused on its value, on the host (and on the
// device with COTILE_DEVICE_CHECKS). Only a negative value builds the engine's tuple, for the
// message: the check costs a comparison a run-time extent.
template <class Op, class S>
COTILE_HD COTILE_INLINE constexpr void check_shape_extents(const S& s) {
  (void)lift<op::Extents<Op>, Kind::kTuple>(s);
  check_run_time_values(
      s, [](int64_t v) { return v < 0; },
      [](const int64_t* v) { check_extents(Op::name, ArgOf<S>::engine_tuple(nullptr, 0, v)); });
}
template <class C, class S>
COTILE_HD COTILE_INLINE constexpr auto idx2crd(const C& c, const S& s) {
  check_shape_extents<op::Idx2Crd>(s);
  return lift<op::Idx2Crd, Kind::kTuple, Kind::kTuple>(c, s);
}
// idx2crd(c, S, D) divides by the strides: a run-time 0 among them is refused on the host with the
// engine's message (its replay on the values), not the replay's bare "division by zero"; a static
// one where the shape is not 1 is a compile error.
template <class C, class S, class D>
COTILE_HD COTILE_INLINE constexpr void check_index_strides(const C& c, const S& s, const D& d) {
  check_run_time_values(d, is_zero_value, [&](const int64_t* vd) {
    int64_t vc[ArgOf<C>::slots > 0 ? ArgOf<C>::slots : 1] = {}, vs[ArgOf<S>::slots > 0 ? ArgOf<S>::slots : 1] = {};
    ArgOf<C>::gather(c, vc), ArgOf<S>::gather(s, vs);
    (void)cotile::idx2crd(ArgOf<C>::engine_tuple(nullptr, 0, vc), ArgOf<S>::engine_tuple(nullptr, 0, vs),
                          ArgOf<D>::engine_tuple(nullptr, 0, vd));
  });
}
template <class C, class S, class D>
COTILE_HD COTILE_INLINE constexpr auto idx2crd(const C& c, const S& s, const D& d) {
  check_shape_extents<op::Idx2Crd>(s);
  check_index_strides(c, s, d);
  return lift<op::Idx2Crd, Kind::kTuple, Kind::kTuple, Kind::kTuple>(c, s, d);
}
template <class C, class S, class D>
COTILE_HD COTILE_INLINE constexpr auto crd2idx(const C& c, const S& s, const D& d) {
  check_shape_extents<op::Crd2Idx>(s);
  return lift<op::Crd2Idx, Kind::kTuple, Kind::kTuple, Kind::kTuple>(c, s, d);
}
template <class A, class B>
COTILE_HD COTILE_INLINE constexpr auto elem_less(const A& a, const B& b) {
  return lift<op::ElemLess, Kind::kTuple, Kind::kTuple>(a, b);
}

// --- static queries -------------------------------------------------------------------------

// is_static<T>: decided by the type alone (CuTe's is_static). Like CuTe's, it looks through const
// and references, so that `is_static<decltype(x)>` of a `const&` parameter answers for the value's
// type (before, it said false there, and `if constexpr` silently took the dynamic branch).
namespace detail {
template <class T>
struct is_static_type : std::false_type {};
template <int64_t N>
struct is_static_type<Int<N>> : std::true_type {};
template <class T, T V>
struct is_static_type<std::integral_constant<T, V>> : std::true_type {};
template <auto S>
struct is_static_type<Tuple<S>> : std::bool_constant<S.slots == 0> {};
template <auto S>
struct is_static_type<TypedLayout<S>> : std::bool_constant<S.slots() == 0> {};
template <class... Ts>
struct is_static_type<Pack<Ts...>> : std::bool_constant<(is_static_type<std::remove_cvref_t<Ts>>::value && ...)> {};
}  // namespace detail
template <class T>
struct is_static : detail::is_static_type<std::remove_cvref_t<T>> {};
template <class T>
inline constexpr bool is_static_v = is_static<T>::value;

// --- printing (host): the engine's text ----------------------------------------------------

template <auto S>
inline std::string to_string(const TypedLayout<S>& l) {
  return ::cotile::to_string(engine(l));
}
template <auto S>
inline std::string to_string(const Tuple<S>& t) {
  return ::cotile::to_string(engine(t));
}
template <int64_t N>
inline std::string to_string(Int<N>) {
  return "_" + std::to_string(N);
}
// A run-time integer prints as its digits (CuTe's print of an int).
template <class T>
requires(std::is_integral_v<T> && !std::is_same_v<T, bool>) inline std::string to_string(T x) {
  return std::to_string(x);
}
template <class T>
inline void print(const T& x) {
  std::fputs(to_string(x).c_str(), stdout);
}

}  // namespace cotile::ct

#include "error.hpp"

namespace cotile::ct {

// The requirement "these leaves are static", with a message naming the first dynamic one:
//   "<what> must be static; stride at mode (0,0) is dynamic (int); <fix>"
// What and Fix are string literals given as template arguments (Message{"..."}).
namespace detail {
constexpr bool find_dynamic(const IntTuple& t, int* path, int& depth) {
  if (t.is_leaf()) return !t.value().is_static;
  for (int i = 0; i < t.rank(); ++i) {
    path[depth++] = i;
    if (find_dynamic(t.get(i), path, depth)) return true;
    --depth;
  }
  return false;
}
template <auto S, bool ShapesToo, Message What, Message Fix>
constexpr MessageBuilder dynamic_leaf_message() {
  MessageBuilder b;
  b.add(What.text).add(ShapesToo ? " must be static; " : " must have static strides; ");
  int path[16] = {};
  int depth = 0;
  const bool in_shape = ShapesToo && find_dynamic(expand(S.shape, nullptr, nullptr, 0), path, depth);
  if (!in_shape) {
    depth = 0;
    find_dynamic(expand(S.stride, nullptr, nullptr, 0), path, depth);
  }
  b.add(in_shape ? "shape" : "stride").add(" at mode (");
  for (int i = 0; i < depth; ++i) {
    if (i) b.add(",");
    b.add(long(path[i]));
  }
  return b.add(") is dynamic (int); ").add(Fix.text);
}
template <auto S, bool ShapesToo>
constexpr bool all_static() {
  return ::cotile::is_static(expand(S.stride, nullptr, nullptr, 0)) &&
         (!ShapesToo || ::cotile::is_static(expand(S.shape, nullptr, nullptr, 0)));
}
}  // namespace detail

// static_assert(require_static<L::spec, true, Message{"op: what"}, Message{"fix"}>()): fails with
// the message in the first error line when a required leaf is dynamic.
template <auto S, bool ShapesToo, Message What, Message Fix>
constexpr bool require_static() {
  if constexpr (detail::all_static<S, ShapesToo>()) {
    return true;
  } else {
    constexpr MessageBuilder b = detail::dynamic_leaf_message<S, ShapesToo, What, Fix>();
    return Require<false, to_message<b.n + 1>(b)>::value;
  }
}

// nullspace(L): the indices of L's domain that L sends to 0 through its static-_0-stride modes
// (the engine's, layout.hpp): L(K(i)) = 0.
template <class L>
COTILE_HD COTILE_INLINE constexpr auto nullspace(const L& l) {
  return lift<op::Nullspace, Kind::kLayout>(l);
}

// left_inverse and complement of rank > 1 need static strides (CuTe refuses too).
template <auto S>
COTILE_HD COTILE_INLINE constexpr auto left_inverse(const TypedLayout<S>& l) {
  static_assert(
      require_static<S, false, Message{"left_inverse: the layout"},
                     Message{"make the strides static Int<N> (the inverse's structure depends on their order)"}>());
  if constexpr (detail::all_static<S, false>()) return lift<op::LeftInverse, Kind::kLayout>(l);
  else return l;  // not reached: the requirement above is a compile error
}

}  // namespace cotile::ct
