// CuTe's tuple algorithms on ct::tuple (and std::integer_sequence<T, i...>, read as the tuple of
// static integers std::integral_constant<T, i>...). With t = (t_0, ..., t_{n-1}):
//     apply(t, f)                = f(t_0, ..., t_{n-1})
//     transform(t, f)            = (f(t_0), ..., f(t_{n-1}));  transform(t, u, f) = (f(t_i, u_i))_i; ...
//     transform_apply(t.., f, g) = g(f(t_0, u_0, ..), ..., f(t_{n-1}, u_{n-1}, ..))
//     for_each(t, f)             calls f(t_0), ..., f(t_{n-1}) in order
//     fold(t, x, f)              = f(... f(f(x, t_0), t_1) ..., t_{n-1});  fold_first(t, f) = fold(t_1.., t_0, f)
//     find_if(t, p)              = Int<the first i with p(t_i) true (statically)>, or Int<n>
//     find<X>(t)                 = Int<the first i whose type is X>, or Int<n>;  find(t, x) = find_if(t, == x)
//     reverse(t) = (t_{n-1}, ..., t_0);  append(t, x), prepend(t, x), tuple_cat(t, u, ...),
//     take<B, E>(t) = (t_B, ..., t_{E-1}),  select<I...>(t) = (t_I...),  front(t) = t_0,  back(t) = t_{n-1}
//     any_of / all_of / none_of(t, p): static (std::bool_constant) when every p(t_i) is static;
//     tuple_repeat<N>(x), repeat<N>(x), repeat_like(t, x), wrap, unwrap, insert<N>(t, x),
//     replace_front/back(t, x);  for_each_leaf, transform_leaf, flatten_to_tuple (over leaves);
//     filter_tuple(t.., f) = tuple_cat(f(t_i, ..)...);  iscan, escan (scans);  unflatten(flat, profile);
//     make_int_tuple<N>, fill_int_tuple_from, make_int_tuple_from, to_array (to and from plain values)
// Each is one expansion over an index sequence (the leaf ones one per level of nesting): no
// recursion along a tuple in the instantiation depth, no storage but the result's.
#pragma once

#include <type_traits>
#include <utility>

#include "tuple.hpp"

namespace cotile::ct {

namespace detail {
// A tuple as the algorithms read it: a ct::tuple as it is, an integer sequence of T as its
// static integers std::integral_constant<T, i> (as CuTe's integer sequences are read).
// (A type with a TupleView, such as Tuple<S>, as the ct::tuple of its elements.)
template <class T>
concept Viewed = requires(const T& t) {
  TupleView<T>::of(t);
};
template <class T>
COTILE_HD constexpr decltype(auto) tuple_of(T&& t) {
  if constexpr (Viewed<std::remove_cvref_t<T>>) return TupleView<std::remove_cvref_t<T>>::of(t);
  else return std::forward<T>(t);
}
template <class T, T... Is>
COTILE_HD constexpr auto tuple_of(std::integer_sequence<T, Is...>) {
  return tuple<std::integral_constant<T, Is>...>{};
}
template <class T>
using TupleOf = std::remove_cvref_t<decltype(tuple_of(std::declval<T>()))>;
template <class T>
inline constexpr size_t kSize = tuple_size_v<TupleOf<T>>;
template <class T>
inline constexpr bool kTupleLike = is_tuple_like_v<T> || Viewed<std::remove_cvref_t<T>>;

template <class T>
struct StaticBool : std::false_type {};
template <class T, T V>
struct StaticBool<std::integral_constant<T, V>> : std::true_type {};
template <int64_t N>
struct StaticBool<Int<N>> : std::true_type {};
template <class R>
inline constexpr bool kStaticBool = StaticBool<std::remove_cvref_t<R>>::value;
}  // namespace detail

template <class T, class F>
COTILE_HD constexpr decltype(auto) apply(T&& t, F&& f) {
  auto&& u = detail::tuple_of(std::forward<T>(t));
  return [&]<size_t... Is>(std::index_sequence<Is...>)->decltype(auto) { return f(get<Is>(u)...); }
  (std::make_index_sequence<detail::kSize<T>>{});
}

// zip_with(f, g, t, u, ..) = g(f(t_0, u_0, ..), ..., f(t_{n-1}, u_{n-1}, ..)) over equally long
// tuples: the one expansion behind transform and transform_apply of any number of tuples.
namespace detail {
template <class T, class... Ts>
inline constexpr bool kSameSize = ((kSize<T> == kSize<Ts>)&&...);
template <class F, class G, class T, class... Ts>
COTILE_HD constexpr decltype(auto) zip_with(F& f, G& g, const T& t, const Ts&... ts) {
  // f on element I of every tuple (I is not a pack here, so the tuples expand alone).
  const auto at = [&]<size_t I>(std::integral_constant<size_t, I>) -> decltype(auto) {
    return f(get<I>(tuple_of(t)), get<I>(tuple_of(ts))...);
  };
  return [&]<size_t... Is>(std::index_sequence<Is...>)->decltype(auto) {
    return g(at(std::integral_constant<size_t, Is>{})...);
  }
  (std::make_index_sequence<kSize<T>>{});
}
// g of zip_with for transform: the results as a tuple.
struct MakeTuple {
  template <class... Xs>
  COTILE_HD constexpr auto operator()(Xs&&... xs) const {
    return make_tuple(std::forward<Xs>(xs)...);
  }
};
// transform(t.., f): on tuples zip_with into a tuple; on non-tuples, f(t..).
template <class F, class T, class... Ts>
COTILE_HD constexpr auto transform_each(F& f, const T& t, const Ts&... ts) {
  if constexpr (kTupleLike<T>) {
    static_assert(kSameSize<T, Ts...>, "transform: the tuples differ in length");
    MakeTuple g;
    return zip_with(f, g, t, ts...);
  } else {
    return f(t, ts...);
  }
}
}  // namespace detail

// transform(t.., f): element-wise over equally long tuples; on a non-tuple, f(t..).
template <class T, class F>
COTILE_HD constexpr auto transform(const T& t, F&& f) {
  return detail::transform_each(f, t);
}
template <class T0, class T1, class F>
COTILE_HD constexpr auto transform(const T0& t0, const T1& t1, F&& f) {
  return detail::transform_each(f, t0, t1);
}
template <class T0, class T1, class T2, class F>
COTILE_HD constexpr auto transform(const T0& t0, const T1& t1, const T2& t2, F&& f) {
  return detail::transform_each(f, t0, t1, t2);
}

// transform_apply(t.., f, g) = g(f(t_0, ..), ..., f(t_{n-1}, ..)).
template <class T, class F, class G>
COTILE_HD constexpr decltype(auto) transform_apply(const T& t, F&& f, G&& g) {
  return detail::zip_with(f, g, t);
}
template <class T0, class T1, class F, class G>
COTILE_HD constexpr decltype(auto) transform_apply(const T0& t0, const T1& t1, F&& f, G&& g) {
  static_assert(detail::kSameSize<T0, T1>, "transform_apply: the tuples differ in length");
  return detail::zip_with(f, g, t0, t1);
}
template <class T0, class T1, class T2, class F, class G>
COTILE_HD constexpr decltype(auto) transform_apply(const T0& t0, const T1& t1, const T2& t2, F&& f, G&& g) {
  static_assert(detail::kSameSize<T0, T1, T2>, "transform_apply: the tuples differ in length");
  return detail::zip_with(f, g, t0, t1, t2);
}

// filter_tuple(t.., f) = tuple_cat(f(t_0, ..), ..., f(t_{n-1}, ..)): each f returns a tuple of the
// elements to keep (tuple<>{} for none).
namespace detail {
struct TupleCat {
  template <class... Xs>
  COTILE_HD constexpr auto operator()(const Xs&... xs) const;
};
}  // namespace detail
template <class T, class F>
COTILE_HD constexpr auto filter_tuple(const T& t, F&& f) {
  detail::TupleCat g;
  return detail::zip_with(f, g, t);
}
template <class T0, class T1, class F>
COTILE_HD constexpr auto filter_tuple(const T0& t0, const T1& t1, F&& f) {
  static_assert(detail::kSameSize<T0, T1>, "filter_tuple: the tuples differ in length");
  detail::TupleCat g;
  return detail::zip_with(f, g, t0, t1);
}

// for_each(t, f): f on each element in order (on a non-tuple, f(t)).
template <class T, class F>
COTILE_HD constexpr void for_each(T&& t, F&& f) {
  if constexpr (detail::kTupleLike<T>) {
    auto&& u = detail::tuple_of(std::forward<T>(t));
    [&]<size_t... Is>(std::index_sequence<Is...>) { (f(get<Is>(u)), ...); }
    (std::make_index_sequence<detail::kSize<T>>{});
  } else {
    f(t);
  }
}

// fold(t, x, f): the left fold; each step's type may differ (static sums stay static).
namespace detail {
template <size_t I, size_t N, class U, class X, class F>
COTILE_HD constexpr auto fold_from(const U& u, X&& x, F& f) {
  if constexpr (I == N) return std::forward<X>(x);
  else return fold_from<I + 1, N>(u, f(std::forward<X>(x), get<I>(u)), f);
}
}  // namespace detail
template <class T, class X, class F>
COTILE_HD constexpr auto fold(const T& t, X&& x, F&& f) {
  return detail::fold_from<0, detail::kSize<T>>(detail::tuple_of(t), std::forward<X>(x), f);
}
template <class T, class F>
COTILE_HD constexpr auto fold_first(const T& t, F&& f) {
  static_assert(detail::kSize<T> > 0, "fold_first: the tuple is empty");
  const auto& u = detail::tuple_of(t);
  return detail::fold_from<1, detail::kSize<T>>(u, get<0>(u), f);
}

// find_if(t, p): the index of the first element for which p is true, as a static integer (p must
// answer statically: std::bool_constant or a static integer), or the length when none is.
namespace detail {
template <class P, class U, size_t... Is>
constexpr size_t first_true(std::index_sequence<Is...>) {
  static_assert((kStaticBool<decltype(std::declval<P&>()(get<Is>(std::declval<const U&>())))> && ...),
                "find_if: the predicate must answer statically (std::bool_constant or a static integer)");
  constexpr bool hit[] = {
      bool(std::remove_cvref_t<decltype(std::declval<P&>()(get<Is>(std::declval<const U&>())))>::value)..., true};
  size_t i = 0;
  while (!hit[i]) ++i;
  return i;
}
template <class X, class U, size_t... Is>
constexpr size_t first_of_type(std::index_sequence<Is...>) {
  constexpr bool hit[] = {std::is_same_v<X, tuple_element_t<Is, U>>..., true};
  size_t i = 0;
  while (!hit[i]) ++i;
  return i;
}
}  // namespace detail
template <class T, class P>
COTILE_HD constexpr auto find_if(const T&, P&&) {
  using U = detail::TupleOf<T>;
  return Int<int64_t(
      detail::first_true<std::remove_reference_t<P>, U>(std::make_index_sequence<detail::kSize<T>>{}))>{};
}
// find<X>(t): the index of the first element of type X (or the length).
template <class X, class T>
COTILE_HD constexpr auto find(const T&) {
  using U = detail::TupleOf<T>;
  return Int<int64_t(detail::first_of_type<X, U>(std::make_index_sequence<detail::kSize<T>>{}))>{};
}
// find(t, x): the index of the first element equal to x, or the length (the comparisons must be
// static: a static x and static elements before the hit).
template <class T, class X>
COTILE_HD constexpr auto find(const T& t, const X& x) {
  return find_if(t, [&x](const auto& v) { return v == x; });
}

// any_of / all_of / none_of(t, p): std::bool_constant when p answers statically for every
// element, else bool (p is called in order, up to the first element that decides).
namespace detail {
enum class Quantifier { kAll, kAny, kNone };
template <Quantifier Q, class T, class P>
COTILE_HD constexpr auto quantify(const T& t, P& p) {
  const auto& u = tuple_of(t);
  return [&]<size_t... Is>(std::index_sequence<Is...>) {
    if constexpr ((kStaticBool<decltype(p(get<Is>(u)))> && ...)) {
      constexpr bool all = (bool(std::remove_cvref_t<decltype(p(get<Is>(u)))>::value) && ...);
      constexpr bool any = (bool(std::remove_cvref_t<decltype(p(get<Is>(u)))>::value) || ...);
      constexpr bool answer = Q == Quantifier::kAll ? all : Q == Quantifier::kAny ? any : !any;
      return std::bool_constant<answer>{};
    } else if constexpr (Q == Quantifier::kAll) {
      return (bool(p(get<Is>(u))) && ...);
    } else {
      const bool any = (bool(p(get<Is>(u))) || ...);
      return Q == Quantifier::kAny ? any : !any;
    }
  }
  (std::make_index_sequence<kSize<T>>{});
}
}  // namespace detail
template <class T, class P>
COTILE_HD constexpr auto all_of(const T& t, P&& p) {
  return detail::quantify<detail::Quantifier::kAll>(t, p);
}
template <class T, class P>
COTILE_HD constexpr auto any_of(const T& t, P&& p) {
  return detail::quantify<detail::Quantifier::kAny>(t, p);
}
template <class T, class P>
COTILE_HD constexpr auto none_of(const T& t, P&& p) {
  return detail::quantify<detail::Quantifier::kNone>(t, p);
}

// --- rearranging ----------------------------------------------------------------------------

// select<I...>(t) = (t_I...);  take<B, E>(t) = (t_B, ..., t_{E-1}).
template <size_t... Is, class T>
requires detail::kTupleLike<T> COTILE_HD constexpr auto select(const T& t) {
  const auto& u = detail::tuple_of(t);
  return make_tuple(get<Is>(u)...);
}
template <size_t B, size_t E, class T>
requires detail::kTupleLike<T> COTILE_HD constexpr auto take(const T& t) {
  static_assert(B <= E && E <= detail::kSize<T>, "take<B, E>: needs B <= E <= the tuple's length");
  const auto& u = detail::tuple_of(t);
  return [&]<size_t... Is>(std::index_sequence<Is...>) { return make_tuple(get<B + Is>(u)...); }
  (std::make_index_sequence<E - B>{});
}
template <class T>
requires detail::kTupleLike<T> COTILE_HD constexpr auto reverse(const T& t) {
  constexpr size_t n = detail::kSize<T>;
  const auto& u = detail::tuple_of(t);
  return [&]<size_t... Is>(std::index_sequence<Is...>) { return make_tuple(get<n - 1 - Is>(u)...); }
  (std::make_index_sequence<n>{});
}
template <class T>
requires detail::kTupleLike<T> COTILE_HD constexpr decltype(auto) front(const T& t) {
  return get<0>(detail::tuple_of(t));
}
template <class T>
requires detail::kTupleLike<T> COTILE_HD constexpr decltype(auto) back(const T& t) {
  static_assert(detail::kSize<T> > 0, "back: the tuple is empty");
  return get<detail::kSize<T> - 1>(detail::tuple_of(t));
}

// tuple_cat(t, u, ...): the elements of t, then of u, ...
template <class... Ts>
COTILE_HD constexpr auto tuple_cat(const Ts&... ts) {
  if constexpr (sizeof...(Ts) == 0) {
    return tuple<>{};
  } else if constexpr (sizeof...(Ts) == 1) {
    return transform(ts..., [](const auto& x) { return x; });
  } else {
    return [](const auto& a, const auto& b, const auto&... rest) {
      const auto& ua = detail::tuple_of(a);
      const auto& ub = detail::tuple_of(b);
      const auto ab = [&]<size_t... Is, size_t... Js>(std::index_sequence<Is...>, std::index_sequence<Js...>) {
        return make_tuple(get<Is>(ua)..., get<Js>(ub)...);
      }
      (std::make_index_sequence<detail::kSize<decltype(a)>>{}, std::make_index_sequence<detail::kSize<decltype(b)>>{});
      if constexpr (sizeof...(rest) == 0) return ab;
      else return tuple_cat(ab, rest...);
    }(ts...);
  }
}
template <class... Xs>
COTILE_HD constexpr auto detail::TupleCat::operator()(const Xs&... xs) const {
  return tuple_cat(xs...);
}
// append(t, x) = (t_0, ..., t_{n-1}, x);  prepend(t, x) = (x, t_0, ..., t_{n-1}).
template <class T, class X>
requires detail::kTupleLike<T> COTILE_HD constexpr auto append(const T& t, const X& x) {
  return tuple_cat(t, make_tuple(x));
}
template <class T, class X>
requires detail::kTupleLike<T> COTILE_HD constexpr auto prepend(const T& t, const X& x) {
  return tuple_cat(make_tuple(x), t);
}

// --- building and restructuring ---------------------------------------------------------------

// tuple_repeat<N>(x) = (x, ..., x), N times;  repeat<N>(x) the same, but x itself for N == 1.
template <size_t N, class X>
COTILE_HD constexpr auto tuple_repeat(const X& x) {
  return [&]<size_t... Is>(std::index_sequence<Is...>) { return make_tuple(((void)Is, x)...); }
  (std::make_index_sequence<N>{});
}
template <size_t N, class X>
COTILE_HD constexpr auto repeat(const X& x) {
  if constexpr (N == 1) return x;
  else return tuple_repeat<N>(x);
}
// repeat_like(t, x): t's nesting with x at every leaf (e.g. repeat_like(shape, _) slices all).
template <class T, class X>
COTILE_HD constexpr auto repeat_like(const T& t, const X& x) {
  if constexpr (detail::kTupleLike<T>) return transform(t, [&x](const auto& a) { return repeat_like(a, x); });
  else return x;
}
// wrap(x) = (x) for a non-tuple, x for a tuple;  unwrap((x)) = unwrap(x), anything else unchanged.
template <class T>
COTILE_HD constexpr auto wrap(const T& t) {
  if constexpr (detail::kTupleLike<T>) return t;
  else return make_tuple(t);
}
template <class T>
COTILE_HD constexpr auto unwrap(const T& t) {
  if constexpr (detail::kTupleLike<T>) {
    if constexpr (detail::kSize<T> == 1) return unwrap(get<0>(detail::tuple_of(t)));
    else return t;
  } else {
    return t;
  }
}
// insert<N>(t, x) = (t_0, ..., t_{N-1}, x, t_N, ...);  replace_front(t, x), replace_back(t, x):
// t with its first / last element x (x itself for a non-tuple t).
template <size_t N, class T, class X>
requires detail::kTupleLike<T> COTILE_HD constexpr auto insert(const T& t, const X& x) {
  static_assert(N <= detail::kSize<T>, "insert<N>: N is past the tuple's end");
  return tuple_cat(take<0, N>(t), make_tuple(x), take<N, detail::kSize<T>>(t));
}
template <class T, class X>
COTILE_HD constexpr auto replace_front(const T& t, const X& x) {
  if constexpr (detail::kTupleLike<T>) {
    static_assert(detail::kSize<T> > 0, "replace_front: the tuple is empty");
    return tuple_cat(make_tuple(x), take<1, detail::kSize<T>>(t));
  } else {
    return x;
  }
}
template <class T, class X>
COTILE_HD constexpr auto replace_back(const T& t, const X& x) {
  if constexpr (detail::kTupleLike<T>) {
    static_assert(detail::kSize<T> > 0, "replace_back: the tuple is empty");
    return tuple_cat(take<0, detail::kSize<T> - 1>(t), make_tuple(x));
  } else {
    return x;
  }
}

// --- leaves -----------------------------------------------------------------------------------

// for_each_leaf(t, f): f on every leaf (non-tuple) of a nested tuple, depth first, in order;
// transform_leaf(t.., f): t's nesting with f(leaf, ..) at each leaf (the tuples congruent);
// flatten_to_tuple(t): the leaves as a flat tuple ((x) for a non-tuple x).
template <class T, class F>
COTILE_HD constexpr void for_each_leaf(const T& t, F&& f) {
  if constexpr (detail::kTupleLike<T>) for_each(t, [&f](const auto& a) { for_each_leaf(a, f); });
  else f(t);
}
template <class T, class F>
COTILE_HD constexpr auto transform_leaf(const T& t, F&& f) {
  if constexpr (detail::kTupleLike<T>) return transform(t, [&f](const auto& a) { return transform_leaf(a, f); });
  else return f(t);
}
template <class T0, class T1, class F>
COTILE_HD constexpr auto transform_leaf(const T0& t0, const T1& t1, F&& f) {
  if constexpr (detail::kTupleLike<T0>)
    return transform(t0, t1, [&f](const auto& a, const auto& b) { return transform_leaf(a, b, f); });
  else return f(t0, t1);
}
template <class T>
COTILE_HD constexpr auto flatten_to_tuple(const T& t) {
  if constexpr (detail::kTupleLike<T>)
    return apply(t, [](const auto&... a) { return tuple_cat(tuple<>{}, flatten_to_tuple(a)...); });
  else return make_tuple(t);
}

// --- scans and unflattening ------------------------------------------------------------------

// iscan(t, v, f) = (v_1, ..., v_n) and escan(t, v, f) = (v_0, ..., v_{n-1}), where v_0 = v and
// v_{i+1} = f(v_i, t_i): the inclusive and exclusive scans (a static v_i stays static).
template <class T, class V, class F>
COTILE_HD constexpr auto iscan(const T& t, const V& v, F&& f) {
  return get<0>(fold(t, make_tuple(tuple<>{}, v), [&f](const auto& acc, const auto& x) {
    const auto next = f(get<1>(acc), x);
    return make_tuple(append(get<0>(acc), next), next);
  }));
}
template <class T, class V, class F>
COTILE_HD constexpr auto escan(const T& t, const V& v, F&& f) {
  return get<0>(fold(t, make_tuple(tuple<>{}, v), [&f](const auto& acc, const auto& x) {
    return make_tuple(append(get<0>(acc), get<1>(acc)), f(get<1>(acc), x));
  }));
}

// unflatten(flat, profile): the elements of the flat tuple in the nesting of profile, leaf by leaf
// in order (flatten_to_tuple(unflatten(flat, profile)) is flat).  Requires: profile has as many
// leaves as flat has elements.
namespace detail {
template <class P, size_t I>
using ElementOf = std::remove_cvref_t<decltype(get<I>(std::declval<const TupleOf<P>&>()))>;
template <class P>
constexpr size_t leaf_count() {
  if constexpr (kTupleLike<P>) {
    return []<size_t... Is>(std::index_sequence<Is...>) { return (size_t(0) + ... + leaf_count<ElementOf<P, Is>>()); }
    (std::make_index_sequence<kSize<P>>{});
  } else {
    return 1;
  }
}
// The leaves of P's elements 0 .. sizeof...(Js) - 1.
template <class P, size_t... Js>
constexpr size_t leaves_before(std::index_sequence<Js...>) {
  return (size_t(0) + ... + leaf_count<ElementOf<P, Js>>());
}
template <size_t First, class U, class P>
COTILE_HD constexpr auto unflatten_from(const U& flat, const P& profile) {
  if constexpr (kTupleLike<P>) {
    const auto& p = tuple_of(profile);
    return [&]<size_t... Is>(std::index_sequence<Is...>) {
      return make_tuple(unflatten_from<First + leaves_before<P>(std::make_index_sequence<Is>{})>(flat, get<Is>(p))...);
    }
    (std::make_index_sequence<kSize<P>>{});
  } else {
    return get<First>(flat);
  }
}
}  // namespace detail
template <class T, class P>
requires detail::kTupleLike<T> COTILE_HD constexpr auto unflatten(const T& flat, const P& profile) {
  static_assert(detail::leaf_count<P>() == detail::kSize<T>,
                "unflatten: the profile's leaves and the flat tuple's elements differ in number");
  return detail::unflatten_from<0>(detail::tuple_of(flat), profile);
}

// --- integer tuples from and to plain values -----------------------------------------------------

// make_int_tuple<N>(v, n, init) = (v[0], ..., v[n-1], init, ..., init), N elements (just the
// element for N == 1): run-time values from anything indexable.
template <size_t N, class V, class X>
COTILE_HD constexpr auto make_int_tuple(const V& v, int n, const X& init) {
  static_assert(N > 0, "make_int_tuple<N>: N must be positive");
  const auto at = [&](size_t i) { return i < size_t(n) ? v[i] : init; };
  if constexpr (N == 1) {
    return at(0);
  } else {
    return [&]<size_t... Is>(std::index_sequence<Is...>) { return make_tuple(at(Is)...); }
    (std::make_index_sequence<N>{});
  }
}
// fill_int_tuple_from(r, vals): assigns vals' elements, in order, to r's run-time leaves (depth
// first; static leaves are skipped) and returns the values not used.
//   tuple<_1, tuple<int, int, _3>, int> r;  fill_int_tuple_from(r, make_tuple(6, 3, 4)) -> r = (_1,(6,3,_3),4)
template <class R, class V>
COTILE_HD constexpr auto fill_int_tuple_from(R& r, const V& vals) {
  if constexpr (detail::kUnstored<R>) {  // static: nothing to fill
    return vals;
  } else if constexpr (is_tuple_v<R>) {
    return fold(make_int_sequence<int64_t(tuple_size_v<R>)>{}, vals, [&r](const auto& rest, auto i) {
      constexpr size_t I = size_t(decltype(i)::value);
      if constexpr (detail::kUnstored<tuple_element_t<I, R>>) return rest;  // static: made by get, skipped
      else return fill_int_tuple_from(get<I>(r), rest);
    });
  } else {
    static_assert(tuple_size_v<V> > 0, "fill_int_tuple_from: fewer values than run-time leaves");
    r = get<0>(vals);
    return take<1, tuple_size_v<V>>(vals);
  }
}
// make_int_tuple_from<R>(x...): an R with its run-time leaves x..., in order.
template <class R, class... Xs>
COTILE_HD constexpr R make_int_tuple_from(const Xs&... xs) {
  R r{};
  const auto rest = fill_int_tuple_from(r, make_tuple(xs...));
  static_assert(tuple_size_v<decltype(rest)> == 0, "make_int_tuple_from: more values than run-time leaves");
  return r;
}
// to_array<T>(t): t's leaves, in order, as an array<T, n>.
template <class T = int64_t, class U>
COTILE_HD constexpr auto to_array(const U& t) {
  const auto flat = flatten_to_tuple(t);
  return [&]<size_t... Is>(std::index_sequence<Is...>) { return array<T, sizeof...(Is)>{T(get<Is>(flat))...}; }
  (std::make_index_sequence<tuple_size_v<decltype(flat)>>{});
}

}  // namespace cotile::ct
