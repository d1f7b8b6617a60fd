// The playground's entry points: the command's verbs as C functions returning JSON, compiled to
// WebAssembly by web/build.sh. Every result is computed by the same code as `cotile calc`,
// `explain`, `verify` and `draw` (tools/cotile); nothing here computes a layout.
#include <map>
#include <string>
#include <vector>

#include "calc.hpp"
#include "explain.hpp"
#include "json.hpp"

using namespace cotile;
using namespace cotile::cli;

namespace {

// The last answer; the page copies it out before the next call.
std::string g_answer;

const char* answer(std::string s) {
  g_answer = std::move(s);
  return g_answer.c_str();
}

std::string error_json(const std::string& op, const std::string& rule, const std::string& message) {
  return "{\"ok\":false,\"error\":" + json_str(message) + ",\"op\":" + json_str(op) + ",\"rule\":" + json_str(rule) +
         "}";
}

// Arguments arrive as one string, each ended by a newline (no argument of the verbs holds one).
std::vector<std::string> split_lines(const char* joined) {
  std::vector<std::string> args;
  std::string cur;
  for (const char* p = joined; *p; ++p) {
    if (*p == '\n') {
      args.push_back(cur);
      cur.clear();
    } else {
      cur += *p;
    }
  }
  return args;
}

std::string ints_json(const std::vector<int64_t>& v) {
  std::string j = "[";
  for (size_t i = 0; i < v.size(); ++i) j += (i ? "," : "") + std::to_string(v[i]);
  return j + "]";
}
std::string strings_json(const std::vector<std::string>& v) {
  std::string j = "[";
  for (size_t i = 0; i < v.size(); ++i) j += (i ? "," : "") + json_str(v[i]);
  return j + "]";
}

// The drawing's panels, appended to j; a cell is [row, col, label, tip, f], its colour the
// panel's fills[f] (a few dozen colours for up to tens of thousands of cells).
void append_panels(std::string& j, const std::vector<DrawPanel>& panels) {
  j += "[";
  for (size_t k = 0; k < panels.size(); ++k) {
    const DrawPanel& p = panels[k];
    std::vector<std::string> fills;
    std::map<std::string, size_t> fill_index;
    for (const DrawCell& c : p.cells)
      if (fill_index.emplace(c.fill, fills.size()).second) fills.push_back(c.fill);
    j += (k ? ",{" : "{") + std::string("\"title\":") + json_str(p.title) + ",\"rows\":" + std::to_string(p.rows) +
         ",\"cols\":" + std::to_string(p.cols) + ",\"x\":" + std::to_string(p.x) + ",\"y\":" + std::to_string(p.y) +
         ",\"row_breaks\":" + ints_json(p.row_breaks) + ",\"col_breaks\":" + ints_json(p.col_breaks) +
         ",\"row_notes\":" + strings_json(p.row_notes) + ",\"col_notes\":" + strings_json(p.col_notes) +
         ",\"fills\":" + strings_json(fills) + ",\"cells\":[";
    for (size_t i = 0; i < p.cells.size(); ++i) {
      const DrawCell& c = p.cells[i];
      j += i ? ",[" : "[";
      j += std::to_string(c.row);
      j += ',';
      j += std::to_string(c.col);
      j += ',';
      j += json_str(c.label);
      j += ',';
      j += json_str(c.tip);
      j += ',';
      j += std::to_string(fill_index[c.fill]);
      j += ']';
    }
    j += "]}";
  }
  j += "]";
}

}  // namespace

extern "C" {

// calc: mode bit 1 = --strict, bit 2 = --as-cute. Returns
// {"ok":true,"value":TEXT,"json":{...},"warnings":[...]} or {"ok":false,"error":MESSAGE,"column":N,"json":{...}}.
const char* cotile_calc(const char* expr, int mode) {
  CalcOptions opt;
  opt.strict = (mode & 1) != 0;
  opt.as_cute = (mode & 2) != 0;
  try {
    const CalcOutcome r = calc_expression(expr, opt);
    if (!r.ok)
      return answer("{\"ok\":false,\"error\":" + json_str(r.error) + ",\"op\":" + json_str(r.error_op) + ",\"rule\":" +
                    json_str(r.error_rule) + ",\"column\":" + std::to_string(r.column) + ",\"json\":" + r.json + "}");
    std::string w;
    for (size_t k = 0; k < r.warnings.size(); ++k) w += (k ? "," : "") + json_str(r.warnings[k]);
    return answer("{\"ok\":true,\"value\":" + json_str(r.text) + ",\"json\":" + r.json + ",\"warnings\":[" + w + "]}");
  } catch (const std::exception& e) {
    return answer(error_json("calc", "internal", e.what()));
  }
}

// calc --list: the operations, each {name, signature, summary}.
const char* cotile_functions() {
  std::string j = "[";
  for (const auto& [name, op] : registry())
    j += (j.size() > 1 ? "," : "") + std::string("{\"name\":") + json_str(name) +
         ",\"signature\":" + json_str(op.signature) + ",\"summary\":" + json_str(op.summary) + "}";
  return answer(j + "]");
}

// explain / verify / draw with the command's arguments (each ended by a newline). Returns {"ok":true,...} with
// "text" and "json" (explain, verify: what the command prints without and with --json; verify
// adds "holds"); for draw the drawing's "title", "cells", "width", "height" and its panels and
// geometry (DrawPanel), or ("draw-documents") its "svg" and "html" as the command writes them.
const char* cotile_verb(const char* verb, const char* joined_args) {
  const std::vector<std::string> args = split_lines(joined_args);
  const std::string v = verb;
  try {
    if (v == "explain") {
      const Derivation d = explain_from(explain_flags(args));
      return answer("{\"ok\":true,\"text\":" + json_str(render_text(d)) + ",\"json\":" + render_json(d) + "}");
    }
    if (v == "verify") {
      const VerifyReport r = verify_from(verify_flags(args));
      return answer("{\"ok\":true,\"holds\":" + std::string(r.holds() ? "true" : "false") +
                    ",\"text\":" + json_str(render_text(r)) + ",\"json\":" + render_json(r) + "}");
    }
    if (v == "draw" || v == "draw-documents") {
      const Drawing d = draw_from(draw_flags(args), v == "draw-documents");
      std::string j = "{\"ok\":true,\"subject\":" + json_str(d.subject) + ",\"title\":" + json_str(d.title) +
                      ",\"cells\":" + std::to_string(d.cells) + ",\"width\":" + std::to_string(d.width) +
                      ",\"height\":" + std::to_string(d.height);
      if (v == "draw-documents")
        return answer(j + ",\"svg\":" + json_str(d.svg) + ",\"html\":" + json_str(d.html) + "}");
      j += ",\"cell_w\":" + std::to_string(d.cell_w) + ",\"cell_h\":" + std::to_string(d.cell_h) +
           ",\"font\":" + std::to_string(d.font) + ",\"labels\":" + (d.labels ? "true" : "false") + ",\"panels\":";
      j.reserve(j.size() + size_t(d.cells) * 96);
      append_panels(j, d.panels);
      j += "}";
      return answer(std::move(j));
    }
    return answer(error_json("cotile", "unknown verb", "cotile: unknown verb '" + v + "' (explain verify draw)"));
  } catch (const Error& e) {
    return answer(error_json(e.op(), e.rule(), e.what()));
  } catch (const std::exception& e) {
    return answer(error_json(v, "internal", e.what()));
  }
}

}  // extern "C"
