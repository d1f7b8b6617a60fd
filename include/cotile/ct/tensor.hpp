// Typed tensors: an iterator (global/shared memory pointer, register array, or coordinates)
// and a typed layout. Slicing with '_' keeps modes and moves the iterator by the offset of the
// fixed ones; local_tile and local_partition select a tile and a thread's part of it.
#pragma once

#include <type_traits>

#include "layout.hpp"
#include "swizzle.hpp"
#include "tuple_algorithms.hpp"

namespace cotile::ct {

namespace op {
// slice(c, L) and its offset (slice.hpp); two lifts of the same engine function.
struct SliceLayout {
  constexpr EL operator()(const EL& l, const ETile& c) const { return slice_and_offset(c, l).layout; }
};
struct SliceOffset {
  constexpr EInt operator()(const EL& l, const ETile& c) const { return slice_and_offset(c, l).offset; }
};
}  // namespace op

// Pointers tagged with their memory space (documentation and overload sets for copies).
enum class Space { kGmem, kSmem };
template <class T, Space M>
struct tagged_ptr {
  T* ptr;
  using value_type = T;
  COTILE_HD constexpr T& operator[](int64_t i) const { return ptr[i]; }
  COTILE_HD constexpr tagged_ptr operator+(int64_t i) const { return {ptr + i}; }
  COTILE_HD constexpr T* get() const { return ptr; }
};
// CuTe's spellings: gmem_ptr<float*> (the parameter is the pointer type), make_gmem_ptr(p),
// make_gmem_ptr<T>(void*) (or const void*, or nullptr); likewise smem.
namespace detail {
template <class P, Space M>
struct space_ptr {
  static_assert(std::is_pointer_v<P>,
                "gmem_ptr<P> / smem_ptr<P>: P is a pointer type, as in CuTe (gmem_ptr<float*>, not gmem_ptr<float>)");
  using type = tagged_ptr<std::remove_pointer_t<P>, M>;
};
}  // namespace detail
template <class P>
using gmem_ptr = typename detail::space_ptr<P, Space::kGmem>::type;
template <class P>
using smem_ptr = typename detail::space_ptr<P, Space::kSmem>::type;
template <class T>
COTILE_HD constexpr gmem_ptr<T*> make_gmem_ptr(T* p) {
  return {p};
}
template <class T>
COTILE_HD constexpr gmem_ptr<T*> make_gmem_ptr(void* p) {
  return {static_cast<T*>(p)};
}
template <class T>
COTILE_HD constexpr gmem_ptr<const T*> make_gmem_ptr(const void* p) {
  return {static_cast<const T*>(p)};
}
template <class T>
COTILE_HD constexpr gmem_ptr<T*> make_gmem_ptr(std::nullptr_t) {
  return {nullptr};
}
template <class T>
COTILE_HD constexpr smem_ptr<T*> make_smem_ptr(T* p) {
  return {p};
}
template <class T>
COTILE_HD constexpr smem_ptr<T*> make_smem_ptr(void* p) {
  return {static_cast<T*>(p)};
}
template <class T>
COTILE_HD constexpr smem_ptr<const T*> make_smem_ptr(const void* p) {
  return {static_cast<const T*>(p)};
}
template <class T>
COTILE_HD constexpr smem_ptr<T*> make_smem_ptr(std::nullptr_t) {
  return {nullptr};
}

// CuTe's counting_iterator<T>: element i is base + i, a tensor over no memory whose elements are
// their own offsets (for tools and tests that ask where a partition starts: OffsetIter).
template <class T>
struct counting_iterator {
  T base{};
  using value_type = T;
  COTILE_HD constexpr T operator[](int64_t i) const { return T(base + i); }
  COTILE_HD constexpr T operator*() const { return base; }
  COTILE_HD constexpr counting_iterator operator+(int64_t i) const { return {T(base + i)}; }
};
using OffsetIter = counting_iterator<int64_t>;

// Registers: N values owned by the tensor (a static layout's cosize).
template <class T, int N>
struct ArrayEngine {
  T data[N] = {};
  using value_type = T;
};
template <class T, int N>
struct ArrayIter {
  ArrayEngine<T, N>* array;
  int64_t base = 0;
  using value_type = T;
  COTILE_HD constexpr T& operator[](int64_t i) const { return array->data[base + i]; }
  COTILE_HD constexpr ArrayIter operator+(int64_t i) const { return {array, base + i}; }
};

// Coordinates: element q of an identity tensor over shape S is idx2crd(q, S) (S checked when the
// tensor's layout was made, so not again on every element).
template <class Shape>
struct CoordIter {
  Shape shape;
  int64_t base = 0;
  COTILE_HD constexpr auto operator[](int64_t i) const {
    return lift<op::Idx2Crd, Kind::kTuple, Kind::kTuple>(base + i, shape);
  }
  COTILE_HD constexpr CoordIter operator+(int64_t i) const { return {shape, base + i}; }
};

template <class T>
struct has_underscore : std::false_type {};
template <>
struct has_underscore<Underscore> : std::true_type {};
template <class T, class... Ts>
struct has_underscore<Pack<T, Ts...>>
    : std::bool_constant<has_underscore<T>::value || (has_underscore<Ts>::value || ...)> {};

template <class Iter, class L, class Storage = void>
struct Tensor;
template <class T, class L, int N>
using RegisterTensor = Tensor<ArrayEngine<T, N>, L, void>;

template <class Iter, class L, class Storage>
struct Tensor {
  Iter iter;
  L layout_;

  COTILE_HD constexpr const L& layout() const { return layout_; }
  COTILE_HD constexpr const Iter& data() const { return iter; }

  // T(c): the element at coordinate c, or, when c holds '_', the sliced sub-tensor.
  template <class C>
  COTILE_HD COTILE_INLINE constexpr decltype(auto) operator()(const C& c) const {
    if constexpr (has_underscore<C>::value && is_composed_layout<L>::value) {
      // Sw o k o L sliced: the offset moves inside the swizzle (Sw o (k + off) o sub), the
      // iterator stays; static where k and off are.
      const auto sub = lift<op::SliceLayout, Kind::kLayout, Kind::kTile>(layout_.layout, c);
      const auto off = layout_.offset + lift<op::SliceOffset, Kind::kLayout, Kind::kTile>(layout_.layout, c);
      using Sub =
          ComposedLayout<decltype(layout_.swizzle), std::remove_cv_t<decltype(off)>, std::remove_cv_t<decltype(sub)>>;
      return Tensor<Iter, Sub>{iter, Sub{layout_.swizzle, off, sub}};
    } else if constexpr (has_underscore<C>::value) {
      const auto sub = lift<op::SliceLayout, Kind::kLayout, Kind::kTile>(layout_, c);
      const auto off = lift<op::SliceOffset, Kind::kLayout, Kind::kTile>(layout_, c);
      return Tensor<Iter, std::remove_cv_t<decltype(sub)>>{iter + int64_t(off), sub};
    } else {
      return iter[int64_t(layout_(c))];
    }
  }
  template <class C0, class C1, class... Cs>
  COTILE_HD COTILE_INLINE constexpr decltype(auto) operator()(const C0& c0, const C1& c1, const Cs&... cs) const {
    return (*this)(make_coord(c0, c1, cs...));
  }
  template <class I>
  COTILE_HD COTILE_INLINE constexpr decltype(auto) operator[](const I& i) const {
    return iter[int64_t(layout_(i))];
  }
};

// A register tensor owns its storage: the Tensor over an ArrayEngine (as in CuTe, one class
// template, so that `Tensor t = make_tensor<T>(layout);` deduces it).
template <class T, int N, class L>
struct Tensor<ArrayEngine<T, N>, L, void> {
  ArrayEngine<T, N> storage;
  L layout_;
  COTILE_HD constexpr const L& layout() const { return layout_; }
  template <class... Cs>
  COTILE_HD COTILE_INLINE constexpr T& operator()(const Cs&... cs) {
    return storage.data[int64_t(layout_(cs...))];
  }
  template <class... Cs>
  COTILE_HD COTILE_INLINE constexpr const T& operator()(const Cs&... cs) const {
    return storage.data[int64_t(layout_(cs...))];
  }
  template <class I>
  COTILE_HD COTILE_INLINE constexpr T& operator[](const I& i) {
    return storage.data[int64_t(layout_(i))];
  }
  template <class I>
  COTILE_HD COTILE_INLINE constexpr const T& operator[](const I& i) const {
    return storage.data[int64_t(layout_(i))];
  }
  COTILE_HD constexpr T* data() { return storage.data; }
  COTILE_HD constexpr const T* data() const { return storage.data; }
};

// make_tensor(it, layout), or make_tensor(it, shape): the shape's column-major layout.
template <class Iter, class L>
COTILE_HD constexpr auto make_tensor(Iter it, const L& l) {  // (by value: an array decays to its pointer)
  if constexpr (is_tuple_like_v<L> || is_static_int<L>::value || std::is_integral_v<L>) {
    return make_tensor(it, make_layout(l));
  } else {
    static_assert(is_layout_v<L> || is_composed_layout<L>::value,
                  "make_tensor(ptr, layout): the second argument must be a cotile::ct::Layout, a swizzled layout or "
                  "a shape");
    return Tensor<Iter, L>{it, l};
  }
}

// make_tensor<T>(layout): registers for a static layout (cosize(layout) values of T).
template <class T, class L>
COTILE_HD constexpr auto make_tensor(const L& l) {
  static_assert(
      require_static<L::spec, true, Message{"make_tensor<T>(layout): a register tensor's layout"},
                     Message{"its cosize is the number of registers: make every shape and stride an Int<N>"}>());
  if constexpr (detail::all_static<L::spec, true>()) {
    constexpr int64_t n = decltype(cosize(l))::value;
    return RegisterTensor<T, L, int(n)>{{}, l};
  } else {
    return RegisterTensor<T, L, 1>{{}, l};  // not reached: the requirement above is a compile error
  }
}

// make_identity_tensor(shape): element c is the coordinate c itself (for masks, qload.md §8.3).
template <class S>
COTILE_HD constexpr auto make_identity_tensor(const S& s) {
  return Tensor<CoordIter<S>, decltype(make_layout(s))>{CoordIter<S>{s, 0}, make_layout(s)};
}

// A tensor: anything with a layout() whose elements t(i) are indexed by the layout's 1-D index.
// It answers for its layout: shape, size, rank, layout (of the whole or of mode I...).
template <class Tn>
concept tensor_like = requires(const Tn& t) {
  t.layout();
}
&&!is_layout_v<Tn>;
template <int... Is, tensor_like T>
COTILE_HD COTILE_INLINE constexpr auto shape(const T& t) {
  return shape<Is...>(t.layout());
}
template <tensor_like T>
COTILE_HD COTILE_INLINE constexpr auto size(const T& t) {
  return size(t.layout());
}
template <tensor_like T>
COTILE_HD COTILE_INLINE constexpr auto rank(const T& t) {
  return rank(t.layout());
}
template <int... Is, tensor_like T>
COTILE_HD COTILE_INLINE constexpr auto layout(const T& t) {
  return layout<Is...>(t.layout());
}

// repeat<N>(_) as a pack (CuTe's repeat<N>(_)); a single '_' when N == 1.
template <size_t... Is>
COTILE_HD constexpr auto make_pack_repeat(std::index_sequence<Is...>) {
  return make_pack(((void)Is, _)...);
}
template <int N>
COTILE_HD constexpr auto repeat_(Underscore) {
  if constexpr (N == 1) return _;
  else return make_pack_repeat(std::make_index_sequence<N>{});
}

// append<N>(coord, _): pad a coordinate pack with '_' up to N modes.
template <class... Ts>
COTILE_HD constexpr auto append_underscore(const Pack<Ts...>& c) {
  return append(c, _);
}
template <int N, class... Ts>
COTILE_HD constexpr auto pad_coord(const Pack<Ts...>& c) {
  if constexpr (sizeof...(Ts) >= N) return c;
  else return pad_coord<N>(append_underscore(c));
}

// local_tile(tensor, tiler, coord): the tile at `coord` of zipped_divide(tensor, tiler), its
// tile modes unpacked (CuTe's inner partition).
template <class Iter, class L, class Tiler, class C>
COTILE_HD COTILE_INLINE constexpr auto local_tile(const Tensor<Iter, L>& t, const Tiler& tiler, const C& coord) {
  const auto z = zipped_divide(t.layout(), tiler);
  constexpr int R0 = decltype(rank(get<0>(z)))::value;
  constexpr int R1 = decltype(rank(get<1>(z)))::value;
  const Tensor<Iter, std::remove_cv_t<decltype(z)>> tz{t.iter, z};
  if constexpr (std::is_integral_v<C> || is_static_int<C>::value) return tz(make_coord(repeat_<R0>(_), coord));
  else return tz(make_coord(repeat_<R0>(_), pad_coord<R1>(coord)));
}

namespace op {
// The flat coordinate of index i in a layout: for each top-level mode, the colexicographic index
// of the hierarchical coordinate idx2crd(i, shape, stride) (CuTe's get_flat_coord).
struct FlatCoord {
  constexpr IntTuple operator()(const EL& l, const EInt& i) const {
    IntTuple r = IntTuple::tuple();
    for (int m = 0; m < l.rank(); ++m) r.push_back(int_tuple(idx_in_mode(i, l.get(m).shape, l.get(m).stride)));
    return r;
  }
};
}  // namespace op

template <class L, class Idx>
COTILE_HD COTILE_INLINE constexpr auto get_flat_coord(const L& l, const Idx& i) {
  return lift<op::FlatCoord, Kind::kLayout, Kind::kInt>(l, i);
}

// local_partition(tensor, thr_layout, i): thread i's elements when threads are laid out by
// thr_layout over each tile of shape(thr_layout) (CuTe's outer partition).
template <class Iter, class L, class ThrLayout, class Idx>
COTILE_HD COTILE_INLINE constexpr auto local_partition(const Tensor<Iter, L>& t, const ThrLayout& thr, const Idx& i) {
  const auto z = zipped_divide(t.layout(), product_each(shape(thr)));
  constexpr int R1 = decltype(rank(get<1>(z)))::value;
  return Tensor<Iter, std::remove_cv_t<decltype(z)>>{t.iter, z}(make_coord(get_flat_coord(thr, i), repeat_<R1>(_)));
}

// recast<U>(tensor): view the same memory as elements of type U (layout up/downcast by the
// size ratio, as CuTe's recast_layout).
template <class U, class Iter, class L>
COTILE_HD COTILE_INLINE constexpr auto recast(const Tensor<Iter, L>& t) {
  using T = typename Iter::value_type;
  constexpr int ratio_up = sizeof(U) >= sizeof(T) ? int(sizeof(U) / sizeof(T)) : 1;
  constexpr int ratio_down = sizeof(T) > sizeof(U) ? int(sizeof(T) / sizeof(U)) : 1;
  static_assert(sizeof(U) % sizeof(T) == 0 || sizeof(T) % sizeof(U) == 0,
                "recast: element sizes must divide each other");
  auto* p = reinterpret_cast<U*>(t.iter.get());
  if constexpr (ratio_up > 1) {
    const auto l = upcast<ratio_up>(t.layout());
    if constexpr (std::is_same_v<Iter, smem_ptr<T*>>) return make_tensor(make_smem_ptr(p), l);
    else return make_tensor(make_gmem_ptr(p), l);
  } else {
    const auto l = downcast<ratio_down>(t.layout());
    if constexpr (std::is_same_v<Iter, smem_ptr<T*>>) return make_tensor(make_smem_ptr(p), l);
    else return make_tensor(make_gmem_ptr(p), l);
  }
}

}  // namespace cotile::ct
