// Scaled-basis strides (CuTe's E<...>): strides that move a coordinate instead of an offset.
//
// E<i, j, ...> is the unit vector at mode (i, j, ...) of a hierarchical coordinate, and
// ScaledBasis<T, i, j, ...> holds v times it (E<1>{} * 2). A layout whose strides are such
// elements, a BasisLayout, maps an index to a coordinate:
//   B(c) = sum_k x_k · v_k · e_{N_k}      x = c's natural coordinate in B's shape, the sum taken
//                                         mode by mode, modes no term reaches _0
// composition(A, B), B a BasisLayout: B's shape, each leaf s : v·e_N replaced by
// composition(mode N of A, s : v) (CuTe's rule).
//   Law: R(c) = A(B(c)) for every c < size(B) whose B(c) lies in A's domain; checked at compile
//   time when A and B are static, at run time on the host otherwise. (Two leaves of B that move
//   the same mode of A add coordinates the mode's layout need not add: CuTe's rule is then wrong
//   and the composition refused.)
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "cotile/error.hpp"
#include "error.hpp"
#include "layout.hpp"

namespace cotile::ct {

template <class T, int... Ns>
struct ScaledBasis {
  T value_{};
  COTILE_HD constexpr const T& value() const { return value_; }
};
template <int... Ns>
using E = ScaledBasis<Int<1>, Ns...>;

template <class T>
struct is_scaled_basis : std::false_type {};
template <class T, int... Ns>
struct is_scaled_basis<ScaledBasis<T, Ns...>> : std::true_type {};

// k · (v e_N) = (k v) e_N, for an integer k (static times static stays static).
template <class K, class T, int... Ns>
requires(std::is_integral_v<K> || is_static_int<K>::value) COTILE_HD constexpr auto operator*(
    const K& k, const ScaledBasis<T, Ns...>& e) {
  using R = std::remove_cv_t<decltype(k * e.value())>;
  return ScaledBasis<R, Ns...>{k * e.value()};
}
template <class K, class T, int... Ns>
requires(std::is_integral_v<K> || is_static_int<K>::value) COTILE_HD constexpr auto operator*(
    const ScaledBasis<T, Ns...>& e, const K& k) {
  return k * e;
}

namespace detail {
// A ct::tuple or a lifted result's Tuple<S> (what shape(layout) returns).
template <class T>
inline constexpr bool is_tupleish_v = is_tuple_v<T>;
template <auto S>
inline constexpr bool is_tupleish_v<Tuple<S>> = true;
template <class T, int... Ns>
struct is_static_type<ScaledBasis<T, Ns...>> : is_static_type<T> {};
}  // namespace detail

// A layout whose strides are scaled basis elements (or integers, read as v·E<>).
template <class Shape, class Stride>
struct BasisLayout {
  Shape shape_;
  Stride stride_;

  COTILE_HD constexpr const Shape& shape() const { return shape_; }
  COTILE_HD constexpr const Stride& stride() const { return stride_; }
  // B(c): the coordinate of an index (or of a coordinate congruent to the shape).
  template <class C>
  COTILE_HD constexpr auto operator()(const C& c) const;
  template <class C0, class C1, class... Cs>
  COTILE_HD constexpr auto operator()(const C0& c0, const C1& c1, const Cs&... cs) const {
    return (*this)(make_coord(c0, c1, cs...));
  }
};
template <class T>
struct is_basis_layout : std::false_type {};
template <class S, class D>
struct is_basis_layout<BasisLayout<S, D>> : std::true_type {};
namespace detail {
template <class S, class D>
struct is_static_type<BasisLayout<S, D>> : std::bool_constant<is_static_v<S> && is_static_v<D>> {};
}  // namespace detail

namespace detail {
template <class S, class D>
constexpr bool same_profile() {
  if constexpr (is_tuple_v<S> != is_tuple_v<D>) {
    return false;
  } else if constexpr (is_tuple_v<S>) {
    if constexpr (tuple_size<S>::value != tuple_size<D>::value) return false;
    else return []<size_t... Is>(std::index_sequence<Is...>) {
        return (same_profile<std::remove_cvref_t<decltype(get<Is>(std::declval<S>()))>,
                             std::remove_cvref_t<decltype(get<Is>(std::declval<D>()))>>() &&
                ...);
      }
    (std::make_index_sequence<tuple_size<S>::value>{});
  } else {
    return true;
  }
}
}  // namespace detail

template <class S, class D>
COTILE_HD constexpr BasisLayout<S, D> make_basis_layout(const S& s, const D& d) {
  static_assert(detail::same_profile<S, D>(), "make_layout(shape, stride): shape and stride must be congruent");
  return {s, d};
}

template <int... Is, class S, class D>
COTILE_HD constexpr auto shape(const BasisLayout<S, D>& b) {
  if constexpr (sizeof...(Is) == 0) return b.shape();
  else return get<Is...>(b.shape());
}
template <class S, class D>
COTILE_HD constexpr auto size(const BasisLayout<S, D>& b) {
  return size(make_layout(b.shape()));
}
template <class S, class D>
COTILE_HD constexpr auto rank(const BasisLayout<S, D>& b) {
  return rank(make_layout(b.shape()));
}
// congruent, weakly_congruent, compatible: a basis layout answers for its shape.
template <class S, class D>
struct answers_by_shape<BasisLayout<S, D>> : std::true_type {};

namespace detail {
// The coordinate v·e_{N...}: v at mode N..., _0 before it at each level.
template <int... Ns, class V>
COTILE_HD constexpr auto unit_coord(const V& v) {
  if constexpr (sizeof...(Ns) == 0) {
    return v;
  } else {
    return []<int N0, int... Rest>(const V& x, std::integer_sequence<int, N0, Rest...>) {
      return [&]<size_t... Zs>(std::index_sequence<Zs...>) {
        return make_tuple(((void)Zs, _0{})..., unit_coord<Rest...>(x));
      }
      (std::make_index_sequence<N0>{});
    }
    (v, std::integer_sequence<int, Ns...>{});
  }
}

// Coordinates added mode by mode (CuTe's arithmetic tuples); a mode only one side has is kept.
template <class A, class B>
COTILE_HD constexpr auto coord_add(const A& a, const B& b) {
  if constexpr (is_tuple_v<A> && is_tuple_v<B>) {
    constexpr size_t na = tuple_size<A>::value, nb = tuple_size<B>::value;
    return [&]<size_t... Is>(std::index_sequence<Is...>) {
      auto at = [&]<size_t I>(std::integral_constant<size_t, I>) {
        if constexpr (I < na && I < nb) return coord_add(get<I>(a), get<I>(b));
        else if constexpr (I < na) return get<I>(a);
        else return get<I>(b);
      };
      return make_tuple(at(std::integral_constant<size_t, Is>{})...);
    }
    (std::make_index_sequence<(na > nb ? na : nb)>{});
  } else {
    static_assert(!is_tuple_v<A> && !is_tuple_v<B>,
                  "a scaled basis layout adds an integer and a tuple at one mode: give its strides E<...> of one depth "
                  "at each mode");
    if constexpr (std::is_same_v<A, _0>) return b;
    else if constexpr (std::is_same_v<B, _0>) return a;
    else return int64_t(a) + int64_t(b);
  }
}

// The flat leaves of a congruent shape / stride / coordinate as one ct::tuple.
template <class T>
COTILE_HD constexpr auto leaves(const T& t) {
  if constexpr (is_tuple_v<T>) {
    return [&]<size_t... Is>(std::index_sequence<Is...>) { return tuple_cat(make_tuple(), leaves(get<Is>(t))...); }
    (std::make_index_sequence<tuple_size<T>::value>{});
  } else {
    return make_tuple(t);
  }
}

// x · (v e_N) as a coordinate.
template <class X, class D>
COTILE_HD constexpr auto scaled_coord(const X& x, const D& d) {
  if constexpr (is_scaled_basis<D>::value) {
    return [&]<class T, int... Ns>(const ScaledBasis<T, Ns...>& e) {
      if constexpr (std::is_same_v<T, _0>) return unit_coord<Ns...>(_0{});
      else return unit_coord<Ns...>(int64_t(x) * int64_t(e.value()));
    }(d);
  } else {
    if constexpr (std::is_same_v<D, _0>) return _0{};
    else return int64_t(x) * int64_t(d);
  }
}
}  // namespace detail

template <class Shape, class Stride>
template <class C>
COTILE_HD constexpr auto BasisLayout<Shape, Stride>::operator()(const C& c) const {
  const auto ss = detail::leaves(shape_);
  const auto ds = detail::leaves(stride_);
  constexpr size_t n = tuple_size<std::remove_cv_t<decltype(ds)>>::value;
  return [&]<size_t... Is>(std::index_sequence<Is...>) {
    // the natural coordinate's leaves: from an index, colexicographically over the shape's leaves
    // (the last one unbounded, as idx2crd's)
    int64_t xs[n] = {};
    if constexpr (is_tuple_v<C>) {
      const auto cs = detail::leaves(c);
      static_assert(tuple_size<std::remove_cv_t<decltype(cs)>>::value == n,
                    "B(c): the coordinate must be an index or congruent to B's shape");
      ((xs[Is] = int64_t(get<Is>(cs))), ...);
    } else {
      int64_t rest = int64_t(c);
      ((xs[Is] = Is + 1 < n ? rest % int64_t(get<Is>(ss)) : rest, rest /= Is + 1 < n ? int64_t(get<Is>(ss)) : 1), ...);
    }
    return fold_first(make_tuple(detail::scaled_coord(xs[Is], get<Is>(ds))...),
                      [](const auto& s, const auto& t) { return detail::coord_add(s, t); });
  }
  (std::make_index_sequence<n>{});
}

// composition(A, B), B's strides scaled basis elements (see the top of this file).
namespace detail {
template <class A, class S, class D>
COTILE_HD constexpr auto compose_leaf(const A& a, const S& s, const D& d) {
  if constexpr (is_scaled_basis<D>::value) {
    return [&]<class T, int... Ns>(const ScaledBasis<T, Ns...>& e) {
      if constexpr (sizeof...(Ns) == 0) return composition(a, make_layout(s, e.value()));
      else return composition(layout<Ns...>(a), make_layout(s, e.value()));
    }(d);
  } else {
    return composition(a, make_layout(s, d));
  }
}
template <class A, class S, class D>
COTILE_HD constexpr auto compose_basis(const A& a, const S& s, const D& d) {
  if constexpr (is_tuple_v<S>) {
    return [&]<size_t... Is>(std::index_sequence<Is...>) {
      return make_layout(compose_basis(a, get<Is>(s), get<Is>(d))...);
    }
    (std::make_index_sequence<tuple_size<S>::value>{});
  } else {
    return compose_leaf(a, s, d);
  }
}

// c within A's domain (each leaf of c below its mode's size; modes c lacks read as 0).
template <class C, class Sh>
COTILE_HD constexpr bool in_domain(const C& c, const Sh& sh) {
  if constexpr (is_tuple_v<C>) {
    if constexpr (!is_tupleish_v<Sh> || tuple_size<C>::value > tuple_size<Sh>::value) {
      return false;
    } else {
      return [&]<size_t... Is>(std::index_sequence<Is...>) { return (in_domain(get<Is>(c), get<Is>(sh)) && ...); }
      (std::make_index_sequence<tuple_size<C>::value>{});
    }
  } else {
    return int64_t(c) >= 0 && int64_t(c) < int64_t(size(make_layout(sh)));
  }
}
// c with _0 for the modes of A's shape it lacks, so that A can take it.
template <class C, class Sh>
COTILE_HD constexpr auto pad_to(const C& c, const Sh& sh) {
  if constexpr (is_tuple_v<C> && is_tupleish_v<Sh>) {
    return [&]<size_t... Is>(std::index_sequence<Is...>) {
      auto at = [&]<size_t I>(std::integral_constant<size_t, I>) {
        if constexpr (I < tuple_size<C>::value) return pad_to(get<I>(c), get<I>(sh));
        else return _0{};
      };
      return make_tuple(at(std::integral_constant<size_t, Is>{})...);
    }
    (std::make_index_sequence<tuple_size<Sh>::value>{});
  } else {
    return c;
  }
}

struct BasisViolation {
  int64_t c = -1, r = 0, ab = 0;
};
// The first c < size(B) with B(c) in A's domain and R(c) != A(B(c)), or c = -1.
template <class A, class B, class R>
COTILE_HD constexpr BasisViolation basis_violation(const A& a, const B& b, const R& r) {
  const auto sh = shape(a);
  for (int64_t c = 0; c < int64_t(size(b)); ++c) {
    const auto x = b(c);
    if (!in_domain(x, sh)) continue;
    const int64_t want = int64_t(a(pad_to(x, sh))), got = int64_t(r(c));
    if (want != got) return {c, got, want};
  }
  return {};
}
template <class A, class B, class R>
constexpr MessageBuilder basis_law_message() {
  const BasisViolation v = basis_violation(A{}, B{}, R{});
  MessageBuilder m;
  m.add("composition: R(c) = A(B(c)) fails at c = ").add(long(v.c)).add(" (R(c) = ").add(long(v.r));
  m.add(", A(B(c)) = ").add(long(v.ab)).add("); why: B's scaled basis strides add coordinates that A's layout does ");
  m.add("not add (two leaves of B move one mode of A across its sub-modes); fix: give each leaf of B its own mode ");
  m.add("of A, or compose with A's modes one at a time");
  return m;
}
}  // namespace detail

template <class A, class S, class D>
requires is_layout_v<A> COTILE_HD constexpr auto composition(const A& a, const BasisLayout<S, D>& b) {
  const auto r = detail::compose_basis(a, b.shape(), b.stride());
  using R = std::remove_cv_t<decltype(r)>;
  if constexpr (is_static_v<A> && is_static_v<BasisLayout<S, D>>) {
    constexpr detail::BasisViolation v = detail::basis_violation(A{}, BasisLayout<S, D>{}, R{});
    if constexpr (v.c >= 0) {
      constexpr MessageBuilder m = detail::basis_law_message<A, BasisLayout<S, D>, R>();
      static_assert(Require<false, to_message<m.n + 1>(m)>::value);
    }
  } else {
#if !defined(__CUDA_ARCH__) || defined(COTILE_DEVICE_CHECKS)
    if (!__builtin_is_constant_evaluated()) {
      const detail::BasisViolation v = detail::basis_violation(a, b, r);
      if (v.c >= 0)
        ::cotile::fail("composition",
                       "R(c) = A(B(c)) fails: B's scaled basis strides add coordinates that A's layout does not add "
                       "(two leaves of B move one mode of A across its sub-modes)",
                       "give each leaf of B its own mode of A, or compose with A's modes one at a time",
                       arg("A", engine(a)), arg("B", to_string(b).c_str()), arg("c", v.c), arg("R(c)", v.r),
                       arg("A(B(c))", v.ab));
    }
#endif
  }
  return r;
}

// The printed form, CuTe's: a stride v·e_(i,j) is "v@j@i".
namespace detail {
template <class T>
inline std::string leaf_string(const T& x) {
  if constexpr (is_static_int<T>::value) return "_" + std::to_string(int64_t(T::value));
  else return std::to_string(int64_t(x));
}
template <class T>
inline std::string basis_string(const T& t) {
  if constexpr (is_tuple_v<T>) {
    std::string out = "(";
    [&]<size_t... Is>(std::index_sequence<Is...>) { ((out += (Is ? "," : "") + basis_string(get<Is>(t))), ...); }
    (std::make_index_sequence<tuple_size<T>::value>{});
    return out + ")";
  } else if constexpr (is_scaled_basis<T>::value) {
    return [&]<class V, int... Ns>(const ScaledBasis<V, Ns...>& e) {
      std::string out = leaf_string(e.value());
      const int ns[] = {Ns..., 0};
      for (int k = int(sizeof...(Ns)) - 1; k >= 0; --k) out += "@" + std::to_string(ns[k]);
      return out;
    }(t);
  } else {
    return leaf_string(t);
  }
}
}  // namespace detail
template <class S, class D>
inline std::string to_string(const BasisLayout<S, D>& b) {
  return detail::basis_string(b.shape()) + ":" + detail::basis_string(b.stride());
}
template <class T, int... Ns>
inline std::string to_string(const ScaledBasis<T, Ns...>& e) {
  return detail::basis_string(e);
}

}  // namespace cotile::ct
