// A case of decode_test (decode_test.cu, and its several-token cases in decode_test_tokens.cpp):
// the shape, cache, dtypes and options of one run against the fp32 reference.
#pragma once

#include <cstdio>
#include <cstring>
#include <string>

#include "decode.h"

namespace decode_test {

enum class Cache { kBNHD, kBHND, kPaged };

struct Case {
  int B, N, G, D, Hkv;
  Cache cache;
  int page;  // paged only
  bool remap, append;
  int q_type, kv_type, o_type;
  float softcap = 0;
  int window = 0;
  bool per_head_scale = false;
  bool pad_q = false;
  int splits = 0;              // 0: the plan's choice
  bool late_writes = false;    // seqlen, page table and remap written by the kernel just before (below)
  float q_amp = 0;             // Q's values in [-q_amp, q_amp]; 0: the default (1, or 4 for fp8 Q with an fp8 cache)
  int pairs = 0;               // kv_heads_per_cta: 0 the plan's choice, 2 forced pairs of KV heads
  int layout = COTILE_KV_ANY;  // the plan's kv_layout (NHD: it may pair heads by choice)
  int expect_per_cta = 0;      // > 0: the plan must choose this kv_heads_per_cta
  int q_len = 1;               // query tokens a sequence (in the cache's last q_len rows, or appended)
  int m_tiles_per_cta = 0;     // 0: the plan's choice; 1, 2 or 4 forced (decode.h)
  int expect_m_tiles = 0;      // > 0: the plan must choose this m_tiles_per_cta
  bool table_len = true;       // paged: args.page_table_len given (the page table is the exact [B, pages] it says)
  // Whether pairs of KV heads can run this case (decode.h, kv_heads_per_cta).
  bool can_pair() const {
    return (kv_type == COTILE_E4M3 || kv_type == COTILE_E5M2) && D == 64 && G * q_len <= 8 && Hkv % 2 == 0;
  }
  std::string name() const {
    const std::string tiles = m_tiles_per_cta ? " m_tiles_per_cta=" + std::to_string(m_tiles_per_cta) : "";
    static const char* dt[] = {"f16", "bf16", "e4m3", "e5m2"};
    char s[256];
    std::snprintf(s, sizeof s, "B=%d N=%d G=%d D=%d Hkv=%d %s%s%s%s q=%s kv=%s o=%s cap=%g win=%d%s%s%s", B, N, G, D,
                  Hkv,
                  cache == Cache::kBNHD   ? "BNHD"
                  : cache == Cache::kBHND ? "BHND"
                                          : "paged",
                  cache == Cache::kPaged ? std::to_string(page).c_str() : "", remap ? " remap" : "",
                  append ? " append" : "", dt[q_type], dt[kv_type], dt[o_type], softcap, window,
                  per_head_scale ? " per-head" : "", splits ? (" splits=" + std::to_string(splits)).c_str() : "",
                  q_amp > 0 ? (" q_amp=" + std::to_string(int(q_amp))).c_str() : "");
    if (late_writes) std::strncat(s, " late-writes", sizeof s - std::strlen(s) - 1);
    if (pairs) std::strncat(s, " pairs", sizeof s - std::strlen(s) - 1);
    if (cache == Cache::kPaged && !table_len) std::strncat(s, " table-len-unknown", sizeof s - std::strlen(s) - 1);
    if (q_len > 1) std::strncat(s, (" q_len=" + std::to_string(q_len)).c_str(), sizeof s - std::strlen(s) - 1);
    std::strncat(s, tiles.c_str(), sizeof s - std::strlen(s) - 1);
    return s;
  }
};

// Runs the case (fresh inputs, the kernel, the reference), prints "ok" or "FAIL" with its name,
// and counts it: decode_test.cu.
bool run_case(const Case& c);
// The cases of several query tokens a sequence (decode_test_tokens.cpp); `quick`: the subset for
// compute-sanitizer.
void token_cases(bool quick);

}  // namespace decode_test
