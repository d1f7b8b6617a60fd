// The decode C ABI refuses bad arguments with an error code and a message that names the
// argument and the condition, before touching the device; and the plan's arithmetic (split
// heuristic, workspace) does what docs/design/decode.md says. These tests run without a GPU (the
// plan they use is filled by hand where cotile_decode_plan would need one).
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "decode.hpp"
#include "machine_h200.hpp"
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
  p.smem_bytes = 227 << 10;  // at least what any of the kernels needs (the most a CTA can have)
  p.kv_heads_per_cta = 1, p.m_tiles_per_cta = 1;
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
std::pair<cotile_status, std::string> run(const DecodeArgs& a, const DecodePlan& p = plan(),
                                          uint64_t ws_bytes = 1 << 20, void* ws = g_memory + (1 << 20)) {
  const cotile_status c = cotile_decode_run(&p, &a, ws, ws_bytes, nullptr);
  return {c, cotile_decode_last_error()};
}

void expect_error(const std::pair<cotile_status, std::string>& r, cotile_status code, const char* words) {
  EXPECT_EQ(r.first, code) << r.second;
  EXPECT_NE(r.second.find(words), std::string::npos) << "message: " << r.second << "\nexpected to contain: " << words;
}

// Plan a shape; returns (code, message).
std::pair<cotile_status, std::string> plan_of(const DecodeShape& s) {
  DecodePlan p{};
  const auto st = cotile::attention::decode_plan(s, &p);
  return {st.code, st.message};
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
  expect_error(run(a), COTILE_ERROR_INVALID_ARGUMENT,
               "args.k_stride_n = 516 elements = 1032 bytes is not a multiple of 16");
  a = args(), a.q_stride_h = -128;
  expect_error(run(a), COTILE_ERROR_INVALID_ARGUMENT, "args.q_stride_h = -128 is negative");
}

// A plan told the cache's layout refuses strides of another (it may have paired heads for it).
TEST(DecodeArgs, StridesMustMatchThePlansLayout) {
  DecodePlan p = plan();
  p.shape.kv_layout = COTILE_KV_HND;  // args() is [B, N, Hkv, D]
  expect_error(run(args(), p), COTILE_ERROR_INVALID_ARGUMENT,
               "args.k_stride_n = 512, args.v_stride_n = 512; the plan's kv_layout is HND, whose rows are adjacent "
               "(stride_n = head_dim = 128)");
  DecodeArgs a = args();
  a.k_stride_n = a.v_stride_n = 128, a.k_stride_h = a.v_stride_h = 100 * 128;  // [B, Hkv, N, D]
  p.shape.kv_layout = COTILE_KV_NHD;
  expect_error(run(a, p), COTILE_ERROR_INVALID_ARGUMENT,
               "args.k_stride_h = 12800, args.v_stride_h = 12800; the plan's kv_layout is NHD, whose heads are "
               "adjacent (stride_h = head_dim = 128)");
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
  a.cache_batch_idx = nullptr, a.page_table_len = -3;
  expect_error(run(a), COTILE_ERROR_INVALID_ARGUMENT,
               "cotile_decode_run: args.page_table_len = -3 is negative (0: the rows' length is not told)");
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

// Byte offsets are 64-bit in the kernel: a stride whose bytes, or a last row whose offset over the
// plan's shape, do not fit are refused (they would wrap), before anything else reads them.
TEST(DecodeArgs, OffsetsBeyond63BitsAreRefused) {
  DecodeArgs a = args();
  a.q_stride_b = int64_t(1) << 62;  // x 2 bytes: 2^63
  expect_error(run(a), COTILE_ERROR_INVALID_ARGUMENT,
               "cotile_decode_run: args.q_stride_b = 4611686018427387904 elements of 2 bytes is beyond 2^63 - 1 bytes");
  a = args(), a.k_stride_n = (int64_t(1) << 62) + 8;  // 16-byte rows, but 2^63 + 16 bytes
  expect_error(run(a), COTILE_ERROR_INVALID_ARGUMENT, "args.k_stride_n = 4611686018427387912 elements of 2 bytes");
  // Each stride fits, the last row does not: 2^62 bytes a sequence, then 15 heads of 2^60 bytes more.
  a = args(), a.o_stride_b = int64_t(1) << 61, a.o_stride_h = int64_t(1) << 59;
  expect_error(run(a), COTILE_ERROR_INVALID_ARGUMENT,
               "cotile_decode_run: args.o's last row lies beyond 2^63 - 1 bytes from its start (args.o_stride_h = "
               "576460752303423488 elements, heads_q = 16); the strides do not fit the shape");
  // The same strides where only one sequence and one head are read pass these checks (and meet the next
  // one: the row stride of 2^62 bytes is beyond the kernel's 32 bits).
  DecodePlan p = plan();
  a = args(), a.k_stride_n = int64_t(1) << 61;
  expect_error(run(a, p), COTILE_ERROR_INVALID_ARGUMENT,
               "args.k's last row lies beyond 2^63 - 1 bytes from its start (args.k_stride_n = 2305843009213693952 "
               "elements, max_kv_len + q_len = 101)");
  p.shape.max_kv_len = 1, p.shape.batch = 1;  // rows 0 and 1 (the appended token's): 2^62 bytes apart
  p.grid = 16, p.workspace_bytes = 1 << 20;
  expect_error(run(a, p), COTILE_ERROR_UNSUPPORTED,
               "args.k_stride_n = 2305843009213693952 elements is 4611686018427387904 bytes; at most 2^31 - 1 bytes");
  // A paged cache's rows are a page's: the page stride is bounded by its own 32-bit check.
  a = args(), a.page_table = g_seqlen, a.page_table_stride = 1, a.page_size = 16;
  a.k_stride_n = a.v_stride_n = int64_t(1) << 56;  // 15 rows of 2^57 bytes: fits
  expect_error(run(a), COTILE_ERROR_UNSUPPORTED, "args.k_stride_n = 72057594037927936 elements is");
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
  p = plan(), p.splits = 129, p.grid = 8 * 129;  // beyond what the merge holds
  expect_error(run(args(), p), COTILE_ERROR_INVALID_ARGUMENT, "plan was not filled by cotile_decode_plan");
  p = plan(), p.m_tiles = 2, p.grid = 64;  // G = 4 is one m-tile
  expect_error(run(args(), p), COTILE_ERROR_INVALID_ARGUMENT, "plan was not filled by cotile_decode_plan");
  p = plan(), p.sms = 0;  // a device has SMs
  expect_error(run(args(), p), COTILE_ERROR_INVALID_ARGUMENT, "plan was not filled by cotile_decode_plan");
  p = plan(), p.stagger_cycles = -1;  // 0 (no delay) or more
  expect_error(run(args(), p), COTILE_ERROR_INVALID_ARGUMENT, "plan was not filled by cotile_decode_plan");
  p = plan(), p.smem_bytes = 0;  // less than the kernel needs
  expect_error(run(args(), p), COTILE_ERROR_INVALID_ARGUMENT, "plan was not filled by cotile_decode_plan");
  p = plan(), p.kv_heads_per_cta = 0;  // 1 or 2
  expect_error(run(args(), p), COTILE_ERROR_INVALID_ARGUMENT, "plan was not filled by cotile_decode_plan");
  p = plan(), p.kv_heads_per_cta = 2, p.grid = 16;  // pairs are for head_dim 64 only
  expect_error(run(args(), p), COTILE_ERROR_INVALID_ARGUMENT, "plan was not filled by cotile_decode_plan");
  p = plan(), p.m_tiles_per_cta = 0;  // 1, 2 or 4
  expect_error(run(args(), p), COTILE_ERROR_INVALID_ARGUMENT, "plan was not filled by cotile_decode_plan");
  p = plan(), p.m_tiles_per_cta = 2;  // one m-tile: a CTA takes it alone
  expect_error(run(args(), p), COTILE_ERROR_INVALID_ARGUMENT, "plan was not filled by cotile_decode_plan");
  p = plan(), p.shape.q_len = 8, p.m_tiles = 2, p.m_tiles_per_cta = 2, p.grid = 64;  // 2 m-tiles, 1 CTA: 8 x 4
  expect_error(run(args(), p), COTILE_ERROR_INVALID_ARGUMENT, "plan was not filled by cotile_decode_plan");
  // The warpgroup kernel's plan (2 m-tiles, one CTA of 4: 8 CTAs a split) with Q of another type than the
  // cache: the kernel would read bf16 Q as f16.
  p = plan(), p.shape.q_len = 8, p.m_tiles = 2, p.m_tiles_per_cta = 4, p.shape.q_type = COTILE_BF16;
  expect_error(run(args(), p), COTILE_ERROR_INVALID_ARGUMENT, "plan was not filled by cotile_decode_plan");
  // Its twin: the same plan over an fp8 cache, whose kernel converts Q of any type, passes the plan's
  // checks and stops at the arguments' (before the device: Q is null here).
  p.shape.kv_type = COTILE_E4M3;
  DecodeArgs a = args();
  a.q = nullptr;
  expect_error(run(a, p), COTILE_ERROR_INVALID_ARGUMENT, "args.q is NULL");
}

TEST(DecodePlan, ShapeErrorsComeBeforeTheDevice) {
  DecodeShape s = shape();
  s.heads_q = 18;
  expect_error(plan_of(s), COTILE_ERROR_INVALID_ARGUMENT, "heads_q = 18 is not a multiple of heads_kv = 4");
  s = shape(), s.head_dim = 96;
  expect_error(plan_of(s), COTILE_ERROR_UNSUPPORTED, "head_dim = 96; supported: 64, 128, 256");
  s = shape(), s.heads_q = 4 * 33;
  expect_error(plan_of(s), COTILE_ERROR_UNSUPPORTED, "group heads_q / heads_kv = 33; supported: 1 to 32");
  s = shape(), s.o_type = COTILE_E4M3;
  expect_error(plan_of(s), COTILE_ERROR_UNSUPPORTED, "o_type = e4m3");
  s = shape(), s.splits = 129;
  expect_error(plan_of(s), COTILE_ERROR_INVALID_ARGUMENT, "splits = 129 must be 0 (chosen by the plan) or 1 to 128");
  s = shape(), s.kv_layout = 3;
  expect_error(plan_of(s), COTILE_ERROR_INVALID_ARGUMENT,
               "kv_layout = 3 must be COTILE_KV_ANY (0), COTILE_KV_NHD (1) or COTILE_KV_HND (2)");
  s = shape(), s.kv_heads_per_cta = 3;
  expect_error(plan_of(s), COTILE_ERROR_INVALID_ARGUMENT,
               "kv_heads_per_cta = 3 must be 0 (chosen by the plan), 1 or 2");
  s = shape(), s.kv_heads_per_cta = 2;  // f16, head_dim 128
  expect_error(plan_of(s), COTILE_ERROR_UNSUPPORTED,
               "kv_heads_per_cta = 2 with head_dim = 128, kv_type = f16, G = 4, q_len = 1, heads_kv = 4; pairs need "
               "an fp8 cache, head_dim 64, G x q_len <= 8 and an even heads_kv");
  s = shape(), s.q_len = 9;
  expect_error(plan_of(s), COTILE_ERROR_UNSUPPORTED, "q_len = 9; supported: 1 to 8 (0: 1)");
  s = shape(), s.head_dim = 64, s.kv_type = COTILE_E4M3, s.kv_heads_per_cta = 2, s.q_len = 3;  // G 4 x 3 tokens
  expect_error(plan_of(s), COTILE_ERROR_UNSUPPORTED,
               "kv_heads_per_cta = 2 with head_dim = 64, kv_type = e4m3, G = 4, q_len = 3, heads_kv = 4; pairs need "
               "an fp8 cache, head_dim 64, G x q_len <= 8 and an even heads_kv");
  s = shape(), s.m_tiles_per_cta = 3;
  expect_error(plan_of(s), COTILE_ERROR_INVALID_ARGUMENT,
               "m_tiles_per_cta = 3 must be 0 (chosen by the plan), 1, 2 or 4");
  s = shape(), s.q_len = 4, s.q_type = COTILE_BF16, s.m_tiles_per_cta = 4;  // an f16 cache
  expect_error(plan_of(s), COTILE_ERROR_UNSUPPORTED,
               "m_tiles_per_cta = 4 with q_len = 4, head_dim = 128, kv_type = f16, q_type = bf16; the warpgroup "
               "kernel's 64 rows a CTA need several query tokens, head_dim 128, and a 16-bit cache with Q of its type "
               "or an fp8 cache");
  s = shape(), s.head_dim = 64, s.kv_type = COTILE_E4M3, s.q_len = 4, s.m_tiles_per_cta = 4;
  expect_error(plan_of(s), COTILE_ERROR_UNSUPPORTED,
               "m_tiles_per_cta = 4 with q_len = 4, head_dim = 64, kv_type = e4m3, q_type = f16; the warpgroup "
               "kernel's 64 rows a CTA need several query tokens, head_dim 128, and a 16-bit cache with Q of its type "
               "or an fp8 cache");
  s = shape(), s.kv_type = COTILE_E4M3, s.q_len = 2, s.m_tiles_per_cta = 2;
  expect_error(plan_of(s), COTILE_ERROR_UNSUPPORTED,
               "m_tiles_per_cta = 2 with q_len = 2, head_dim = 128, kv_type = e4m3; two m-tiles a CTA need several "
               "query tokens, head_dim 64 or 128 and a 16-bit cache");
  DecodePlan p{};
  EXPECT_EQ(cotile_decode_plan(nullptr, &p), COTILE_ERROR_INVALID_ARGUMENT);
}

// Several query tokens a sequence: the token strides are checked as the others (read only when q_len > 1).
TEST(DecodeArgs, TokenStridesAreChecked) {
  DecodePlan p = plan();
  p.shape.q_len = 4, p.m_tiles = 1;  // 4 x 4 query rows: one m-tile
  DecodeArgs a = args();
  a.q_stride_t = -16;
  expect_error(run(a, p), COTILE_ERROR_INVALID_ARGUMENT, "args.q_stride_t = -16 is negative");
  a = args(), a.q_stride_t = 16 * 128, a.o_stride_t = 4;
  expect_error(run(a, p), COTILE_ERROR_INVALID_ARGUMENT,
               "args.o_stride_t = 4 elements = 8 bytes is not a multiple of 16");
  a = args(), a.q_stride_t = a.o_stride_t = 16 * 128, a.k_new = a.v_new = g_memory, a.k_new_stride_h = 128,
  a.v_new_stride_h = 128, a.k_new_stride_t = 512, a.v_new_stride_t = int64_t(1) << 31;
  expect_error(run(a, p), COTILE_ERROR_UNSUPPORTED, "args.v_new_stride_t = 2147483648 elements is 4294967296 bytes");
  a = args(), a.q_stride_t = -16;  // q_len 1: not read (the checks go on to the workspace's)
  expect_error(run(a, plan(), 16), COTILE_ERROR_WORKSPACE, "workspace of 16 bytes");
  p.shape.q_len = 9;
  expect_error(run(args(), p), COTILE_ERROR_INVALID_ARGUMENT, "plan was not filled by cotile_decode_plan");
}

TEST(DecodeAbi, StructSizesAreReported) {
  EXPECT_EQ(cotile_decode_abi_size(0), sizeof(cotile_decode_args_t));
  EXPECT_EQ(cotile_decode_abi_size(1), sizeof(cotile_decode_plan_t));
  EXPECT_EQ(cotile_decode_abi_size(2), sizeof(cotile_decode_shape_t));
}

using cotile::attention::detail::choose_merge;
using cotile::attention::detail::choose_splits;
using cotile::attention::detail::ClusterSlots;
using cotile::attention::detail::Machine;
using cotile::attention::detail::SplitChoice;
using cotile::attention::detail::Work;
using cotile::attention::detail::workspace_layout;

// The H200 as the plan sees it (machine_h200.hpp).
Machine h200(bool d256 = false) { return cotile::attention::detail::h200_machine(d256 ? 1 : 2); }
Machine no_clusters() { return {132, 2, {}, {}, false}; }
// Work of (B, Hkv, N) at head_dim D with `bytes` per cache element and G query heads per KV head
// (G <= 16: one m-tile).
Work work(int64_t B, int64_t Hkv, int64_t N, int64_t D = 128, int64_t bytes = 2, int64_t G = 4) {
  return Work::of(B * Hkv, N, D, bytes, G);
}

std::string str(SplitChoice c) { return std::to_string(c.splits) + (c.cluster > 1 ? "c" : ""); }

// Cases of the model sweep (bench/decode/sweep.py) on the H200: the plan's choice, its time
// isolated / in sequence (us), and the best of each timing where another (s: split count; c: the
// splits merged in a cluster, else through the workspace), from the sweeps the constants were
// fitted to (with and without clusters, plan.hpp).
TEST(DecodeSplits, LongSequencesSplitToFillTheGpu) {
  EXPECT_EQ(str(choose_splits(h200(), work(1, 8, 65536))), "32");                 // 72.3/65.0, the best of both
  EXPECT_EQ(str(choose_splits(h200(), work(1, 2, 65536, 128, 1, 8))), "128");     // fp8 20.0/14.7; 96: 19.7 isolated
  EXPECT_EQ(str(choose_splits(h200(), work(1, 1, 65536, 128, 1, 8))), "128");     // fp8 19.4/12.3; 96: 18.5 isolated
  EXPECT_EQ(str(choose_splits(h200(true), work(1, 8, 65536, 256, 2, 2))), "16");  // D = 256
  EXPECT_EQ(str(choose_splits(h200(), work(16, 2, 8192, 128, 1, 12))),
            "8");  // fp8 27.0/22.0, the best of both; 6c 31.7/27.4
}

TEST(DecodeSplits, ShortBatchesMergeInSmallClustersOrSpread) {
  EXPECT_EQ(str(choose_splits(h200(), work(8, 8, 1024, 128, 1))), "3c");     // fp8 14.1/9.9, the best of both
  EXPECT_EQ(str(choose_splits(h200(), work(16, 4, 4096, 128, 1, 7))), "4");  // fp8 27.0/22.0; 3c 26.9 isolated
  EXPECT_EQ(str(choose_splits(h200(), work(8, 16, 1024, 128, 1, 2))), "2c");
  EXPECT_EQ(str(choose_splits(h200(true), work(8, 8, 1024, 256, 2, 2))), "2c");
  EXPECT_EQ(str(choose_splits(h200(), work(8, 2, 2048, 128, 2, 12))), "16");  // 19.3/10.2; 12 18.7/10.2; 8c 23.3/15.2
}

TEST(DecodeSplits, ManySequencesDoNotSplit) {
  EXPECT_EQ(str(choose_splits(h200(), work(32, 8, 4096))), "1");  // one wave already
  EXPECT_EQ(str(choose_splits(h200(), work(64, 8, 2048))), "1");  // two waves: splitting adds merges
  EXPECT_EQ(str(choose_splits(h200(), work(128, 8, 1024))), "1");
  EXPECT_EQ(str(choose_splits(h200(), work(128, 8, 1024, 128, 1))), "1");
  EXPECT_EQ(str(choose_splits(h200(), work(64, 8, 2048, 128, 1))), "1");
  EXPECT_EQ(str(choose_splits(h200(), work(16, 10, 2048))),
            "1");  // 160 units: 46.9/41.9; 3 (last-CTA merges) 62.5/49.4
}

TEST(DecodeSplits, ShortSequencesMergeInAClusterWhenTheyCan) {
  EXPECT_EQ(str(choose_splits(h200(), work(1, 8, 1024))), "8c");         // 13.9/6.4, the best of both
  EXPECT_EQ(str(choose_splits(no_clusters(), work(1, 8, 1024))), "16");  // else every warp gets one tile
}

TEST(DecodeSplits, EachWarpKeepsAtLeastATile) {
  EXPECT_LE(choose_splits(h200(), work(1, 1, 100)).splits, 2);
  EXPECT_EQ(choose_splits(h200(), work(1, 1, 0)).splits, 1);  // an empty batch still has one split
  EXPECT_EQ(choose_splits(Machine{1 << 20, 1, {}}, work(1, 1, int64_t(1) << 30)).splits,
            cotile::attention::detail::kMaxSplits);
}

TEST(DecodeSplits, ClustersThatNeedMoreWavesAreNotUsed) {
  const Machine m = h200();                                     // 62 clusters of 4 resident
  EXPECT_EQ(choose_merge(m, work(64, 1, 8192), 4).cluster, 1);  // 64 units of 4: through memory
  EXPECT_EQ(choose_merge(m, work(62, 1, 8192), 4).cluster, 4);
  EXPECT_EQ(choose_merge(m, work(6, 1, 8192), 3).cluster, 3);   // forced 3: a cluster
  EXPECT_EQ(choose_merge(m, work(6, 1, 8192), 20).cluster, 1);  // beyond the largest cluster
  EXPECT_EQ(choose_merge(m, work(6, 1, 8192), 1).cluster, 1);   // nothing to merge
}

// A solo fp8 launch holds one CTA an SM, so its clusters must fit at that reservation: 16 units of
// 8 splits (Qwen2.5-7B, B = 4) are 16 clusters of 8, of which 15 fit one CTA an SM: they go without
// the reservation (30 fit at two CTAs an SM); 15 units stay solo. 16-bit caches never launch solo.
TEST(DecodeSplits, SoloClustersFitAtTheReservedSharedMemory) {
  const Machine m = h200();
  const SplitChoice a = choose_merge(m, work(4, 4, 65536, 128, 1, 7), 8);
  EXPECT_EQ(a.cluster, 8);
  EXPECT_FALSE(a.solo);
  const SplitChoice b = choose_merge(m, work(15, 1, 65536, 128, 1, 7), 8);
  EXPECT_EQ(b.cluster, 8);
  EXPECT_TRUE(b.solo);  // 120 CTAs in 15 clusters of 8: they fit one CTA an SM
  const SplitChoice c = choose_merge(m, work(8, 8, 8192, 128, 1), 2);  // 128 CTAs in 64 pairs: 66 fit solo
  EXPECT_EQ(c.cluster, 2);
  EXPECT_TRUE(c.solo);
  EXPECT_FALSE(choose_merge(m, work(8, 8, 8192, 128, 2), 2).solo);  // 16-bit
  Machine none = m;
  none.solo = false;  // the device cannot reserve
  EXPECT_FALSE(choose_merge(none, work(8, 8, 8192, 128, 1), 2).solo);
}

// The early L2 prefetch (before the dependency wait) where the A/Bs found it pays: long CTAs of
// 16-bit caches, and of paged fp8 caches from 2 048 rows when neither solo nor pairs; not the
// 128-row CTAs of (1,32,8,1024) in 8 splits, nor other fp8 caches, nor paged ones whose page table's
// row length the run does not tell (their entries are not read before the wait).
TEST(DecodePrefetch, OnlyLongCtas) {
  using cotile::attention::detail::prefetch_before_wait;
  EXPECT_TRUE(prefetch_before_wait(false, false, 2, 32768, 16, false, false));   // (1,32,8,32768): 2 048 rows a CTA
  EXPECT_TRUE(prefetch_before_wait(false, false, 2, 1024, 1, false, false));     // (128,32,8,1024): 1 024
  EXPECT_FALSE(prefetch_before_wait(false, false, 2, 1024, 8, false, false));    // (1,32,8,1024): 128
  EXPECT_FALSE(prefetch_before_wait(false, false, 2, 1023, 1, false, false));    // just under
  EXPECT_TRUE(prefetch_before_wait(false, false, 2, 2047, 2, false, false));     // 1 024 after rounding up
  EXPECT_FALSE(prefetch_before_wait(false, false, 1, 32768, 16, false, false));  // fp8
  EXPECT_TRUE(prefetch_before_wait(true, true, 2, 32768, 16, false, false));     // paged, the table's length told
  EXPECT_FALSE(prefetch_before_wait(true, false, 2, 32768, 16, false, false));   // paged, not told
  EXPECT_FALSE(prefetch_before_wait(true, true, 2, 1024, 8, false, false));      // paged, short CTAs
  EXPECT_TRUE(prefetch_before_wait(false, false, 1, 1024, 8, true, false));      // solo: fp8 and short CTAs too
  EXPECT_FALSE(prefetch_before_wait(true, true, 1, 32768, 16, true, false));     // not paged fp8 solo, told or not
  EXPECT_FALSE(prefetch_before_wait(true, true, 2, 65536, 128, true, false));    // nor paged short CTAs, solo or not
  EXPECT_FALSE(prefetch_before_wait(true, false, 1, 32768, 16, true, false));    // but not paged untold
  EXPECT_TRUE(prefetch_before_wait(true, true, 1, 65536, 32, false, false));     // paged fp8: 2 048 rows a CTA
  EXPECT_TRUE(prefetch_before_wait(true, true, 1, 4095, 2, false, false));       // 2 048 after rounding up
  EXPECT_FALSE(prefetch_before_wait(true, true, 1, 65536, 64, false, false));    // 1 024: not for fp8
  EXPECT_FALSE(prefetch_before_wait(true, true, 1, 2047, 1, false, false));      // just under
  EXPECT_FALSE(prefetch_before_wait(true, true, 1, 65536, 32, false, true));     // pairs of KV heads
  EXPECT_FALSE(prefetch_before_wait(true, false, 1, 65536, 32, false, false));   // the table's length untold
  EXPECT_FALSE(prefetch_before_wait(false, false, 1, 65536, 32, false, false));  // contiguous fp8, not solo
  EXPECT_TRUE(prefetch_before_wait(true, true, 2, 65536, 32, false, true));      // (pairs matter to fp8 only)
}

// The early trigger for the next kernel: grids that leave half the SMs idle, or run in several
// waves; not one-wave grids that fill the SMs (132 SMs, 2 CTAs each).
TEST(DecodePrefetch, EarlyTriggerOnlyWhereTheNextGridFindsRoom) {
  using cotile::attention::detail::trigger_early;
  EXPECT_TRUE(trigger_early(64, 132, 2, false));  // (1,32,8,1024): 8 clusters of 8
  EXPECT_TRUE(trigger_early(66, 132, 2, false));
  EXPECT_FALSE(trigger_early(67, 132, 2, false));
  EXPECT_FALSE(trigger_early(128, 132, 2, false));  // one CTA per SM
  EXPECT_FALSE(trigger_early(264, 132, 2, false));  // one full wave
  EXPECT_TRUE(trigger_early(265, 132, 2, false));   // a second wave
  EXPECT_TRUE(trigger_early(1024, 132, 2, false));  // (128,32,8,1024): four waves
  EXPECT_TRUE(trigger_early(128, 132, 2, true));    // solo: the next launch's CTAs take one SM each
}

// Solo launches (one CTA an SM by reservation, the next kernel let in early): fp8 grids of one CTA
// on more than half the SMs of a kernel that could hold two; the reservation more than half an SM.
TEST(DecodePlan, SoloLaunchRule) {
  using cotile::attention::detail::solo_launch;
  using cotile::attention::detail::solo_smem;
  EXPECT_TRUE(solo_launch(128, 132, 2, 1));  // fp8 (8,32,8,8192) 2c, (1,128,8,131072) 16 splits
  EXPECT_TRUE(solo_launch(132, 132, 2, 1));  // every SM
  EXPECT_TRUE(solo_launch(67, 132, 2, 1));
  EXPECT_FALSE(solo_launch(66, 132, 2, 1));   // half the SMs idle: the early trigger needs no reservation
  EXPECT_FALSE(solo_launch(133, 132, 2, 1));  // two CTAs on some SM
  EXPECT_FALSE(solo_launch(128, 132, 1, 1));  // the kernel holds an SM alone anyway
  EXPECT_FALSE(solo_launch(128, 132, 2, 2));  // 16-bit caches
  EXPECT_EQ(solo_smem(100 << 10, 228 << 10), (114 << 10) + 1024);  // two would need 2 x 116 KiB > 228
  EXPECT_EQ(solo_smem(200 << 10, 228 << 10), 200 << 10);           // already more
}

// Pairs of KV heads a CTA: fp8 caches of head_dim 64, G x q_len <= 8, Hkv even, at least 32 MiB of K and V
// (B x Hkv x N x 128 bytes) and pairs that at 128 splits give every SM (132) two CTAs.
TEST(DecodePlan, PairHeadsRule) {
  using cotile::attention::detail::pair_heads;
  EXPECT_TRUE(pair_heads(1, 16, 1, 64, 1, 65536, 132));    // Qwen1.5-0.5B B=1 N=64K: 128 MiB, 8 pairs
  EXPECT_TRUE(pair_heads(16, 8, 4, 64, 1, 4096, 132));     // Llama-3.2-1B B=16 N=4K: 64 MiB
  EXPECT_TRUE(pair_heads(1, 8, 8, 64, 1, 65536, 132));     // G = 8: 16 query rows a pair
  EXPECT_FALSE(pair_heads(1, 8, 9, 64, 1, 65536, 132));    // G = 9: 18 rows
  EXPECT_FALSE(pair_heads(1, 16, 1, 64, 2, 65536, 132));   // 16-bit caches: 128-byte rows already
  EXPECT_FALSE(pair_heads(1, 16, 1, 128, 1, 65536, 132));  // head_dim 128
  EXPECT_FALSE(pair_heads(1, 15, 1, 64, 1, 65536, 132));   // Hkv odd
  EXPECT_FALSE(pair_heads(8, 16, 1, 64, 1, 1024, 132));    // Qwen1.5-0.5B B=8 N=1K: 16 MiB
  EXPECT_FALSE(pair_heads(1, 2, 7, 64, 1, 262144, 132));   // Qwen2.5-0.5B B=1 N=256K: 64 MiB, one pair: 128 CTAs
  EXPECT_TRUE(pair_heads(3, 2, 7, 64, 1, 262144, 132));    // three pairs: 384 CTAs
  // Several query tokens: a pair's 2G x q_len rows within 16.
  EXPECT_TRUE(pair_heads(1, 16, 1, 64, 1, 65536, 132, 8));   // Qwen1.5-0.5B, 8 tokens: 16 rows a pair
  EXPECT_TRUE(pair_heads(16, 8, 4, 64, 1, 4096, 132, 2));    // Llama-3.2-1B, 2 tokens: 16 rows
  EXPECT_FALSE(pair_heads(16, 8, 4, 64, 1, 4096, 132, 3));   // 3 tokens: 24 rows
  EXPECT_FALSE(pair_heads(1, 16, 1, 64, 1, 65536, 132, 9));  // 9 tokens: 18 rows
}

// Two m-tiles a CTA: several tokens of a 16-bit cache at head_dim 64 or 128, whose two-m-tile CTAs
// each attend at least 1 024 rows of the longest sequence (and, with an odd count of m-tiles, where
// one a CTA would take more than a wave).
TEST(DecodePlan, TwoMTilesRule) {
  using cotile::attention::detail::can_two_m_tiles;
  using cotile::attention::detail::two_m_tiles;
  EXPECT_TRUE(can_two_m_tiles(2, 128, 2));
  EXPECT_TRUE(can_two_m_tiles(8, 64, 2));
  EXPECT_FALSE(can_two_m_tiles(1, 128, 2));  // one token: up to 32 heads, 16 rows a CTA
  EXPECT_FALSE(can_two_m_tiles(4, 256, 2));  // O of 32 rows does not fit a thread's registers
  EXPECT_FALSE(can_two_m_tiles(4, 128, 1));  // fp8: the tiles' computation paces one m-tile already
  EXPECT_TRUE(two_m_tiles(16384, 16));       // 1 024 rows a CTA
  EXPECT_FALSE(two_m_tiles(16368, 16));      // 1 023 rows
  EXPECT_FALSE(two_m_tiles(1024, 16));       // B = 1 N = 1K: 64 rows a CTA
  EXPECT_TRUE(two_m_tiles(4096, 1));
  // An odd count of m-tiles: two a CTA only where one a CTA would need more than one wave.
  using cotile::attention::detail::two_m_tiles_odd;
  EXPECT_FALSE(two_m_tiles_odd(192, 264));  // StarCoder2-3B q_len 4 B=1 N=64K: 2 x 3 m-tiles x 32 splits
  EXPECT_FALSE(two_m_tiles_odd(264, 264));  // one full wave
  EXPECT_TRUE(two_m_tiles_odd(384, 264));   // B=16 N=8K: 16 x 2 x 3 x 4, two waves
}

// The warpgroup kernel (64 rows a CTA): head_dim-128 caches, 16-bit with Q of their type or fp8, and
// several tokens; the plan takes it where its CTAs are on half the SMs (132 on the H200) or more and
// attend a tile (16-bit caches), or >= 1 024 rows of more than 32 query rows a KV head (fp8).
TEST(DecodePlan, GroupRowsRule) {
  using cotile::attention::detail::can_group_rows;
  using cotile::attention::detail::group_rows_by_plan;
  using cotile::attention::detail::group_rows_pay;
  EXPECT_TRUE(can_group_rows(2, 128, 2, true));
  EXPECT_FALSE(can_group_rows(1, 128, 2, true));   // one token: the one-token kernels
  EXPECT_FALSE(can_group_rows(4, 64, 2, true));    // head_dim 64: not built
  EXPECT_FALSE(can_group_rows(4, 128, 2, false));  // Q of another type: wgmma reads Q as loaded
  EXPECT_TRUE(can_group_rows(4, 128, 1, false));   // fp8: Q of any type, converted once
  EXPECT_FALSE(can_group_rows(1, 128, 1, false));
  EXPECT_TRUE(group_rows_by_plan(2, 20));
  EXPECT_TRUE(group_rows_by_plan(1, 48));   // fp8: more than two m-tiles of rows a KV head
  EXPECT_FALSE(group_rows_by_plan(1, 32));  // G 8 x 4 tokens: two per-warp CTAs a head
  EXPECT_FALSE(group_rows_by_plan(1, 16));
  EXPECT_TRUE(group_rows_pay(16384, 16, 256, 132));   // 405B TP8 q_len 4 B=16 N=16K: 1 024 rows, 256 CTAs
  EXPECT_TRUE(group_rows_pay(4096, 32, 256, 132));    // B=8 N=4K: 128 rows a CTA
  EXPECT_TRUE(group_rows_pay(65536, 128, 66, 132));   // half the SMs
  EXPECT_FALSE(group_rows_pay(65536, 128, 65, 132));  // fewer
  EXPECT_FALSE(group_rows_pay(1024, 16, 64, 132));    // Qwen2.5-7B q_len 4 B=1 N=1K: 64 CTAs
  EXPECT_FALSE(group_rows_pay(1024, 32, 256, 132));   // 32 rows a CTA: half a tile
  // fp8 caches: CTAs of >= 1 024 rows
  EXPECT_TRUE(group_rows_pay(16384, 16, 256, 132, 1));    // 405B TP8 q_len 4 B=16 N=16K: 1 024 rows
  EXPECT_FALSE(group_rows_pay(65536, 128, 256, 132, 1));  // StarCoder2-3B B=1 N=64K: 512 rows
  EXPECT_FALSE(group_rows_pay(8192, 1, 64, 132, 1));      // 64 CTAs on 132 SMs
}

// The stagger of the first wave's later slots: grids of several waves only, ~3 us in cycles of
// the device's clock (1 980 MHz: 5 940 cycles).
TEST(DecodePrefetch, StaggerOnlyGridsOfSeveralWaves) {
  using cotile::attention::detail::stagger_cycles;
  EXPECT_EQ(stagger_cycles(1024, 132, 2, 1980000), 5940);  // (128,32,8,1024): four waves
  EXPECT_EQ(stagger_cycles(265, 132, 2, 1980000), 5940);   // a second wave
  EXPECT_EQ(stagger_cycles(264, 132, 2, 1980000), 0);      // one full wave
  EXPECT_EQ(stagger_cycles(128, 132, 2, 1980000), 0);      // one CTA per SM
  EXPECT_EQ(stagger_cycles(1024, 132, 1, 1980000), 0);     // one slot per SM: nothing to stagger
  EXPECT_EQ(stagger_cycles(1024, 132, 2, 1000000), 3000);  // a slower clock: fewer cycles, the same time
}

TEST(DecodeWorkspace, HoldsEveryPartialAligned) {
  const auto w = workspace_layout(8, 33, 128);
  EXPECT_GE(w.lse - w.o, uint64_t(8) * 33 * 16 * 128 * 2);   // 16-bit partial O
  EXPECT_GE(w.counters - w.lse, uint64_t(8) * 33 * 16 * 4);  // fp32 lse
  EXPECT_GE(w.total - w.counters, uint64_t(8) * 4);          // a counter per unit
  EXPECT_EQ(w.lse % 256, 0u);
  EXPECT_EQ(w.counters % 256, 0u);
  EXPECT_EQ(workspace_layout(8, 1, 128).total, 0u);     // no split: nothing to merge
  EXPECT_EQ(workspace_layout(8, 4, 128, 4).total, 0u);  // splits merged within their cluster
}

}  // namespace
