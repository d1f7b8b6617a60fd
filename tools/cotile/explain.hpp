// Derivations: the steps of a layout computation, each a named value with its function in its
// own coordinates and a line saying what the step does and why.
#pragma once

#include <string>
#include <vector>

#include "describe.hpp"
#include "flags.hpp"
#include "ops.hpp"

namespace cotile::cli {

struct Step {
  std::string section;   // e.g. "§7.2" (presets) or ""
  std::string name;      // "inv_data_layout"
  std::string value;     // CuTe text
  std::string function;  // "q(a) = ..." ("" when not a layout)
  std::string domain;
  std::string why;
};

struct Table {
  std::string title;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};

struct Derivation {
  std::string title;
  std::vector<Step> steps;
  std::vector<Table> tables;
  std::vector<std::string> notes;
};

std::string render_text(const Derivation& d);
std::string render_json(const Derivation& d);

Derivation explain_cotiled_copy(const CopyAtom& atom, const Layout& atom_tv, const Layout& data,
                                const CalcOptions& opt);
Derivation explain_tiled_copy(const CopyAtom& atom, const Layout& thr, const Layout& val);
Derivation explain_partition(const TiledCopy& tc, const Layout& tensor, const Int& thread);
Derivation explain_mma_partition(const TiledMMA& t, const Layout& tensor, const Int& thread, Operand op);
Derivation explain_operation(const std::string& op, const std::vector<Value>& args, const CalcOptions& opt);
Derivation explain_fmha_gen_q(Elem e, int64_t head_dim, int64_t m_tile, const CalcOptions& opt);

// The ownership table of a partitioned 2-D tensor (qload.md §8.2): per thread, rows and columns.
Table ownership_table(const TiledCopy& tc, const IntTuple& tensor_shape, const std::vector<int64_t>& threads);

// The verbs as functions of their arguments: the command prints what these return, and the
// Python module returns them as objects. `*_flags` parses a verb's arguments (its valued options).
Flags explain_flags(const std::vector<std::string>& args);
Derivation explain_from(const Flags& f);

struct VerifyCheck {
  std::string name, subject, message;
  bool holds = true;
  std::string counterexample;  // "" when it holds
};
struct VerifyReport {
  std::vector<VerifyCheck> checks;
  bool holds() const;
};
Flags verify_flags(const std::vector<std::string>& args);
VerifyReport verify_from(const Flags& f);
std::string render_text(const VerifyReport& r);
std::string render_json(const VerifyReport& r);

// A drawing's content apart from its SVG markup, for other renderers (the web playground draws
// it on a canvas): panels of cells on a grid, each with its label, hover text and colour, and the
// SVG's geometry (a panel's grid starts at (x, y); cells are cell_w x cell_h; labels are drawn
// when `labels`, in font-size `font`).
struct DrawCell {
  int64_t row, col;
  std::string label, tip, fill;
};
struct DrawPanel {
  std::string title;
  int64_t rows = 0, cols = 0;
  std::vector<int64_t> row_breaks, col_breaks;  // mode boundaries (multiples of these)
  std::vector<DrawCell> cells;
  std::vector<std::string> row_notes, col_notes;  // e.g. bank-conflict degree per row/column
  double x = 0, y = 0;
};

struct Drawing {
  std::string subject, title;
  std::string svg, html;  // the SVG, and an HTML page embedding it with hover tooltips
  int64_t cells = 0, width = 0, height = 0;
  std::vector<DrawPanel> panels;
  double cell_w = 0, cell_h = 0, font = 0;
  bool labels = false;
};
Flags draw_flags(const std::vector<std::string>& args);
// documents = false: the panels and geometry only, without the SVG and HTML text.
Drawing draw_from(const Flags& f, bool documents = true);

int cmd_explain(const std::vector<std::string>& args);
int cmd_verify(const std::vector<std::string>& args);
int cmd_draw(const std::vector<std::string>& args);

}  // namespace cotile::cli
