#include "golden.hpp"

#include <fstream>
#include <sstream>

namespace cotile::cli {

namespace {

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> f;
  size_t start = 0;
  while (true) {
    const size_t t = line.find('\t', start);
    f.push_back(line.substr(start, t == std::string::npos ? std::string::npos : t - start));
    if (t == std::string::npos) break;
    start = t + 1;
  }
  return f;
}

// tile_to_shape's offsets are given at indices that are not printed (the first 16, or 16 sorted
// distinct ones): they pass when each offset is taken by the layout at an index, and those
// indices increase strictly.
std::string check_offsets_at_increasing_indices(const Value& layout, const std::string& expected) {
  const Value want = text::parse(expected);
  if (want.kind != Value::kTuple) return "offsets=(unparseable expectation)";
  const Layout inner = layout.kind == Value::kComposed ? layout.composed.layout : layout.layout;
  const int64_t n = size(inner).value;
  std::map<int64_t, int64_t> first_index;
  for (int64_t i = n - 1; i >= 0; --i)
    first_index[layout.kind == Value::kComposed ? eval(layout.composed, int_tuple(dynamic_int(i)))
                                                : eval(inner, int_tuple(dynamic_int(i))).value] = i;
  int64_t prev = -1;
  for (const Value& e : want.elems) {
    auto it = first_index.find(e.integer.value);
    if (it == first_index.end() || it->second <= prev)
      return "offsets not taken at increasing indices (offset " + std::to_string(e.integer.value) + ")";
    prev = it->second;
  }
  return "";
}

}  // namespace

std::string check_golden_case(const std::vector<std::string>& f, const CalcOptions& opt, bool* known_op) {
  size_t arrow = 0;
  while (arrow < f.size() && f[arrow] != "=>") ++arrow;
  if (arrow == f.size() || arrow == 0) return "malformed line (no '=>')";
  const std::string& op = f[0];
  *known_op = registry().count(op) != 0;
  if (!*known_op) return "unsupported op '" + op + "'";
  std::vector<Value> args;
  for (size_t i = 1; i < arrow; ++i) args.push_back(text::parse(f[i]));
  Value got = call(op, args, opt);
  const std::vector<std::string> expected(f.begin() + arrow + 1, f.end());
  if (got.kind != Value::kRecord && !expected.empty() && expected[0].rfind("layout=", 0) == 0)
    got = Value::record({"layout"}, {got});
  if (got.kind != Value::kRecord) {
    const std::string s = text::to_string(got);
    return (expected.size() == 1 && s == expected[0]) ? "" : s;
  }
  // Named results: compare each expected field; offsets of tile_to_shape by the special rule.
  std::string mismatch;
  for (const std::string& e : expected) {
    const size_t eq = e.find('=');
    const std::string name = e.substr(0, eq), value = eq == std::string::npos ? "" : e.substr(eq + 1);
    const Value* field = got.field(name);
    if (op == "tile_to_shape" && name == "offsets") {
      const std::string why = check_offsets_at_increasing_indices(got.elems[0], value);
      if (!why.empty()) mismatch += (mismatch.empty() ? "" : "\t") + why;
      continue;
    }
    if (field == nullptr) {
      mismatch += (mismatch.empty() ? "" : "\t") + name + "=(missing)";
    } else if (text::to_string(*field) != value) {
      mismatch += (mismatch.empty() ? "" : "\t") + name + "=" + text::to_string(*field);
    }
  }
  return mismatch;
}

namespace {

// What a case gives in one mode: "" when it passes, else what was got; `law` is set when the
// mode refused it for a violated law (the message's first line).
std::string run_case(const std::vector<std::string>& f, const CalcOptions& opt, bool* known, std::string* law) {
  try {
    return check_golden_case(f, opt, known);
  } catch (const LawError& e) {
    const std::string m = e.what();
    *law = m.substr(0, m.find('\n'));
    return "error: " + *law;
  } catch (const std::exception& e) {
    std::string got = std::string("error: ") + e.what();
    for (char& c : got)
      if (c == '\n') c = ' ';
    return got;
  }
}

}  // namespace

void run_golden_file(const std::string& path, GoldenReport& report, const CalcOptions& opt) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open golden file " + path);
  std::string line;
  int lineno = 0;
  CalcOptions as_cute = opt, checked = opt;
  LawLog cute_log;
  as_cute.as_cute = true;
  as_cute.log = &cute_log;
  checked.as_cute = false;
  while (std::getline(in, line)) {
    ++lineno;
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> f = split_tabs(line);
    GoldenFailure fl;
    fl.file = path;
    fl.line = lineno;
    fl.op = f[0];
    size_t arrow = 1;
    while (arrow < f.size() && f[arrow] != "=>") ++arrow;
    for (size_t i = 1; i < arrow; ++i) fl.args += (i > 1 ? " " : "") + f[i];
    for (size_t i = arrow + 1; i < f.size(); ++i) fl.expected += (i > arrow + 1 ? " " : "") + f[i];
    bool known = false;
    std::string law;
    cute_log = LawLog{};
    const std::string got = run_case(f, as_cute, &known, &law);
    auto& counts = report.by_op[f[0]];
    if (got.empty()) {
      ++report.passed;
      ++counts.first;
    } else {
      ++report.failed;
      ++counts.second;
      fl.got = "(as CuTe) " + got;
      report.failures.push_back(fl);
    }
    law.clear();
    const std::string got_checked = run_case(f, checked, &known, &law);
    if (got_checked.empty()) {
      ++report.checked_passed;
    } else if (!law.empty() && got.empty()) {
      fl.got = law;
      report.refused.push_back(fl);
    } else if (got.empty() && cute_log.count > 0 && got_checked.rfind("error: ", 0) != 0) {
      // CuTe's result breaks its law and the default mode answers another, lawful one.
      const std::string m = cute_log.kept[0].message.c_str();
      fl.got = got_checked;
      fl.law = m.substr(0, m.find('\n'));
      report.lawful.push_back(fl);
    } else {
      ++report.checked_failed;
      fl.got = "(checked) " + got_checked;
      report.failures.push_back(fl);
    }
  }
}

}  // namespace cotile::cli
