// The typed layer agrees with the engine: same results, same staticness, values computed at run
// time only for dynamic leaves.
#include <gtest/gtest.h>

#include <vector>

#include "cotile/ct/ct.hpp"

using namespace cotile::ct;
using cotile::CopyOp;
using cotile::Elem;
using cotile::MmaFamily;

namespace {
// Values the compiler cannot see.
int64_t opaque(int64_t x) {
  volatile int64_t v = x;
  return v;
}
}  // namespace

TEST(Typed, StaticLayoutsAreStaticTypes) {
  const auto l = make_layout(make_shape(_4{}, _8{}), make_stride(_8{}, _1{}));
  static_assert(is_static_v<decltype(l)>);
  static_assert(std::is_same_v<decltype(size(l)), _32>);
  static_assert(decltype(cosize(l))::value == 32);
  EXPECT_EQ(to_string(l), "(_4,_8):(_8,_1)");
  EXPECT_EQ(l(opaque(5)), 9);
  EXPECT_EQ(l(1, 2), 10);
}

// CuTe's is_static looks through const and references: CuTe code asks it of a `const&` parameter
// (`if constexpr (is_static<decltype(x)>::value)`), where it once said false in cotile.
template <class L>
bool takes_static_branch(const L& l) {
  if constexpr (is_static<decltype(l)>::value) return true;
  else return false;
}
TEST(Typed, IsStaticLooksThroughConstAndReferences) {
  const auto l = make_layout(make_shape(_4{}, _8{}));
  static_assert(is_static<decltype(l)>::value);  // const
  static_assert(is_static<decltype(l)&>::value && is_static<decltype((l))>::value && is_static<decltype(l)&&>::value);
  static_assert(is_static<const _4&>::value && is_static<const volatile _4>::value);
  static_assert(!is_static<const int&>::value);
  const auto d = make_layout(make_shape(opaque(4), _8{}));
  static_assert(!is_static<decltype(d)>::value && !is_static<decltype(d)&>::value);
  EXPECT_TRUE(takes_static_branch(l));
  EXPECT_FALSE(takes_static_branch(d));
  EXPECT_EQ(to_string(l), "(_4,_8):(_1,_4)");
}

TEST(Typed, ReplaceWithIntMakesADynamicSlot) {
  // docs/qload.md §4: replace<0>(stride, 0) yields an int slot; _0{} would be static.
  const auto s = make_stride(_0{}, _1{});
  const auto d = replace<0>(make_layout(make_shape(_2{}, _4{}), s), make_layout(_2{}, int(0)));
  static_assert(!is_static_v<decltype(d)>);
  EXPECT_EQ(to_string(d), "(_2,_4):(0,_1)");
  const auto e = replace<0>(make_layout(make_shape(_2{}, _4{}), s), make_layout(_2{}, _0{}));
  static_assert(is_static_v<decltype(e)>);
}

// A rank-0 layout with a static shape and a dynamic stride keeps the stride's run-time value
// (found by the differential test: `_8:1` with a dynamic 1 once printed `_8:0`).
TEST(Typed, StaticShapeWithDynamicStrideKeepsTheStride) {
  const auto l = make_layout(_8{}, opaque(3));
  EXPECT_EQ(to_string(l), "_8:3");
  EXPECT_EQ(l(2), 6);
  EXPECT_EQ(to_string(make_layout(l, make_layout(opaque(32), opaque(1)))), "(_8,32):(3,1)");
  EXPECT_EQ(to_string(coalesce(make_layout(_8{}, opaque(5)))), "_8:5");
}

TEST(Typed, ArithmeticFollowsCuteRules) {
  // _0 * x is static, _128 * int is dynamic (through a layout's size).
  const auto a = make_layout(make_shape(_0{}, int(opaque(5))));
  static_assert(std::is_same_v<decltype(size(a)), _0>);
  const auto b = make_layout(make_shape(_128{}, int(opaque(2))));
  EXPECT_EQ(size(b), 256);
  static_assert(std::is_same_v<decltype(size(b)), int64_t>);
}

TEST(Typed, IntegerArithmeticKeepsStaticness) {
  static_assert(std::is_same_v<decltype(_4{} * _8{}), _32>);
  static_assert(std::is_same_v<decltype(_0{} * int(opaque(5))), _0>);
  static_assert(std::is_same_v<decltype(int(opaque(5)) % _1{}), _0>);
  const auto x = _1{} * int(opaque(5));  // _1 * x is the dynamic x
  static_assert(std::is_same_v<decltype(x), const int>);
  EXPECT_EQ(x, 5);
  EXPECT_EQ(_128{} * int(opaque(3)), 384);
  static_assert(std::is_same_v<decltype(_128{} * int(3)), int>);
  // value_type: the type CuTe computes the value in (int where it fits), the value exact.
  static_assert(std::is_same_v<_128::value_type, int> && std::is_same_v<Int<-5>::value_type, int>);
  static_assert(std::is_same_v<Int<(int64_t(1) << 40)>::value_type, int64_t> &&
                Int<(int64_t(1) << 40)>::value == (int64_t(1) << 40));
  static_assert(std::is_same_v<decltype(gcd(C<15>{}, C<42>{}))::value_type, int> &&
                decltype(gcd(C<15>{}, C<42>{}))::value == 3);
}

TEST(Typed, ShapeAndStrideOfAMode) {
  const auto l = make_layout(make_shape(make_shape(_128{}, _32{}), _1{}, _4{}),
                             make_stride(make_stride(opaque(128), _1{}), _0{}, _32{}));
  EXPECT_EQ(to_string(shape<0>(l)), "(_128,_32)");
  EXPECT_EQ(to_string(stride<0>(l)), "(128,_1)");
  static_assert(std::is_same_v<decltype(shape<0, 1>(l)), _32>, "a static leaf of a mode is a static Int");
  EXPECT_EQ((stride<0, 0>(l)), 128);
}

TEST(Typed, AlgebraMatchesTheEngine) {
  const int64_t D = opaque(128);
  const auto gq = make_layout(make_shape(_128{}, _128{}), make_stride(D, _1{}));
  EXPECT_EQ(to_string(zipped_divide(gq, make_tile(_8{}, _16{}))), "((_8,_16),(_16,_8)):((128,_1),(1024,_16))");
  const auto data = make_layout(make_shape(make_shape(_128{}, _32{}), _1{}, _4{}),
                                make_stride(make_stride(_128{}, _1{}), _0{}, _32{}));
  EXPECT_EQ(to_string(coalesce(data)), "(_128,_128):(_128,_1)");
  EXPECT_EQ(to_string(left_inverse(data)), "(_128,_128):(_128,_1)");
  const auto tv = make_layout(make_shape(make_shape(_2{}, _32{}), _16{}), make_stride(make_stride(_16{}, _32{}), _1{}));
  const auto tvd = composition(make_layout(left_inverse(data), make_layout(_1{}, _0{})), tv);
  EXPECT_EQ(to_string(tvd), "((_2,(_4,_8)),_16):((_2048,(_4096,_1)),_128)");
  EXPECT_EQ(to_string(complement(make_layout(make_shape(_4{}, _8{}), make_stride(_2{}, _16{})), _256{})),
            "(_2,_2,_2):(_1,_8,_128)");
  EXPECT_EQ(to_string(right_inverse(make_layout(make_shape(_4{}, _8{}), make_stride(_8{}, _1{})))), "(_8,_4):(_4,_1)");
  EXPECT_EQ(to_string(upcast<4>(make_layout(make_shape(_8{}, 32), make_stride(_1{}, 8)))), "(_2,32):(_1,2)");
  // A run-time stride that is not a multiple of N: CuTe truncates it (2 / 4 = 0); the law is
  // checked on the host when the values are known.
  EXPECT_THROW(upcast<4>(make_layout(make_shape(_8{}, 32), make_stride(_1{}, 2))), cotile::LawError);
}

TEST(Typed, IndexToCoordinateWithStridesAndIntegersPrint) {
  // CuTe's idx2crd(i, S, D): each mode's (i / D) % S; a run-time result prints as its digits.
  const auto s = make_shape(_4{}, opaque(8));
  const auto d = make_stride(_8{}, _1{});
  EXPECT_EQ(to_string(idx2crd(opaque(29), s, d)), "(3,5)");
  EXPECT_EQ(to_string(idx2crd(Int<29>{}, make_shape(_4{}, _8{}), d)), "(_3,_5)");
  EXPECT_EQ(to_string(crd2idx(make_coord(opaque(3), _5{}), s, d)), "29");
  EXPECT_EQ(to_string(int(opaque(-7))), "-7");
}

TEST(Typed, PreconditionsOnRunTimeValuesAreChecked) {
  // shape_div's divisibility cannot be decided on symbolic values: the engine checks it on the
  // values, as it checks a deferred law (CuTe, unchecked, would round 3 / 4 up to 1).
  EXPECT_EQ(to_string(shape_div(make_shape(opaque(1), opaque(8)), make_shape(opaque(6), opaque(4)))), "(1,2)");
  EXPECT_THROW(shape_div(make_shape(opaque(1), opaque(3)), make_shape(opaque(6), opaque(4))), cotile::Error);
  // A run-time divisor of 0 is an error, not a trap.
  EXPECT_THROW(ceil_div(opaque(8), opaque(0)), cotile::Error);
  EXPECT_THROW(idx2crd(opaque(5), make_shape(opaque(0), opaque(4))), cotile::Error);
  // A layout's extents are >= 0: a run-time negative one is refused on its value.
  EXPECT_EQ(to_string(make_layout(make_shape(opaque(4), opaque(0)))), "(4,0):(_1,4)");
  EXPECT_THROW(make_layout(make_shape(opaque(4), opaque(-8))), cotile::Error);
  EXPECT_THROW(logical_divide(make_layout(_16{}), opaque(-4)), cotile::Error);
}

namespace {
// The message of the error `f` throws ("" if none).
template <class F>
std::string error_of(F f) {
  try {
    f();
  } catch (const cotile::Error& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(Typed, CoordinateFunctionsRefuseNegativeExtents) {
  // A run-time negative extent, refused on its value (CuTe gives (1,-1) and -3 for these); their
  // twins with 4 work.
  const std::string negative = "a layout's shape must not be negative: an extent counts coordinates\n"
                               "  shape = (-4,_2)\n"
                               "  fix: give every mode a size >= 0";
  EXPECT_EQ(error_of([] { (void)idx2crd(opaque(5), make_shape(opaque(-4), _2{})); }), "idx2crd: " + negative);
  EXPECT_EQ(error_of([] { (void)idx2crd(opaque(5), make_shape(opaque(-4), _2{}), make_stride(_1{}, opaque(4))); }),
            "idx2crd: " + negative);
  EXPECT_EQ(error_of([] { (void)crd2idx(opaque(5), make_shape(opaque(-4), _2{}), make_stride(_1{}, opaque(4))); }),
            "crd2idx: " + negative);
  EXPECT_EQ(to_string(idx2crd(opaque(5), make_shape(opaque(4), _2{}))), "(1,1)");
  EXPECT_EQ(to_string(crd2idx(opaque(5), make_shape(opaque(4), _2{}), make_stride(_1{}, opaque(4)))), "5");
}

TEST(Typed, IndexThroughARunTimeZeroStride) {
  // CuTe divides by the stride: a run-time 0 is refused on its value with the engine's message.
  EXPECT_EQ(error_of([] { (void)idx2crd(opaque(5), make_shape(opaque(2), _3{}), make_stride(opaque(0), _2{})); }),
            "idx2crd: a stride of 0 sends every coordinate of the mode to the same index, so no index tells them "
            "apart\n"
            "  shape = 2\n"
            "  stride = 0\n"
            "  fix: give the mode a non-zero stride (idx2crd(c, S) for the natural coordinate)");
  // A mode of extent 1 has one coordinate, 0, which the engine gives (int_tuple_test); the typed
  // layer's arithmetic, fixed at compile time for any extent, divides all the same and refuses.
  EXPECT_EQ(error_of([] { (void)idx2crd(opaque(5), make_shape(opaque(1), _3{}), make_stride(opaque(0), _2{})); }),
            "typed layer: division by zero: a run-time value divides by a run-time 0\n"
            "  dividend = 5\n"
            "  fix: give the extent a nonzero value");
  // The twin with a non-zero stride.
  EXPECT_EQ(to_string(idx2crd(opaque(5), make_shape(opaque(2), _3{}), make_stride(opaque(1), _2{}))), "(1,2)");
}

namespace {
// The refusal of a typed result that differs from the engine's (typed.hpp, check_same_result):
// the operation's name, `differs`, both results, `fix`.
const std::string differs =
    ": the result fixed at compile time differs from the engine's on the run-time values: the algorithm "
    "decided on a run-time value (an order of strides, an extent of 0 or 1) that the compile-time evaluation did "
    "not have\n";
const std::string fix =
    "  fix: make the values it decides on static (Int<N>), or compute on the values with the engine (cotile::)";
}  // namespace

TEST(Typed, FilterOfARunTimeEmptyLayout) {
  // (4,n):(_1,_0) with n = 0 is empty; CuTe's filter drops the _0-stride mode and gives 4:_1, the
  // offsets 0..3 that the empty layout never reaches. The engine keeps the 0 (filter stays empty);
  // the typed result, fixed at compile time, cannot: it differs from the engine's, and is refused.
  EXPECT_EQ(error_of([] { (void)filter(make_layout(make_shape(4, opaque(0)), make_stride(_1{}, _0{}))); }),
            "filter" + differs + "  typed result = 4:_1\n  engine's result = (4,0):(_1,_0)\n" + fix);
  EXPECT_EQ(error_of([] { (void)filter_zeros(make_layout(make_shape(4, opaque(0)), make_stride(_1{}, _0{}))); }),
            "filter_zeros" + differs + "  typed result = (4,_1):(_1,_0)\n  engine's result = (4,0):(_1,_0)\n" + fix);
  // Its twins: a non-zero extent, and a 0 at a mode the result keeps (the result is empty too).
  EXPECT_EQ(to_string(filter(make_layout(make_shape(4, opaque(3)), make_stride(_1{}, _0{})))), "4:_1");
  EXPECT_EQ(to_string(filter(make_layout(make_shape(opaque(0), _4{}), make_stride(_1{}, _0{})))), "0:_1");
}

namespace {
// Engine functions lifted as they are, on their default (not strict) options: with run-time
// strides they order the modes by value (cotile's own complement and left_inverse, which CuTe
// refuses), which the compile-time evaluation cannot.
struct OwnComplement {
  constexpr cotile::Layout operator()(const cotile::Layout& l) const { return cotile::complement(l); }
};
struct OwnLeftInverse {
  static constexpr const char* name = "left_inverse";
  constexpr cotile::Layout operator()(const cotile::Layout& l) const { return cotile::left_inverse(l); }
};
}  // namespace

TEST(Typed, ADecisionOnARunTimeValueIsCheckedOnTheValues) {
  // The compile-time evaluation sees the strides of (_2,_2):(a,b) as unknowns and keeps them in
  // the order written. Where the values agree (a < b), the typed result is the engine's; where
  // they do not, the recorded program would compute (4,0,3):(_1,8,2) for complement of
  // (_2,_2):(4,1), a layout with a 0 extent, where the engine gives (1,2,1):(_1,2,8). Refused.
  const auto l = [](int64_t a, int64_t b) { return make_layout(make_shape(_2{}, _2{}), make_stride(a, b)); };
  EXPECT_EQ(to_string(lift<OwnComplement, Kind::kLayout>(l(opaque(1), opaque(4)))), "(1,2,1):(_1,2,8)");
  EXPECT_EQ(to_string(lift<OwnLeftInverse, Kind::kLayout>(l(opaque(1), opaque(4)))), "(1,4,_2):(_0,_1,_2)");
  EXPECT_EQ(
      error_of([&] { (void)lift<OwnComplement, Kind::kLayout>(l(opaque(4), opaque(1))); }),
      "typed layer" + differs + "  typed result = (4,0,3):(_1,8,2)\n  engine's result = (1,2,1):(_1,2,8)\n" + fix);
  EXPECT_EQ(error_of([&] { (void)lift<OwnLeftInverse, Kind::kLayout>(l(opaque(4), opaque(1))); }),
            "left_inverse" + differs +
                "  typed result = (4,0,_2):(_0,_1,_2)\n  engine's result = (1,4,_2):(_0,_2,_1)\n" + fix);
  // A run-time extent 1, which left_inverse of run-time strides leaves out: the same.
  EXPECT_EQ(
      error_of([] {
        (void)lift<OwnLeftInverse, Kind::kLayout>(
            make_layout(make_shape(opaque(1), _4{}), make_stride(opaque(8), opaque(1))));
      }),
      "left_inverse" + differs + "  typed result = (8,0,_4):(_0,_1,1)\n  engine's result = (1,_4):(_0,1)\n" + fix);
}

TEST(Typed, MaxCommonVectorOfARunTimeEmptyLayout) {
  // (_4,n):(_1,_4) with n = 0 is empty: no index is common to A and B, so only N = 0 holds. The
  // typed N is fixed at compile time (_4, CuTe's); its law, deferred to the values, refuses it.
  const auto a = [](int n) { return make_layout(make_shape(_4{}, opaque(n)), make_stride(_1{}, _4{})); };
  const std::string law =
      ": A(R(i)) = B(R(i)) = i with R(i) an index of A and B fails at i = 3 (R(3) = 3, not an index of both A "
      "and B: sizes 0 and 0)\n"
      "  A = (_4,0):(_1,_4)\n"
      "  B = (_4,0):(_1,_4)\n";
  const std::string fix =
      "\n  fix: A or B is empty, so no index is common to both (N = 0): test for an empty tensor before choosing a "
      "vector width";
  EXPECT_EQ(error_of([&] { (void)max_common_vector(a(0), a(0)); }),
            "max_common_vector" + law + "  CuTe 4.7 returns _4 here" + fix);
  EXPECT_EQ(error_of([&] { (void)max_common_layout(a(0), a(0)); }),
            "max_common_layout" + law + "  CuTe 4.7 returns _4:_1 here" + fix);
  // Its twins: a non-zero extent, and a static 0 (CuTe's _0: the law holds with no index to check).
  EXPECT_EQ(to_string(max_common_vector(a(3), a(3))), "_4");
  EXPECT_EQ(to_string(max_common_layout(a(3), a(3))), "_4:_1");
  const auto e = make_layout(make_shape(_4{}, _0{}), make_stride(_1{}, _4{}));
  EXPECT_EQ(to_string(max_common_vector(e, e)), "_0");
}

TEST(Typed, RunTimeArithmeticOverflowIsAnError) {
  // Computed in int, as CuTe computes with int arguments: where its arithmetic would wrap, the
  // host's replay refuses; with int64_t arguments the same values are exact.
  const int big = int(opaque(2'000'000'000));
  EXPECT_EQ(size(make_shape(int64_t(big), _2{})), 4'000'000'000);
  EXPECT_EQ(error_of([&] { (void)size(make_shape(big, _2{})); }),
            "typed layer: 32-bit overflow: a run-time result does not fit the int its arguments are computed in\n"
            "  operation = a * b\n"
            "  a = 2000000000\n"
            "  b = 2\n"
            "  exact result = 4000000000\n"
            "  fix: pass the run-time values as int64_t");
  EXPECT_EQ(ceil_div(big, big), 1);  // no a + b - 1 here (CuTe's formula, which wraps in int)
  // A static layout at a run-time int index: the offset 1024 * 2^22 + 3906 is past int.
  const auto l = make_layout(make_shape(_4096{}, _4096{}), make_stride(Int<4194304>{}, _1{}));
  EXPECT_EQ(l(opaque(16'000'000)), 4294971202);
  EXPECT_NE(error_of([&] { (void)l(int(opaque(16'000'000))); }).find("32-bit overflow"), std::string::npos);
  EXPECT_EQ(l(int(opaque(819'700))), 2'097'152'200);  // 500 * 2^22 + 200: within int
  // 64-bit: the engine's own check, on the values.
  EXPECT_EQ(error_of([&] { (void)(opaque(int64_t(1) << 62) * _4{}); }), "integer arithmetic: 64-bit overflow in a * b\n"
                                                                        "  a = 4611686018427387904\n"
                                                                        "  b = 4\n"
                                                                        "  fix: use smaller shapes or strides");
  // Any integral type enters, bool and char too; one its operation's integer type cannot hold is refused.
  EXPECT_EQ(ceil_div(char(opaque(7)), true), 7);
  EXPECT_EQ(error_of([&] { (void)ceil_div(uint64_t(opaque(-1)), int64_t(2)); }),
            "typed layer: a run-time integer does not fit the integer type its operation computes in\n"
            "  value = 18446744073709551615\n"
            "  fix: pass values below 2^63 as int64_t");
}

// cosize of run-time extents: 0 where one is 0; a static cosize stays static (that of every
// non-empty layout of the shape).
TEST(Typed, CosizeOfARunTimeEmptyLayout) {
  for (int64_t n : {0, 3})
    EXPECT_EQ(cosize(make_layout(make_shape(opaque(n), _4{}), make_stride(_1{}, opaque(8)))), n ? 27 : 0);
  static_assert(std::is_same_v<decltype(cosize(make_layout(opaque(0), _0{}))), _1>);
}

TEST(Typed, DynamicValuesFlowThroughTheProgram) {
  for (int64_t ld : {64, 100, 1000}) {
    const auto l = make_layout(make_shape(_16{}, opaque(ld)), make_stride(opaque(ld), _1{}));
    const auto c = composition(l, make_layout(make_shape(_4{}, _4{}), make_stride(_4{}, _1{})));
    const cotile::Layout e =
        cotile::composition(engine(l), engine(make_layout(make_shape(_4{}, _4{}), make_stride(_4{}, _1{}))));
    EXPECT_EQ(to_string(c), cotile::to_string(e));
    for (int64_t i = 0; i < 16; ++i) EXPECT_EQ(c(i), cotile::eval(e, int(i)).value);
  }
}

TEST(Typed, TensorsSliceTileAndPartition) {
  static float buf[64 * 64];
  for (int i = 0; i < 64 * 64; ++i) buf[i] = float(i);
  const auto t = make_tensor(make_gmem_ptr(buf), make_layout(make_shape(_64{}, _64{}), make_stride(opaque(64), _1{})));
  const auto tile = local_tile(t, make_tile(_16{}, _8{}), make_coord(1, 2));
  EXPECT_EQ(tile(0, 0), 16 * 64 + 16);
  EXPECT_EQ(to_string(tile.layout()), "(_16,_8):(64,_1)");
  const auto part = local_partition(tile, make_layout(make_shape(_4{}, _2{})), 5);
  EXPECT_EQ(to_string(part.layout()), "(_4,_4):(256,_2)");
  EXPECT_EQ(part(0), 1105);
  const auto col = t(_, 3);
  EXPECT_EQ(col(2), 131);
  auto reg = make_tensor<float>(make_layout(make_shape(_2{}, _4{})));
  reg(1, 2) = 7;
  EXPECT_EQ(reg[5], 7);
  const auto id = make_identity_tensor(make_shape(_4{}, _8{}));
  EXPECT_EQ(to_string(id(3, 5)), "(3,5)");
  EXPECT_EQ(elem_less(id(3, 5), make_coord(4, 6)), 1);
  EXPECT_EQ(elem_less(id(3, 5), make_coord(4, 5)), 0);
  const auto r = recast<double>(make_tensor(make_gmem_ptr(buf), make_layout(make_shape(_8{}, _4{}))));
  EXPECT_EQ(to_string(r.layout()), "(_4,_4):(_1,_4)");
}

// CuTe's pointer spellings: gmem_ptr<T*> is a pointer to T in global memory, as make_gmem_ptr
// of a T* and make_gmem_ptr<T>(void*) make; likewise smem.
TEST(Typed, MemorySpacePointersAreSpelledAsInCute) {
  static float buf[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  static_assert(std::is_same_v<decltype(make_gmem_ptr(buf + 0)), gmem_ptr<float*>>);
  static_assert(std::is_same_v<gmem_ptr<float*>::value_type, float>);
  void* raw = buf;
  const void* craw = buf;
  const auto p = make_gmem_ptr<float>(raw);
  static_assert(std::is_same_v<decltype(p), const gmem_ptr<float*>>);
  static_assert(std::is_same_v<decltype(make_gmem_ptr<float>(craw)), gmem_ptr<const float*>>);
  static_assert(std::is_same_v<decltype(make_smem_ptr<float>(raw)), smem_ptr<float*>>);
  static_assert(std::is_same_v<decltype(make_smem_ptr<float>(craw)), smem_ptr<const float*>>);
  static_assert(std::is_same_v<decltype(make_gmem_ptr<const float>(nullptr)), gmem_ptr<const float*>>);
  static_assert(std::is_same_v<decltype(make_smem_ptr<float>(nullptr)), smem_ptr<float*>>);
  EXPECT_EQ(make_gmem_ptr<float>(nullptr).get(), nullptr);
  const auto t = make_tensor(p, make_layout(make_shape(_2{}, _4{})));
  EXPECT_EQ(t(1, 3), 7.0f);
  EXPECT_EQ(make_gmem_ptr<float>(craw)[5], 5.0f);
}

// The FMHA decode kernel's Q-load path written as kernel code (§5–§8).
TEST(Typed, SpecChainAsKernelCode) {
  static uint8_t q[128 * 128];
  const int64_t D = opaque(128);
  const auto gQ = make_tensor(make_gmem_ptr(q), make_layout(make_shape(_128{}, _128{}), make_stride(D, _1{})));
  const auto mma = make_tiled_mma<MmaFamily::kSm100_Umma_SS, Elem::kE5M2, Elem::kE5M2, 128, 64>();
  const auto tSgQ = partition_A(mma, gQ, 0);
  EXPECT_EQ(to_string(tSgQ.layout()), "((_128,_32),_1,_4):((128,_1),_0,_32)");
  const auto data = make_layout(shape(tSgQ.layout()),
                                replace<0>(stride(tSgQ.layout()), replace<0>(get<0>(stride(tSgQ.layout())), _128{})));
  EXPECT_EQ(to_string(data), "((_128,_32),_1,_4):((_128,_1),_0,_32)");
  const auto atom =
      make_layout(make_shape(make_shape(_2{}, _32{}), _16{}), make_stride(make_stride(_16{}, _32{}), _1{}));
  const auto tc = make_cotiled_copy<CopyOp::kCpAsync16B, Elem::kE5M2>(atom, data);
  EXPECT_EQ(to_string(layout_tv(tc)), "((_2,(_4,_8)),_16):((_1,(_256,_2)),_16)");
  EXPECT_EQ(to_string(get_layoutS_TV(tc)), "((_2,_4,_8),(_16,_1)):((_1,_256,_2),(_16,_0))");
  static_assert(decltype(size(tc))::value == 64);
  for (int t = 0; t < 64; ++t) {
    const auto part = partition_S(tc, tSgQ, opaque(t));
    EXPECT_EQ(to_string(part.layout()), "((_16,_1),_16,_1,_1):((_1,_0),1024,_0,_0)");
    EXPECT_EQ(part.data().get() - q, 128 * (t / 8) + 16 * (t % 8));
  }
}

// retile of a fragment already in the copy's (values, M, N) shape is that fragment unchanged, and
// a retiled fragment covers every register exactly once.
TEST(Typed, RetileKeepsAPartitionShapedFragment) {
  const auto tc = make_tiled_copy<CopyOp::kU128, Elem::kHalf>(
      make_layout(make_shape(_32{}, _4{}), make_stride(_4{}, _1{})), make_layout(make_shape(_1{}, _8{})));
  const auto src = make_tensor(OffsetIter{}, make_layout(make_shape(_64{}, _64{}), make_stride(opaque(64), _1{})));
  auto frag = make_tensor<float>(make_layout(shape(partition_S(tc, src, 0).layout())));
  EXPECT_EQ(to_string(frag.layout()), "((_8,_1),_2,_2):((_1,_0),_8,_16)");
  const auto same = retile_S(tc, frag);
  EXPECT_EQ(to_string(same.layout()), to_string(frag.layout()));
  auto flat = make_tensor<float>(make_layout(make_shape(_8{}, _2{}, _2{})));
  const auto rt = retile_D(tc, flat);
  EXPECT_EQ(to_string(rt.layout()), "((_8,_1),_2,_2):((_1,_0),_8,_16)");
  const cotile::Layout e = cotile::retile(decltype(tc)::value, engine(flat.layout()));
  EXPECT_EQ(cotile::to_string(e), to_string(rt.layout()));
  std::vector<int> hits(32, 0);
  for (int i = 0; i < 32; ++i) ++hits[rt.layout()(i)];
  for (int h : hits) EXPECT_EQ(h, 1);
}

// A thread slice partitions exactly as the free functions with that thread index do.
TEST(Typed, ThreadSliceMatchesFreePartition) {
  const auto tc = make_tiled_copy<CopyOp::kU128, Elem::kHalf>(
      make_layout(make_shape(_32{}, _4{}), make_stride(_4{}, _1{})), make_layout(make_shape(_1{}, _8{})));
  const auto g = make_tensor(OffsetIter{}, make_layout(make_shape(_64{}, _64{}), make_stride(opaque(64), _1{})));
  for (int t = 0; t < 128; ++t) {
    const auto a = get_slice(tc, t).partition_S(g);
    const auto b = partition_S(tc, g, t);
    EXPECT_EQ(to_string(a.layout()), to_string(b.layout()));
    EXPECT_EQ(*a.data(), *b.data());
    EXPECT_EQ(*a.data(), (t / 4) * 64 + (t % 4) * 8);
  }
  const auto mma = make_tiled_mma<MmaFamily::kSm80_16x8x16, Elem::kHalf, Elem::kHalf, 16, 8>(
      make_layout(make_shape(_2{}, _2{}, _1{})));
  const auto c = make_tensor(OffsetIter{}, make_layout(make_shape(_64{}, _32{})));
  for (int t = 0; t < 128; ++t) {
    const auto p = get_thread_slice(mma, t).partition_C(c);
    EXPECT_EQ(to_string(p.layout()), to_string(partition_C(mma, c, t).layout()));
  }
  const auto fr = partition_fragment_C<float>(mma, c, 3);
  EXPECT_EQ(to_string(fr.layout()), "((_2,_2),_2,_2):((_1,_2),_4,_8)");
}

// Atom layouts are the engine's traits as static types (SM80 16x8x16 A: CuTe's ALayout).
TEST(Typed, AtomLayoutsAreStatic) {
  using Ldsm = CopyAtom<CopyOp::kLdsmX4, Elem::kHalf>;
  EXPECT_EQ(to_string(Ldsm::val_layout_src()), "(_32,_8):(_8,_1)");
  static_assert(decltype(size(Ldsm::thr_id()))::value == 32);
  using Mma = MmaAtom<MmaFamily::kSm80_16x8x16, Elem::kHalf, Elem::kHalf, 16, 8>;
  EXPECT_EQ(to_string(Mma::layout_a()), "((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))");
  EXPECT_EQ(to_string(Mma::shape_mnk()), "(_16,_8,_16)");
}

// A swizzled shared-memory tile: Sw<3,4,3> o _0 o (_8,_64):(_64,_1); the functor XORs offset
// bits 7..9 into bits 4..6 (x ^ ((x & 0x380) >> 3)); tile_to_shape keeps the swizzle.
TEST(Typed, SwizzledLayoutsEvaluateAndTile) {
  const auto atom = composition(Swizzle<3, 4, 3>{}, make_layout(make_shape(_8{}, _64{}), make_stride(_64{}, _1{})));
  EXPECT_EQ(to_string(atom), "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)");
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 64; ++c) {
      const int x = r * 64 + c;
      EXPECT_EQ(atom(r, c), x ^ ((x & 0x380) >> 3)) << r << "," << c;
    }
  const auto smem = tile_to_shape(atom, make_shape(_64{}, _128{}));
  EXPECT_EQ(to_string(smem), "Sw<3,4,3> o _0 o ((_8,_8),(_64,_2)):((_64,_512),(_1,_4096))");
  std::vector<int> hits(64 * 128, 0);
  for (int i = 0; i < 64 * 128; ++i) ++hits[smem(i)];
  for (int h : hits) EXPECT_EQ(h, 1);
  static_assert(Swizzle<3, 4, 3>{}(0x80) == (0x80 ^ 0x10));
  // max_alignment: the swizzle keeps blocks of 2^4; the row-major layout's 512 offsets are one
  // block; the swizzled tiles, gcd(16, _0, ...) = 16 (CuTe's; vectorized copies use it).
  static_assert(std::is_same_v<decltype(max_alignment(Swizzle<3, 4, 3>{})), _16>);
  static_assert(std::is_same_v<decltype(max_alignment(atom.layout)), Int<512>>);
  static_assert(std::is_same_v<decltype(max_alignment(atom)), _16> &&
                std::is_same_v<decltype(max_alignment(smem)), _16>);
}

// The inverses of a swizzled layout are swizzled layouts (CuTe's results, their laws checked by
// the engine at compile time): C(R(i)) = i, C(R(C(i))) = C(i).
TEST(Typed, SwizzledLayoutsInvert) {
  const auto c = composition(Swizzle<1, 0, 1>{}, Layout<Shape<_4, _4>, Stride<_8, _1>>{});
  const auto r = right_inverse(c);
  const auto l = left_inverse(c);
  EXPECT_EQ(to_string(r), "Sw<1,2,1> o _0 o _4:_4");
  EXPECT_EQ(to_string(l), "Sw<1,2,1> o _0 o (_8,_4):(_4,_1)");
  static_assert(std::is_same_v<decltype(size(r)), _4> && std::is_same_v<decltype(size(c)), _16>);
  for (int i = 0; i < size(r); ++i) EXPECT_EQ(c(r(i)), i);
  for (int i = 0; i < size(c); ++i) EXPECT_EQ(c(l(c(i))), c(i));
  const auto t = composition(Swizzle<2, 0, 3>{}, Layout<Shape<_8, _8>, Stride<_8, _1>>{});
  EXPECT_EQ(to_string(left_inverse(t)), "Sw<2,0,-3> o _0 o (_8,_8):(_8,_1)");
  EXPECT_EQ(to_string(shape(t)), "(_8,_8)");
}

// Compositions with swizzles (CuTe's results, printed by CuTe 4.7): L o Sw = Sw' o _0 o L (its law
// checked by the engine at compile time), (Sw o k o L) o T = Sw o k o (L o T), and
// A o (Sw o _0 o L) = (A o Sw) o L; each equal to the functions composed, point by point.
TEST(Typed, SwizzledLayoutsCompose) {
  const auto a = Layout<Shape<_8, _8>, Stride<_8, _1>>{};
  const auto sw = composition(Swizzle<2, 0, -3>{}, a);
  const auto r = composition(a, sw);
  EXPECT_EQ(to_string(r), "Sw<2,0,3> o _0 o (_8,_8):(_1,_8)");
  for (int i = 0; i < 64; ++i) EXPECT_EQ(r(i), a(sw(i)));
  const auto l = composition(Layout<Shape<_4, _8>, Stride<_8, _1>>{}, Swizzle<1, 0, 3>{});
  EXPECT_EQ(to_string(l), "Sw<1,1,-2> o _0 o (_4,_8):(_8,_1)");
  const auto inner = Layout<Shape<_4, _8>, Stride<_8, _1>>{};
  for (int i = 0; i < 32; ++i) EXPECT_EQ(l(i), inner(Swizzle<1, 0, 3>{}(i)));
  const auto t = composition(composition(Swizzle<2, 0, 3>{}, a), Layout<Shape<_4, _2>, Stride<_1, _8>>{});
  EXPECT_EQ(to_string(t), "Sw<2,0,3> o _0 o (_4,_2):(_8,_1)");
  // a swizzled layout after a swizzled layout: two swizzles, nested
  const auto s3 = composition(Swizzle<2, 0, 3>{}, a);
  const auto nested = composition(s3, sw);
  static_assert(std::is_same_v<decltype(size(nested)), _64>);
  EXPECT_TRUE(compatible(sw, nested));
  for (int i = 0; i < 64; ++i) EXPECT_EQ(nested(i), s3(sw(i)));
}

// nullspace: CuTe's results (printed by CuTe 4.7), static and with run-time leaves.
TEST(Typed, NullspaceOfTheZeroStrideModes) {
  EXPECT_EQ(to_string(nullspace(Layout<Shape<_2, _2, _2>, Stride<_0, _0, _0>>{})), "(_2,_2,_2):(_1,_2,_4)");
  EXPECT_EQ(to_string(nullspace(Layout<Shape<_7, _5, _16>, Stride<_3, _1, _0>>{})), "_16:_35");
  EXPECT_EQ(to_string(nullspace(Layout<Shape<_2, _2, _2>, Stride<_1, _0, _2>>{})), "_2:_2");
  EXPECT_EQ(to_string(nullspace(Layout<Shape<_2, _2>, Stride<_1, _2>>{})), "_1:_0");
  const auto l =
      make_layout(make_shape(opaque(4), make_shape(_2{}, opaque(3))), make_stride(_0{}, make_stride(opaque(2), _0{})));
  EXPECT_EQ(to_string(nullspace(l)), "(4,3):(_1,8)");
  // A run-time empty layout: CuTe's K names index 0, which it does not have (checked on the values).
  EXPECT_THROW(nullspace(make_layout(make_shape(opaque(0), _2{}), make_stride(_1{}, _0{}))), cotile::LawError);
}

// tile_to_shape's law, on a run-time target: the block's extent must divide it (CuTe rounds it up,
// 4 elements for 3); composition, downcast: the engine's answers, with CuTe's modes.
TEST(Typed, LawsOfTheRunTimeValuesAreChecked) {
  const auto block = make_layout(_2{}, _1{});
  EXPECT_EQ(to_string(tile_to_shape(block, make_shape(opaque(4)))), "((_2,(2))):((_1,(_2)))");
  EXPECT_THROW(tile_to_shape(block, make_shape(opaque(3))), cotile::LawError);
  // The typed layer keeps CuTe's modes: composition refuses what the calculator joins by value.
  EXPECT_THROW(composition(make_layout(make_shape(opaque(4), opaque(2)), make_stride(opaque(8), opaque(32))),
                           make_layout(opaque(2), opaque(5))),
               cotile::LawError);
  EXPECT_EQ(to_string(downcast<8>(Layout<Shape<_4, _1>, Stride<_1, _1>>{})), "(_32,_1):(_1,_8)");
}

// A tensor over a swizzled layout: slicing moves the offset inside the swizzle (static where the
// coordinate is); counting_iterator's elements are their offsets; size<I>, rank, layout as CuTe's.
TEST(Typed, SwizzledTensorsSliceInsideTheSwizzle) {
  const auto sw = composition(Swizzle<3, 0, 3>{}, Layout<Shape<_8, _8>, Stride<_8, _1>>{});
  const auto t = make_tensor(counting_iterator<int>{0}, sw);
  static_assert(std::is_same_v<decltype(size<0>(t)), _8> && std::is_same_v<decltype(size<1>(sw)), _8>);
  static_assert(std::is_same_v<decltype(rank(t)), _2> && std::is_same_v<decltype(size(t)), _64>);
  for (int i = 0; i < 8; ++i) {
    const auto row = t(opaque(i), _);
    const auto col = t(_, opaque(i));
    for (int j = 0; j < 8; ++j) {
      EXPECT_EQ(t(i, j), sw(i, j));
      EXPECT_EQ(t(i, j), (8 * i + j) ^ i);  // Sw<3,0,3>: row bits XORed into the column bits
      EXPECT_EQ(row(j), t(i, j));
      EXPECT_EQ(col(j), t(j, i));
    }
  }
  const auto row3 = t(_3{}, _);
  static_assert(is_static_v<decltype(layout(row3))> && !is_static_v<decltype(layout(t(opaque(3), _)))>);
  EXPECT_EQ(to_string(layout(row3)), "Sw<3,0,3> o _24 o (_8):(_1)");
  EXPECT_EQ(to_string(layout(t(opaque(3), _))), "Sw<3,0,3> o 24 o (_8):(_1)");
  const auto offsets = make_tensor(OffsetIter{5}, Layout<Shape<_4, _2>>{});
  EXPECT_EQ(offsets(3, 1), 5 + 7);
  EXPECT_EQ(*offsets(_, 1).data(), 5 + 4);
}

// max_alignment of a layout with run-time parts: static, from the static parts (a run-time
// extent counts as 1, a run-time stride as a large multiple).
TEST(Typed, MaxAlignmentComesFromTheStaticParts) {
  const auto l = make_layout(make_shape(_4{}, opaque(8)), make_stride(_1{}, opaque(12)));
  static_assert(std::is_same_v<decltype(max_alignment(l)), _4>);
  static_assert(std::is_same_v<decltype(max_alignment(make_layout(make_shape(_8{}, _8{}), make_stride(_1{}, _12{})))),
                               _4>);  // gcd(8, 12)
  static_assert(std::is_same_v<decltype(max_alignment(make_layout(make_shape(_4{}, _8{}), GenRowMajor{}))), _32>);
  static_assert(std::is_same_v<decltype(max_alignment(_8{})), _8>);
}

// CuTe's spelling of a layout type names the type make_layout returns; the stride defaults to
// the compact column-major one, and a default-constructed layout's dynamic leaves are 0.
TEST(Typed, LayoutShapeStrideIsTheTypeMakeLayoutReturns) {
  using A = Layout<Shape<Shape<_2, _2>, Shape<_2, _2>>, Stride<Stride<_1, _4>, Stride<_8, _32>>>;
  static_assert(
      std::is_same_v<A, decltype(make_layout(make_shape(make_shape(_2{}, _2{}), make_shape(_2{}, _2{})),
                                             make_stride(make_stride(_1{}, _4{}), make_stride(_8{}, _32{}))))>);
  static_assert(std::is_same_v<Layout<Shape<_4, _8>>, decltype(make_layout(make_shape(_4{}, _8{})))>);
  static_assert(std::is_same_v<Layout<_1, _0>, decltype(make_layout(_1{}, _0{}))>);
  static_assert(is_static_v<A> && !is_static_v<Layout<Shape<int, _8>>>);
  EXPECT_EQ(to_string(A{}), "((_2,_2),(_2,_2)):((_1,_4),(_8,_32))");
  EXPECT_EQ(to_string(Layout<_1, _0>{}), "_1:_0");
  EXPECT_EQ(to_string(Layout<Shape<_4, _8>>{}), "(_4,_8):(_1,_4)");
  EXPECT_EQ(to_string(Layout<Shape<int, _8>>{}), "(0,_8):(_1,0)");
  EXPECT_EQ(to_string(coalesce(A{})), "(_2,_4,_2):(_1,_4,_32)");
}

// Layouts are equal when shape and stride are: a static Int where every leaf compared is static.
TEST(Typed, LayoutEqualityComparesShapeAndStride) {
  static_assert(std::is_same_v<decltype(Layout<Shape<_2, _2>>{} == Layout<Shape<_2, _2>, Stride<_1, _2>>{}), _1>);
  static_assert(std::is_same_v<decltype(Layout<Shape<_2, _2>>{} != Layout<Shape<_2, _2>, Stride<_1, _2>>{}), _0>);
  static_assert(std::is_same_v<decltype(Layout<Shape<_2, _2>>{} == Layout<Shape<_2, _2>, Stride<_1, _3>>{}), _0>);
  static_assert(std::is_same_v<decltype(Layout<Shape<_2, _2>>{} == Layout<_4>{}), _0>);  // profiles differ
  const auto d = make_layout(make_shape(opaque(2), _2{}));
  const auto e = make_layout(make_shape(opaque(2), _2{}), make_stride(_1{}, opaque(2)));
  const auto g = make_layout(make_shape(opaque(3), _2{}));
  EXPECT_TRUE(d == e);
  EXPECT_FALSE(d != e);
  EXPECT_FALSE(d == g);
  EXPECT_TRUE(d != g);
}
