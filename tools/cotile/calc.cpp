#include "calc.hpp"

#include "json.hpp"

namespace cotile::cli {

std::string value_json(const Value& v) {
  std::string j = "{\"kind\":" + json_str(text::kind_name(v.kind)) + ",\"value\":" + json_str(text::to_string(v));
  if (v.kind == Value::kLayout) {
    j += ",\"shape\":" + json_str(to_string(v.layout.shape)) + ",\"stride\":" + json_str(to_string(v.layout.stride));
  } else if (v.kind == Value::kInt) {
    j += ",\"integer\":" + std::to_string(v.integer.value) + ",\"static\":" + (v.integer.is_static ? "true" : "false");
  } else if (v.kind == Value::kRecord) {
    j += ",\"fields\":{";
    for (size_t i = 0; i < v.names.size(); ++i)
      j += (i ? "," : "") + json_str(v.names[i]) + ":" + value_json(v.elems[i]);
    j += "}";
  }
  return j + "}";
}

namespace {

// The parser's rule reads "expected X at column N, found Y" (cotile/text/parse.hpp).
int parse_error_column(const Error& err) {
  if (err.op() != "parse") return 0;
  const std::string key = " at column ";
  const size_t at = err.rule().find(key);
  if (at == std::string::npos) return 0;
  int col = 0;
  for (size_t i = at + key.size(); i < err.rule().size() && err.rule()[i] >= '0' && err.rule()[i] <= '9'; ++i)
    col = col * 10 + (err.rule()[i] - '0');
  return col;
}

}  // namespace

CalcOutcome calc_expression(const std::string& expr, CalcOptions opt) {
  CalcOutcome out;
  LawLog log;
  opt.log = opt.as_cute ? &log : nullptr;
  try {
    const Value v = evaluate(expr, opt);
    for (int k = 0; k < log.count && k < LawLog::kKept; ++k) out.warnings.push_back(log.kept[k].message.c_str());
    if (log.count > LawLog::kKept)
      out.warnings.push_back(std::to_string(log.count - LawLog::kKept) + " more violated laws");
    std::string w;
    for (size_t k = 0; k < out.warnings.size(); ++k) w += (k ? "," : "") + json_str(out.warnings[k]);
    out.ok = true;
    out.text = text::to_string(v);
    out.json = "{\"expression\":" + json_str(expr) + ",\"result\":" + value_json(v) +
               (out.warnings.empty() ? "" : ",\"warnings\":[" + w + "]") + "}";
  } catch (const Error& err) {
    out.error = err.what();
    out.error_op = err.op();
    out.error_rule = err.rule();
    out.column = parse_error_column(err);
    out.json = "{\"expression\":" + json_str(expr) + ",\"error\":{\"op\":" + json_str(err.op()) +
               ",\"rule\":" + json_str(err.rule()) + ",\"message\":" + json_str(err.what()) + "}}";
  }
  return out;
}

}  // namespace cotile::cli
