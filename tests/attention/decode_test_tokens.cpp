// decode_test's cases of several query tokens a sequence (issue 28), run by decode_test.cu's main
// after the one-token forced cases, in this order.
#include <algorithm>
#include <vector>

#include "decode_case.hpp"

void decode_test::token_cases(bool quick) {
  // Several query tokens a sequence (speculative decoding): the G x q_len query rows of a KV head
  // share its tiles; the tokens are the cache's last q_len rows or appended, each attending to the
  // rows up to its own. Awkward groups (G x q_len up to 128; 256 at G = 32, q_len = 8: 16 m-tiles),
  // sequences shorter than the tokens (rows with nothing to attend to: O = 0, LSE = -inf), every
  // cache kind, remap, window, soft-cap, per-head scales, every dtype pair, and each merge.
  {
    const int qls[] = {2, 3, 4, 8}, gs[] = {5, 7, 16, 1, 4, 3}, ns[] = {1, 3, 8, 100, 1000, 5000},
              ds[] = {64, 128, 256};
    const int splits[] = {0, 0, 3, 20, 0, 8, 128, 0};
    for (int i = 0; i < (quick ? 6 : 40); ++i) {
      Case c{};
      c.q_len = qls[i % 4], c.G = gs[(i / 2 + i) % 6], c.N = ns[(i * 5 + i / 6) % 6], c.D = ds[(i / 4 + i) % 3];
      c.B = i % 3 == 0 ? 1 : 3, c.Hkv = 1 + i % 2;
      c.q_type = (i / 3) % 4, c.kv_type = (i / 2 + i / 7) % 4, c.o_type = i % 2;
      c.cache = Cache((i / 2 + i / 5) % 3), c.page = i % 4 == 1 ? 1 : 16;
      c.append = (i / 4) % 2 == 1, c.remap = i % 7 == 3;
      c.window = i % 5 == 2 ? 40 : 0, c.softcap = i % 6 == 5 ? 30.0f : 0.0f, c.per_head_scale = i % 4 == 3;
      c.splits = c.N >= 100 ? splits[i % 8] : 0;
      if (i % 3 == 1 && c.kv_type <= COTILE_BF16 && c.D <= 128) c.m_tiles_per_cta = 2;  // where it has 2 m-tiles
      if (quick) c.N = std::min(c.N, 1000);
      run_case(c);
    }
    Case wide{2, 3000, 32, 128, 1, Cache::kBHND, 0, false, true, COTILE_BF16, COTILE_BF16, COTILE_BF16};
    wide.q_len = 8, wide.splits = 4;
    run_case(wide);
    Case waves{64, 1500, 4, 128, 8, Cache::kPaged, 16, false, false, COTILE_F16, COTILE_E4M3, COTILE_F16};
    waves.q_len = 4, waves.splits = 12, waves.window = 500;  // 512 units x 12 splits: several waves
    if (!quick) run_case(waves);
    // Two m-tiles a CTA (32 query rows) through each merge: spread over one wave with a CTA's second
    // m-tile empty (3 m-tiles: 2 CTAs a head; the append and a window cut the tokens' rows in the
    // middle of a tile) and with remap and soft-cap, in 2-CTA clusters, by the last CTA of several waves.
    Case odd{3, 2000, 5, 64, 2, Cache::kBNHD, 0, false, true, COTILE_F16, COTILE_BF16, COTILE_BF16};
    odd.q_len = 8, odd.splits = 8, odd.window = 300, odd.m_tiles_per_cta = 2;
    run_case(odd);
    Case spread{2, 4000, 7, 128, 2, Cache::kPaged, 16, true, true, COTILE_F16, COTILE_BF16, COTILE_F16};
    spread.q_len = 3, spread.splits = 20, spread.softcap = 30.0f, spread.m_tiles_per_cta = 2;
    run_case(spread);
    Case clustered{16, 2048, 5, 128, 8, Cache::kBHND, 0, false, false, COTILE_BF16, COTILE_BF16, COTILE_BF16};
    clustered.q_len = 4, clustered.splits = 2, clustered.m_tiles_per_cta = 2;  // the plan clusters them (sweep)
    if (!quick) run_case(clustered);
    Case last{32, 1200, 12, 64, 8, Cache::kPaged, 64, false, false, COTILE_BF16, COTILE_F16, COTILE_BF16};
    last.q_len = 4, last.splits = 12, last.per_head_scale = true;  // 32 x 8 x 2 CTAs x 12 splits: several waves
    last.m_tiles_per_cta = 2;
    if (!quick) run_case(last);
    // The plan's own choice of two m-tiles: 16-bit, CTAs of >= 1 024 rows (plan.hpp, two_m_tiles), where
    // the warpgroup kernel cannot run (Q of another type than the cache); and fp8, which it never gives two.
    Case chosen{16, 16384, 16, 128, 1, Cache::kBHND, 0, false, false, COTILE_F16, COTILE_BF16, COTILE_BF16};
    chosen.q_len = 2, chosen.expect_m_tiles = 2;
    if (!quick) run_case(chosen);
    // Three m-tiles (G 12 x 4 tokens): two a CTA only where one a CTA would take more than a wave
    // (plan.hpp, two_m_tiles_odd): B = 1 N = 64K one (192 CTAs), B = 16 N = 8K two (384 of one).
    Case odd_one{1, 65536, 12, 128, 2, Cache::kBHND, 0, false, false, COTILE_F16, COTILE_BF16, COTILE_BF16};
    odd_one.q_len = 4, odd_one.expect_m_tiles = 1;
    if (!quick) run_case(odd_one);
    Case odd_two{16, 8192, 12, 128, 2, Cache::kBHND, 0, false, false, COTILE_F16, COTILE_BF16, COTILE_BF16};
    odd_two.q_len = 4, odd_two.expect_m_tiles = 2;
    if (!quick) run_case(odd_two);
    Case fp8_wide{1, 3000, 16, 128, 1, Cache::kBHND, 0, false, false, COTILE_BF16, COTILE_E4M3, COTILE_F16};
    fp8_wide.q_len = 4, fp8_wide.expect_m_tiles = 1;  // 64 rows: 4 CTAs of 16, the plan's splits
    run_case(fp8_wide);
  }
  // The warpgroup kernel (64 query rows a CTA by wgmma, decode_rows.cuh), forced: a CTA's last blocks
  // empty (35 rows: warp 3 idle; 48; 128 rows: two CTAs a head), sequences shorter than the tokens,
  // splits that cut a 64-row tile, every cache kind, the append, remap, window, soft-cap, per-head
  // scales, both 16-bit types and each merge (spread — the blocks' one pass, over 3 to 24 splits —,
  // cluster, several waves' last CTA).
  {
    std::vector<Case> rows;
    Case c{3, 2000, 7, 128, 2, Cache::kPaged, 16, false, true, COTILE_F16, COTILE_F16, COTILE_BF16};
    c.q_len = 5, c.splits = 8, c.window = 300, c.softcap = 30.0f, c.per_head_scale = true;
    rows.push_back(c);
    c = Case{3, 3, 16, 128, 1, Cache::kPaged, 64, false, false, COTILE_BF16, COTILE_BF16, COTILE_F16};
    c.q_len = 8;  // 3 rows for 8 tokens: the first five attend to nothing
    rows.push_back(c);
    c = Case{64, 1500, 8, 128, 8, Cache::kBNHD, 0, true, false, COTILE_F16, COTILE_F16, COTILE_F16};
    c.q_len = 4, c.splits = 12;  // 512 CTAs x 12 splits: several waves, the last CTA merges
    rows.push_back(c);
    c = Case{1, 20000, 12, 128, 2, Cache::kBHND, 0, false, true, COTILE_BF16, COTILE_BF16, COTILE_BF16};
    c.q_len = 4;  // 48 rows, the plan's splits
    rows.push_back(c);
    c = Case{16, 2048, 5, 128, 8, Cache::kBHND, 0, false, false, COTILE_BF16, COTILE_BF16, COTILE_BF16};
    c.q_len = 4, c.splits = 2;  // 2-CTA clusters
    rows.push_back(c);
    c = Case{2, 777, 32, 128, 1, Cache::kPaged, 64, true, true, COTILE_BF16, COTILE_BF16, COTILE_BF16};
    c.q_len = 8, c.splits = 3, c.window = 100;  // 256 rows: four CTAs a head; splits of 260 rows
    rows.push_back(c);
    c = Case{1, 30000, 16, 128, 1, Cache::kBNHD, 0, false, false, COTILE_F16, COTILE_F16, COTILE_F16};
    c.q_len = 4, c.splits = 24;  // the spread merge of 4 blocks' 1 024 items in 3 rounds a CTA
    rows.push_back(c);
    for (Case& r : rows) {
      if (quick) r.N = std::min(r.N, 2000);
      r.m_tiles_per_cta = 4;
      run_case(r);
    }
    // fp8 caches (each tile converted to f16 for wgmma, Q of any type converted once): both fp8 types, Q
    // of each kind (bf16, f16, e4m3), a CTA's last blocks empty (35 rows), sequences shorter than the
    // tokens, every cache kind, the append, remap, window, soft-cap, per-head scales, and each merge.
    rows.clear();
    c = Case{3, 2000, 7, 128, 2, Cache::kPaged, 16, false, true, COTILE_BF16, COTILE_E4M3, COTILE_BF16};
    c.q_len = 5, c.splits = 8, c.window = 300, c.softcap = 30.0f, c.per_head_scale = true;  // spread
    rows.push_back(c);
    c = Case{3, 3, 16, 128, 1, Cache::kPaged, 64, false, false, COTILE_F16, COTILE_E5M2, COTILE_F16};
    c.q_len = 8;  // 3 rows for 8 tokens
    rows.push_back(c);
    c = Case{64, 1500, 8, 128, 8, Cache::kBNHD, 0, true, false, COTILE_E4M3, COTILE_E4M3, COTILE_F16};
    c.q_len = 4, c.splits = 12;  // several waves: the last CTA merges
    rows.push_back(c);
    c = Case{16, 2048, 5, 128, 8, Cache::kBHND, 0, false, true, COTILE_BF16, COTILE_E4M3, COTILE_BF16};
    c.q_len = 4, c.splits = 2;  // 2-CTA clusters
    rows.push_back(c);
    c = Case{1, 30000, 16, 128, 1, Cache::kBHND, 0, false, false, COTILE_BF16, COTILE_E5M2, COTILE_BF16};
    c.q_len = 4, c.splits = 24;  // 64 rows spread over 24 splits
    rows.push_back(c);
    for (Case& r : rows) {
      if (quick) r.N = std::min(r.N, 2000);
      r.m_tiles_per_cta = 4;
      run_case(r);
    }
    // The plan's choice (plan.hpp, group_rows_pay): 64 rows a head (G 16 x 4 tokens), B = 16 N = 16K: CTAs
    // of 1 024 rows, 256 of them; B = 8 N = 4K: 256 CTAs of 128 rows, each merged with 31 other splits;
    // B = 1 N = 1K: 16 CTAs of 64 rows, one m-tile a CTA instead.
    Case chosen_rows{16, 16384, 16, 128, 1, Cache::kBHND, 0, false, false, COTILE_BF16, COTILE_BF16, COTILE_BF16};
    chosen_rows.q_len = 4, chosen_rows.expect_m_tiles = 4;
    if (!quick) run_case(chosen_rows);
    Case split_rows{8, 4096, 16, 128, 1, Cache::kBHND, 0, false, false, COTILE_BF16, COTILE_BF16, COTILE_BF16};
    split_rows.q_len = 4, split_rows.expect_m_tiles = 4;
    if (!quick) run_case(split_rows);
    Case short_rows{1, 1024, 16, 128, 1, Cache::kBHND, 0, false, false, COTILE_BF16, COTILE_BF16, COTILE_BF16};
    short_rows.q_len = 4, short_rows.expect_m_tiles = 1;
    run_case(short_rows);
    // Over an fp8 cache (group_rows_by_plan): the same 64 rows a head and 1 024 a CTA take it; B = 1 N = 1K
    // does not; 32 rows a head (G 8 x 4 tokens) never do.
    Case fp8_rows = chosen_rows;
    fp8_rows.kv_type = COTILE_E4M3, fp8_rows.expect_m_tiles = 4;
    if (!quick) run_case(fp8_rows);
    Case fp8_short = short_rows;
    fp8_short.kv_type = COTILE_E4M3, fp8_short.expect_m_tiles = 1;
    if (!quick) run_case(fp8_short);
    Case fp8_two_tiles = chosen_rows;
    fp8_two_tiles.kv_type = COTILE_E4M3, fp8_two_tiles.G = 8, fp8_two_tiles.expect_m_tiles = 1;
    if (!quick) run_case(fp8_two_tiles);
  }
  // Pairs of KV heads with several query tokens (each token's 2G rows: the pair's first head's G,
  // then its second's), forced: 16 rows (G 1 x 8 tokens, G 2 x 4), pages of 16 and 64 rows, heads
  // adjacent or apart, the append, remap, window, soft-cap, per-head scales, each Q type, sequences
  // shorter than the tokens, and each merge (cluster, spread, several waves' last CTA).
  {
    std::vector<Case> pairs;
    Case c{3, 3000, 1, 64, 2, Cache::kPaged, 16, false, true, COTILE_BF16, COTILE_E4M3, COTILE_BF16};
    c.q_len = 8, c.per_head_scale = true, c.softcap = 30;
    pairs.push_back(c);
    c = Case{3, 2001, 2, 64, 4, Cache::kBNHD, 0, true, false, COTILE_F16, COTILE_E5M2, COTILE_F16};
    c.q_len = 4, c.splits = 3, c.window = 500;
    pairs.push_back(c);
    c = Case{2, 4000, 4, 64, 2, Cache::kBHND, 0, false, true, COTILE_F16, COTILE_E4M3, COTILE_BF16};
    c.q_len = 2, c.splits = 20, c.per_head_scale = true;
    pairs.push_back(c);
    c = Case{3, 3, 1, 64, 6, Cache::kPaged, 64, false, false, COTILE_E4M3, COTILE_E4M3, COTILE_F16};
    c.q_len = 5;  // 3 rows for 5 tokens: the first two attend to nothing
    pairs.push_back(c);
    c = Case{64, 1500, 2, 64, 8, Cache::kPaged, 64, false, true, COTILE_BF16, COTILE_E4M3, COTILE_BF16};
    c.q_len = 3, c.splits = 12;  // 256 pairs x 12: several waves
    pairs.push_back(c);
    for (Case& p : pairs) {
      if (quick) p.N = std::min(p.N, 2000);
      p.pairs = 2;
      run_case(p);
    }
  }
}
