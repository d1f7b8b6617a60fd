// CuTe's print_latex (host): a layout, a (thread, value) layout, a tiled MMA or a tiled copy as a
// LaTeX TikZ picture on stdout, in CuTe's format (a standalone document, one 1cm node a cell,
// m down and n across, row and column numbers outside the grid), so that CuTe users' scripts
// that typeset it keep working. Every cell's number or (thread, value) label is the layout's:
//   print_latex(L)            rank <= 2: cell (m, n) shows L(m, n), filled by color(L(m, n))
//   print_latex_tv(TV, (M,N)) cell (m, n) shows the first (t, v), in t-major order, with
//                             TV(t, v) = m + M n
//   print_latex(tiled_mma)    C at the origin, A to its left (k across), B above it (k down)
//   print_latex(tiled_copy)   the source partition, and the destination's N + 3 columns right
// The comment lines print a TV layout as CuTe prints its composition with the tile's identity
// tensor (a stride d = m + M n as _m@0 or _n@1; one that is neither, as _m@0+_n@1, where CuTe's
// composition would split the mode). (`cotile draw` gives the same pictures as SVG or HTML.)
#pragma once

#include <cstdio>
#include <string>

#include "atom.hpp"
#include "layout.hpp"

namespace cotile::ct {

// CuTe's colour maps: by index for layouts, by thread for TV layouts.
struct TikzColor_White {
  const char* operator()(int) const { return "white"; }
};
struct TikzColor_BWx8 {
  const char* operator()(int idx) const {
    static const char* const gray[8] = {"black!00", "black!40", "black!20", "black!60",
                                        "black!10", "black!50", "black!30", "black!70"};
    return gray[((idx % 8) + 8) % 8];
  }
};
struct TikzColor_TV {
  const char* operator()(int tid, int) const {
    static const char* const rgb[8] = {"{rgb,255:red,175;green,175;blue,255}", "{rgb,255:red,175;green,255;blue,175}",
                                       "{rgb,255:red,255;green,255;blue,175}", "{rgb,255:red,255;green,175;blue,175}",
                                       "{rgb,255:red,210;green,210;blue,255}", "{rgb,255:red,210;green,255;blue,210}",
                                       "{rgb,255:red,255;green,255;blue,210}", "{rgb,255:red,255;green,210;blue,210}"};
    return rgb[tid % 8];
  }
};

namespace detail {
inline void latex_begin() {
  std::printf(
      "\\documentclass[convert]{standalone}\n"
      "\\usepackage{tikz}\n\n"
      "\\begin{document}\n"
      "\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},every node/.style={minimum size=1cm, outer sep=0pt}]\n\n");
}
inline void latex_end() { std::printf("\\end{tikzpicture}\n\\end{document}\n"); }
inline void latex_grid(int m0, int n0, int m1, int n1) {
  std::printf("\\draw[color=black,thick,shift={(-0.5,-0.5)}] (%d,%d) grid (%d,%d);\n\n", m0, n0, m1, n1);
}
inline void latex_label(int m, int n, int value) {
  std::printf("\\node at (%d,%d) {\\Large{\\texttt{%d}}};\n", m, n, value);
}
// A TV layout's strides as coordinates of the (rows, cols) tile it indexes (CuTe prints the
// composition with the tile's identity tensor: a stride d = m + rows n as m@0 or n@1).
inline std::string tv_strides(const IntTuple& d, int rows) {
  if (d.is_tuple()) {
    std::string out = "(";
    for (int i = 0; i < d.rank(); ++i) out += (i ? "," : "") + tv_strides(d.get(i), rows);
    return out + ")";
  }
  const int64_t v = d.value().value;
  const std::string pre = d.value().is_static ? "_" : "";
  if (v == 0) return pre + "0";
  if (v % rows == 0) return pre + std::to_string(v / rows) + "@1";
  if (v < rows) return pre + std::to_string(v) + "@0";
  return pre + std::to_string(v % rows) + "@0+" + pre + std::to_string(v / rows) + "@1";
}
inline std::string tv_text(const ::cotile::Layout& tv, int rows) {
  return "ArithTuple(_0,_0) o " + ::cotile::to_string(tv.shape) + ":" + tv_strides(tv.stride, rows);
}

// The (thread, value) cells of a TV layout (engine value, (t, v) -> m + rows n) at rows/columns
// offset by (dm, dn): the first (t, v) to reach a cell labels it; `at` maps (m, n) to the
// picture's (row, column).
template <class At, class Color>
void latex_tv_cells(const ::cotile::Layout& tv, int rows, int cols, At at, Color color) {
  const laws::Flat f = laws::flat(tv);
  const int threads = int(::cotile::size(tv.shape.get(0)).value), values = int(::cotile::size(tv.shape.get(1)).value);
  std::string filled(size_t(rows) * size_t(cols), '\0');  // (no <vector> in every file)
  for (int t = 0; t < threads; ++t)
    for (int v = 0; v < values; ++v) {
      const int64_t idx = f(t + int64_t(threads) * v);
      if (idx < 0 || idx >= int64_t(rows) * cols)
        ::cotile::fail("print_latex", "a (thread, value) falls outside the tile", nullptr, arg("TV", tv), arg("t", t),
                       arg("v", v), arg("index", long(idx)));
      const int m = int(idx % rows), n = int(idx / rows);
      if (filled[size_t(idx)]) continue;
      filled[size_t(idx)] = 1;
      const auto [row, col] = at(m, n);
      std::printf("\\node[fill=%s] at (%d,%d) {\\shortstack{T%d \\\\ V%d}};\n", color(t, v), row, col, t, v);
    }
}
}  // namespace detail

// A rank <= 2 layout: cell (m, n) is its value at (m, n).
template <class L, class Color = TikzColor_BWx8>
void print_latex(const L& layout, Color color = {}) {
  static_assert(is_layout_v<L>, "print_latex(L): L must be a layout (or a TiledMMA / TiledCopy)");
  const ::cotile::Layout e = engine(layout);
  const ::cotile::Layout l =
      e.rank() == 2 ? e
      : e.rank() < 2
          ? ::cotile::make_layout_concat(e, ::cotile::Layout{int_tuple(static_int(1)), int_tuple(static_int(0))})
          : e;
  if (l.rank() > 2) ::cotile::fail("print_latex", "the layout must have rank 1 or 2", nullptr, arg("L", e));
  std::printf("%% Layout: %s\n", ::cotile::to_string(l).c_str());
  detail::latex_begin();
  const int rows = int(::cotile::size(l.shape.get(0)).value), cols = int(::cotile::size(l.shape.get(1)).value);
  const laws::Flat f = laws::flat(l);
  for (int m = 0; m < rows; ++m)
    for (int n = 0; n < cols; ++n) {
      const int idx = int(f(m + int64_t(rows) * n));
      std::printf("\\node[fill=%s] at (%d,%d) {%d};\n", color(idx), m, n, idx);
    }
  detail::latex_grid(0, 0, rows, cols);
  for (int m = 0; m < rows; ++m) detail::latex_label(m, -1, m);
  for (int n = 0; n < cols; ++n) detail::latex_label(-1, n, n);
  detail::latex_end();
}

// A (thread, value) layout over an (M, N) tile: TV(t, v) = m + M n.
template <class TV, class Tile, class Color = TikzColor_TV>
void print_latex_tv(const TV& layout_tv, const Tile& tile_mn, Color color = {}) {
  static_assert(is_layout_v<TV>, "print_latex_tv(TV, tile): TV must be a layout (thread, value) -> index");
  const ::cotile::Layout tv = engine(layout_tv);
  const int rows = int(int64_t(size(get<0>(tile_mn)))), cols = int(int64_t(size(get<1>(tile_mn))));
  std::printf("%% Layout TV: %s\n", ::cotile::to_string(tv).c_str());
  detail::latex_begin();
  detail::latex_tv_cells(
      tv, rows, cols,
      [](int m, int n) {
        return std::pair<int, int>{m, n};
      },
      color);
  detail::latex_grid(0, 0, rows, cols);
  for (int m = 0; m < rows; ++m) detail::latex_label(m, -1, m);
  for (int n = 0; n < cols; ++n) detail::latex_label(-1, n, n);
  detail::latex_end();
}

// A tiled MMA: C (M, N) at the origin, A (M, K) to its left, B (N, K) above it, k increasing
// towards C.
template <class Gen, class Color = TikzColor_TV>
void print_latex(const TiledMMA<Gen>&, Color color = {}) {
  const ::cotile::TiledMMA t = Gen::value();
  const int M = int(tile_size_mnk(t, 0).value), N = int(tile_size_mnk(t, 1).value), K = int(tile_size_mnk(t, 2).value);
  const ::cotile::Layout c = get_layout_tv(t, Operand::kC), a = get_layout_tv(t, Operand::kA),
                         b = get_layout_tv(t, Operand::kB);
  std::printf("%% LayoutC: %s\n%% LayoutA: %s\n%% LayoutB: %s\n", detail::tv_text(c, M).c_str(),
              detail::tv_text(a, M).c_str(), detail::tv_text(b, N).c_str());
  detail::latex_begin();
  detail::latex_tv_cells(
      c, M, N,
      [](int m, int n) {
        return std::pair<int, int>{m, n};
      },
      color);
  detail::latex_grid(0, 0, M, N);
  detail::latex_tv_cells(
      a, M, K,
      [K](int m, int k) {
        return std::pair<int, int>{m, k - K - 1};
      },
      color);
  detail::latex_grid(0, -K - 1, M, -1);
  for (int m = 0; m < M; ++m) detail::latex_label(m, -K - 2, m);
  for (int k = 0; k < K; ++k) detail::latex_label(-1, k - K - 1, k);
  detail::latex_tv_cells(
      b, N, K,
      [K](int n, int k) {
        return std::pair<int, int>{k - K - 1, n};
      },
      color);
  detail::latex_grid(-K - 1, 0, -1, N);
  for (int n = 0; n < N; ++n) detail::latex_label(-K - 2, n, n);
  for (int k = 0; k < K; ++k) detail::latex_label(k - K - 1, -1, k);
  detail::latex_end();
}

// A tiled copy: the source's (thread, value) cells, and the destination's N + 3 columns right.
template <class Gen, class Color = TikzColor_TV>
void print_latex(const TiledCopy<Gen>&, Color color = {}) {
  const ::cotile::TiledCopy t = Gen::value();
  const IntTuple tile = tiler_shape(t.tiler);
  const int M = int(::cotile::size(tile.get(0)).value),
            N = tile.rank() > 1 ? int(::cotile::size(tile.get(1)).value) : 1;
  const ::cotile::Layout s = get_layoutS_TV(t), d = get_layoutD_TV(t);
  std::printf("%% Layout S TV: %s\n%% Layout D TV: %s\n", detail::tv_text(s, M).c_str(), detail::tv_text(d, M).c_str());
  detail::latex_begin();
  detail::latex_tv_cells(
      s, M, N,
      [](int m, int n) {
        return std::pair<int, int>{m, n};
      },
      color);
  detail::latex_grid(0, 0, M, N);
  for (int m = 0; m < M; ++m) detail::latex_label(m, -1, m);
  for (int n = 0; n < N; ++n) detail::latex_label(-1, n, n);
  detail::latex_tv_cells(
      d, M, N,
      [N](int m, int n) {
        return std::pair<int, int>{m, n + N + 3};
      },
      color);
  detail::latex_grid(0, N + 3, M, 2 * N + 3);
  for (int m = 0; m < M; ++m) detail::latex_label(m, 2 * N + 3, m);
  for (int n = 0; n < N; ++n) detail::latex_label(-1, n + N + 3, n);
  detail::latex_end();
}

}  // namespace cotile::ct
