// The laws of the operations that take a tile (a tuple of '_', integers and layouts; tile.hpp), for
// the law tests and the fuzz targets' oracle: composition, logical_divide and logical_product by
// mode, each mode against its operation's law (law_oracle.hpp's evaluator), and the zipped, tiled
// and flat forms against the by-mode result regrouped as their definitions say. The definitions'
// complements are the engine's (CuTe's mode), each checked by the evaluator before it is used.
#pragma once

#include <functional>
#include <string>

#include "law_oracle.hpp"

namespace cotile::tile_laws {

// logical_divide(A, B) = A o (B, C), C = complement(B, shape(coalesce(A))): r against that.
inline std::string divide_law(const Layout& a, const Layout& b, const Layout& r) {
  LawLog log;
  const IntTuple t = coalesce(a).shape;
  const Layout c = complement(b, t, Options{false, true, &log});
  const std::string wc = oracle::complement(b, size(t).value, c);
  if (!wc.empty()) return "complement: " + wc;
  return oracle::composition(a, make_layout_concat(b, c), r);
}

// logical_product(A, B) = (A, C o B), C = complement(A, size(A) cosize(B)): r against that.
inline std::string product_law(const Layout& a, const Layout& b, const Layout& r) {
  LawLog log;
  const int64_t target = size(a).value * cosize(b).value;
  const Layout c = complement(a, int_tuple(size(a) * cosize(b)), Options{false, true, &log});
  const std::string wc = oracle::complement(a, target, c);
  if (!wc.empty()) return "complement: " + wc;
  if (!(r.get(0) == a)) return "mode 0 is not A";
  return oracle::composition(c, b, r.get(1));
}

// Whether every element of t is a leaf ('_', an integer or a layout): the tiles these laws cover.
inline bool flat_tile(const Tile& t) {
  if (t.is_leaf()) return false;
  for (int i = 0; i < t.rank(); ++i)
    if (!t.get(i).is_leaf()) return false;
  return true;
}

// The layout element i of a flat tile means (an integer n: n:_1); false for '_'.
inline bool element(const Tile& t, int i, Layout& out) {
  const Tile e = t.get(i);  // (a copy: get returns one)
  const TileLeaf x = e.value();
  if (x.kind == TileLeaf::kUnderscore) return false;
  out = x.kind == TileLeaf::kInt ? Layout{int_tuple(x.integer()), int_tuple(static_int(1))} : x.layout;
  return true;
}

using ModeLaw = std::function<std::string(const Layout&, const Layout&, const Layout&)>;

// By mode: mode i of r against law(a_i, t_i, r_i) for the tile's modes ('_': a_i itself), and
// the modes of a beyond rank(t) kept when `keeps_rest` (else dropped).
inline std::string by_mode(const Layout& a, const Tile& t, const Layout& r, bool keeps_rest, const ModeLaw& law) {
  const int want = keeps_rest ? a.rank() : t.rank();
  if (r.rank() != want) return "rank " + std::to_string(r.rank()) + ", expected " + std::to_string(want);
  for (int i = 0; i < want; ++i) {
    Layout b;
    if (i >= t.rank() || !element(t, i, b)) {
      if (!(r.get(i) == a.get(i))) return "mode " + std::to_string(i) + " is not A's";
      continue;
    }
    const std::string w = law(a.get(i), b, r.get(i));
    if (!w.empty()) return "mode " + std::to_string(i) + ": " + w;
  }
  return "";
}

// The zipped, tiled and flat forms of a by-mode result m (every tiled mode (tile, rest)), restated:
// tiles T = (m_0.0, m_1.0, ...), rests R = (m_0.1, m_1.1, ..., m_k for k >= rank(t)); zipped (T, R),
// tiled (T, R's modes...), flat (T's modes..., R's modes...), a group of one mode kept whole.
inline Layout regrouped(const std::string& form, const Layout& m, int tiled_modes) {
  LayoutList tiles, rests, out;
  for (int i = 0; i < m.rank(); ++i) {
    if (i < tiled_modes) tiles.push_back(m.get(i).get(0)), rests.push_back(m.get(i).get(1));
    else rests.push_back(m.get(i));
  }
  const Layout t = tiles.layout(), r = rests.layout();
  auto unpack = [&out](const Layout& g) {
    if (g.rank() == 1) return out.push_back(g);
    for (int i = 0; i < g.rank(); ++i) out.push_back(g.get(i));
  };
  if (form.rfind("zipped", 0) == 0) return make_layout_concat(t, r);
  if (form.rfind("tiled", 0) == 0) out.push_back(t);
  else unpack(t);
  unpack(r);
  return out.layout();
}

// The verdict on op(a, t) = r for a flat tile ("" when the law holds; "-" for another op, or a form
// whose tile has '_' (which leaves a mode without a (tile, rest) to regroup)).
inline std::string verdict(const std::string& op, const Layout& a, const Tile& t, const Layout& r) {
  if (!flat_tile(t) || t.rank() > a.rank()) return "-";
  if (op == "composition")
    return by_mode(a, t, r, false,
                   [](const Layout& x, const Layout& y, const Layout& z) { return oracle::composition(x, y, z); });
  if (op == "logical_divide") return by_mode(a, t, r, true, divide_law);
  if (op == "logical_product") return by_mode(a, t, r, true, product_law);
  const bool divide = op == "zipped_divide" || op == "tiled_divide" || op == "flat_divide";
  if (!divide && op != "zipped_product" && op != "tiled_product") return "-";
  for (int i = 0; i < t.rank(); ++i) {
    Layout b;
    if (!element(t, i, b)) return "-";
  }
  // The by-mode result of the calculator's default mode (where CuTe's composition breaks the law
  // it composes with A coalesced by value), itself checked against the law.
  const Layout m = divide ? logical_divide(a, t, kByValue) : logical_product(a, t, kByValue);
  const std::string w = by_mode(a, t, m, true, divide ? divide_law : product_law);
  if (!w.empty()) return "by mode: " + w;
  const Layout want = regrouped(op, m, t.rank());
  return r == want ? "" : "not " + to_string(want) + ", the by-mode result regrouped";
}

}  // namespace cotile::tile_laws
