// What one decode launch reads: the C ABI's arguments resolved to bytes and per-launch constants
// (host fills it in decode_api.cu, the kernel reads it by value).
#pragma once

#include <cstdint>

#include "decode.h"

namespace cotile::attention::detail {

// The kernel's fixed tiling, which the plan sizes the grid and workspace by: 16 query rows per
// CTA (the MMA's M), 16 K/V rows per tile, 4 warps per CTA, at most 128 KV splits, of which up to
// 8 (the portable cluster size) can merge within a thread-block cluster.
constexpr int kRows = 16, kWarps = 4, kMaxSplits = 128, kMaxCluster = 8;
constexpr int kMaxQLen = 8;  // query tokens a sequence (decode.h, shape.q_len)
constexpr int kThreads = 32 * kWarps;

// The launches a kernel of one KV head and one row block a CTA is compiled for (DecodeCta's Cache):
// any launch, or only those of a contiguous or of a paged cache without a remap, appended tokens,
// window or soft-cap (the "plain" kernels: one token a sequence, decode_d*_plain.cu; several, at
// head_dim 128 and 256, decode_d*_tokens_plain.cu): the code of the paths such a launch never takes
// is not in them, which an isolated call would fetch cold around the paths it takes
// (docs/design/decode.md, "Code size").
enum CacheKind : int { kAnyCache = 0, kContiguousCache = 1, kPagedCache = 2 };

// Bytes of one element of a cotile_dtype.
constexpr int dtype_bytes(int t) { return t == COTILE_F16 || t == COTILE_BF16 ? 2 : 1; }

struct Params {
  // Q [B, Hq, D] and O [B, Hq, D]: byte strides (several tokens: q_len, below).
  const uint8_t* q;
  int64_t q_sb, q_sh;
  int32_t q_type, q_bytes;
  uint8_t* o;
  int64_t o_sb, o_sh;
  int32_t o_type;
  float* lse;
  // The cache: byte strides; paged when page_table != nullptr (stride b is then the page stride).
  uint8_t* k;
  int64_t k_sb, k_sn, k_sh;
  uint8_t* v;
  int64_t v_sb, v_sn, v_sh;
  const int32_t* page_table;
  int64_t pt_stride;
  int32_t log2_page;
  int32_t pt_len;  // a page-table row's entries (args.page_table_len; 0: not told)
  const int32_t* seqlen;
  const int32_t* batch_idx;
  const uint8_t* k_new;
  int64_t kn_sb, kn_sh;  // append when k_new != nullptr
  const uint8_t* v_new;
  int64_t vn_sb, vn_sh;
  // Softmax: scores y = log2(e) * x in base 2; x = scale * q.k, soft-capped when softcap > 0.
  float scale, softcap;
  int32_t window;
  float k_scale, v_scale;
  const float* k_scale_h;
  const float* v_scale_h;
  // Work: CTA = unit * splits + split, unit = (b * Hkv + h) * m_tiles + m_tile (a cluster's CTAs
  // are consecutive: the splits of one unit when `clustered`).
  int32_t heads_kv, group, m_tiles, splits;
  // > 0: a pair of KV heads shares each CTA (plan.kv_heads_per_cta = 2; plan.hpp, pair_heads): the
  // launch's heads_kv, group and head strides are the pairs', and of each token's `group` query
  // rows the first pair_rows attend to the pair's first head (row bytes [0, R / 2)), the others to
  // its second (bytes [R / 2, R), at head stride / 2 from the first).
  int32_t pair_rows;
  bool clustered;
  // The first wave's CTA (CTAs [0, first_wave)) in slot j (of ctas_per_sm) of its SM, from its
  // hardware warp slots, starts j x stagger_cycles late (plan.hpp, stagger_cycles; 0: no delay).
  // Read right after the dependency wait: kept beside the fields read before it (one
  // constant-cache line).
  int32_t ctas_per_sm, first_wave, stagger_cycles;
  // CTAs [0, early_ctas) prefetch their first K/V tiles into L2 before the dependency wait: the
  // first wave (the CTAs that can start before the previous kernel ends) when the plan's rule says
  // it pays (plan.hpp, prefetch_before_wait), else 0.
  int32_t early_ctas;
  bool trigger_early;  // let the next kernel start after the main loops (plan.hpp, trigger_early)
  bool spread_merge;   // the unit's CTAs wait for each other and share its merge (plan.hpp, spread_merge)
  // Split-KV partials: normalized O [unit][split][16][D] in the compute type (f16 or bf16),
  // base-2 lse [unit][split][16] fp32; a counter [unit] (decode_epilogue.cuh: 0 between launches).
  uint16_t* part_o;
  float* part_lse;
  int32_t* counters;
  uint64_t* trace;  // diagnostics builds (COTILE_DECODE_TRACE): per-CTA phase times, or null
  // Several query tokens a sequence (the Tokens kernel; last, so that the one-token kernel's fields
  // keep their offsets): Q and O [B, q_len, Hq, D], LSE [B, q_len, Hq] contiguous, k_new and v_new
  // [B, q_len, Hkv, D]; the token strides in bytes (0 when q_len = 1). A KV head's query rows: row
  // R is head G h + R % G of token R / G.
  int32_t q_len;
  int64_t q_st, o_st, kn_st, vn_st;
};

}  // namespace cotile::attention::detail
