// plan_replay: the split plan (kernels/attention/plan.hpp) replayed without a GPU on a model
// sweep's CSV (bench/decode/sweep.py), one query token a sequence. For each cotile row with an
// oracle column it makes the choice the plan makes on the H200 (machine_h200.hpp): pairs of KV
// heads (pair_heads; a paged cache is told NHD, a contiguous one HND, as the sweep tells it), then
// the split count and its merge (choose_splits). It reports
//   - whether that choice is the row's recorded plan: a CSV measured with other constants differs,
//     and then its oracle ratios judge a plan that is no longer the code's (exit status 1);
//   - the choice's time over the best forced choice's in (a) isolated and (b) in sequence, read
//     from the row's oracle column (every forced count's a/b times), and how many cases have one
//     choice within 5% of the best in both.
// So a change of the model's constants or terms is judged on the whole sweep before a GPU is
// lent: the counts it prints are the sweep's `plan within 5% of the oracle` target as the new plan
// would meet it, for the choices the oracle timed (a choice it did not time is counted apart).
//
// Usage: plan_replay SWEEP.csv [--list]   (--list: a line a case)
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "machine_h200.hpp"
#include "plan.hpp"

namespace {

using namespace cotile::attention::detail;

// One CSV record (RFC 4180 quotes: the sweep's writer quotes fields that hold commas).
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') out.back() += '"', ++i;
    else if (c == '"') quoted = !quoted;
    else if (c == ',' && !quoted) out.emplace_back();
    else if (c != '\r') out.back() += c;
  }
  return out;
}

struct Row {
  std::map<std::string, std::string> f;
  const std::string& at(const std::string& k) const {
    static const std::string none;
    const auto it = f.find(k);
    return it == f.end() ? none : it->second;
  }
  int64_t num(const std::string& k) const { return at(k).empty() ? 0 : int64_t(std::stod(at(k))); }
};

// The oracle column's name of a launch (sweep_targets.plan_key): the split count, `c` when merged
// in a cluster, `p` for two KV heads a CTA.
std::string key(int64_t splits, int64_t cluster, int64_t per_cta) {
  return std::to_string(splits) + (cluster > 1 ? "c" : "") + (per_cta == 2 ? "p" : "");
}

// "1:16.64/10.92 2c:15.17/8.14 ..." -> {"1": {16.64, 10.92}, ...}; counts that failed ("n/a") left out.
std::map<std::string, std::pair<double, double>> oracle_times(const std::string& s) {
  std::map<std::string, std::pair<double, double>> out;
  std::istringstream in(s);
  for (std::string tok; in >> tok;) {
    const size_t colon = tok.find(':'), slash = tok.find('/');
    if (colon == std::string::npos || slash == std::string::npos || slash < colon) continue;
    char* end_a = nullptr;
    char* end_b = nullptr;
    const std::string a = tok.substr(colon + 1, slash - colon - 1), b = tok.substr(slash + 1);
    const double ta = std::strtod(a.c_str(), &end_a), tb = std::strtod(b.c_str(), &end_b);
    if (end_a && *end_a == '\0' && end_b && *end_b == '\0' && !a.empty() && !b.empty())
      out[tok.substr(0, colon)] = {ta, tb};
  }
  return out;
}

// The plan decode_plan.cu makes for a row at one token a sequence: its oracle key.
std::string replay(const Row& r) {
  const int64_t batch = r.num("B"), heads_kv = r.num("Hkv"), head_dim = r.num("D"), group = r.num("G");
  const int64_t rows = r.num("N");
  const int64_t kv_bytes = r.at("kv").rfind("fp8", 0) == 0 ? 1 : 2;
  const bool nhd = r.at("layout").rfind("paged", 0) == 0;
  const int64_t sms = h200_machine(2).sms,
                per_cta =
                    COTILE_DECODE_PAIR_HEADS && nhd && pair_heads(batch, heads_kv, group, head_dim, kv_bytes, rows, sms)
                        ? 2
                        : 1;
  const Machine m = h200_machine(h200_ctas_per_sm(per_cta * head_dim, kv_bytes));
  const int64_t m_tiles = per_cta == 2 ? 1 : (group + kRows - 1) / kRows;
  const Work w = Work::of(batch * heads_kv / per_cta * m_tiles, rows, per_cta * head_dim, kv_bytes, per_cta * group);
  const SplitChoice c = choose_splits(m, w);
  return key(c.splits, c.cluster, per_cta);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: plan_replay SWEEP.csv [--list]\n");
    return 2;
  }
  const bool list = argc > 2 && std::string(argv[2]) == "--list";
  std::ifstream in(argv[1]);
  std::string line;
  if (!in || !std::getline(in, line)) {
    std::fprintf(stderr, "plan_replay: cannot read %s\n", argv[1]);
    return 2;
  }
  const std::vector<std::string> header = csv_fields(line);
  int cases = 0, reproduced = 0, untimed = 0, within_a = 0, within_b = 0, within_both = 0, exists_both = 0;
  for (int n = 2; std::getline(in, line); ++n) {
    const std::vector<std::string> v = csv_fields(line);
    if (v.size() != header.size()) {
      std::fprintf(stderr, "plan_replay: %s line %d has %zu fields, the header %zu\n", argv[1], n, v.size(),
                   header.size());
      return 2;
    }
    Row r;
    for (size_t i = 0; i < v.size(); ++i) r.f[header[i]] = v[i];
    if (r.at("kernel") != "cotile" || r.at("status") != "ok" || r.at("oracle").empty()) continue;
    if (r.num("q_len") > 1) continue;  // several tokens: the rows' kernel is chosen too (not replayed)
    const auto times = oracle_times(r.at("oracle"));
    if (times.empty()) continue;
    ++cases;
    const std::string mine = replay(r);
    const std::string recorded = key(r.num("splits"), r.num("cluster"), r.num("kv_heads_per_cta"));
    reproduced += mine == recorded;
    double best_a = 1e300, best_b = 1e300, both = 1e300;
    for (const auto& [k, t] : times) best_a = std::min(best_a, t.first), best_b = std::min(best_b, t.second);
    for (const auto& [k, t] : times) both = std::min(both, std::max(t.first / best_a, t.second / best_b));
    exists_both += both <= 1.05;
    const auto it = times.find(mine);
    std::string verdict;
    if (it == times.end()) {
      ++untimed;
      verdict = "not timed";
    } else {
      const double ra = it->second.first / best_a, rb = it->second.second / best_b;
      within_a += ra <= 1.05, within_b += rb <= 1.05, within_both += ra <= 1.05 && rb <= 1.05;
      char buf[64];
      std::snprintf(buf, sizeof buf, "x%.3f / x%.3f", ra, rb);
      verdict = buf;
    }
    if (list || mine != recorded)
      std::printf("%-20s (%s,%s,%s) B=%s N=%s %s %s: plan %s%s, %s\n", r.at("label").c_str(), r.at("Hq").c_str(),
                  r.at("Hkv").c_str(), r.at("D").c_str(), r.at("B").c_str(), r.at("N").c_str(), r.at("kv").c_str(),
                  r.at("layout").c_str(), mine.c_str(),
                  mine == recorded ? "" : (" (the CSV's plan: " + recorded + ")").c_str(), verdict.c_str());
  }
  std::printf("%d cases with an oracle; the plan's choice is the recorded one on %d\n", cases, reproduced);
  std::printf("within 5%% of the best forced choice: (a) %d, (b) %d, both %d; one choice within 5%% in both exists on "
              "%d; the choice not timed by the oracle on %d\n",
              within_a, within_b, within_both, exists_both, untimed);
  return cases > 0 && reproduced == cases ? 0 : 1;
}
