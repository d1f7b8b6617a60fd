// ct::tuple and its algorithms (tuple.hpp, tuple_algorithms.hpp): CuTe's storage (empty elements
// take no space, standard layout), get's value categories, static results where every input is
// static, integer sequences read as tuples, tuples as arguments of the algebra, and CuTe's integer
// and integer-tuple functions (int_tuple.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>

#include "cotile/ct/ct.hpp"

using namespace cotile::ct;

namespace {
int opaque(int x) {
  volatile int v = x;
  return v;
}
struct Tag {};
struct Boxed {
  float v;
};
}  // namespace

TEST(Tuple, EmptyElementsAreNotStored) {
  static_assert(std::is_empty_v<tuple<_8, _4>> && sizeof(tuple<_8, _4>) == 1);
  static_assert(std::is_empty_v<tuple<tuple<_1, _2>, _8, _2>>);
  static_assert(sizeof(tuple<int, int>) == 8 && sizeof(tuple<int, int, int>) == 12);
  static_assert(sizeof(tuple<_8, int>) == 4 && sizeof(tuple<int, int, _2>) == 8);
  static_assert(sizeof(tuple<tuple<int, _2>, int, int>) == 12);
  // Two empty elements of one type still take no space (they are not objects of the tuple).
  static_assert(sizeof(tuple<_1, _1, tuple<int32_t>>) == 4 && sizeof(tuple<_1, tuple<_1, int32_t>>) == 4);
  static_assert(sizeof(tuple<Tag, double, Tag>) == sizeof(double));
  static_assert(std::is_standard_layout_v<tuple<int, _2, tuple<int, _4>, double>>);
  static_assert(std::is_trivially_copyable_v<tuple<int, _2, tuple<int, _4>>>);
  static_assert(std::is_standard_layout_v<tuple<>> && std::is_empty_v<tuple<>>);
}

TEST(Tuple, GetGivesReferencesToStoredElementsAndValuesOfEmptyOnes) {
  tuple<Boxed, int, _4> t(Boxed{1.5f}, 7, _4{});
  static_assert(std::is_same_v<decltype(get<0>(t)), Boxed&>);
  static_assert(std::is_same_v<decltype(get<1>(t)), int&>);
  static_assert(std::is_same_v<decltype(get<2>(t)), _4>);
  const auto& c = t;
  static_assert(std::is_same_v<decltype(get<1>(c)), const int&>);
  static_assert(std::is_same_v<decltype(get<2>(c)), _4>);
  static_assert(std::is_same_v<decltype(get<1>(std::move(t))), int&&>);
  get<1>(t) = 9;
  get<0>(t).v = 2.5f;
  EXPECT_EQ(get<1>(c), 9);
  EXPECT_EQ(get<0>(c).v, 2.5f);
  static_assert(tuple_size_v<decltype(t)> == 3);
  static_assert(std::is_same_v<tuple_element_t<0, decltype(t)>, Boxed>);
  static_assert(std::is_same_v<tuple_element_t<2, const decltype(t)>, const _4>);
  // Nested: get<I, J>(t) = get<J>(get<I>(t)).
  const auto n = make_tuple(1, make_tuple(_2{}, opaque(3)));
  EXPECT_EQ((get<1, 1>(n)), 3);
  static_assert(std::is_same_v<decltype(get<1, 0>(n)), _2>);
  // Structured bindings.
  const auto [a, b] = make_tuple(opaque(5), _6{});
  EXPECT_EQ(a, 5);
  static_assert(std::is_same_v<std::remove_cv_t<decltype(b)>, _6>);
}

TEST(Tuple, ConstructionConvertsAndIsConstexpr) {
  constexpr tuple<int, _2, long> z{};  // stored elements value-initialized
  static_assert(get<0>(z) == 0 && get<2>(z) == 0);
  constexpr auto t = make_tuple(3, _2{}, tuple<long, _1>(4L, _1{}));
  static_assert(get<0>(t) == 3 && get<2, 0>(t) == 4);
  tuple<long, double> conv(1, 2.5f);  // each value converted to its element's type
  EXPECT_EQ(get<0>(conv), 1L);
  EXPECT_EQ(get<1>(conv), 2.5);
  static_assert(std::is_same_v<decltype(make_tuple(1, 'c')), tuple<int, char>>);
  static_assert(std::is_same_v<Shape<_2, int>, decltype(make_shape(_2{}, 3))>);
  static_assert(std::is_same_v<Stride<_1, Coord<int>>, decltype(make_stride(_1{}, make_coord(3)))>);
}

TEST(Tuple, IntegerSequencesAreTuplesOfStaticIntegers) {
  static_assert(std::is_same_v<int_sequence<1, 2, 3>, tuple<_1, _2, _3>>);
  static_assert(std::is_same_v<make_int_sequence<3>, tuple<_0, _1, _2>>);
  static_assert(std::is_same_v<make_int_range<2, 5>, tuple<_2, _3, _4>>);
  static_assert(std::is_same_v<make_seq<0>, tuple<>>);
  // std::integer_sequence is read as one.
  const auto r = transform(std::integer_sequence<int, 0, 2, 1>{}, [](auto i) { return i * _2{}; });
  static_assert(std::is_same_v<std::remove_cv_t<decltype(r)>, tuple<_0, _4, _2>>);
}

// make_integer_sequence<T, N> (CuTe's spelling, the standard sequence) is read as the static
// integers integral_constant<T, 0>, ..., <T, N - 1>: of type T, and static through the arithmetic.
TEST(Tuple, IntegerSequencesOfTKeepTheirType) {
  int64_t sum = 0, calls = 0;
  for_each(make_integer_sequence<uint32_t, 5>{}, [&](auto c) {
    using C = decltype(c);
    static_assert(std::is_same_v<C, integral_constant<uint32_t, C::value>>);
    static_assert(is_constant_v<C::value, C> && is_static_v<C>);
    static_assert(is_constant_v<2 * C::value, decltype(c * _2{})>);
    static_assert(is_constant_v<0, decltype(c * opaque(3) * _0{})>);  // _0 * x: the engine's rule
    sum += c * _3{};
    ++calls;
  });
  EXPECT_EQ(calls, 5);
  EXPECT_EQ(sum, 3 * (0 + 1 + 2 + 3 + 4));
  static_assert(std::is_same_v<decltype(get<1>(reverse(make_index_sequence<4>{}))), integral_constant<size_t, 2>>);
  static_assert(std::is_same_v<decltype(find(make_integer_sequence<int64_t, 6>{}, _4{})), _4>);
  // Such an integer is a static leaf of shapes and coordinates.
  const auto l = make_layout(make_shape(integral_constant<int, 4>{}, _2{}));
  EXPECT_EQ(to_string(l), "(_4,_2):(_1,_4)");
  static_assert(std::is_same_v<decltype(l(integral_constant<size_t, 1>{}, _1{})), _5>);
  static_assert(is_constant_v<1, integral_constant<bool, true>> && !is_static_int<std::true_type>::value);
  // C<v> (CuTe's) is the integral constant of v; _mN is -N.
  static_assert(std::is_same_v<C<42>, integral_constant<int, 42>> && std::is_same_v<C<true>, std::true_type>);
  static_assert(std::is_same_v<decltype(C<6>{} * _m2{}), Int<-12>> && _m32::value == -32 && _262144::value == 1 << 18);
  const auto big = make_layout(make_shape(_2{}, _160{}), make_stride(C<262144>{}, _1{}));
  EXPECT_EQ(to_string(big), "(_2,_160):(_262144,_1)");
}

TEST(TupleAlgorithms, StaticInStaticOut) {
  const auto pairwise = transform_apply(
      int_sequence<1, 2, 3>{}, int_sequence<4, 5, 6>{}, [](auto x, auto y) { return x + y; },
      [](auto... v) { return make_tuple(v...); });
  static_assert(std::is_same_v<std::remove_cv_t<decltype(pairwise)>, tuple<_5, _7, _9>>);
  const auto three = transform(int_sequence<1, 2>{}, int_sequence<3, 4>{}, int_sequence<5, 6>{},
                               [](auto x, auto y, auto z) { return x * y + z; });
  static_assert(std::is_same_v<std::remove_cv_t<decltype(three)>, tuple<_8, Int<14>>>);
  static_assert(
      std::is_same_v<decltype(fold(int_sequence<1, 2, 3>{}, _0{}, [](auto a, auto x) { return a + x; })), _6>);
  static_assert(
      std::is_same_v<decltype(fold_first(int_sequence<2, 3, 4>{}, [](auto a, auto x) { return a * x; })), _24>);
  static_assert(std::is_same_v<decltype(apply(int_sequence<2, 5>{}, [](auto a, auto b) { return b - a; })), _3>);
  // _0 * x is static even for a run-time x: the engine's rule.
  const auto z = fold(make_tuple(opaque(7), opaque(9)), _0{}, [](auto a, auto x) { return a * x; });
  static_assert(std::is_same_v<std::remove_cv_t<decltype(z)>, _0>);
}

TEST(TupleAlgorithms, RunTimeValuesComputedAtRunTime) {
  const auto t = make_tuple(opaque(2), _3{}, opaque(4));
  EXPECT_EQ(fold(t, 0, [](auto a, auto x) { return a + x; }), 9);
  EXPECT_EQ(apply(t, [](auto a, auto b, auto c) { return a * b * c; }), 24);
  const auto sq = transform(t, [](auto x) { return x * x; });
  EXPECT_EQ(get<0>(sq), 4);
  static_assert(std::is_same_v<std::remove_cv_t<decltype(get<1>(sq))>, _9>);
  EXPECT_EQ(get<2>(sq), 16);
  std::string order;
  for_each(t, [&](auto x) { order += std::to_string(int(x)); });
  EXPECT_EQ(order, "234");
  EXPECT_EQ((transform(opaque(6), [](int x) { return x + 1; })), 7);  // a non-tuple: f(x)
}

// The typed integer tuples that lifted operations return (shape(L), stride(L), ...) are tuples to
// the algorithms, element by element, as CuTe's shapes are.
TEST(TupleAlgorithms, ShapesAndStridesOfLayoutsAreTuples) {
  const auto l = make_layout(make_shape(_2{}, make_shape(opaque(3), _4{})));  // (_2,(3,_4)):(_1,(_2,6))
  const auto s = shape(l);
  static_assert(tuple_size_v<decltype(s)> == 2 && tuple_size_v<decltype(stride(l))> == 2);
  std::string order;
  for_each(s, [&](const auto& x) { order += to_string(x) + " "; });
  EXPECT_EQ(order, "_2 (3,_4) ");
  const auto sizes = transform(s, [](const auto& x) { return size(x); });  // (_2, 12)
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(get<0>(sizes))>, _2>);
  EXPECT_EQ(get<1>(sizes), 12);
  EXPECT_EQ(fold(stride(l), 0, [](auto a, const auto& x) { return a + rank(x); }), 1 + 2);
  static_assert(decltype(find(stride(make_layout(make_shape(_2{}, _4{}))), _2{}))::value == 1);  // (_1,_2)
  EXPECT_TRUE(all_of(get<1>(stride(l)), [](auto d) { return d > 1; }));                          // (_2,6)
  EXPECT_EQ(transform_apply(
                s, make_tuple(_10{}, Int<100>{}), [](const auto& x, auto w) { return size(x) * w; },
                [](auto a, auto b) { return a + b; }),
            2 * 10 + 12 * 100);
}

TEST(TupleAlgorithms, Find) {
  static_assert(decltype(find<int>(tuple<_1, float, int>{_1{}, 1.5f, 7}))::value == 2);
  static_assert(decltype(find<double>(tuple<_1, float, int>{}))::value == 3);  // none: the length
  static_assert(decltype(find(int_sequence<4, 8, 16>{}, _8{}))::value == 1);
  static_assert(decltype(find(int_sequence<0, 8, 16>{}, _16{}))::value == 2);  // x itself, not a default X
  static_assert(decltype(find_if(int_sequence<4, 8, 16>{}, [](auto x) { return x > _5{}; }))::value == 1);
  static_assert(decltype(find_if(tuple<>{}, [](auto) { return _1{}; }))::value == 0);
}

TEST(TupleAlgorithms, Predicates) {
  static_assert(decltype(all_of(int_sequence<2, 4>{}, [](auto x) { return x % _2{} == _0{}; }))::value);
  static_assert(!decltype(any_of(int_sequence<1, 3>{}, [](auto x) { return x % _2{} == _0{}; }))::value);
  static_assert(decltype(none_of(int_sequence<1, 3>{}, [](auto x) { return x == _2{}; }))::value);
  // A run-time element makes the answer a run-time bool.
  const auto t = make_tuple(_2{}, opaque(4));
  const auto all_even = all_of(t, [](auto x) { return x % 2 == 0; });
  static_assert(std::is_same_v<std::remove_cv_t<decltype(all_even)>, bool>);
  EXPECT_TRUE(all_even);
  EXPECT_FALSE(any_of(t, [](auto x) { return x == 3; }));
  EXPECT_FALSE(none_of(t, [](auto x) { return x == 4; }));
  // p runs in order, up to the first element that decides the answer.
  int calls = 0;
  const auto count = [&calls](auto x) {
    ++calls;
    return x == 2;
  };
  EXPECT_TRUE(any_of(make_tuple(opaque(1), opaque(2), opaque(3)), count));
  EXPECT_EQ(calls, 2);
  calls = 0;
  EXPECT_FALSE(all_of(make_tuple(opaque(2), opaque(5), opaque(2)), count));
  EXPECT_EQ(calls, 2);
}

TEST(TupleAlgorithms, Rearranging) {
  const auto t = make_tuple(opaque(1), _2{}, 3.5);
  const auto r = reverse(t);
  static_assert(std::is_same_v<std::remove_cv_t<decltype(r)>, tuple<double, _2, int>>);
  EXPECT_EQ(get<0>(r), 3.5);
  EXPECT_EQ(get<2>(r), 1);
  static_assert(std::is_same_v<decltype(select<2, 0>(t)), tuple<double, int>>);
  static_assert(std::is_same_v<decltype(take<1, 3>(t)), tuple<_2, double>>);
  static_assert(std::is_same_v<decltype(take<1, 1>(t)), tuple<>>);
  EXPECT_EQ(front(t), 1);
  EXPECT_EQ(back(t), 3.5);
  const auto c = tuple_cat(make_tuple(opaque(1)), tuple<>{}, make_tuple(_2{}, opaque(3)), int_sequence<4>{});
  static_assert(std::is_same_v<std::remove_cv_t<decltype(c)>, tuple<int, int, _2, int, _4>> == false);
  static_assert(std::is_same_v<std::remove_cv_t<decltype(c)>, tuple<int, _2, int, _4>>);
  EXPECT_EQ(get<2>(c), 3);
  const auto a = append(make_tuple(_1{}), opaque(5));
  const auto p = prepend(make_tuple(_1{}), opaque(5));
  EXPECT_EQ(get<1>(a), 5);
  EXPECT_EQ(get<0>(p), 5);
  static_assert(std::is_same_v<decltype(get<0>(a)), _1> && std::is_same_v<decltype(get<1>(p)), _1>);
}

TEST(TupleAlgorithms, BuildingAndRestructuring) {
  static_assert(std::is_same_v<decltype(tuple_repeat<3>(_2{})), tuple<_2, _2, _2>>);
  static_assert(std::is_same_v<decltype(repeat<2>(_)), tuple<Underscore, Underscore>>);
  EXPECT_EQ(repeat<1>(opaque(5)), 5);  // repeat<1>(x) is x itself
  static_assert(std::is_same_v<decltype(repeat_like(make_shape(_2{}, make_shape(opaque(3), _4{})), _)),
                               tuple<Underscore, tuple<Underscore, Underscore>>>);
  const auto l = make_layout(make_shape(_2{}, make_shape(opaque(3), _4{})));
  static_assert(std::is_same_v<decltype(repeat_like(shape(l), _0{})), tuple<_0, tuple<_0, _0>>>);
  EXPECT_EQ(get<0>(wrap(opaque(3))), 3);
  static_assert(std::is_same_v<decltype(wrap(make_tuple(_1{}, _2{}))), tuple<_1, _2>>);
  EXPECT_EQ(unwrap(make_tuple(make_tuple(opaque(7)))), 7);
  static_assert(std::is_same_v<decltype(unwrap(make_tuple(make_tuple(_1{}, _2{})))), tuple<_1, _2>>);
  const auto t = make_tuple(_1{}, opaque(3));
  const auto i = insert<1>(t, _2{});
  static_assert(std::is_same_v<decltype(i), const tuple<_1, _2, int>>);
  EXPECT_EQ(get<2>(i), 3);
  EXPECT_EQ(get<2>(insert<2>(t, opaque(9))), 9);    // at the end
  EXPECT_EQ(get<0>(insert<0>(t, opaque(10))), 10);  // at the front
  const auto f = replace_front(t, opaque(4));
  const auto b = replace_back(t, _8{});
  EXPECT_EQ(get<0>(f) * 10 + get<1>(f), 43);
  static_assert(std::is_same_v<decltype(b), const tuple<_1, _8>>);
  EXPECT_EQ(replace_back(opaque(2), 6), 6);  // a non-tuple: x
}

TEST(TupleAlgorithms, Leaves) {
  const auto n = make_tuple(opaque(1), make_tuple(_2{}, make_tuple(opaque(3))), 4);
  std::string order;
  for_each_leaf(n, [&](auto x) { order += std::to_string(int(x)); });
  EXPECT_EQ(order, "1234");
  const auto d = transform_leaf(n, [](auto x) { return x * _2{}; });
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(get<1, 0>(d))>, _4>);
  EXPECT_EQ((get<1, 1, 0>(d)), 6);
  const auto s = transform_leaf(n, d, [](auto x, auto y) { return x + y; });  // 3x
  EXPECT_EQ((get<0>(s) + get<1, 1, 0>(s) + get<2>(s)), 3 + 9 + 12);
  const auto flat = flatten_to_tuple(n);
  static_assert(std::is_same_v<decltype(flat), const tuple<int, _2, int, int>>);
  EXPECT_EQ(get<2>(flat), 3);
  static_assert(std::is_same_v<decltype(flatten_to_tuple(_5{})), tuple<_5>>);
  const auto l = make_layout(make_shape(_2{}, make_shape(opaque(3), _4{})));
  EXPECT_EQ(get<1>(flatten_to_tuple(shape(l))), 3);
  static_assert(tuple_size_v<decltype(flatten_to_tuple(stride(l)))> == 3);
}

TEST(TupleAlgorithms, FilterScanUnflatten) {
  // filter_tuple: keep the run-time elements (each f gives a tuple of what to keep).
  const auto t = make_tuple(_1{}, opaque(2), _3{}, opaque(4));
  const auto dyn = filter_tuple(t, [](auto x) {
    if constexpr (is_static_v<decltype(x)>) return tuple<>{};
    else return make_tuple(x);
  });
  static_assert(std::is_same_v<decltype(dyn), const tuple<int, int>>);
  EXPECT_EQ(get<0>(dyn) * 10 + get<1>(dyn), 24);
  const auto pairs =
      filter_tuple(int_sequence<1, 2>{}, int_sequence<3, 4>{}, [](auto a, auto b) { return make_tuple(a, b); });
  static_assert(std::is_same_v<decltype(pairs), const tuple<_1, _3, _2, _4>>);
  // Scans: static values stay static; run-time values are computed.
  static_assert(std::is_same_v<decltype(iscan(int_sequence<2, 3, 4>{}, _1{}, [](auto a, auto x) { return a * x; })),
                               tuple<_2, _6, _24>>);
  static_assert(std::is_same_v<decltype(escan(int_sequence<2, 3, 4>{}, _1{}, [](auto a, auto x) { return a * x; })),
                               tuple<_1, _2, _6>>);
  const auto e = escan(make_tuple(_2{}, opaque(3), _4{}), _1{}, [](auto a, auto x) { return a * x; });
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(get<1>(e))>, _2>);
  EXPECT_EQ(get<2>(e), 6);
  static_assert(tuple_size_v<decltype(iscan(tuple<>{}, 0, [](auto a, auto) { return a; }))> == 0);
  // unflatten: the flat elements in the profile's nesting.
  const auto u = unflatten(make_tuple(opaque(1), _2{}, opaque(3), _4{}),
                           make_tuple(_0{}, make_tuple(_0{}, make_tuple(_0{})), _0{}));
  static_assert(std::is_same_v<decltype(u), const tuple<int, tuple<_2, tuple<int>>, _4>>);
  EXPECT_EQ((get<1, 1, 0>(u)), 3);
  EXPECT_EQ(get<0>(u), 1);
  const auto l = make_layout(make_shape(_2{}, make_shape(opaque(3), _4{})));
  EXPECT_TRUE(unflatten(flatten_to_tuple(stride(l)), shape(l)) == stride(l));  // (_1,(_2,6))
}

TEST(TupleAlgorithms, IntTuplesFromAndToPlainValues) {
  const int v[] = {opaque(7), opaque(8)};
  const auto m = make_int_tuple<3>(v, 2, 1);  // (7, 8, 1)
  EXPECT_EQ(get<0>(m) * 100 + get<1>(m) * 10 + get<2>(m), 781);
  EXPECT_EQ(make_int_tuple<1>(v, 0, 5), 5);
  tuple<_1, tuple<int, int, _3>, int, _2> r{};
  const auto rest = fill_int_tuple_from(r, make_tuple(opaque(6), opaque(3), opaque(4), opaque(9)));
  EXPECT_EQ((get<1, 0>(r)) * 100 + (get<1, 1>(r)) * 10 + get<2>(r), 634);
  static_assert(tuple_size_v<decltype(rest)> == 1);
  EXPECT_EQ(get<0>(rest), 9);
  const auto made = make_int_tuple_from<tuple<int, _4, tuple<_1, int>>>(opaque(2), opaque(5));
  EXPECT_EQ((get<0>(made) * 10 + get<2, 1>(made)), 25);
  const auto a = to_array<int>(make_tuple(_1{}, make_tuple(opaque(2), _3{})));
  static_assert(std::is_same_v<decltype(a), const array<int, 3>>);
  EXPECT_EQ(a[0] * 100 + a[1] * 10 + a[2], 123);
}

TEST(TupleAlgorithms, StaticIntegerComparisons) {
  static_assert(is_constant_v<1, decltype(_4{} * _8{} == _32{})>);
  static_assert(is_constant_v<0, decltype(_4{} != _4{})>);
  static_assert(is_constant_v<1, decltype(_3{} <= _3{})> && is_constant_v<1, decltype(_4{} > _3{})>);
  static_assert(is_constant_v<0, decltype(_2{} >= _3{})>);
  static_assert(is_constant_v<-5, decltype(-_5{})>);
  EXPECT_TRUE(_4{} == opaque(4));
  EXPECT_TRUE(opaque(3) < _4{});
  static_assert(!is_constant_v<1, decltype(_4{} == opaque(4))>);  // a run-time answer
}

TEST(TupleAlgorithms, TuplesAreArgumentsOfTheAlgebra) {
  // make_shape's result is a ct::tuple; the algebra reads any tuple of integers.
  const auto shape = make_tuple(_4{}, opaque(8));
  const auto l = make_layout(shape);
  EXPECT_EQ(to_string(l), "(_4,8):(_1,_4)");
  EXPECT_EQ(size(shape), 32);
  static_assert(std::is_same_v<decltype(size(make_tuple(_2{}, make_tuple(_3{}, _4{})))), _24>);
  EXPECT_EQ(l(make_tuple(1, 2)), 9);
}

TEST(IntTupleFunctions, StaticWhereTheEngineIs) {
  static_assert(std::is_same_v<decltype(max(_3{}, _5{})), _5> && std::is_same_v<decltype(min(_3{}, _5{})), _3>);
  static_assert(std::is_same_v<decltype(gcd(_12{}, _8{})), _4> && std::is_same_v<decltype(lcm(_6{}, _4{})), _12>);
  static_assert(std::is_same_v<decltype(lcm(_0{}, _0{})), _0>);
  // gcd of every leaf of any number of integers and tuples (CuTe's variadic gcd).
  static_assert(std::is_same_v<decltype(gcd(make_tuple(_12{}, make_tuple(_8{}, Int<20>{})))), _4>);
  static_assert(std::is_same_v<decltype(gcd(_12{}, Int<18>{}, _8{})), _2>);
  static_assert(std::is_same_v<decltype(gcd(make_shape(_6{}, _9{}), _12{})), _3>);
  static_assert(std::is_same_v<decltype(gcd(compact_col_major(make_shape(_4{}, _6{})), _8{})), _1>);  // (_1,_4)
  static_assert(std::is_same_v<decltype(gcd(tuple<>{})), _0>);                                        // the identity
  static_assert(std::is_same_v<decltype(size(tuple<>{})), _1>);  // () is an argument like any tuple
  static_assert(std::is_same_v<decltype(ceil_div(_7{}, _2{})), _4> &&
                std::is_same_v<decltype(round_up(_7{}, _4{})), _8>);
  EXPECT_EQ(max(opaque(3), _5{}), 5);
  EXPECT_EQ(round_up(opaque(9), _8{}), 16);
  EXPECT_EQ(ceil_div(opaque(9), opaque(4)), 3);
  // The ceiling for either sign, on run-time values (the program's own arithmetic) and static ones.
  static_assert(std::is_same_v<decltype(ceil_div(_5{}, Int<-1>{})), Int<-5>> &&
                std::is_same_v<decltype(round_up(_5{}, Int<-2>{})), _6>);
  for (int64_t a = -9; a <= 9; ++a)
    for (int64_t b : {-4, -1, 3}) {
      const auto want = int64_t(std::ceil(double(a) / double(b)));
      EXPECT_EQ(ceil_div(opaque(a), opaque(b)), want) << a << " / " << b;
      EXPECT_EQ(ceil_div(opaque(a), Int<-4>{}), int64_t(std::ceil(double(a) / -4.0))) << a;
      EXPECT_EQ(ceil_div(opaque(a), _3{}), int64_t(std::ceil(double(a) / 3.0))) << a;
    }
  // shape_div rounds away from zero, as CuTe's: the divisibility of run-time values is checked on them.
  EXPECT_EQ(shape_div(opaque(-4), opaque(4)), -1);
  EXPECT_EQ(shape_div(opaque(8), Int<-2>{}), -4);
  EXPECT_EQ(shape_div(opaque(0), opaque(-1)), 0);
  EXPECT_THROW(shape_div(opaque(6), opaque(-4)), cotile::Error);
  // compact strides, compared with tuples: static results compare statically.
  static_assert(is_constant_v<1, decltype(compact_col_major(make_tuple(_4{}, _8{}, _1{}, _2{})) ==
                                          make_tuple(_1{}, _4{}, _0{}, _32{}))>);
  static_assert(is_constant_v<1, decltype(compact_row_major(make_tuple(_4{}, make_tuple(_8{}, _2{}))) ==
                                          make_tuple(_16{}, make_tuple(_2{}, _1{})))>);
  static_assert(is_constant_v<1, decltype(compact_col_major(_8{}, _3{}) == _3{})>);
  static_assert(is_constant_v<0, decltype(make_tuple(_1{}, _2{}) == make_tuple(_1{}, make_tuple(_2{})))>);
  const auto s = compact_col_major(make_tuple(_4{}, opaque(8), _2{}));  // (_1,_4,4*8)
  EXPECT_EQ(to_string(s), "(_1,_4,32)");
  EXPECT_TRUE(s == make_tuple(_1{}, _4{}, 32));
  EXPECT_TRUE(s != make_tuple(_1{}, _4{}, 33));
  static_assert(std::is_same_v<decltype(inner_product(make_tuple(_2{}, _3{}), make_tuple(_4{}, _5{}))), Int<23>>);
  EXPECT_EQ(inner_product(make_tuple(opaque(2), _3{}), make_tuple(_4{}, opaque(5))), 23);
  static_assert(is_constant_v<1, decltype(congruent(make_tuple(opaque(1), make_tuple(_2{}, 3)),
                                                    make_tuple(_4{}, make_tuple(5, _6{}))))>);
  static_assert(is_constant_v<0, decltype(congruent(make_tuple(1, 2), make_tuple(1)))>);
}

TEST(IntTupleFunctions, ProfilePredicatesAreStatic) {
  // weakly_congruent: an integer stands for any subtree; static even over run-time leaves.
  static_assert(is_constant_v<1, decltype(weakly_congruent(opaque(2), make_tuple(_4{}, make_tuple(_1{}, 6))))>);
  static_assert(is_constant_v<1, decltype(weakly_congruent(make_tuple(opaque(2), _3{}),
                                                           make_tuple(_4{}, make_tuple(opaque(1), _6{}))))>);
  static_assert(
      is_constant_v<0, decltype(weakly_congruent(make_tuple(_4{}, make_tuple(_1{}, _6{})), make_tuple(_2{}, _3{})))>);
  static_assert(is_constant_v<0, decltype(weakly_congruent(make_tuple(_2{}), _2{}))>);
  // A layout answers for its shape.
  const auto l = make_layout(make_shape(_4{}, make_shape(_2{}, opaque(3))));
  static_assert(is_constant_v<1, decltype(weakly_congruent(make_shape(_1{}, _1{}), l))>);
  static_assert(is_constant_v<1, decltype(congruent(l, make_shape(_1{}, make_shape(_1{}, _1{}))))>);
  static_assert(is_constant_v<0, decltype(congruent(l, make_shape(_1{}, _1{})))>);
  // compatible compares sizes: static where they are.
  static_assert(is_constant_v<1, decltype(compatible(make_shape(_8{}, _6{}),
                                                     make_layout(make_shape(make_shape(_2{}, _4{}), _6{}))))>);
  EXPECT_EQ(compatible(make_shape(_4{}, opaque(6)), l), 1);
  EXPECT_EQ(compatible(make_shape(_4{}, opaque(7)), l), 0);
}

TEST(IntTupleFunctions, EvenlyDividesIsStaticWhereTheLeavesAre) {
  static_assert(is_constant_v<1, decltype(evenly_divides(make_shape(_2{}, _8{}), _4{}))>);
  static_assert(is_constant_v<0, decltype(evenly_divides(_16{}, _12{}))>);
  static_assert(is_constant_v<1, decltype(evenly_divides(_16{}, make_shape(_16{})))>);
  // More tiler modes than shape modes: static _0 over run-time values too.
  static_assert(is_constant_v<0, decltype(evenly_divides(make_shape(opaque(2), opaque(8)),
                                                         make_shape(_2{}, make_shape(_2{}, _4{}))))>);
  // Layout tilers (size times the complement's size) and '_'; a layout's shape.
  const auto tile_ok = make_tile(make_layout(_8{}, _2{}), _32{});
  const auto tile_bad = make_tile(make_layout(_8{}, _3{}), _32{});
  static_assert(is_constant_v<1, decltype(evenly_divides(make_shape(_32{}, _64{}), tile_ok))>);
  static_assert(std::is_same_v<std::remove_cv_t<decltype(tile_ok)>, Tile<decltype(make_layout(_8{}, _2{})), _32>>);
  static_assert(is_constant_v<0, decltype(evenly_divides(make_shape(_32{}, _64{}),
                                                         Tile<decltype(make_layout(_8{}, _3{})), _32>{}))>);
  static_assert(is_constant_v<0, decltype(evenly_divides(make_shape(_32{}, _64{}), tile_bad))>);
  static_assert(is_constant_v<1, decltype(evenly_divides(make_layout(make_shape(_6{}, _64{})), make_tile(_, _32{})))>);
  // Run-time values: a run-time answer.
  EXPECT_EQ(evenly_divides(opaque(16), opaque(8)), 1);
  EXPECT_EQ(evenly_divides(opaque(16), opaque(12)), 0);
  EXPECT_EQ(evenly_divides(make_shape(opaque(4), opaque(6)), _8{}), 1);  // (4,6) split as (4,2)
  EXPECT_EQ(evenly_divides(make_shape(opaque(4), opaque(6)), _3{}), 0);  // 3 does not split 4
  // An integer tuple is its own shape (CuTe's shape(t)); where evenly_divides is _1, logical_divide
  // keeps the size (no padded tile).
  static_assert(std::is_same_v<decltype(shape<1>(make_shape(_2{}, _3{}))), _3>);
  EXPECT_EQ(shape(opaque(7)), 7);
  static_assert(decltype(size(logical_divide(make_layout(make_shape(_32{}, _64{})), tile_ok)))::value == 32 * 64);
}

TEST(IntTupleFunctions, DomainDistributeTilesTheShapeInOrder) {
  // 6 elements of (_15,_14): 3 from the first mode, 2 from the second; static.
  const auto d = domain_distribute(make_shape(Int<15>{}, Int<14>{}), _6{});
  static_assert(is_static_v<decltype(d)>);
  EXPECT_EQ(to_string(d), "(_3,_2):(_1,_15)");
  static_assert(is_constant_v<1, decltype(evenly_divides(make_shape(Int<15>{}, Int<14>{}), d))>);
  const auto l = make_layout(make_shape(make_shape(_64{}, _3{}), make_shape(_8{}, _8{})));
  const auto e = domain_distribute(l, _128{});  // of a layout: of its shape
  EXPECT_EQ(to_string(e), "(_64,_2):(_1,_192)");
  static_assert(decltype(size(zipped_divide(l, e)))::value == 64 * 3 * 8 * 8);
  for (int i = 1; i < 128; ++i) EXPECT_LT(e(opaque(i - 1)), e(opaque(i)));
}

// The orders derived from lex_less, colex_less and elem_less, against their definitions over
// every pair of coordinates in [0,3)^2; static where the leaves are.
TEST(IntTupleFunctions, DerivedOrdersAndSum) {
  static_assert(is_constant_v<1, decltype(lex_leq(make_tuple(_1{}, _2{}), make_tuple(_1{}, _2{})))>);
  static_assert(is_constant_v<0, decltype(colex_gtr(make_tuple(_5{}, _2{}), make_tuple(_1{}, _3{})))>);
  int checks = 0;
  for (int i = 0; i < 9; ++i) {
    for (int j = 0; j < 9; ++j) {
      const auto a = make_tuple(opaque(i / 3), opaque(i % 3)), b = make_tuple(opaque(j / 3), opaque(j % 3));
      const int ra = i / 3 * 3 + i % 3, rb = j / 3 * 3 + j % 3;  // first leaf most significant
      const int ca = i % 3 * 3 + i / 3, cb = j % 3 * 3 + j / 3;  // last leaf most significant
      EXPECT_EQ(lex_leq(a, b), ra <= rb);
      EXPECT_EQ(lex_gtr(a, b), ra > rb);
      EXPECT_EQ(lex_geq(a, b), ra >= rb);
      EXPECT_EQ(colex_leq(a, b), ca <= cb);
      EXPECT_EQ(colex_gtr(a, b), ca > cb);
      EXPECT_EQ(colex_geq(a, b), ca >= cb);
      EXPECT_EQ(elem_gtr(a, b), i / 3 > j / 3 && i % 3 > j % 3);
      ++checks;
    }
  }
  EXPECT_EQ(checks, 81);
  static_assert(std::is_same_v<decltype(sum(make_tuple(_1{}, make_tuple(_2{}, _3{})))), _6>);
  EXPECT_EQ(sum(make_tuple(_2{}, make_tuple(opaque(3), _4{}))), 9);
  EXPECT_EQ(sum(shape(make_layout(make_shape(_2{}, opaque(5))))), 7);
  // product_like and elem_scale: the engine's, lifted.
  static_assert(is_constant_v<1, decltype(product_like(make_shape(make_shape(_2{}, _3{}), _4{}),
                                                       make_shape(_1{}, _1{})) == make_shape(_6{}, _4{}))>);
  const auto scaled = elem_scale(make_shape(_2{}, opaque(3)), make_shape(make_shape(_2{}, _2{}), opaque(4)));
  EXPECT_EQ(to_string(scaled), "(_8,12)");
}

TEST(IntTupleFunctions, MaxAndMinOfATuple) {
  static_assert(std::is_same_v<decltype(max(make_tuple(_8{}, make_tuple(_1{}, _2{})))), _8>);
  static_assert(std::is_same_v<decltype(min(make_tuple(_8{}, make_tuple(_3{}, _2{})))), _2>);
  EXPECT_EQ(max(make_tuple(opaque(3), make_tuple(_8{}, opaque(9)))), 9);
  EXPECT_EQ(min(make_tuple(opaque(3), _8{})), 3);
  static_assert(tuple_size_v<std::tuple<int, char>> == 2);  // other tuple-likes: std::tuple_size
}

TEST(IntTupleFunctions, CoordinateOrders) {
  // get_hier_coord(i) inverts a compact layout; lex/colex order the coordinates as row/column-major
  // layouts order their indices.
  const auto col = make_layout(make_shape(make_shape(_3{}, _2{}), _5{}), GenColMajor{});
  const auto row = make_layout(make_shape(_2{}, make_shape(_3{}, _5{})), GenRowMajor{});
  EXPECT_EQ(to_string(row), "(_2,(_3,_5)):(_15,(_5,_1))");
  for (int i = 0; i < 30; ++i) {
    EXPECT_EQ(col(col.get_hier_coord(opaque(i))), i);
    EXPECT_EQ(row(row.get_hier_coord(opaque(i))), i);
    for (int j = 0; j < 30; ++j) {
      EXPECT_EQ(bool(colex_less(col.get_hier_coord(opaque(i)), col.get_hier_coord(opaque(j)))), i < j);
      EXPECT_EQ(bool(lex_less(row.get_hier_coord(opaque(i)), row.get_hier_coord(opaque(j)))), i < j);
    }
  }
  static_assert(is_constant_v<1, decltype(lex_less(make_tuple(_1{}, _5{}), make_tuple(_2{}, _0{})))>);
  static_assert(is_constant_v<0, decltype(colex_less(make_tuple(_1{}, _5{}), make_tuple(_2{}, _0{})))>);
  static_assert(is_constant_v<1, decltype(get<1>(col.get_hier_coord(_7{})) == _1{})>);  // 7 = 1 + 6 * 1
}

TEST(Array, GetTupleSizeReverse) {
  constexpr array<int, 3> a{1, 2, 3};
  static_assert(get<2>(a) == 3 && a[0] == 1 && a.size() == 3);
  static_assert(tuple_size_v<decltype(a)> == 3 && std::is_same_v<tuple_element_t<1, array<int, 3>>, int>);
  constexpr auto r = reverse(a);
  static_assert(std::is_same_v<std::remove_cv_t<decltype(r)>, array<int, 3>>);
  static_assert(get<0>(r) == 3 && get<2>(r) == 1);
  static_assert(std::is_same_v<decltype(reverse(array<int, 0>{})), array<int, 0>>);
  array<int, 2> m{opaque(4), 5};
  get<0>(m) = 7;
  EXPECT_EQ(m[0], 7);
  static_assert(std::is_same_v<decltype(get<1>(std::move(m))), int&&>);
}
