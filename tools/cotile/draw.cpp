// cotile draw: SVG (or an HTML page embedding it, with hover tooltips) of a layout, a TV
// layout, a tiled copy's source and destination partitions, or a swizzled shared-memory layout
// with its banks.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <set>

#include "explain.hpp"
#include "json.hpp"
#include "cotile/laws/flat.hpp"

namespace cotile::cli {

namespace {

using Cell = DrawCell;
using Panel = DrawPanel;

std::string esc(const std::string& s) {
  std::string r;
  for (char c : s) {
    if (c == '&') r += "&amp;";
    else if (c == '<') r += "&lt;";
    else if (c == '>') r += "&gt;";
    else if (c == '"') r += "&quot;";
    else r += c;
  }
  return r;
}

std::string thread_color(int64_t t) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "hsl(%d,70%%,%d%%)", int((t * 47) % 360), 78 + int(t % 3) * 5);
  return buf;
}

// Boundaries of the leaves of a mode: prefix products (excluding the whole).
std::vector<int64_t> breaks_of(const IntTuple& mode) {
  std::vector<int64_t> b;
  const IntTuple f = flatten(mode);
  int64_t p = 1;
  for (int k = 0; k + 1 < f.num_leaves(); ++k) {
    p *= f.leaf_at(k).value;
    if (p > 1) b.push_back(p);
  }
  return b;
}

// A drawing has one cell an element: at most 2^18 (an SVG of tens of MB).
constexpr int64_t kMaxCells = int64_t(1) << 18;
// `what` (a layout, TV layout, tile or tensor) of n elements is drawn cell by cell.
void require_drawable(int64_t n, const std::string& what) {
  if (n <= 0) throw Error("draw", "nothing to draw", "draw: nothing to draw: " + what + " has no elements");
  if (n > kMaxCells)
    throw Error("draw", "too many cells",
                "draw: " + what + " has " + std::to_string(n) +
                    " elements, more than draw draws (2^18 = 262144); draw a slice or a smaller tile");
}

// A shape drawn one cell an element: extents >= 0, at most kMaxCells elements.
void require_drawable(const IntTuple& shape, const std::string& what) {
  check_extents("draw", shape);
  require_drawable(size(shape).value, what + " " + to_string(shape));
}

// Rows are mode 0 of the shape (or, with rows_hint > 0, that many rows); columns the rest.
int64_t g_rows_override = 0;
void grid_of(const IntTuple& shape, int64_t& rows, int64_t& cols, std::vector<int64_t>& rb, std::vector<int64_t>& cb,
             bool first_leaf_rows = false) {
  require_drawable(shape, "the shape");
  const IntTuple w = wrap(shape);
  rows = size(w.get(0)).value;
  if (first_leaf_rows && w.get(0).is_tuple()) rows = flatten(shape).get(0).value().value;
  if (g_rows_override > 0) rows = g_rows_override;
  if (rows <= 0 || size(shape).value % rows != 0)
    throw Error("draw", "--rows must divide the number of elements", "draw: --rows must divide the number of elements");
  if (rows != size(w.get(0)).value) {
    rb.clear();
    cols = size(shape).value / rows;
    cb.clear();
    return;
  }
  cols = size(shape).value / std::max<int64_t>(rows, 1);
  rb = breaks_of(w.get(0));
  IntTuple rest = IntTuple::tuple();
  for (int i = 1; i < w.rank(); ++i) rest.push_back(w.get(i));
  cb = w.rank() > 1 ? breaks_of(rest) : std::vector<int64_t>{};
}

struct Svg {
  std::string body;
  int64_t width = 0, height = 0, cells = 0;
  double cell_w = 0, cell_h = 0, font = 0;
  bool labels = false;
};

// The SVG of the panels, side by side (only its geometry without `markup`); records each panel's
// position in it.
Svg render(std::vector<Panel>& panels, bool markup) {
  Svg out;
  int64_t max_cols = 1;
  for (const Panel& p : panels) max_cols = std::max(max_cols, p.cols);
  const double cw = std::clamp(2400.0 / double(max_cols * panels.size()), 6.0, 56.0);
  const double ch = std::clamp(cw * 0.6, 6.0, 28.0);
  const double font = std::min(cw / 4.2, ch * 0.6);
  const bool labels = font >= 4.0;
  double x0 = 40;
  std::string s;
  for (Panel& p : panels) {
    const double top = 40;
    p.x = x0;
    p.y = top;
    const double right = x0 + double(p.cols) * cw, bottom = top + double(p.rows) * ch;
    out.cells += int64_t(p.cells.size());
    out.height = std::max<int64_t>(out.height, int64_t(bottom + 40));
    if (!markup) {
      x0 = right + (p.row_notes.empty() ? 40 : 90);
      continue;
    }
    s += "<g class=\"panel\"><text x=\"" + std::to_string(x0) +
         "\" y=\"24\" font-size=\"14\" font-family=\"monospace\">" + esc(p.title) + "</text>\n";
    for (const Cell& c : p.cells) {
      const double x = x0 + double(c.col) * cw, y = top + double(c.row) * ch;
      char rect[256];
      std::snprintf(rect, sizeof rect, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>", x, y,
                    cw, ch, c.fill.c_str());
      s += "<g class=\"cell\" data-tip=\"" + esc(c.tip) + "\">" + rect + "<title>" + esc(c.tip) + "</title>";
      if (labels) {
        char t[160];
        std::snprintf(t, sizeof t,
                      "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\" text-anchor=\"middle\" "
                      "dominant-baseline=\"central\" font-family=\"monospace\">",
                      x + cw / 2, y + ch / 2, font);
        s += t + esc(c.label) + "</text>";
      }
      s += "</g>\n";
    }
    // Grid: thin lines per cell when cells are large, thick lines at mode boundaries.
    auto line = [&](double xa, double ya, double xb, double yb, double w, const char* color) {
      char l[200];
      std::snprintf(l, sizeof l,
                    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%.1f\"/>", xa,
                    ya, xb, yb, color, w);
      s += l;
    };
    for (int64_t r = 0; r <= p.rows; ++r) {
      bool major = r == 0 || r == p.rows;
      for (int64_t b : p.row_breaks) major = major || r % b == 0;
      if (major || ch >= 10)
        line(x0, top + double(r) * ch, right, top + double(r) * ch, major ? 1.6 : 0.3, major ? "#000" : "#888");
    }
    for (int64_t c = 0; c <= p.cols; ++c) {
      bool major = c == 0 || c == p.cols;
      for (int64_t b : p.col_breaks) major = major || c % b == 0;
      if (major || cw >= 10)
        line(x0 + double(c) * cw, top, x0 + double(c) * cw, bottom, major ? 1.6 : 0.3, major ? "#000" : "#888");
    }
    for (size_t r = 0; r < p.row_notes.size(); ++r) {
      char t[200];
      std::snprintf(
          t, sizeof t,
          "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\" font-family=\"monospace\" dominant-baseline=\"central\">",
          right + 4, top + (double(r) + 0.5) * ch, std::max(font, 7.0));
      s += t + esc(p.row_notes[r]) + "</text>";
    }
    for (size_t c = 0; c < p.col_notes.size(); ++c) {
      char t[200];
      std::snprintf(t, sizeof t,
                    "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\" font-family=\"monospace\" text-anchor=\"middle\">",
                    x0 + (double(c) + 0.5) * cw, bottom + 14, std::max(font, 7.0));
      s += t + esc(p.col_notes[c]) + "</text>";
    }
    s += "</g>\n";
    x0 = right + (p.row_notes.empty() ? 40 : 90);
  }
  out.width = int64_t(x0);
  out.cell_w = cw;
  out.cell_h = ch;
  out.font = font;
  out.labels = labels;
  if (!markup) return out;
  out.body = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(out.width) + "\" height=\"" +
             std::to_string(out.height) + "\" viewBox=\"0 0 " + std::to_string(out.width) + " " +
             std::to_string(out.height) + "\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n" + s +
             "</svg>\n";
  return out;
}

std::string html_page(const std::string& title, const Svg& svg) {
  return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + esc(title) +
         "</title>\n<style>body{font-family:monospace;margin:8px}#tip{position:fixed;display:none;background:#ffe;"
         "border:1px solid #888;padding:4px 6px;pointer-events:none;font-size:13px}.cell:hover "
         "rect{stroke:#000;stroke-width:2}"
         "</style></head>\n<body>\n<h3>" +
         esc(title) + "</h3>\n<div id=\"tip\"></div>\n" + svg.body +
         "<script>\n(function(){\n  var tip=document.getElementById('tip');\n  var "
         "cells=document.querySelectorAll('.cell');\n"
         "  cells.forEach(function(c){\n    "
         "c.addEventListener('mousemove',function(e){tip.textContent=c.getAttribute('data-tip');"
         "tip.style.left=(e.clientX+12)+'px';tip.style.top=(e.clientY+12)+'px';tip.style.display='block';});\n"
         "    c.addEventListener('mouseleave',function(){tip.style.display='none';});\n  });\n"
         "  document.body.setAttribute('data-cells',String(cells.length));\n  "
         "document.body.setAttribute('data-ready','1');\n})();\n"
         "</script>\n</body></html>\n";
}

Panel layout_panel(const Layout& l, const std::string& title) {
  Panel p;
  p.title = title;
  grid_of(l.shape, p.rows, p.cols, p.row_breaks, p.col_breaks);
  const int64_t n = size(l).value;
  p.cells.reserve(size_t(n));
  for (int64_t i = 0; i < n; ++i) {
    const int64_t a = eval(l, int_tuple(dynamic_int(i))).value;
    const int64_t r = i % p.rows, c = i / p.rows;
    p.cells.push_back({r, c, std::to_string(a),
                       "(" + std::to_string(r) + "," + std::to_string(c) + ") coord " +
                           to_string(idx2crd(int_tuple(dynamic_int(i)), l.shape)) + " -> offset " + std::to_string(a),
                       thread_color(a)});
  }
  return p;
}

Panel tv_panel(const Layout& tv, const IntTuple& tile, const std::string& title) {
  Panel p;
  p.title = title;
  grid_of(tile, p.rows, p.cols, p.row_breaks, p.col_breaks);
  require_tv_layout(tv, "draw");
  const int64_t n = size(tv).value, threads = size(tv.get(0)).value, elements = size(tile).value;
  require_drawable(n, "the TV layout");
  p.cells.reserve(size_t(n));
  for (int64_t i = 0; i < n; ++i) {
    const int64_t z = eval(tv, int_tuple(dynamic_int(i))).value, t = i % threads, v = i / threads;
    if (z < 0 || z >= elements)
      throw Error("draw", "outside the tile",
                  "draw: T" + std::to_string(t) + "V" + std::to_string(v) + " -> " + std::to_string(z) +
                      " lies outside the tile " + to_string(tile) + " of " + std::to_string(elements) +
                      " elements (verify tv checks the TV layout)");
    const int64_t r = z % p.rows, c = z / p.rows;
    p.cells.push_back({r, c, "T" + std::to_string(t) + "V" + std::to_string(v),
                       "T" + std::to_string(t) + " V" + std::to_string(v) + " -> (" + std::to_string(r) + "," +
                           std::to_string(c) + ") offset " + std::to_string(z),
                       thread_color(t)});
  }
  return p;
}

// The text of idx2crd(q, shape) for each offset q of a tensor, computed the first time it is asked
// for: the source and destination panels of a copy (tens of thousands of cells) name the same
// coordinates, and the engine's idx2crd and printing are most of a drawing's time.
class CoordText {
 public:
  explicit CoordText(const IntTuple& shape) : shape_(shape), text_(size_t(size(shape).value)) {}
  const std::string& operator()(int64_t q) {
    std::string& t = text_.at(size_t(q));
    if (t.empty()) t = to_string(idx2crd(int_tuple(dynamic_int(q)), shape_));
    return t;
  }

 private:
  IntTuple shape_;
  std::vector<std::string> text_;
};

// All threads' partitions of a tensor (coordinates), labelled by thread and value.
Panel partition_panel(const TiledCopy& tc, const IntTuple& shape, bool src, const std::string& title,
                      CoordText& coord_text) {
  Panel p;
  p.title = title;
  // Data tensors such as tSgQ ((M,K),1,R) draw as (M, rest): rows are the first leaf.
  grid_of(shape, p.rows, p.cols, p.row_breaks, p.col_breaks, true);
  const Layout coords = make_layout(shape);
  // partition(tc, coords, t, src) for every thread t: the thread-fragment layout once, sliced.
  const Layout frg = tidfrg(tc, coords, src);
  const int64_t elements = size(shape).value;
  p.cells.reserve(size_t(size(frg).value));
  for (int64_t t = 0; t < size(tc).value; ++t) {
    const SlicedLayout part =
        slice_and_offset(coord(dynamic_int(t), tile_underscore(), repeat_underscore(coords.rank())), frg);
    // The partition's function on integers, as the laws evaluate layouts (eval without IntTuples).
    const bool flat = laws::known(part.layout);
    const laws::Flat fl = flat ? laws::flat(part.layout) : laws::Flat{};
    const int64_t values = size(part.layout).value;
    const std::string fill = thread_color(t);
    require_drawable(int64_t(p.cells.size()) + values, "the partitions");
    for (int64_t v = 0; v < values; ++v) {
      const int64_t q = part.offset.value + (flat ? fl(v) : eval(part.layout, int_tuple(dynamic_int(v))).value);
      if (q < 0 || q >= elements)
        throw Error("draw", "outside the tensor",
                    "draw: thread " + std::to_string(t) + " value " + std::to_string(v) + " -> index " +
                        std::to_string(q) + " lies outside the tensor " + to_string(shape) +
                        " (verify copy checks the partitions)");
      const int64_t r = q % p.rows, c = q / p.rows;
      p.cells.push_back({r, c, "T" + std::to_string(t) + "V" + std::to_string(v),
                         "T" + std::to_string(t) + " V" + std::to_string(v) + " -> (" + std::to_string(r) + "," +
                             std::to_string(c) + ") coord " + coord_text(q) + " offset " + std::to_string(q),
                         fill});
    }
  }
  return p;
}

// A swizzled shared-memory layout: cells show swizzled offsets, coloured by 4-byte bank; row and
// column notes give the bank-conflict degree of a warp reading that row / column.
Panel swizzle_panel(const ComposedLayout& c, int64_t elem_bytes, const std::string& title) {
  Panel p;
  p.title = title;
  grid_of(c.layout.shape, p.rows, p.cols, p.row_breaks, p.col_breaks);
  std::vector<std::vector<int64_t>> bank(size_t(p.rows), std::vector<int64_t>(size_t(p.cols)));
  std::vector<std::vector<int64_t>> word(size_t(p.rows), std::vector<int64_t>(size_t(p.cols)));
  const int64_t n = size(c.layout).value;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t a = eval(c, int_tuple(dynamic_int(i)));
    if (a < 0 || a > std::numeric_limits<int64_t>::max() / 16)
      throw Error("draw", "offset out of range",
                  "draw: offset " + std::to_string(a) + " of " + to_string(c) +
                      " has no shared-memory bank: offsets must be >= 0 and below 2^59");
    const int64_t r = i % p.rows, col = i / p.rows;
    const int64_t w = a * elem_bytes / 4, b = w % 32;
    bank[size_t(r)][size_t(col)] = b;
    word[size_t(r)][size_t(col)] = w;
    char fill[48];
    std::snprintf(fill, sizeof fill, "hsl(%d,60%%,80%%)", int(b * 360 / 32));
    p.cells.push_back({r, col, std::to_string(a),
                       "(" + std::to_string(r) + "," + std::to_string(col) + ") offset " + std::to_string(a) +
                           " bank " + std::to_string(b),
                       fill});
  }
  auto degree = [](const std::vector<std::pair<int64_t, int64_t>>& bw) {
    std::map<int64_t, std::set<int64_t>> words;
    for (const auto& [b, w] : bw) words[b].insert(w);
    size_t d = 1;
    for (const auto& [b, ws] : words) d = std::max(d, ws.size());
    return d;
  };
  for (int64_t r = 0; r < p.rows; ++r) {
    std::vector<std::pair<int64_t, int64_t>> bw;
    for (int64_t col = 0; col < p.cols; ++col)
      bw.push_back({bank[size_t(r)][size_t(col)], word[size_t(r)][size_t(col)]});
    p.row_notes.push_back(std::to_string(degree(bw)) + "-way");
  }
  for (int64_t col = 0; col < p.cols; ++col) {
    std::vector<std::pair<int64_t, int64_t>> bw;
    for (int64_t r = 0; r < p.rows; ++r) bw.push_back({bank[size_t(r)][size_t(col)], word[size_t(r)][size_t(col)]});
    p.col_notes.push_back(std::to_string(degree(bw)));
  }
  return p;
}

}  // namespace

Flags draw_flags(const std::vector<std::string>& args) {
  return parse_flags(
      args, {"o", "tile", "atom", "elem", "atom-tv", "data", "thr", "val", "tensor", "elem-bytes", "rows"}, "draw");
}

Drawing draw_from(const Flags& f, bool documents) {
  g_rows_override = f.integer("rows", 0, "draw");
  if (f.positional.empty())
    throw Error("draw", "usage",
                "draw: usage: draw layout L | draw tv TV --tile SHAPE | draw copy ... | draw swizzle SWIZZLED_LAYOUT "
                "[--elem-bytes N] [-o FILE] [--html]");
  const std::string what = f.positional[0];
  std::vector<Panel> panels;
  std::string title;
  if (what == "layout") {
    if (f.positional.size() < 2) throw Error("draw", "missing LAYOUT", "draw layout: missing LAYOUT");
    const Layout l = text::to_layout(text::parse(f.positional[1]), "draw", 1);
    title = "layout " + to_string(l);
    panels.push_back(layout_panel(l, title));
  } else if (what == "tv") {
    if (f.positional.size() < 2 || !f.has("tile"))
      throw Error("draw", "usage", "draw tv: usage: draw tv TV_LAYOUT --tile SHAPE");
    const Layout tv = text::to_layout(text::parse(f.positional[1]), "draw", 1);
    const IntTuple tile = text::to_int_tuple(text::parse(f.get("tile")), "draw --tile", 1);
    title = "TV layout " + to_string(tv) + " over " + to_string(tile);
    panels.push_back(tv_panel(tv, tile, title));
  } else if (what == "copy") {
    const TiledCopy tc = copy_from_flags(f, "draw copy");
    const IntTuple shape = f.has("tensor")
                               ? text::to_layout(text::parse(f.get("tensor")), "draw --tensor", 1).shape
                               : (f.has("data") ? text::to_layout(text::parse(f.get("data")), "draw --data", 1).shape
                                                : tiler_shape(tc.tiler));
    title = std::string("tiled copy ") + tc.atom.traits.name + " " + name(tc.atom.elem) + ", layout_tv " +
            to_string(tc.layout_tv);
    require_drawable(shape, "the tensor");
    CoordText coord_text(shape);
    panels.push_back(partition_panel(tc, shape, true, "source (partition_S)", coord_text));
    panels.push_back(partition_panel(tc, shape, false, "destination (partition_D)", coord_text));
  } else if (what == "swizzle") {
    if (f.positional.size() < 2) throw Error("draw", "missing layout", "draw swizzle: missing SWIZZLED_LAYOUT");
    const text::Value v = text::parse(f.positional[1]);
    ComposedLayout c;
    if (v.kind == text::Value::kComposed) c = v.composed;
    else c = ComposedLayout{Swizzle{}, static_int(0), text::to_layout(v, "draw", 1)};
    const int64_t eb = f.integer("elem-bytes", 2, "draw");
    if (eb < 1 || eb > 16)
      throw Error("draw", "--elem-bytes out of range",
                  "draw: --elem-bytes N must be 1 to 16 (bytes an element), got " + std::to_string(eb));
    title = "shared memory " + to_string(c) + ", " + std::to_string(eb) + "-byte elements: banks and conflict degree";
    panels.push_back(swizzle_panel(c, eb, title));
  } else {
    throw Error("draw", "unknown subject '" + what + "'",
                "draw: unknown subject '" + what + "' (layout tv copy swizzle)");
  }
  const Svg svg = render(panels, documents);
  return Drawing{what,       title,      svg.body,   documents ? html_page(title, svg) : "",
                 svg.cells,  svg.width,  svg.height, std::move(panels),
                 svg.cell_w, svg.cell_h, svg.font,   svg.labels};
}

int cmd_draw(const std::vector<std::string>& args) {
  const Flags f = draw_flags(args);
  const Drawing d = draw_from(f);
  const std::string doc = f.html ? d.html : d.svg;
  const std::string out = f.get("o");
  if (out.empty() || out == "-") {
    if (!f.json) std::fputs(doc.c_str(), stdout);
  } else {
    std::ofstream o(out);
    if (!o) throw Error("draw", "cannot write " + out, "draw: cannot write " + out);
    o << doc;
  }
  if (f.json)
    std::printf(
        "{\"subject\":%s,\"title\":%s,\"file\":%s,\"format\":%s,\"cells\":%lld,\"width\":%lld,\"height\":%lld}\n",
        json_str(d.subject).c_str(), json_str(d.title).c_str(), out.empty() ? "null" : json_str(out).c_str(),
        json_str(f.html ? "html" : "svg").c_str(), (long long)d.cells, (long long)d.width, (long long)d.height);
  return 0;
}

}  // namespace cotile::cli
