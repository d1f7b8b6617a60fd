#include "explain.hpp"
#include "laws.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "atoms.hpp"
#include "cotile/laws/flat.hpp"
#include "json.hpp"

namespace cotile::cli {

// --- rendering ------------------------------------------------------------------------------

namespace {
// Display width of UTF-8 text (code points, not bytes).
size_t width(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}
}  // namespace

std::string render_text(const Derivation& d) {
  std::string out = d.title + "\n";
  int k = 0;
  for (const Step& s : d.steps) {
    out += "\n[" + std::to_string(++k) + "] " + (s.section.empty() ? "" : s.section + " ") + s.name + " = " + s.value +
           "\n";
    if (!s.function.empty()) out += "    " + s.function + (s.domain.empty() ? "" : "    where " + s.domain) + "\n";
    if (!s.why.empty()) out += "    why: " + s.why + "\n";
  }
  for (const Table& t : d.tables) {
    out += "\n" + t.title + "\n";
    std::vector<size_t> w(t.header.size(), 0);
    for (size_t c = 0; c < t.header.size(); ++c) w[c] = width(t.header[c]);
    for (const auto& r : t.rows)
      for (size_t c = 0; c < r.size() && c < w.size(); ++c) w[c] = std::max(w[c], width(r[c]));
    auto line = [&](const std::vector<std::string>& r) {
      std::string l = " ";
      for (size_t c = 0; c < w.size(); ++c) {
        const std::string cell = c < r.size() ? r[c] : "";
        l += " " + cell + std::string(w[c] - width(cell), ' ') + " |";
      }
      l.pop_back();
      return l + "\n";
    };
    out += line(t.header);
    std::string sep = " ";
    for (size_t c = 0; c < w.size(); ++c) sep += " " + std::string(w[c], '-') + "  ";
    out += sep + "\n";
    for (const auto& r : t.rows) out += line(r);
  }
  if (!d.notes.empty()) out += "\n";
  for (const std::string& n : d.notes) out += "note: " + n + "\n";
  return out;
}

std::string render_json(const Derivation& d) {
  std::string j = "{\"title\":" + json_str(d.title) + ",\"steps\":[";
  for (size_t i = 0; i < d.steps.size(); ++i) {
    const Step& s = d.steps[i];
    j += (i ? "," : "") + std::string("{\"section\":") + json_str(s.section) + ",\"name\":" + json_str(s.name) +
         ",\"value\":" + json_str(s.value) + ",\"function\":" + json_str(s.function) +
         ",\"domain\":" + json_str(s.domain) + ",\"why\":" + json_str(s.why) + "}";
  }
  j += "],\"tables\":[";
  for (size_t i = 0; i < d.tables.size(); ++i) {
    const Table& t = d.tables[i];
    j += (i ? "," : "") + std::string("{\"title\":") + json_str(t.title) + ",\"header\":[";
    for (size_t c = 0; c < t.header.size(); ++c) j += (c ? "," : "") + json_str(t.header[c]);
    j += "],\"rows\":[";
    for (size_t r = 0; r < t.rows.size(); ++r) {
      j += (r ? ",[" : "[");
      for (size_t c = 0; c < t.rows[r].size(); ++c) j += (c ? "," : "") + json_str(t.rows[r][c]);
      j += "]";
    }
    j += "]}";
  }
  j += "],\"notes\":[";
  for (size_t i = 0; i < d.notes.size(); ++i) j += (i ? "," : "") + json_str(d.notes[i]);
  return j + "]}";
}

namespace {

Step step(const std::string& section, const std::string& name, const Layout& l, const std::vector<std::string>& modes,
          const std::string& fname, const std::string& why) {
  const FunctionText f = describe_function(l, modes, fname);
  return Step{section, name, to_string(l), f.formula, f.domain, why};
}
Step text_step(const std::string& section, const std::string& name, const std::string& value, const std::string& why) {
  return Step{section, name, value, "", "", why};
}

std::string rule_name(CompositionStep::Rule r) {
  return r == CompositionStep::kStrideDivides ? "rest_stride % shape == 0" : "rest_stride < shape";
}

// Summarise a sorted list of integers: "0, 8, 16, …, 120" when arithmetic, else the list.
std::string summarize(const std::vector<int64_t>& v) {
  if (v.empty()) return "-";
  if (v.size() == 1) return std::to_string(v[0]);
  const int64_t step = v[1] - v[0];
  bool arith = true;
  for (size_t i = 2; i < v.size(); ++i) arith = arith && v[i] - v[i - 1] == step;
  if (arith && step == 1) return std::to_string(v.front()) + "–" + std::to_string(v.back());
  if (arith && v.size() > 4)
    return std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", " + std::to_string(v[2]) + ", …, " +
           std::to_string(v.back());
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s;
}

void add_tile2thrfrg_steps(Derivation& d, const TiledCopy& tc, const Layout& tensor, const std::string& sec) {
  ThrFrgTrace tr;
  tidfrg(tc, tensor, true, &tr);
  const Int at = size(tc.atom.val_ref.get(0)), av = size(tc.atom.val_ref.get(1));
  d.steps.push_back(step(sec, "TiledLayout_TV", tc.layout_tv, {"t", "v"}, "z",
                         "the tiled copy's (thread, value) -> tile coordinate z, in the atom's Ref coordinates"));
  d.steps.push_back(step(sec, "ref2src = right_inverse(ValLayoutRef) o ValLayoutSrc", tr.ref2trg, {"t", "v"}, "r",
                         "source atom (thread, value) -> reference (thread, value)"));
  d.steps.push_back(step(sec, "atom_layout_TV", tr.atom_layout_tv, {"atom", "rest"}, "z",
                         "zipped_divide by (AtomNumThr, AtomNumVal) = (" + to_string(at) + "," + to_string(av) +
                             "): ((atom_tid,atom_val),(rest_tid,rest_val))"));
  d.steps.push_back(step(sec, "trg_layout_TV", tr.trg_layout_tv, {"atom", "rest"}, "z",
                         "compose mode 0 with ref2src: the atom part is now indexed in source coordinates"));
  d.steps.push_back(
      step(sec, "zip(trg_layout_TV)", tr.zipped, {"thr", "val"}, "z",
           "zip regroups ((trg_tid,trg_val),(rest_tid,rest_val)) into ((trg_tid,rest_tid),(trg_val,rest_val)); "
           "no data moves"));
  d.steps.push_back(step(sec, "thrval2mn = coalesce(zip, (_1,(_1,_1)))", tr.thrval2mn, {"thr", "val"}, "z",
                         "coalesce the thread mode whole and the two value groups separately (atom values, atom "
                         "repetitions); the profile keeps those boundaries"));
  d.steps.push_back(step(sec, "for contrast: coalesce(zip, (_1,_1))",
                         coalesce(tr.zipped, make_tuple(static_int(1), static_int(1))), {"thr", "val"}, "z",
                         "a shallower profile merges the value groups"));
  d.steps.push_back(step(sec, "for contrast: coalesce(zip)", coalesce(tr.zipped), {}, "z",
                         "without a profile thread and value modes merge and are no longer independent"));
}

}  // namespace

// --- subjects -------------------------------------------------------------------------------

Derivation explain_cotiled_copy(const CopyAtom& atom, const Layout& atom_tv, const Layout& data,
                                const CalcOptions& opt) {
  Derivation d;
  d.title = std::string("make_cotiled_copy(Copy_Atom<") + atom.traits.name + "," + name(atom.elem) +
            ">, atom_tv, data_layout)";
  CotiledTrace t;
  const TiledCopy tc = make_cotiled_copy(atom, atom_tv, data, opt.engine(), &t);
  d.steps.push_back(step("", "atom_tv_layout", atom_tv, {"t", "v"}, "a",
                         "the copy's (thread, value) -> offset a in the data layout's address space"));
  d.steps.push_back(step("", "data_layout", data, {}, "a", "data coordinate -> offset a (the reference address map)"));
  d.steps.push_back(step("", "coalesce(data_layout)", t.coalesced, {}, "a", "the same map with merged modes"));
  d.steps.push_back(
      step("", "left_inverse(data_layout)", t.left_inverse, {"a"}, "q",
           "needs static strides: sorts the modes by stride and inverts, offset a -> coordinate index q"));
  d.steps.push_back(step("", "inv_data_layout = (left_inverse, _1:_0)", t.inv_data_layout, {"a", "beyond"}, "q",
                         "append 1:0 so offsets past the end map to stride 0"));
  d.steps.push_back(step("", "layout_tv_data = inv_data_layout o atom_tv", t.layout_tv_data, {"t", "v"}, "q",
                         "(thread, value) -> data coordinate index q; the coefficients are in q-space, not memory"));
  d.steps.push_back(text_step("", "flat_data_shape = product_each(shape(data_layout))",
                              to_string(t.flat_data_shape) + "   (values " + plain(to_string(t.flat_data_shape)) + ")",
                              "one entry per top-level mode of the data; the tiler keeps these modes"));
  Table proj{
      "per-mode projections (tiler)", {"mode", "projection e_i", "composition", "filter (tiler mode)", "values"}, {}};
  for (int i = 0; i < t.modes && i < 8; ++i) {
    IntTuple e = repeat_like(t.flat_data_shape, static_int(0));
    e = replace(e, i, int_tuple(static_int(1)));
    const Layout f = filter(t.projection[i]);
    proj.rows.push_back(
        {std::to_string(i), to_string(e), to_string(t.projection[i]), to_string(f), plain(to_string(f))});
  }
  d.tables.push_back(proj);
  d.steps.push_back(
      Step{"", "tiler", to_string(t.tiler), "", "",
           "mode i = filter(make_layout(flat, e_i) o layout_tv_data): the coordinates of mode i the copy touches"});
  d.steps.push_back(step("", "tile2data = make_layout(flat) o tiler", t.tile2data, {}, "q",
                         "tile coordinate -> data coordinate index (not an address)"));
  d.steps.push_back(step("", "layout_tv = left_inverse(tile2data) o layout_tv_data", t.layout_tv, {"t", "v"}, "z",
                         "(thread, value) -> tile coordinate index z: the TiledCopy's TiledLayout_TV"));
  d.steps.push_back(step("", "layoutS_TV", get_layoutS_TV(tc), {"t", "v"}, "z", "source side, through Ref^-1 o Src"));
  d.steps.push_back(
      step("", "layoutD_TV", get_layoutD_TV(tc), {"t", "v"}, "z", "destination side, through Ref^-1 o Dst"));
  d.notes.push_back("chain: (t,v) --atom_tv--> a --left_inverse(data)--> q --left_inverse(tile2data)--> z");
  return d;
}

Derivation explain_tiled_copy(const CopyAtom& atom, const Layout& thr, const Layout& val) {
  Derivation d;
  d.title = std::string("make_tiled_copy(Copy_Atom<") + atom.traits.name + "," + name(atom.elem) + ">, thr, val)";
  const TiledCopy tc = make_tiled_copy(atom, thr, val);
  const Layout layout_mn = raked_product(thr, val);
  d.steps.push_back(step("", "thr_layout", thr, {"m", "n"}, "thr", "(m,n) -> thread index"));
  d.steps.push_back(step("", "val_layout", val, {"m", "n"}, "val", "(m,n) -> value index within a thread"));
  d.steps.push_back(
      step("", "layout_mn = raked_product(thr, val)", layout_mn, {"m", "n"}, "tv",
           "every thread's block of values, interleaved across the threads: (m,n) -> thr + size(thr)*val"));
  d.steps.push_back(step("", "right_inverse(layout_mn)", right_inverse(layout_mn), {"tv"}, "mn",
                         "follows strides from 1 to invert: thr + size(thr)*val -> tile coordinate"));
  d.steps.push_back(step("", "layout_tv", tc.layout_tv, {"t", "v"}, "mn", "reshaped to (size(thr), size(val))"));
  d.steps.push_back(
      Step{"", "tiler = product_each(shape(layout_mn))", to_string(tc.tiler), "", "", "the tile the copy covers"});
  d.steps.push_back(step("", "layoutS_TV", get_layoutS_TV(tc), {"t", "v"}, "mn", "source side, through Ref^-1 o Src"));
  d.steps.push_back(
      step("", "layoutD_TV", get_layoutD_TV(tc), {"t", "v"}, "mn", "destination side, through Ref^-1 o Dst"));
  return d;
}

// How many elements an explanation's table may list.
constexpr int64_t kMaxListed = int64_t(1) << 20;

Table ownership_table(const TiledCopy& tc, const IntTuple& tensor_shape, const std::vector<int64_t>& threads) {
  // Coordinates of the tensor: q = colexicographic index; rows are its first leaf (M), columns
  // the rest (for tSgQ ((M,K),1,R): q = m + M*d).
  const Layout coords = make_layout(tensor_shape);
  const int64_t rows =
      flatten(tensor_shape).is_leaf() ? size(tensor_shape).value : flatten(tensor_shape).get(0).value().value;
  Table t{"ownership (qload.md §8.2): per thread, rows m = q mod " + std::to_string(rows) + " and columns d = q div " +
              std::to_string(rows) + " of the coordinate q",
          {"thread", "rows (M)", "columns (D) per row", "elements"},
          {}};
  for (int64_t thr : threads) {
    const SlicedLayout p = partition_S(tc, coords, dynamic_int(thr));
    std::map<int64_t, std::vector<int64_t>> by_row;
    const laws::Flat f = laws::flat(p.layout);  // the partition as a function of its index
    const int64_t values = size(p.layout).value;
    for (int64_t i = 0; i < values; ++i) {
      const int64_t c = p.offset.value + f(i);
      by_row[c % rows].push_back(c / rows);
    }
    std::vector<int64_t> rs;
    std::set<std::string> cols;
    for (auto& [r, cs] : by_row) {
      rs.push_back(r);
      std::sort(cs.begin(), cs.end());
      cols.insert(summarize(cs));
    }
    std::string col_text;
    for (const std::string& c : cols) col_text += (col_text.empty() ? "" : " | ") + c;
    t.rows.push_back({std::to_string(thr), summarize(rs), col_text, std::to_string(size(p.layout).value)});
  }
  return t;
}

Derivation explain_partition(const TiledCopy& tc, const Layout& tensor, const Int& thread) {
  Derivation d;
  d.title = "partition_S(tensor) of a tiled copy for thread " + to_string(thread) + " (qload.md §8.1, §8.2)";
  d.steps.push_back(
      step("", "tensor", tensor, {}, "offset", "the tensor to partition (its own strides, static or not)"));
  d.steps.push_back(Step{"", "tiler", to_string(tc.tiler), "", "", "the tile the copy covers"});
  const Layout zd = zipped_divide(tensor, tc.tiler);
  d.steps.push_back(step("", "zipped_divide(tensor, tiler)", zd, {"tile", "rest"}, "offset",
                         "((tile coordinates),(tile repetitions)) -> tensor offset"));
  add_tile2thrfrg_steps(d, tc, tensor, "");
  const Layout frg = tidfrg(tc, tensor, true);
  d.steps.push_back(step("", "tv_tensor((_,_),_)", frg, {"thr", "val", "rest"}, "offset",
                         "the tile mode re-indexed by (thread, value), the rest kept: (thr, val, rest)"));
  const SlicedLayout p = partition_S(tc, tensor, thread);
  d.steps.push_back(step("", "partition_S(tensor) for thread " + to_string(thread), p.layout, {}, "offset",
                         "fix the thread: the values it copies and their repetitions; first element at offset " +
                             std::to_string(p.offset.value)));
  std::vector<int64_t> ts;
  const int64_t n = size(tc).value;
  for (int64_t x : {int64_t(0), int64_t(1), n / 8 - 1, n / 8, n - 1, thread.value})
    if (x >= 0 && x < n && std::find(ts.begin(), ts.end(), x) == ts.end()) ts.push_back(x);
  std::sort(ts.begin(), ts.end());
  // The table lists every element of the threads it names: at most 2^20 in all.
  const int64_t each = size(p.layout).value, threads = std::max<int64_t>(int64_t(ts.size()), 1);
  if (each <= kMaxListed / threads) d.tables.push_back(ownership_table(tc, tensor.shape, ts));
  else
    d.notes.push_back("ownership table left out: its " + std::to_string(ts.size()) + " threads' partitions hold " +
                      std::to_string(each) + " elements each, more than explain lists (2^20 in all)");
  return d;
}

Derivation explain_mma_partition(const TiledMMA& t, const Layout& tensor, const Int& thread, Operand op) {
  const char* x = op == Operand::kA ? "A" : op == Operand::kB ? "B" : "C";
  Derivation d;
  d.title = std::string("thrfrg_") + x + " and partition_" + x + " of a TiledMMA (qload.md §5.4)";
  const auto [xi, yi] = operand_modes(op);
  d.steps.push_back(text_step("", "Shape_MNK", to_string(t.atom.shape_mnk), "the atom's tile"));
  d.steps.push_back(step("", "thr_layout_vmnk = tiled_product(ThrID, atom_layout)", t.thr_layout_vmnk,
                         {"v", "m", "n", "k"}, "thr", "(atom thread, m, n, k) -> thread index"));
  d.steps.push_back(step("", "tensor", tensor, {}, "offset", "the operand tensor"));
  const Layout t_tensor = logical_divide(tensor, coord(permutation_mnk(t, xi), permutation_mnk(t, yi)));
  d.steps.push_back(step("", "logical_divide(tensor, permutation)", t_tensor, {}, "offset",
                         "the permutation tile (default: atom size times threads per mode)"));
  const Layout a_tensor =
      zipped_divide(t_tensor, coord(tile_layout(make_layout(int_tuple(t.atom.shape_mnk.get(xi).value()))),
                                    tile_layout(make_layout(int_tuple(t.atom.shape_mnk.get(yi).value())))));
  d.steps.push_back(
      step("", "zipped_divide by the atom", a_tensor, {"atom", "rest"}, "offset", "((AtomX,AtomY),(RestX,RestY))"));
  const Layout atom_tv = op == Operand::kA ? t.atom.a : op == Operand::kB ? t.atom.b : t.atom.c;
  d.steps.push_back(step("", std::string("AtomLayout") + x + "_TV", atom_tv, {"thr", "val"}, "xy",
                         "the atom's (thread, value) -> coordinate in its tile"));
  const Layout f = thrfrg(t, tensor, op);
  d.steps.push_back(step("", std::string("thrfrg_") + x, f, {"thr", "frg"}, "offset",
                         "compose the atom mode with the atom's TV layout, then split the threads: "
                         "((ThrV,(ThrX,ThrY)),(FrgV,(RestX,RestY)))"));
  const IntTuple v = thr_vmnk(t, thread);
  d.steps.push_back(
      text_step("", "thr_vmnk of thread " + to_string(thread), to_string(v), "get_flat_coord in thr_layout_vmnk"));
  const SlicedLayout p = partition(t, tensor, thread, op);
  d.steps.push_back(step("", std::string("partition_") + x, p.layout, {}, "offset",
                         "fix the thread coordinate: the thread mode is cut away, leaving (FrgV, RestX, RestY); first "
                         "element at offset " +
                             std::to_string(p.offset.value)));
  return d;
}

// The operation's law, stated only as checked: one step per part ("holds on all 8 points").
void add_law_steps(Derivation& d, const std::string& op, const std::vector<Value>& args, const CalcOptions& opt) {
  if (!has_law(op)) return;
  for (const LawCheck& c : law_checks(op, args, opt))
    d.steps.push_back(text_step("", "law", c.name, c.holds ? c.detail : "VIOLATED: " + c.detail));
}

Derivation explain_operation(const std::string& op, const std::vector<Value>& args, const CalcOptions& opt) {
  Derivation d;
  std::string call_text = op + "(";
  for (size_t i = 0; i < args.size(); ++i) call_text += (i ? ", " : "") + text::to_string(args[i]);
  d.title = call_text + ")";
  const Value result = call(op, args, opt);
  auto L = [&](size_t i) { return text::to_layout(args[i], op, int(i) + 1); };
  for (size_t i = 0; i < args.size(); ++i)
    if (args[i].kind == Value::kLayout)
      d.steps.push_back(step("", "argument " + std::to_string(i + 1), args[i].layout, {}, "f", ""));
  if (op == "composition" && args.size() == 2 && args[0].kind == Value::kLayout && args[1].kind == Value::kLayout) {
    CompositionTrace tr;
    const Layout r = composition(L(0), L(1), opt.engine(), &tr);
    if (tr.by_value)
      d.steps.push_back(step("", "coalesce_x(A) by value", tr.lhs_coalesced, {}, "A",
                             "A is coalesced by its run-time values (CuTe keeps these modes apart, and its result "
                             "breaks the law here); its function is kept beyond its domain"));
    else
      d.steps.push_back(step("", "coalesce_x(A)", tr.lhs_coalesced, {}, "A",
                             "A is coalesced first; its function is kept beyond its domain"));
    Table t{
        "per rhs mode: how each lhs mode absorbs the stride (shape_div) and the shape (modulo)",
        {"rhs mode", "lhs mode", "rest shape:stride", "next_shape = ceil_div(s,|d|)", "next_stride", "rule", "action"},
        {}};
    for (int k = 0; k < tr.n; ++k) {
      const CompositionStep& s = tr.steps[k];
      std::string action;
      switch (s.action) {
        case CompositionStep::kStaticZeroStride: action = "static stride _0: the rhs mode is kept as is"; break;
        case CompositionStep::kIntegralLhs:
          action = "lhs is one mode: stride multiplied by " + to_string(s.curr_stride);
          break;
        case CompositionStep::kSkip: action = "skipped (a static _1 remains)"; break;
        case CompositionStep::kTake:
          action = "takes shape " + to_string(s.new_shape) + " with stride " + to_string(s.rest_stride) + "*" +
                   to_string(s.curr_stride);
          break;
        case CompositionStep::kRest: action = "the rest lands in the last lhs mode"; break;
      }
      const bool fold = s.action == CompositionStep::kSkip || s.action == CompositionStep::kTake;
      t.rows.push_back({std::to_string(s.rhs_leaf),
                        std::to_string(s.lhs_mode) +
                            (fold ? " (" + to_string(s.curr_shape) + ":" + to_string(s.curr_stride) + ")" : ""),
                        to_string(s.rest_shape) + ":" + to_string(s.rest_stride), fold ? to_string(s.next_shape) : "",
                        fold ? to_string(s.next_stride) : "", fold ? rule_name(s.rule) : "", action});
    }
    d.tables.push_back(t);
    d.steps.push_back(step("", "result", r, {}, "A o B",
                           tr.by_value ? "A o B from A coalesced by value, where it satisfies the law; the law "
                                         "below is checked on CuTe's result, which breaks it"
                                       : "A o B: its law is checked below"));
    add_law_steps(d, op, args, opt);
    return d;
  }
  if ((op == "complement") && !args.empty() && args[0].kind == Value::kLayout) {
    ComplementTrace tr;
    const Layout r = args.size() == 1 ? complement(L(0), opt.engine(), &tr)
                                      : complement(L(0), text::to_int_tuple(args[1], op, 2), opt.engine(), &tr);
    (void)r;
    d.steps.push_back(step("", "filter(L)", tr.filtered, {}, "L", "drop stride-0 and size-1 modes"));
    Table t{"the fill: modes of L by increasing stride and the gap before each",
            {"mode shape:stride", "gap (complement mode)"},
            {}};
    for (int k = 0; k < tr.n; ++k)
      t.rows.push_back({to_string(tr.mode_shape[k]) + ":" + to_string(tr.mode_stride[k]),
                        to_string(tr.gap[k]) + ":" + to_string(tr.gap_stride[k])});
    if (!tr.whole_cotarget)
      t.rows.push_back({"(past the last mode)", to_string(tr.rest_shape) + ":" + to_string(tr.rest_stride)});
    d.tables.push_back(t);
  }
  if (op == "coalesce" && args.size() == 1 && args[0].kind == Value::kLayout) {
    CoalesceTrace tr;
    coalesce(L(0), &tr);
    Table t{"modes from last to first", {"flat mode", "shape:stride", "decision"}, {}};
    for (int k = 0; k < tr.n; ++k) {
      const CoalesceStep& s = tr.steps[k];
      const char* why = s.action == CoalesceStep::kFront           ? "starts the front mode"
                        : s.action == CoalesceStep::kSkipStaticOne ? "static size _1: dropped"
                        : s.action == CoalesceStep::kReplaceOne    ? "replaces a front of static size _1"
                        : s.action == CoalesceStep::kMerge
                            ? "merged: shape*stride equals the front's stride, statically"
                            : "kept separate: not statically contiguous with the front";
      t.rows.push_back({std::to_string(s.mode), to_string(s.shape) + ":" + to_string(s.stride), why});
    }
    d.tables.push_back(t);
  }
  if ((op == "logical_divide" || op == "zipped_divide" || op == "tiled_divide" || op == "flat_divide") &&
      args.size() == 2 && args[1].kind == Value::kLayout) {
    const Layout a = L(0), b = L(1);
    const Layout c = complement(b, coalesce(a).shape, opt.engine());
    d.steps.push_back(step("", "complement(B, shape(coalesce(A)))", c, {}, "B*", "the rest: offsets B does not reach"));
    d.steps.push_back(step("", "A o (B, complement)", composition(a, make_layout_concat(b, c)), {"tile", "rest"}, "A",
                           "logical_divide = composition with the tiler and its complement"));
  }
  if ((op == "logical_product" || op == "blocked_product" || op == "raked_product") && args.size() == 2 &&
      args[1].kind == Value::kLayout) {
    const Layout a = L(0), b = L(1);
    const Layout c = complement(a, int_tuple(size(a) * cosize(b)), opt.engine());
    d.steps.push_back(step("", "complement(A, size(A)*cosize(B))", c, {}, "A*", "where copies of A can go"));
    d.steps.push_back(step("", "complement o B", composition(c, b), {}, "C", "the copies placed as B says"));
  }
  if (result.kind == Value::kLayout) {
    std::string why = "see the table";
    if (op == "left_inverse")
      why = "modes sorted by stride; each stride divided by the next smaller one gives the shape";
    if (op == "right_inverse")
      why = "follow the static strides from 1: each next stride equals the size reached so far";
    d.steps.push_back(step("", "result", result.layout, {}, op, why));
  } else {
    d.steps.push_back(text_step("", "result", text::to_string(result), ""));
  }
  add_law_steps(d, op, args, opt);
  return d;
}

Derivation explain_fmha_gen_q(Elem e, int64_t head_dim, int64_t m_tile, const CalcOptions& opt) {
  const Layout atom_q_tv = text::to_layout(text::parse("((_2,_32),_16):((_16,_32),_1)"), "preset", 1);
  const FmhaGenQ q = fmha_gen_q(e, static_int(head_dim), static_int(m_tile), atom_q_tv, opt.engine());
  const std::string D = std::to_string(head_dim), M = std::to_string(m_tile);
  Derivation d;
  d.title = std::string("Q load of the FMHA generation kernel: ") + name(e) + ", D=" + D + ", M tile=" + M +
            " (walkthrough: docs/qload.md)";
  d.steps.push_back(text_step("§3.1", "problem shape", "(1,N,D,((G,Hkv),B))", "decode: one query token per sequence"));
  d.steps.push_back(
      text_step("§3.1", "Q stride", "(0,1,((D,D*G),D*G*Hkv))", "adjacent Q heads of one group are D apart"));
  d.steps.push_back(text_step("§3.2", "after the kernel's transform", "(G,N,D,((1,Hkv),B))",
                              "G moves to M: the group's Q heads fill the MMA's M dimension"));
  d.steps.push_back(
      text_step("§3.2", "dQ.M_stride", "D (a run-time int)",
                "replace<0>(dQ, 0) makes the slot an int; get<0>(dQ) = get<2,0,0>(dQ) assigns the head stride"));
  d.steps.push_back(
      step("§5.2", "gQ", q.gQ, {"m", "d"}, "a", "the (M,D) tile: row stride D is dynamic (int), columns contiguous"));
  d.steps.push_back(text_step("§5.3", "MMA atom", to_string(q.mma.atom.shape_mnk),
                              std::string(bits(e) == 8 ? "SM100_MMA_F8F6F4_SS" : "SM100_MMA_F16BF16_SS") +
                                  ", K = 256/" + std::to_string(bits(e)) + " = " + std::to_string(q.mma.atom.k) +
                                  ", RestM = " + M + "/" + M + ", RestK = " + D + "/" + std::to_string(q.mma.atom.k)));
  d.steps.push_back(step("§5.4", "thrfrg_A(gQ)", thrfrg(q.mma, q.gQ, Operand::kA), {"thr", "frg"}, "a",
                         "((ThrV,(ThrM,ThrK)),(FrgV,(RestM,RestK))): one thread (ThrID = _1:_0)"));
  d.steps.push_back(step("§5.4", "tSgQ = partition_A(gQ)", q.tSgQ, {"mk", "rm", "rk"}, "a",
                         "the thread mode is cut away: (FrgV, RestM, RestK); shapes static, one stride still int"));
  d.steps.push_back(text_step(
      "§5.4", "tSgQ.shape / tSgQ.stride",
      to_string(q.tSgQ.shape) + " / " + to_string(q.tSgQ.stride) + "   (values " + plain(to_string(q.tSgQ.shape)) + ")",
      "d = k + K*r, address = D*m + d"));
  d.steps.push_back(text_step("§6", "stride<0>(tSgQ)",
                              to_string(q.tSgQ.stride.get(0)) + " -> " + to_string(q.trace.data_layout.stride.get(0)),
                              "inner replace<0>: the M stride inside FrgV becomes the static _D (get<2>(TileShape))"));
  d.steps.push_back(text_step("§6", "stride(tSgQ)",
                              to_string(q.tSgQ.stride) + " -> " + to_string(q.trace.data_layout.stride),
                              "outer replace<0>: put the new FrgV stride back"));
  d.steps.push_back(
      step("§6", "data_layout", q.trace.data_layout, {"mk", "rm", "rk"}, "a",
           "the same numbers as tSgQ, but static: make_cotiled_copy static_asserts is_static<DataLayout>"));
  d.steps.push_back(
      step("§7.1", "atom_q_tv", atom_q_tv, {"t", "v"}, "a", "64 threads x 16 values of reference offsets"));
  const Derivation cot = explain_cotiled_copy(q.copy.atom, atom_q_tv, q.trace.data_layout, opt);
  for (const Step& s : cot.steps)
    if (s.name != "atom_tv_layout" && s.name != "data_layout") {
      Step c = s;
      c.section = "§7";
      d.steps.push_back(c);
    }
  for (const Table& t : cot.tables) d.tables.push_back(t);
  add_tile2thrfrg_steps(d, q.copy, q.tSgQ, "§8.1");
  d.steps.push_back(step("§8.2", "partition_S(tSgQ) for thread 0", q.partition_S_thr0.layout, {}, "a",
                         "the thread's 16-byte vectors and their repetitions along M"));
  d.tables.push_back(ownership_table(q.copy, q.tSgQ.shape, {0, 7, 8, 63}));
  d.steps.push_back(text_step("§8.3", "limitQ", "(G,_" + D + ")",
                              "guard = elem_less((m,d), limitQ): rows m >= G are zero-filled by cp_async_zfill"));
  d.notes.push_back(
      "replace does not change tSgQ: the real source keeps its run-time stride; the static data_layout only "
      "defines the copy's reference address space");
  d.notes.push_back(
      "chain: (tid,vid) --atom_q_tv--> a --left_inverse(data_layout)--> q --left_inverse(tile2data)--> z");
  return d;
}

// --- the verb -------------------------------------------------------------------------------

Flags explain_flags(const std::vector<std::string>& args) {
  return parse_flags(args,
                     {"atom", "elem", "atom-tv", "data", "thr", "val", "tensor", "thread", "atom-layout", "operand",
                      "preset", "head-dim", "m-tile"},
                     "explain");
}

Derivation explain_from(const Flags& f) {
  CalcOptions opt;
  opt.strict = f.strict;
  Derivation d;
  const std::string subject = f.positional.empty() ? "" : f.positional[0];
  if (subject.empty() || f.has("preset")) {
    const std::string preset = f.get("preset", "fmha-gen-q");
    if (preset != "fmha-gen-q")
      throw Error("explain", "unknown preset '" + preset + "'",
                  "explain: unknown preset '" + preset + "' (known: fmha-gen-q)");
    const std::string elem = f.get("elem", "fp8e5m2");
    Elem e;
    if (elem == "fp8e5m2" || elem == "float_e5m2_t") e = Elem::kE5M2;
    else if (elem == "fp8e4m3" || elem == "float_e4m3_t") e = Elem::kE4M3;
    else if (elem == "fp16" || elem == "half_t") e = Elem::kHalf;
    else if (elem == "bf16" || elem == "bfloat16_t") e = Elem::kBFloat16;
    else
      throw Error("explain", "unknown --elem '" + elem + "'",
                  "explain: unknown --elem '" + elem + "' (known: fp8e5m2 fp8e4m3 fp16 bf16)");
    const int64_t hd = f.integer("head-dim", 128, "explain"), mt = f.integer("m-tile", 128, "explain");
    if (hd != 64 && hd != 128 && hd != 256)
      throw Error("explain", "--head-dim must be 64, 128 or 256", "explain: --head-dim must be 64, 128 or 256");
    if (mt != 64 && mt != 128)
      throw Error("explain", "--m-tile must be 64 or 128", "explain: --m-tile must be 64 or 128");
    d = explain_fmha_gen_q(e, hd, mt, opt);
  } else if (subject == "cotiled-copy") {
    d = explain_cotiled_copy(atom_from_flags(f, "explain cotiled-copy"), layout_flag(f, "atom-tv", "explain"),
                             layout_flag(f, "data", "explain"), opt);
  } else if (subject == "tiled-copy") {
    d = explain_tiled_copy(atom_from_flags(f, "explain tiled-copy"), layout_flag(f, "thr", "explain"),
                           f.has("val") ? layout_flag(f, "val", "explain") : Layout{});
  } else if (subject == "partition") {
    const TiledCopy tc = copy_from_flags(f, "explain partition");
    d = explain_partition(tc, layout_flag(f, "tensor", "explain"), dynamic_int(f.integer("thread", 0, "explain")));
  } else if (subject == "mma-partition") {
    if (!f.has("atom")) throw Error("explain", "missing --atom", "explain mma-partition: missing --atom NAME");
    const MmaTraits atom = parse_mma(f.get("atom"), "explain");
    const TiledMMA t = make_tiled_mma(atom, f.has("atom-layout") ? layout_flag(f, "atom-layout", "explain") : Layout{});
    const std::string o = f.get("operand", "A");
    const Operand op = o == "B" ? Operand::kB : o == "C" ? Operand::kC : Operand::kA;
    d = explain_mma_partition(t, layout_flag(f, "tensor", "explain"), dynamic_int(f.integer("thread", 0, "explain")),
                              op);
  } else {
    // An algebra operation: explain OP ARG...
    std::vector<Value> vals;
    for (size_t i = 1; i < f.positional.size(); ++i) vals.push_back(evaluate(f.positional[i], opt));
    d = explain_operation(subject, vals, opt);
  }
  return d;
}

int cmd_explain(const std::vector<std::string>& args) {
  const Flags f = explain_flags(args);
  const Derivation d = explain_from(f);
  std::fputs((f.json ? render_json(d) + "\n" : render_text(d)).c_str(), stdout);
  return 0;
}

}  // namespace cotile::cli
