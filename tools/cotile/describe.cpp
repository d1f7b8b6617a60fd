#include "describe.hpp"

namespace cotile::cli {

std::string plain(const std::string& s) {
  std::string r;
  for (size_t i = 0; i < s.size(); ++i)
    if (!(s[i] == '_' && i + 1 < s.size() && (isdigit(static_cast<unsigned char>(s[i + 1])) || s[i + 1] == '-')))
      r += s[i];
  return r;
}

namespace {
std::string term(int64_t c, const std::string& var) {
  if (c == 1) return var;
  if (c == -1) return "-" + var;
  return std::to_string(c) + "*" + var;
}
}  // namespace

FunctionText describe_function(const Layout& l, const std::vector<std::string>& names, const std::string& fname) {
  const Layout modes = l.is_leaf() ? make_layout_concat(l) : l;
  std::vector<std::string> terms, domain, decomp, args;
  for (int i = 0; i < modes.rank(); ++i) {
    const std::string n = i < int(names.size()) ? names[i] : "x" + std::to_string(i);
    args.push_back(n);
    const Layout c = coalesce(modes.get(i));
    const IntTuple s = flatten(c.shape), d = flatten(c.stride);
    const int k = s.num_leaves();
    if (k == 1) {
      domain.push_back(n + " in [0," + std::to_string(s.leaf_at(0).value) + ")");
      if (d.leaf_at(0).value != 0 && s.leaf_at(0).value != 1) terms.push_back(term(d.leaf_at(0).value, n));
      continue;
    }
    std::string dec = n + " = ";
    int64_t radix = 1;
    for (int j = 0; j < k; ++j) {
      const std::string sub = n + std::to_string(j);
      dec += (j ? " + " : "") + term(radix, sub);
      radix *= s.leaf_at(j).value;
      domain.push_back(sub + " in [0," + std::to_string(s.leaf_at(j).value) + ")");
      if (d.leaf_at(j).value != 0 && s.leaf_at(j).value != 1) terms.push_back(term(d.leaf_at(j).value, sub));
    }
    decomp.push_back(dec);
  }
  FunctionText f;
  f.formula = fname + "(";
  for (size_t i = 0; i < args.size(); ++i) f.formula += (i ? "," : "") + args[i];
  f.formula += ") = ";
  if (terms.empty()) f.formula += "0";
  for (size_t i = 0; i < terms.size(); ++i) {
    const std::string& t = terms[i];
    if (i == 0) f.formula += t;
    else if (t[0] == '-') f.formula += " - " + t.substr(1);
    else f.formula += " + " + t;
  }
  for (size_t i = 0; i < decomp.size(); ++i) f.domain += (i ? "; " : "") + decomp[i];
  if (!decomp.empty()) f.domain += "; ";
  for (size_t i = 0; i < domain.size(); ++i) f.domain += (i ? ", " : "") + domain[i];
  return f;
}

}  // namespace cotile::cli
