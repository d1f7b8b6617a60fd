// The decode C ABI refuses bad arguments with an error code and a message that names the
// argument and the condition, before touching the device; and the plan's arithmetic (split
// heuristic, workspace) does what docs/design/decode.md says. These tests run without a GPU (the
// plan they use is filled by hand where cotile_decode_plan would need one).
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "decode.hpp"
#include "plan.hpp"

namespace {

using cotile::attention::DecodeArgs;
using cotile::attention::DecodePlan;
using cotile::attention::DecodeShape;

DecodeShape shape() { return DecodeShape{2, 16, 4, 128, 100, COTILE_F16, COTILE_F16, COTILE_F16, 0}; }

// A plan as cotile_decode_plan would fill it for shape(): 2 x 4 units, 4 splits.
DecodePlan plan() {
  DecodePlan p{};
  p.shape = shape();
  p.group = 4, p.m_tiles = 1, p.splits = 4, p.grid = 32, p.ctas_per_sm = 2, p.sms = 132, p.cluster = 1;
  p.workspace_bytes = 1 << 20;
  return p;
}

alignas(256) unsigned char g_memory[1 << 21];  // host memory: the checks never dereference it
int32_t g_seqlen[2];

DecodeArgs args() {
  DecodeArgs a{};
  a.q = g_memory, a.q_stride_b = 16 * 128, a.q_stride_h = 128;
  a.k = g_memory, a.k_stride_b = 100 * 4 * 128, a.k_stride_n = 4 * 128, a.k_stride_h = 128;
  a.v = g_memory, a.v_stride_b = 100 * 4 * 128, a.v_stride_n = 4 * 128, a.v_stride_h = 128;
  a.seqlen_kv = g_seqlen;
  a.softmax_scale = 0.088f, a.k_scale = 1.0f, a.v_scale = 1.0f;
  a.o = g_memory, a.o_stride_b = 16 * 128, a.o_stride_h = 128;
  return a;
}

// Run with the workspace; returns (code, message).
std::pair<cotile_status, std::string> run(const DecodeArgs& a, const DecodePlan& p = plan(), uint64_t ws_bytes = 1 << 20,
                                          void* ws = g_memory + (1 << 20)) {
  const cotile_status c = cotile_decode_run(&p, &a, ws, ws_bytes, nullptr);
  return {c, cotile_decode_last_error()};
}

void expect_error(const std::pair<cotile_status, std::string>& r, cotile_status code, const char* words) {
  EXPECT_EQ(r.first, code) << r.second;
  EXPECT_NE(r.second.find(words), std::string::npos) << "message: " << r.second << "\nexpected to contain: " << words;
}

TEST(DecodeArgs, NullTensorsAreNamed) {
  DecodeArgs a = args();
  a.q = nullptr;
  expect_error(run(a), COTILE_ERROR_INVALID_ARGUMENT, "args.q is NULL");
  a = args(), a.v = nullptr;
  expect_error(run(a), COTILE_ERROR_INVALID_ARGUMENT, "args.v is NULL");
  a = args(), a.seqlen_kv = nullptr;
  expect_error(run(a), COTILE_ERROR_INVALID_ARGUMENT, "args.seqlen_kv is NULL");
}

TEST(DecodeArgs, MisalignedPointerOrStrideIsRefused) {
  DecodeArgs a = args();
  a.k = g_memory + 8;
  expect_error(run(a), COTILE_ERROR_INVALID_ARGUMENT, "args.k = ");
  a = args(), a.k_stride_n = 4 * 128 + 4;  // 1032 bytes: rows not 16-byte aligned
  expect_error(run(a), COTILE_ERROR_INVALID_ARGUMENT, "args.k_stride_n = 516 elements = 1032 bytes is not a multiple of 16");
  a = args(), a.q_stride_h = -128;
  expect_error(run(a), COTILE_ERROR_INVALID_ARGUMENT, "args.q_stride_h = -128 is negative");
}

TEST(DecodeArgs, AppendNeedsBothKAndV) {
  DecodeArgs a = args();
  a.k_new = g_memory;
  expect_error(run(a), COTILE_ERROR_INVALID_ARGUMENT, "k_new and args.v_new must both be given");
}

TEST(DecodeArgs, PageSizeMustBeAPowerOfTwo) {
  DecodeArgs a = args();
  a.page_table = g_seqlen, a.page_table_stride = 8, a.page_size = 24;
  expect_error(run(a), COTILE_ERROR_INVALID_ARGUMENT, "args.page_size = 24 must be a power of two");
  a.page_size = 16, a.cache_batch_idx = g_seqlen;
  expect_error(run(a), COTILE_ERROR_INVALID_ARGUMENT, "cache_batch_idx is for contiguous caches");
}

TEST(DecodeArgs, ScalesAndWindowAreChecked) {
  DecodeArgs a = args();
  a.softcap = -1.0f;
  expect_error(run(a), COTILE_ERROR_INVALID_ARGUMENT, "softcap = -1 finite and >= 0");
  a = args(), a.v_scale = 1.0f / 0.0f;
  expect_error(run(a), COTILE_ERROR_INVALID_ARGUMENT, "v_scale = inf must be finite");
  a = args(), a.window = -3;
  expect_error(run(a), COTILE_ERROR_INVALID_ARGUMENT, "window = -3 must be >= 0");
}

TEST(DecodeArgs, RowStrideBeyond32BitsIsUnsupported) {
  DecodeArgs a = args();
  a.k_stride_n = int64_t(1) << 31;  // elements: 2^32 bytes
  expect_error(run(a), COTILE_ERROR_UNSUPPORTED, "args.k_stride_n = 2147483648 elements is 4294967296 bytes");
}

TEST(DecodeArgs, WorkspaceTooSmallIsRefused) {
  DecodeArgs a = args();
  const auto r = run(a, plan(), 100);
  expect_error(r, COTILE_ERROR_WORKSPACE, "workspace of 100 bytes");
  expect_error(run(a, plan(), 1 << 20, g_memory + 8), COTILE_ERROR_WORKSPACE, "must be 256-byte aligned");
}

TEST(DecodeArgs, UnfilledPlanIsRefused) {
  DecodePlan p{};
  expect_error(run(args(), p), COTILE_ERROR_INVALID_ARGUMENT, "plan was not filled by cotile_decode_plan");
  p = plan(), p.grid = 31;  // not units x splits
  expect_error(run(args(), p), COTILE_ERROR_INVALID_ARGUMENT, "plan was not filled by cotile_decode_plan");
  p = plan(), p.cluster = 2;  // a cluster is the splits of one unit
  expect_error(run(args(), p), COTILE_ERROR_INVALID_ARGUMENT, "plan was not filled by cotile_decode_plan");
}

TEST(DecodePlan, ShapeErrorsComeBeforeTheDevice) {
  DecodePlan p{};
  DecodeShape s = shape();
  s.heads_q = 18;
  auto st = cotile::attention::decode_plan(s, &p);
  EXPECT_EQ(st.code, COTILE_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(st.message.find("heads_q = 18 is not a multiple of heads_kv = 4"), std::string::npos) << st.message;
  s = shape(), s.head_dim = 96;
  st = cotile::attention::decode_plan(s, &p);
  EXPECT_EQ(st.code, COTILE_ERROR_UNSUPPORTED);
  EXPECT_NE(st.message.find("head_dim = 96; supported: 64, 128, 256"), std::string::npos) << st.message;
  s = shape(), s.heads_q = 4 * 33;
  st = cotile::attention::decode_plan(s, &p);
  EXPECT_NE(st.message.find("group heads_q / heads_kv = 33; supported: 1 to 32"), std::string::npos) << st.message;
  s = shape(), s.o_type = COTILE_E4M3;
  st = cotile::attention::decode_plan(s, &p);
  EXPECT_NE(st.message.find("o_type = e4m3"), std::string::npos) << st.message;
  s = shape(), s.splits = 129;
  st = cotile::attention::decode_plan(s, &p);
  EXPECT_NE(st.message.find("splits = 129 must be 0 (chosen by the plan) or 1 to 128"), std::string::npos) << st.message;
  EXPECT_EQ(cotile_decode_plan(nullptr, &p), COTILE_ERROR_INVALID_ARGUMENT);
}

TEST(DecodeAbi, StructSizesAreReported) {
  EXPECT_EQ(cotile_decode_abi_size(0), sizeof(cotile_decode_args_t));
  EXPECT_EQ(cotile_decode_abi_size(1), sizeof(cotile_decode_plan_t));
  EXPECT_EQ(cotile_decode_abi_size(2), sizeof(cotile_decode_shape_t));
}

using cotile::attention::detail::choose_merge;
using cotile::attention::detail::ClusterSlots;
using cotile::attention::detail::workspace_layout;

// Splits only (no clusters resident: every split merges through the workspace).
int splits(int64_t units, int64_t slots, int64_t rows) {
  const auto c = cotile::attention::detail::choose_splits(units, slots, rows);
  EXPECT_EQ(c.cluster, 1);
  return c.splits;
}

// The design note's examples, on 132 SMs x 2 CTAs = 264 slots.
TEST(DecodeSplits, FewLongSequencesFillOneWave) {
  EXPECT_EQ(splits(8, 264, 32768), 33);   // (1,32,8,32768): 264 CTAs
  EXPECT_EQ(splits(64, 264, 8192), 4);    // (8,32,8,8192)
  EXPECT_EQ(splits(128, 264, 8192), 2);   // (4,32,32,8192)
}

TEST(DecodeSplits, ManySequencesDoNotSplit) {
  EXPECT_EQ(splits(256, 264, 4096), 1);   // (32,32,8,4096): one wave already
  EXPECT_EQ(splits(1024, 264, 1024), 1);  // (128,32,8,1024): splitting adds waves, not speed
}

TEST(DecodeSplits, EachWarpKeepsAtLeastATile) {
  EXPECT_EQ(splits(8, 264, 1024), 16);    // 1024 rows / 64 rows per split
  EXPECT_LE(splits(1, 264, 100), 2);
  EXPECT_EQ(splits(1, 264, 0), 1);         // an empty batch still has one split
  EXPECT_EQ(splits(1, 1 << 20, int64_t(1) << 30), cotile::attention::detail::kMaxSplits);
}

// Clusters of every size resident as if each CTA had its own slot.
ClusterSlots ample() {
  ClusterSlots c;
  for (int s = 2; s <= cotile::attention::detail::kMaxCluster; ++s) c.clusters[s] = 264 / s;
  return c;
}

TEST(DecodeSplits, ClustersWinWhenTheyFitTheSameWaves) {
  using cotile::attention::detail::choose_splits;
  const auto two = choose_splits(128, 264, 8192, ample());  // (4,32,32,8192): 2 splits, 128 clusters
  EXPECT_EQ(two.splits, 2);
  EXPECT_EQ(two.cluster, 2);
  const auto tiny = choose_splits(8, 264, 1024, ample());  // (1,32,8,1024): 8 clustered beat 16 through memory
  EXPECT_EQ(tiny.splits, 8);
  EXPECT_EQ(tiny.cluster, 8);
  const auto many = choose_splits(8, 264, 32768, ample());  // (1,32,8,32768): 33 splits, beyond a cluster
  EXPECT_EQ(many.splits, 33);
  EXPECT_EQ(many.cluster, 1);
}

TEST(DecodeSplits, ClustersThatNeedMoreWavesAreNotUsed) {
  ClusterSlots c = ample();
  c.clusters[4] = 56;  // 64 units of 4 splits: 2 waves of clusters, 1 of CTAs
  const auto m = cotile::attention::detail::choose_splits(64, 264, 8192, c);
  EXPECT_EQ(m.splits, 4);
  EXPECT_EQ(m.cluster, 1);
  EXPECT_EQ(choose_merge(64, 4, c).cluster, 1);       // forced 4 splits: through memory
  EXPECT_EQ(choose_merge(6, 3, ample()).cluster, 3);  // forced 3: a cluster
  EXPECT_EQ(choose_merge(6, 20, ample()).cluster, 1); // beyond the largest cluster
  EXPECT_EQ(choose_merge(6, 1, ample()).cluster, 1);  // nothing to merge
}

TEST(DecodeWorkspace, HoldsEveryPartialAligned) {
  const auto w = workspace_layout(8, 33, 128);
  EXPECT_GE(w.lse - w.o, uint64_t(8) * 33 * 16 * 128 * 2);  // 16-bit partial O
  EXPECT_GE(w.counters - w.lse, uint64_t(8) * 33 * 16 * 4);  // fp32 lse
  EXPECT_GE(w.total - w.counters, uint64_t(8) * 4);           // one counter per unit
  EXPECT_EQ(w.lse % 256, 0u);
  EXPECT_EQ(w.counters % 256, 0u);
  EXPECT_EQ(workspace_layout(8, 1, 128).total, 0u);     // no split: nothing to merge
  EXPECT_EQ(workspace_layout(8, 4, 128, 4).total, 0u);  // splits merged within their cluster
}

}  // namespace
