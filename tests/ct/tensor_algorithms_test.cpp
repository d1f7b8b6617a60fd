// make_layout_like / make_fragment_like (engine and typed) against CuTe's printed results and
// their laws on generated layouts; the typed tensor algorithms (copy, copy_if, fill, clear, axpby,
// transform, make_tensor_like, make_fragment_like) on memory and register tensors.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "cotile/cotile.hpp"
#include "cotile/ct/ct.hpp"
#include "cotile/text/parse.hpp"

namespace {

using cotile::Layout;
namespace ct = cotile::ct;
using ct::_1;
using ct::_2;
using ct::_3;
using ct::_4;
using ct::_8;

Layout parse(const char* s) { return cotile::text::parse(s).layout; }

// CuTe (NVIDIA/cutlass 7107b0553, g++ host build) printed these for make_layout_like and
// make_fragment_like of the layouts on the left.
struct LikeCase {
  const char* layout;
  const char* like;
  const char* fragment;
};
const LikeCase kCute[] = {
    {"((_2,_2),_4):((_1,_8),_2)", "((_2,_2),_4):((_1,_8),_2)", "((_2,_2),(_4)):((_1,_2),(_4))"},
    {"((_2,_2),_4,_2):((_1,_8),_2,_32)", "((_2,_2),_4,_2):((_1,_8),_2,_16)", "((_2,_2),_4,_2):((_1,_2),_4,_16)"},
    {"(_2,_2,_2,_2):(_0,_2,_4,_1)", "(_2,_2,_2,_2):(_0,_2,_4,_1)", "(_2,_2,_2,_2):(_0,_2,_4,_1)"},
    {"(2,3,4,5):(_0,42,_1,_0)", "(2,3,4,5):(_0,4,_1,_0)", "(2,3,4,5):(_1,2,6,24)"},
    {"((_4,_2),_2,_3):((_0,_1),_64,_8)", "((_4,_2),_2,_3):((_0,_1),_6,_2)", "((_4,_2),_2,_3):((_0,_1),_6,_2)"},
    {"(_8,_4):(_4,_1)", "(_8,_4):(_4,_1)", "(_8,(_4)):(_1,(_8))"},
    {"(_8):(_4)", "(_8):(_1)", "(_8):(_1)"},
    {"(8,_4):(_4,_1)", "(8,_4):(_4,_1)", "(8,_4):(_1,8)"},
    {"((_2,_4),(_3,_2)):((_12,_1),(_4,_24))", "((_2,_4),(_3,_2)):((_12,_1),(_4,_24))",
     "((_2,_4),((_3,_2))):((_1,_2),((_8,_24)))"},
};

TEST(Like, EngineMatchesCute) {
  for (const LikeCase& c : kCute) {
    EXPECT_EQ(cotile::to_string(cotile::make_layout_like(parse(c.layout))), c.like) << c.layout;
    EXPECT_EQ(cotile::to_string(cotile::make_fragment_like(parse(c.layout))), c.fragment) << c.layout;
  }
}

// Where CuTe's result aliases (equal strides order two modes alike), cotile's is compact; CuTe
// (7107b0553) printed the results in the comments.
TEST(Like, EqualStridesDoNotAlias) {
  EXPECT_EQ(cotile::to_string(cotile::make_fragment_like(parse("(_4,_4,_2):(_0,_0,_0)"))), "(_4,_4,_2):(_0,_1,_4)");
  // CuTe: (_4,_4,_2):(_0,_1,_1)
  EXPECT_EQ(cotile::to_string(cotile::make_layout_like(parse("(_4,_4,_2):(_1,_8,_8)"))), "(_4,_4,_2):(_1,_4,_16)");
  // CuTe: (_4,_4,_2):(_1,_4,_4)
  EXPECT_EQ(cotile::to_string(cotile::make_fragment_like(parse("(_4,_2,(_1,_4)):(_4,_0,(_1,_0))"))),
            "(_4,_2,(_1,_4)):(_1,_4,(_0,_8))");
  // CuTe: (_4,_2,(_1,_4)):(_1,_4,(_0,_4))
}

TEST(Like, TypedMatchesCute) {
  const auto a = ct::make_layout(ct::make_shape(ct::make_shape(_2{}, _2{}), _4{}, _2{}),
                                 ct::make_stride(ct::make_stride(_1{}, _8{}), _2{}, ct::Int<32>{}));
  EXPECT_EQ(ct::to_string(ct::make_layout_like(a)), kCute[1].like);
  EXPECT_EQ(ct::to_string(ct::make_fragment_like(a)), kCute[1].fragment);
  static_assert(ct::is_static_v<decltype(ct::make_fragment_like(a))>, "a static layout's fragment is static");
  const auto d = ct::make_layout(ct::make_shape(8, _4{}), ct::make_stride(_4{}, _1{}));
  EXPECT_EQ(ct::to_string(ct::make_fragment_like(d)), kCute[7].fragment);
  EXPECT_EQ(ct::to_string(ct::make_layout_like(d)), kCute[7].like);
}

// A generated layout: 1-3 modes (nested or not) of extents 1-4, static or dynamic; strides a
// random order of compact strides times a factor, some of them a static _0.
Layout generated(std::mt19937& rng, bool dynamic) {
  std::uniform_int_distribution<int> modes(1, 3), extent(1, 4), coin(0, 3);
  const int r = modes(rng);
  std::vector<int> ext;
  std::vector<int> nest;  // leaves in each top-level mode
  for (int m = 0; m < r; ++m) {
    const int k = coin(rng) == 0 ? 2 : 1;
    nest.push_back(k);
    for (int j = 0; j < k; ++j) ext.push_back(extent(rng));
  }
  std::vector<int> order(ext.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = int(i);
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<int64_t> stride(ext.size());
  int64_t run = 1 + coin(rng) % 2;
  for (int i : order) stride[size_t(i)] = run, run *= ext[size_t(i)];
  if (ext.size() > 1 && coin(rng) == 0) stride[1] = stride[0];  // equal strides: aliasing modes
  auto leaf = [&](size_t i, bool is_stride) {
    const int64_t v = is_stride ? stride[i] : ext[i];
    const bool zero = is_stride && coin(rng) == 0;
    const bool dyn = dynamic && coin(rng) < 2 && !zero;
    return zero ? std::string("_0") : (dyn ? "" : "_") + std::to_string(v);
  };
  std::string s = "(", d = "(";
  size_t k = 0;
  for (int m = 0; m < r; ++m) {
    const std::string sep = m ? "," : "";
    std::string ms, md;
    for (int j = 0; j < nest[size_t(m)]; ++j, ++k) {
      ms += (j ? "," : "") + leaf(k, false);
      md += (j ? "," : "") + leaf(k, true);
    }
    if (nest[size_t(m)] > 1) ms = "(" + ms + ")", md = "(" + md + ")";
    s += sep + ms, d += sep + md;
  }
  return parse((s + "):" + d + ")").c_str());
}

// R's image over its domain, with the modes of static _0 stride held at 0, is exactly [0, n).
bool compact(const Layout& r) {
  const Layout f = cotile::filter_zeros(r);
  const int64_t n = cotile::size(f).value;
  std::vector<int64_t> seen;
  for (int64_t i = 0; i < n; ++i) seen.push_back(cotile::eval(f, i).value);
  std::sort(seen.begin(), seen.end());
  for (int64_t i = 0; i < n; ++i)
    if (seen[size_t(i)] != i) return false;
  return true;
}

TEST(Like, LawsOnGeneratedLayouts) {
  std::mt19937 rng(7);
  int checked = 0;
  for (int t = 0; t < 600; ++t) {
    const Layout l = generated(rng, t % 2 == 1);
    const Layout like = cotile::make_layout_like(l), frag = cotile::make_fragment_like(l);
    // Law: the same shape; compact (also where equal strides make CuTe's result alias).
    EXPECT_EQ(cotile::to_string(like.shape), cotile::to_string(l.shape)) << cotile::to_string(l);
    EXPECT_TRUE(compact(like)) << cotile::to_string(l) << " -> " << cotile::to_string(like);
    // Law: the same profile of sizes per mode, compact, mode 0 column-major.
    EXPECT_EQ(cotile::size(frag).value, cotile::size(l).value) << cotile::to_string(l);
    EXPECT_EQ(cotile::rank(frag).value, cotile::rank(l).value) << cotile::to_string(l);
    EXPECT_TRUE(compact(frag)) << cotile::to_string(l) << " -> " << cotile::to_string(frag);
    ++checked;
  }
  EXPECT_EQ(checked, 600);
}

TEST(TensorAlgorithms, CopyBetweenLayouts) {
  std::vector<float> a(24), b(24, -1.0f);
  for (int i = 0; i < 24; ++i) a[size_t(i)] = float(i);
  const auto col = ct::make_tensor(ct::make_gmem_ptr(a.data()), ct::make_layout(ct::make_shape(_4{}, ct::Int<6>{})));
  const auto row = ct::make_tensor(ct::make_gmem_ptr(b.data()), ct::make_layout(ct::make_shape(_4{}, ct::Int<6>{}),
                                                                                ct::make_stride(ct::Int<6>{}, _1{})));
  ct::copy(col, row);  // a transpose: b[m * 6 + n] = a[n * 4 + m]
  for (int m = 0; m < 4; ++m)
    for (int n = 0; n < 6; ++n) EXPECT_EQ(b[size_t(m * 6 + n)], a[size_t(n * 4 + m)]) << m << "," << n;
  // Dynamic shapes: the same, sizes checked at run time.
  const auto dyn = ct::make_tensor(ct::make_gmem_ptr(b.data()), ct::make_layout(ct::make_shape(4, 6)));
  ct::copy(col, dyn);
  EXPECT_EQ(a, b);
}

TEST(TensorAlgorithms, SizeMismatchIsAnError) {
  std::vector<float> a(24), b(24);
  const auto x = ct::make_tensor(ct::make_gmem_ptr(a.data()), ct::make_layout(ct::make_shape(4, 6)));
  const auto y = ct::make_tensor(ct::make_gmem_ptr(b.data()), ct::make_layout(ct::make_shape(4, 5)));
  try {
    ct::copy(x, y);
    FAIL() << "no error";
  } catch (const cotile::Error& e) {
    EXPECT_EQ(std::string(e.what()), "copy: the tensors differ in size\n  first = 24\n  second = 20\n"
                                     "  fix: partition or slice them to the same number of elements");
  }
  EXPECT_THROW(ct::axpby(2.0f, x, 1.0f, y), cotile::Error);
  EXPECT_THROW(ct::transform(x, y, [](float v) { return v; }), cotile::Error);
}

TEST(TensorAlgorithms, PredicatedCopyFillClearAxpbyTransform) {
  std::vector<int> src(32), dst(32, 0);
  for (int i = 0; i < 32; ++i) src[size_t(i)] = 100 + i;
  const auto shape = ct::make_shape(_8{}, _4{});
  const auto s = ct::make_tensor(ct::make_gmem_ptr(src.data()), ct::make_layout(shape));
  const auto d = ct::make_tensor(ct::make_gmem_ptr(dst.data()), ct::make_layout(shape));
  // copy_if with a predicate from an identity tensor: rows m < 5 only (a residue tile's mask)
  const auto id = ct::make_identity_tensor(shape);
  auto pred = ct::make_tensor<bool>(ct::make_layout(shape));
  for (int i = 0; i < 32; ++i) pred(i) = ct::get<0>(id(i)) < 5;
  ct::copy_if(pred, s, d);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(dst[size_t(i)], i % 8 < 5 ? 100 + i : 0) << i;
  ct::fill(d, 7);
  EXPECT_EQ(std::count(dst.begin(), dst.end(), 7), 32);
  ct::clear(d);
  EXPECT_EQ(std::count(dst.begin(), dst.end(), 0), 32);
  auto r = ct::make_fragment_like(s);  // registers, int, compact (_8,(_4)) like s
  static_assert(std::is_same_v<std::remove_reference_t<decltype(r(0))>, int>);
  ct::copy(s, r);
  ct::axpby(2, s, 3, r);  // r = 2 s + 3 s = 5 s
  ct::transform(r, [](int v) { return v - 1; });
  ct::copy(r, d);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(dst[size_t(i)], 5 * (100 + i) - 1) << i;
  auto f = ct::make_tensor_like<float>(s);
  ct::transform(s, f, [](int v) { return float(v) / 2; });
  EXPECT_EQ(f(31), 65.5f);
  EXPECT_EQ(ct::to_string(f.layout()), "(_8,_4):(_1,_8)");
}

TEST(TensorAlgorithms, GemmOnRegisters) {
  // (M,K) x (N,K) => (M,N), against the triple loop; A column-major, B row-major (K-major).
  auto a = ct::make_tensor<float>(ct::make_layout(ct::make_shape(_4{}, _3{})));
  auto b = ct::make_tensor<float>(ct::make_layout(ct::make_shape(_2{}, _3{}), ct::make_stride(_3{}, _1{})));
  auto c = ct::make_tensor<float>(ct::make_layout(ct::make_shape(_4{}, _2{})));
  for (int i = 0; i < 12; ++i) a(i) = float(i + 1);
  for (int i = 0; i < 6; ++i) b(i) = float(2 * i - 3);
  ct::fill(c, 0.5f);
  ct::gemm(a, b, c);
  for (int m = 0; m < 4; ++m)
    for (int n = 0; n < 2; ++n) {
      float want = 0.5f;
      for (int k = 0; k < 3; ++k) want += a(m, k) * b(n, k);
      EXPECT_EQ(c(m, n), want) << m << "," << n;
    }
  // (M) x (N) => (M,N) and (V) x (V) => (V).
  auto x = ct::make_tensor<int>(ct::make_layout(_4{}));
  auto y = ct::make_tensor<int>(ct::make_layout(_2{}));
  auto o = ct::make_tensor<int>(ct::make_layout(ct::make_shape(_4{}, _2{})));
  for (int i = 0; i < 4; ++i) x(i) = i + 1;
  y(0) = 10, y(1) = 100;
  ct::clear(o);
  ct::gemm(x, y, o);
  EXPECT_EQ(o(3, 1), 400);
  EXPECT_EQ(o(2, 0), 30);
  auto v = ct::make_tensor<int>(ct::make_layout(_4{}));
  ct::fill(v, 1);
  ct::gemm(x, x, v);
  EXPECT_EQ(v(3), 17);
  // Dynamic extents are checked at run time.
  std::vector<float> mem(12);
  const auto ad = ct::make_tensor(ct::make_gmem_ptr(mem.data()), ct::make_layout(ct::make_shape(4, 3)));
  const auto bd = ct::make_tensor(ct::make_gmem_ptr(mem.data()), ct::make_layout(ct::make_shape(2, 2)));
  EXPECT_THROW(ct::gemm(ad, bd, c), cotile::Error);
}

// A tiled MMA of UniversalFMA atoms on a 16x16 thread layout: partitions as CuTe prints them
// (7107b0553, host), and the GEMM it computes, thread by thread, against the triple loop.
TEST(TensorAlgorithms, UniversalFmaTiledGemm) {
  const auto mma =
      ct::make_tiled_mma(ct::UniversalFMA<float>{}, ct::make_layout(ct::make_shape(ct::_16{}, ct::_16{}, _1{})));
  EXPECT_EQ(ct::to_string(ct::thr_layout_vmnk(mma)), "(_1,_16,_16,_1):(_0,_1,_16,_0)");
  std::vector<float> a(128 * 8), b(128 * 8), c(128 * 128, 0.0f);
  for (size_t i = 0; i < a.size(); ++i) a[i] = float(int(i * 7 % 19) - 9);
  for (size_t i = 0; i < b.size(); ++i) b[i] = float(int(i * 3 % 17) - 8) * 0.25f;
  const auto A = ct::make_tensor(ct::make_gmem_ptr(a.data()), ct::make_layout(ct::make_shape(ct::_128{}, _8{})));
  const auto B = ct::make_tensor(ct::make_gmem_ptr(b.data()),
                                 ct::make_layout(ct::make_shape(ct::_128{}, _8{}), ct::make_stride(_8{}, _1{})));
  const auto C = ct::make_tensor(ct::make_gmem_ptr(c.data()), ct::make_layout(ct::make_shape(ct::_128{}, ct::_128{})));
  const struct {
    int thread;
    int64_t c, a, b;
  } cute[] = {{0, 0, 0, 0}, {1, 1, 1, 0}, {17, 129, 1, 8}, {255, 1935, 15, 120}};
  for (const auto& e : cute) {
    const auto tC = ct::partition_C(mma, C, e.thread);
    EXPECT_EQ(ct::to_string(tC.layout()), "(_1,_8,_8):(_0,_16,_2048)");
    EXPECT_EQ(ct::to_string(ct::partition_A(mma, A, e.thread).layout()), "(_1,_8,_8):(_0,_16,_128)");
    EXPECT_EQ(ct::to_string(ct::partition_B(mma, B, e.thread).layout()), "(_1,_8,_8):(_0,_128,_1)");
    EXPECT_EQ(tC.data().get() - c.data(), e.c);
    EXPECT_EQ(ct::partition_A(mma, A, e.thread).data().get() - a.data(), e.a);
    EXPECT_EQ(ct::partition_B(mma, B, e.thread).data().get() - b.data(), e.b);
  }
  for (int t = 0; t < 256; ++t) {
    const auto tC = ct::partition_C(mma, C, t);
    auto acc = ct::make_fragment_like(tC);
    ct::clear(acc);
    ct::gemm(mma, ct::partition_A(mma, A, t), ct::partition_B(mma, B, t), acc);
    ct::copy(acc, tC);
  }
  int wrong = 0;
  for (int m = 0; m < 128; ++m)
    for (int n = 0; n < 128; ++n) {
      float want = 0;
      for (int k = 0; k < 8; ++k) want += a[size_t(m + 128 * k)] * b[size_t(n * 8 + k)];
      wrong += c[size_t(m + 128 * n)] != want;
    }
  EXPECT_EQ(wrong, 0);
}

// copy(tiled_copy, src, dst) with CuTe's atom spellings: 16-byte loads and stores of 8 halves.
TEST(TensorAlgorithms, TiledCopyByAtoms) {
  std::vector<uint16_t> src(64 * 8), dst(64 * 8, 0);
  for (size_t i = 0; i < src.size(); ++i) src[i] = uint16_t(i * 3 + 1);
  // (64,8) row-major tiles: 8 contiguous halves a row, one row a thread.
  const auto layout = ct::make_layout(ct::make_shape(ct::_64{}, _8{}), ct::make_stride(_8{}, _1{}));
  const auto tc = ct::make_tiled_copy(ct::Copy_Atom<ct::UniversalCopy<ct::uint128_t>, uint16_t>{},
                                      ct::make_layout(ct::make_shape(ct::_64{}, _1{}), ct::make_stride(_1{}, _1{})),
                                      ct::make_layout(ct::make_shape(_1{}, _8{})));
  static_assert(decltype(tc)::op == cotile::CopyOp::kU128);
  const auto S = ct::make_tensor(ct::make_gmem_ptr(src.data()), layout);
  const auto D = ct::make_tensor(ct::make_gmem_ptr(dst.data()), layout);
  for (int t = 0; t < 64; ++t) {
    const auto thr = ct::get_slice(tc, t);
    ct::copy(tc, thr.partition_S(S), thr.partition_D(D));
  }
  EXPECT_EQ(src, dst);
}

// Projections: CuTe 7107b0553 printed these layouts and offsets for the same calls (host).
TEST(Projection, LocalTileAndPartitionAsCute) {
  float* z = nullptr;
  const auto mA = ct::make_tensor(ct::make_gmem_ptr(z), ct::make_layout(ct::make_shape(ct::Int<256>{}, ct::Int<32>{})));
  const auto tiler = ct::make_shape(ct::_128{}, ct::_64{}, _8{});
  const auto coord = ct::make_coord(1, 2, ct::_);
  const auto gA = ct::local_tile(mA, tiler, coord, ct::Step<_1, ct::X, _1>{});
  EXPECT_EQ(ct::to_string(gA.layout()), "(_128,_8,_4):(_1,_256,_2048)");
  EXPECT_EQ(gA.data().get() - z, 128);
  const auto mB = ct::make_tensor(ct::make_gmem_ptr(z), ct::make_layout(ct::make_shape(ct::_128{}, ct::Int<32>{})));
  const auto gB = ct::local_tile(mB, tiler, coord, ct::Step<ct::X, _1, _1>{});
  EXPECT_EQ(ct::to_string(gB.layout()), "(_64,_8,_4):(_1,_128,_1024)");
  EXPECT_EQ(gB.data().get() - z, 128);
  const auto sA = ct::make_tensor(ct::make_smem_ptr(z), ct::make_layout(ct::make_shape(ct::_128{}, _8{})));
  const auto tC = ct::make_layout(ct::make_shape(ct::_16{}, ct::_16{}));
  const struct {
    int thread;
    int64_t a, b;
  } cute[] = {{0, 0, 0}, {5, 5, 0}, {17, 1, 1}, {255, 15, 15}};
  for (const auto& e : cute) {
    const auto tCsA = ct::local_partition(sA, tC, e.thread, ct::Step<_1, ct::X>{});
    const auto tCsB = ct::local_partition(sA, tC, e.thread, ct::Step<ct::X, _1>{});
    EXPECT_EQ(ct::to_string(tCsA.layout()), "(_8,_8):(_16,_128)");
    EXPECT_EQ(ct::to_string(tCsB.layout()), "(_8,_8):(_16,_128)");
    EXPECT_EQ(tCsA.data().get() - z, e.a) << e.thread;
    EXPECT_EQ(tCsB.data().get() - z, e.b) << e.thread;
  }
  const auto d = ct::dice(ct::Step<_1, ct::X, _1>{}, ct::make_shape(3, 4, 5));
  EXPECT_EQ(ct::get<0>(d), 3);
  EXPECT_EQ(ct::get<1>(d), 5);
  EXPECT_EQ(ct::to_string(ct::dice(ct::Step<_1, ct::X>{}, tC)), "(_16):(_1)");
}

TEST(TensorAlgorithms, KernelHelpers) {
  float x[4] = {};
  const auto g = ct::make_gmem_ptr(x + 1);
  static_assert(std::is_same_v<decltype(ct::raw_pointer_cast(g)), float*>);
  EXPECT_EQ(ct::raw_pointer_cast(g), x + 1);
  EXPECT_EQ(ct::raw_pointer_cast(x + 2), x + 2);
  EXPECT_TRUE(ct::thread0());  // the host is thread 0
}

TEST(TensorAlgorithms, TupleTransformStillTuples) {
  // ct::transform of a tuple is the tuple algorithm, not the tensor one.
  const auto t = ct::transform(ct::make_tuple(1, 2, 3), [](int v) { return v * 10; });
  EXPECT_EQ(ct::get<2>(t), 30);
}

}  // namespace
