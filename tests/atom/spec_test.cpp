// The Q-load chain of docs/qload.md (§5–§9) reproduced layout by layout, and its §13 checks.
#include <gtest/gtest.h>

#include <set>

#include "cotile/atom/fmha_gen_q.hpp"
#include "test_util.hpp"

using namespace cotile;
using namespace cotile::test;

namespace {

const char* kAtomQTv = "((_2,_32),_16):((_16,_32),_1)";

FmhaGenQ fp8() { return fmha_gen_q(Elem::kE5M2, static_int(128), static_int(128), L(kAtomQTv)); }
FmhaGenQ fp16() { return fmha_gen_q(Elem::kHalf, static_int(128), static_int(128), L(kAtomQTv)); }

int64_t at(const Layout& l, int64_t i) { return eval(l, int_tuple(dynamic_int(i))).value; }

}  // namespace

TEST(SpecSection5, ThrfrgAAndPartitionAOfGQ) {
  const FmhaGenQ q = fp8();
  EXPECT_EQ(str(q.gQ), "(_128,_128):(128,_1)");
  EXPECT_EQ(str(thrfrg(q.mma, q.gQ, Operand::kA)),
            "((_1,(_1,_1)),((_128,_32),(_1,_4))):((_0,(_0,_0)),((128,_1),(_0,_32)))");
  EXPECT_EQ(str(q.tSgQ), "((_128,_32),_1,_4):((128,_1),_0,_32)");
  EXPECT_EQ(str(fp16().tSgQ), "((_128,_16),_1,_8):((128,_1),_0,_16)");
}

TEST(SpecSection6, ReplaceMakesTheDataLayoutStatic) {
  EXPECT_EQ(str(fp8().trace.data_layout), "((_128,_32),_1,_4):((_128,_1),_0,_32)");
  EXPECT_EQ(str(fp16().trace.data_layout), "((_128,_16),_1,_8):((_128,_1),_0,_16)");
}

TEST(SpecSection7, CotiledCopyChainFp8) {
  const CotiledTrace& t = fp8().trace;
  EXPECT_EQ(str(t.coalesced), "(_128,_128):(_128,_1)");
  EXPECT_EQ(str(t.left_inverse), "(_128,_128):(_128,_1)");
  EXPECT_EQ(str(t.inv_data_layout), "((_128,_128),_1):((_128,_1),_0)");
  EXPECT_EQ(str(t.layout_tv_data), "((_2,(_4,_8)),_16):((_2048,(_4096,_1)),_128)");
  EXPECT_EQ(str(t.flat_data_shape), "(_4096,_1,_4)");
  EXPECT_EQ(to_string(t.tiler), "((_2,_8,_16):(_2048,_1,_128),_1:_0,_4:_1)");
  EXPECT_EQ(str(t.tile2data), "((_2,_8,_16),_1,_4):((_2048,_1,_128),_0,_4096)");
  EXPECT_EQ(str(t.layout_tv), "((_2,(_4,_8)),_16):((_1,(_256,_2)),_16)");
}

TEST(SpecSection9, CotiledCopyChainFp16) {
  const CotiledTrace& t = fp16().trace;
  EXPECT_EQ(str(t.inv_data_layout), "((_128,_128),_1):((_128,_1),_0)");
  EXPECT_EQ(str(t.layout_tv_data), "((_2,(_4,_8)),_16):((_2048,(_4096,_1)),_128)");
  EXPECT_EQ(str(t.flat_data_shape), "(_2048,_1,_8)");
  EXPECT_EQ(to_string(t.tiler), "((_8,_16):(_1,_128),_1:_0,_8:_1)");
  EXPECT_EQ(str(t.tile2data), "((_8,_16),_1,_8):((_1,_128),_0,_2048)");
  EXPECT_EQ(str(t.layout_tv), "((_2,(_4,_8)),_16):((_128,(_256,_1)),_8)");
}

TEST(SpecSection8, Tile2ThrFrgFp8) {
  const FmhaGenQ q = fp8();
  ThrFrgTrace tr;
  tidfrg(q.copy, q.tSgQ, true, &tr);
  EXPECT_EQ(str(tr.atom_layout_tv), "((_1,_16),((_2,_4,_8),_1)):((_0,_16),((_1,_256,_2),_0))");
  EXPECT_EQ(str(tr.trg_layout_tv), "((_1,_16),((_2,_4,_8),_1)):((_0,_16),((_1,_256,_2),_0))");
  EXPECT_EQ(str(tr.zipped), "((_1,(_2,_4,_8)),(_16,_1)):((_0,(_1,_256,_2)),(_16,_0))");
  EXPECT_EQ(str(tr.thrval2mn), "((_2,_4,_8),(_16,_1)):((_1,_256,_2),(_16,_0))");
}

TEST(SpecSection8, Tile2ThrFrgFp16KeepsTheValueGroups) {
  const FmhaGenQ q = fp16();
  ThrFrgTrace tr;
  tidfrg(q.copy, q.tSgQ, true, &tr);
  EXPECT_EQ(str(tr.trg_layout_tv), "((_1,_8),((_8,_8),_2)):((_0,_8),((_128,_1),_64))");
  EXPECT_EQ(str(tr.zipped), "((_1,(_8,_8)),(_8,_2)):((_0,(_128,_1)),(_8,_64))");
  EXPECT_EQ(str(tr.thrval2mn), "((_8,_8),(_8,_2)):((_128,_1),(_8,_64))");
  // §8.1: a shallower profile merges the value groups; no profile merges across thread/value.
  EXPECT_EQ(str(coalesce(tr.zipped, T("(_1,_1)"))), "((_8,_8),_16):((_128,_1),_8)");
  ThrFrgTrace tr8;
  tidfrg(fp8().copy, fp8().tSgQ, true, &tr8);
  EXPECT_EQ(str(coalesce(tr8.zipped)), "(_2,_4,_128):(_1,_256,_2)");
}

TEST(SpecSection8, SingleThreadPartition) {
  EXPECT_EQ(str(fp8().partition_S_thr0.layout), "((_16,_1),_16,_1,_1):((_1,_0),1024,_0,_0)");
  EXPECT_EQ(str(fp16().partition_S_thr0.layout), "((_8,_2),_16,_1,_1):((_1,_8),1024,_0,_0)");
  // §8.2's ownership table: thread t owns rows t/8 + 8p and columns 16*(t%8) .. +15.
  const FmhaGenQ q = fp8();
  for (int64_t t : {0, 7, 8, 63}) {
    const SlicedLayout p = partition_S(q.copy, q.tSgQ, dynamic_int(t));
    EXPECT_EQ(p.offset.value, 128 * (t / 8) + 16 * (t % 8)) << t;
  }
}

// §13: replacing the run-time row stride by the static _D keeps every address.
TEST(SpecSection13, ReplaceKeepsTheAddressMap) {
  for (const FmhaGenQ& q : {fp8(), fp16()})
    for (int64_t i = 0; i < size(q.tSgQ).value; ++i) ASSERT_EQ(at(q.tSgQ, i), at(q.trace.data_layout, i));
}

// §13: the inverse chain returns where it started.
TEST(SpecSection13, InversesRecoverTheAtomOffsets) {
  const Layout atom = L(kAtomQTv);
  for (const FmhaGenQ& q : {fp8(), fp16()})
    for (int64_t i = 0; i < size(atom).value; ++i) {
      ASSERT_EQ(at(q.trace.data_layout, at(q.trace.layout_tv_data, i)), at(atom, i));
      ASSERT_EQ(at(q.trace.tile2data, at(q.trace.layout_tv, i)), at(q.trace.layout_tv_data, i));
    }
}

// §13: the 64 threads' partitions cover the 128x128 tile, each element exactly once.
TEST(SpecSection13, PartitionsCoverTheTileExactlyOnce) {
  for (const FmhaGenQ& q : {fp8(), fp16()}) {
    std::multiset<int64_t> seen;
    for (int64_t t = 0; t < 64; ++t) {
      const SlicedLayout p = partition_S(q.copy, q.tSgQ, dynamic_int(t));
      for (int64_t i = 0; i < size(p.layout).value; ++i) seen.insert(p.offset.value + at(p.layout, i));
    }
    ASSERT_EQ(seen.size(), 128u * 128u);
    for (int64_t a = 0; a < 128 * 128; ++a) ASSERT_EQ(seen.count(a), 1u) << a;
  }
}

// §13: for every (thread, value) the source and a (swizzled) shared-memory destination hold
// the same logical (m, d).
TEST(SpecSection13, SourceAndSharedMemoryAgreeOnCoordinates) {
  for (const FmhaGenQ& q : {fp8(), fp16()}) {
    // Coordinates of the tile, as a layout whose value is m + 128*d (the identity on (m,d)).
    const Layout coords = partition(q.mma, make_layout(T("(_128,_128)")), dynamic_int(0), Operand::kA).layout;
    // A shared-memory tile in K-major rows of 128 with a 128-byte swizzle on the element offset.
    const Layout smem = partition(q.mma, make_layout_right(T("(_128,_128)")), dynamic_int(0), Operand::kA).layout;
    const Swizzle sw = make_swizzle(3, 4, 3);
    for (int64_t t = 0; t < 64; ++t) {
      const SlicedLayout src = partition_S(q.copy, q.tSgQ, dynamic_int(t));
      const SlicedLayout crd = partition_S(q.copy, coords, dynamic_int(t));
      const SlicedLayout dst = partition_D(q.copy, smem, dynamic_int(t));
      for (int64_t i = 0; i < size(src.layout).value; ++i) {
        const int64_t a = src.offset.value + at(src.layout, i);      // m*128 + d
        const int64_t c = crd.offset.value + at(crd.layout, i);      // m + 128*d
        const int64_t s = sw(dst.offset.value + at(dst.layout, i));  // swizzled smem offset
        ASSERT_EQ(a / 128 + 128 * (a % 128), c);
        ASSERT_EQ(sw(s), (c % 128) * 128 + c / 128);  // the swizzle is an involution
      }
    }
  }
}

TEST(TiledCopyErrors, TooFewValuesForTheAtom) {
  EXPECT_EQ(
      calc_error(
          "make_cotiled_copy(cp.async.16B, half_t, ((_2,_32),_4):((_4,_8),_1), ((_128,_16),_1,_8):((_128,_1),_0,_16))"),
      "make_cotiled_copy: TiledCopy: the values per thread are not a multiple of the atom's values per thread\n"
      "  layout_tv = ((_2,((_2,_8),_2)),_4):((_1,((_2,_32),_4)),_8)\n"
      "  atom ValLayoutRef = (_1,_8):(_0,_1)\n"
      "  fix: give each thread a multiple of the atom's vector (e.g. 16 bytes for cp.async.16B)");
}

TEST(TiledCopyErrors, StrictModeNamesTheDynamicDataLayout) {
  EXPECT_EQ(
      calc_error("make_cotiled_copy(cp.async.16B, float_e5m2_t, ((_2,_32),_16):((_16,_32),_1), "
                 "((_128,_32),_1,_4):((128,_1),_0,_32))",
                 true),
      "make_cotiled_copy: data_layout must be static (CuTe static_asserts is_static<DataLayout>); a leaf is dynamic\n"
      "  data_layout = ((_128,_32),_1,_4):((128,_1),_0,_32)\n"
      "  fix: make it a static Int<...> as the Q-load chain's replace<0> does");
}

TEST(TiledCopyErrors, ElementTypeTheAtomDoesNotTake) {
  EXPECT_EQ(calc_error("copy_atom(copy.u32, float_e5m2_t)"), "");
  EXPECT_EQ(calc_error("mma_atom(SM100_MMA_F8F6F4_SS<half_t,half_t,float,128,64,K,K>)"),
            "mma_atom: unknown MMA atom (F8F6F4 takes 8-bit types, F16BF16 16-bit ones) "
            "'SM100_MMA_F8F6F4_SS<half_t,half_t,float,128,64,K,K>'\n"
            "  known: SM80_16x8x16_F32F16F16F32_TN SM80_16x8x16_F16F16F16F16_TN SM80_16x8x16_F32BF16BF16F32_TN "
            "SM89_16x8x32_{F32|F16}{E4M3|E5M2}{E4M3|E5M2}{F32|F16}_TN SM90_64xNx16_{F32|F16}F16F16_SS<K|MN,K|MN> "
            "SM90_64xNx16_F32BF16BF16_SS<K|MN,K|MN> SM90_64xNx32_{F32|F16}{E4M3|E5M2}{E4M3|E5M2}_SS_TN "
            "SM100_MMA_F16BF16_SS<A,B,float,M,N,K|MN,K|MN> SM100_MMA_F8F6F4_SS<A,B,float,M,N,K|MN,K|MN> UniversalFMA");
}

TEST(TiledCopyErrors, MmaAtomNamesAsCuteSpellsThem) {
  // Accumulators in F16 and mixed fp8 operands are CuTe atoms of the same layouts.
  EXPECT_EQ(calc_error("mma_atom(SM80_16x8x16_F16F16F16F16_TN)"), "");
  EXPECT_EQ(calc_error("mma_atom(SM89_16x8x32_F16E4M3E5M2F16_TN)"), "");
  EXPECT_EQ(calc_error("mma_atom(SM90_64x64x16_F16F16F16_SS<MN,K>)"), "");
  EXPECT_EQ(calc_error("mma_atom(SM90_64x64x32_F32E5M2E4M3_SS_TN)"), "");
  // CuTe has no bf16 atom accumulating in F16, no mixed 16-bit operands, no C type other than D's.
  for (const char* bad :
       {"SM80_16x8x16_F16BF16BF16F16_TN", "SM80_16x8x16_F32F16BF16F32_TN", "SM89_16x8x32_F32E4M3E4M3F16_TN",
        "SM90_64x64x16_F16BF16BF16_SS<K,K>", "SM90_64x64x32_F32E4M3E4M3_SS<K,K>", "SM90_64x64x16_F32F16F16_SS_TN"}) {
    const std::string e = calc_error(std::string("mma_atom(") + bad + ")");
    EXPECT_EQ(e.substr(0, e.find('\n')), "mma_atom: unknown MMA atom '" + std::string(bad) + "'");
  }
}

TEST(TiledCopyErrors, AtomOffsetsOutsideTheData) {
  EXPECT_EQ(calc_error("make_cotiled_copy(copy.u32, float, (_1,_8):(_0,_1), (_2,_2):(_1,_2))"),
            "make_cotiled_copy: the memory pointed to by atom_tv_layout does not exist in data_layout\n"
            "  atom_tv_layout = (_1,_8):(_0,_1)\n"
            "  data_layout = (_2,_2):(_1,_2)\n"
            "  data o layout_tv_data values = (_4,_2):(_1,_0)\n"
            "  fix: make the atom's offsets lie inside the data layout's codomain");
}
