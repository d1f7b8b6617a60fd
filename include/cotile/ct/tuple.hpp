// CuTe's tuple: a heterogeneous tuple whose empty elements take no space.
//
// tuple<Ts...> holds one value of each type; an element whose type is empty and default
// constructible (a static integer Int<N>, '_', a tuple of them) is not stored at all: get<I>
// makes a fresh one. So a tuple of static integers is an empty type (sizeof 1), and
//     sizeof(tuple<_8, int>) == sizeof(int),   sizeof(tuple<tuple<int, _2>, int, int>) == 3 * sizeof(int),
// and every tuple is a standard-layout type (the stored elements are members of one chain of
// classes, never bases). get<I> returns a reference to a stored element (with the tuple's value
// category) and a value for an empty one, as CuTe's get does.
//
// Integer sequences are tuples of static integers: int_sequence<1, 2, 3> is tuple<_1, _2, _3>
// (std::integer_sequence<T, i...> is accepted wherever a tuple is read, as the tuple of
// std::integral_constant<T, i>...: tuple_algorithms.hpp).
//
// Laws (tuple_test.cpp): get<I>(make_tuple(x_0, ..., x_n)) == x_I, tuple_size_v == n + 1;
// sizeof(tuple<Ts...>) == sizeof of the tuple of its non-empty elements.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "cotile/config.hpp"
#include "cotile/int_tuple.hpp"
#include "cotile/layout.hpp"
#include "cotile/tile.hpp"
#include "array.hpp"
#include "integer.hpp"

namespace cotile::ct {

template <class... Ts>
struct tuple;

namespace detail {

// pack_element_t<I, Ts...>: the I-th type of a pack, by overload resolution over indexed bases
// (no recursion, and no <tuple> in every file that includes the typed layer).
template <size_t I, class T>
struct IndexedType {
  using type = T;
};
template <class Seq, class... Ts>
struct IndexedTypes;
template <size_t... Is, class... Ts>
struct IndexedTypes<std::index_sequence<Is...>, Ts...> : IndexedType<Is, Ts>... {};
template <size_t I, class T>
IndexedType<I, T> pick_indexed(const IndexedType<I, T>&);  // never defined: decltype only
template <size_t I, class... Ts>
using pack_element_t =
    typename decltype(pick_indexed<I>(std::declval<IndexedTypes<std::index_sequence_for<Ts...>, Ts...>>()))::type;

// Whether an element of type T is left out of the storage (made on demand by get).
template <class T>
inline constexpr bool kUnstored = std::is_empty_v<T>&& std::is_default_constructible_v<T>;

// The storage of elements Ts... : Store<Ts...> keeps the first element when it is stored and the
// storage of the rest when any of it is, each as a member.
template <bool KeepFirst, bool KeepRest, class... Ts>
struct StoreOf;
template <class... Ts>
struct StoreSelect;
template <>
struct StoreSelect<> {
  using type = StoreOf<false, false>;
};
template <class T, class... Ts>
struct StoreSelect<T, Ts...> {
  using type = StoreOf<!kUnstored<T>, !(kUnstored<Ts> && ...), T, Ts...>;
};
template <class... Ts>
using Store = typename StoreSelect<Ts...>::type;

template <>
struct StoreOf<false, false> {
  constexpr StoreOf() = default;
};
template <class T, class... Ts>
struct StoreOf<false, false, T, Ts...> {  // nothing stored
  constexpr StoreOf() = default;
  template <class U, class... Us>
  COTILE_HD constexpr StoreOf(U&&, Us&&...) {}
};
template <class T, class... Ts>
struct StoreOf<true, false, T, Ts...> {  // only the first
  T first{};
  constexpr StoreOf() = default;
  template <class U, class... Us>
  COTILE_HD constexpr StoreOf(U&& x, Us&&...) : first(std::forward<U>(x)) {}
};
template <class T, class... Ts>
struct StoreOf<false, true, T, Ts...> {  // only (some of) the rest
  Store<Ts...> rest{};
  constexpr StoreOf() = default;
  template <class U, class... Us>
  COTILE_HD constexpr StoreOf(U&&, Us&&... xs) : rest(std::forward<Us>(xs)...) {}
};
template <class T, class... Ts>
struct StoreOf<true, true, T, Ts...> {  // both
  T first{};
  Store<Ts...> rest{};
  constexpr StoreOf() = default;
  template <class U, class... Us>
  COTILE_HD constexpr StoreOf(U&& x, Us&&... xs) : first(std::forward<U>(x)), rest(std::forward<Us>(xs)...) {}
};

// Element I of a storage: a reference to it (S is the storage with the tuple's constness and
// value category), or a fresh value when it is not stored.
template <size_t I, class S, class T, class... Ts>
COTILE_HD constexpr decltype(auto) store_get(S&& s) {
  using Plain = std::remove_cvref_t<S>;
  if constexpr (I == 0) {
    if constexpr (kUnstored<T>) return T{};
    else return (std::forward<S>(s).first);
  } else {
    if constexpr ((kUnstored<Ts> && ...)) {
      return pack_element_t<I - 1, Ts...>{};
    } else {
      static_assert(std::is_same_v<Plain, Store<T, Ts...>>);
      return store_get<I - 1, decltype((std::forward<S>(s).rest)), Ts...>(std::forward<S>(s).rest);
    }
  }
}

}  // namespace detail

template <class... Ts>
struct tuple : detail::Store<Ts...> {
  using Base = detail::Store<Ts...>;
  // Every element value-initialized (a stored integer is 0), usable in constant expressions.
  constexpr tuple() = default;
  // One value per element, each converted to its element's type.
  template <class... Us, std::enable_if_t<sizeof...(Us) == sizeof...(Ts) && (sizeof...(Ts) > 0) &&
                                              (std::is_constructible_v<Ts, Us&&> && ...),
                                          int> = 0>
  COTILE_HD constexpr tuple(Us&&... xs) : Base(Ts(std::forward<Us>(xs))...) {}
};
template <class... Us>
tuple(Us...) -> tuple<Us...>;

// --- traits ---------------------------------------------------------------------------------

template <class T>
struct is_tuple : std::false_type {};
template <class... Ts>
struct is_tuple<tuple<Ts...>> : std::true_type {};
template <class T>
inline constexpr bool is_tuple_v = is_tuple<std::remove_cvref_t<T>>::value;
// What the tuple algorithms read as a tuple: a ct::tuple or a std::integer_sequence.
template <class T>
struct is_tuple_like : is_tuple<T> {};
template <class T, T... Is>
struct is_tuple_like<std::integer_sequence<T, Is...>> : std::true_type {};
template <class T>
inline constexpr bool is_tuple_like_v = is_tuple_like<std::remove_cvref_t<T>>::value;
// A type the tuple algorithms read as the ct::tuple TupleView<T>::of(t) (the typed integer tuple
// Tuple<S> that lifted operations return: layout.hpp); no view by default.
template <class T>
struct TupleView {};

// Of a ct::tuple or an integer sequence; of any other type, std::tuple_size's answer (std::tuple,
// std::pair, std::array), as CuTe's tuple_size does.
template <class T>
struct tuple_size : std::tuple_size<T> {};
template <class... Ts>
struct tuple_size<tuple<Ts...>> : std::integral_constant<size_t, sizeof...(Ts)> {};
template <class T, T... Is>
struct tuple_size<std::integer_sequence<T, Is...>> : std::integral_constant<size_t, sizeof...(Is)> {};
template <class T, size_t N>
struct tuple_size<array<T, N>> : std::integral_constant<size_t, N> {};
template <class T>
struct tuple_size<const T> : tuple_size<T> {};
template <class T>
inline constexpr size_t tuple_size_v = tuple_size<std::remove_cvref_t<T>>::value;

template <size_t I, class T>
struct tuple_element;
template <size_t I, class... Ts>
struct tuple_element<I, tuple<Ts...>> {
  using type = detail::pack_element_t<I, Ts...>;
};
template <size_t I, class T, size_t N>
struct tuple_element<I, array<T, N>> {
  using type = T;
};
template <size_t I, class T>
struct tuple_element<I, const T> {
  using type = const typename tuple_element<I, T>::type;
};
template <size_t I, class T>
using tuple_element_t = typename tuple_element<I, T>::type;

// --- get ------------------------------------------------------------------------------------

// get<I>(t): element I (a reference to it, or a value when it is not stored); get<I, J, ...>(t)
// = get<J, ...>(get<I>(t)).
template <size_t I, size_t... Is, class... Ts>
COTILE_HD constexpr decltype(auto) get(tuple<Ts...>& t) {
  static_assert(I < sizeof...(Ts), "get<I>: I is past the tuple's last element");
  if constexpr (sizeof...(Is) == 0) return detail::store_get<I, detail::Store<Ts...>&, Ts...>(t);
  else return get<Is...>(detail::store_get<I, detail::Store<Ts...>&, Ts...>(t));
}
template <size_t I, size_t... Is, class... Ts>
COTILE_HD constexpr decltype(auto) get(const tuple<Ts...>& t) {
  static_assert(I < sizeof...(Ts), "get<I>: I is past the tuple's last element");
  if constexpr (sizeof...(Is) == 0) return detail::store_get<I, const detail::Store<Ts...>&, Ts...>(t);
  else return get<Is...>(detail::store_get<I, const detail::Store<Ts...>&, Ts...>(t));
}
template <size_t I, size_t... Is, class... Ts>
COTILE_HD constexpr decltype(auto) get(tuple<Ts...>&& t) {
  static_assert(I < sizeof...(Ts), "get<I>: I is past the tuple's last element");
  if constexpr (sizeof...(Is) == 0) return detail::store_get<I, detail::Store<Ts...>&&, Ts...>(std::move(t));
  else return get<Is...>(detail::store_get<I, detail::Store<Ts...>&&, Ts...>(std::move(t)));
}

// CuTe's names for the tuples a layout is made of.
template <class... Ts>
using Shape = tuple<Ts...>;
template <class... Ts>
using Stride = tuple<Ts...>;
template <class... Ts>
using Coord = tuple<Ts...>;
template <class... Ts>
using Step = tuple<Ts...>;
template <class... Ts>
using Tile = tuple<Ts...>;  // of tilers: layouts, integers, '_' (make_tile)

// --- making tuples --------------------------------------------------------------------------

// (Not of the engine's run-time values: make_tuple(IntTuple...) is the engine's, cotile::make_tuple.)
namespace detail {
template <class T>
inline constexpr bool kEngineValue = std::is_same_v<T, ::cotile::IntTuple> || std::is_same_v<T, ::cotile::Int> ||
                                     std::is_same_v<T, ::cotile::Layout> || std::is_same_v<T, ::cotile::Tile>;
}  // namespace detail
template <class... Xs>
requires(!(detail::kEngineValue<std::decay_t<Xs>> || ...)) COTILE_HD
    constexpr tuple<std::decay_t<Xs>...> make_tuple(Xs&&... xs) {
  return tuple<std::decay_t<Xs>...>(std::forward<Xs>(xs)...);
}

// Integer sequences as tuples of static integers.
template <int64_t... Is>
using int_sequence = tuple<Int<Is>...>;
template <int64_t... Is>
using seq = int_sequence<Is...>;
namespace detail {
template <int64_t Begin, class Seq>
struct RangeOf;
template <int64_t Begin, size_t... Is>
struct RangeOf<Begin, std::index_sequence<Is...>> {
  using type = int_sequence<(Begin + int64_t(Is))...>;
};
}  // namespace detail
// make_int_sequence<N> = int_sequence<0, ..., N - 1>; make_int_range<B, E> = int_sequence<B, ..., E - 1>.
template <int64_t N>
using make_int_sequence = typename detail::RangeOf<0, std::make_index_sequence<size_t(N)>>::type;
template <int64_t N>
using make_seq = make_int_sequence<N>;
template <int64_t Begin, int64_t End>
using make_int_range = typename detail::RangeOf<Begin, std::make_index_sequence<size_t(End - Begin)>>::type;
// CuTe's names of the standard integer sequences and constants: make_integer_sequence<T, N> read as
// a tuple gives std::integral_constant<T, 0> ... <T, N - 1>, static integers of type T.
using std::index_sequence;
using std::integer_sequence;
using std::integral_constant;
using std::make_index_sequence;
using std::make_integer_sequence;

}  // namespace cotile::ct

// Structured bindings: auto [a, b] = t.
template <class... Ts>
struct std::tuple_size<cotile::ct::tuple<Ts...>> : std::integral_constant<size_t, sizeof...(Ts)> {};
template <size_t I, class... Ts>
struct std::tuple_element<I, cotile::ct::tuple<Ts...>> {
  using type = cotile::ct::detail::pack_element_t<I, Ts...>;
};
