// The law of make_tiled_copy(atom, thr, val), and the condition on its parts that implies it.
//
//   layout_mn = raked_product(thr, val)       tile coordinate -> t + size(thr) v
//   R         = right_inverse(layout_mn)      R's law: layout_mn(R(i)) = i, R(i) an index of layout_mn
//   layout_tv = R o (size(thr), size(val))    (t, v) -> tile coordinate
// Law: layout_mn(layout_tv(t, v)) = t + size(thr) v, layout_tv(t, v) an index of layout_mn, for
// every thread t and value v. It is R's own law when size(R) = size(thr) size(val). A shorter R
// (its chain follows static strides only, as CuTe's, so a run-time stride stops it) is read
// beyond its size: the law is then checked point by point (up to law_points()). `cute_tv`: CuTe's
// layout_tv where it differs from the one checked (cotile's R followed run-time values).
#pragma once

#include "message.hpp"

namespace cotile::laws {

inline constexpr const char* kTiledCopyLaw = "raked_product(thr, val)(layout_tv(t, v)) = t + size(thr) v";
inline constexpr const char* kTiledCopyShortR =
    "right_inverse(raked_product(thr, val)) reaches only the first size(R) of the size(thr) x size(val) (thread, "
    "value) indices, and layout_tv reads it beyond";
inline constexpr const char* kTiledCopyFix =
    "give thr and val whose raked product is one to one onto the offsets 0, 1, 2, ... (in strict mode also static "
    "shapes and strides: CuTe's right inverse follows a chain of static strides only)";

COTILE_HD constexpr LawReport tiled_copy(const Layout& thr, const Layout& val, const Layout& layout_mn,
                                         const Layout& inv, const Layout& layout_tv, const Layout* cute_tv = nullptr) {
  LawReport rep = holding("make_tiled_copy", kTiledCopyLaw, true);
  const int64_t n = cotile::detail::checked_mul(size(thr).value, size(val).value);
  if (size(inv).value >= n) return proven(rep);
  auto inputs = [&](LawReport& r) {
    line(r, "thr", thr);
    line(r, "val", val);
    line(r, "raked_product(thr, val)", layout_mn);
    line(r, "R", inv);
    line(r, "size(R)", size(inv));
    line(r, "size(thr) x size(val)", size(thr) * size(val));
  };
  if (n > law_points() || !known(layout_mn) || !known(layout_tv)) {
    LawReport r = unverified("make_tiled_copy", kTiledCopyLaw, n);
    inputs(r);
    r.message.add("\n  why: ").add(kTiledCopyShortR);
    fix(r, kTiledCopyFix);
    return r;
  }
  const Flat fm = flat(layout_mn), ft = flat(layout_tv);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t at = ft(i);
    if (at >= 0 && at < fm.size() && fm(at) == i) continue;
    LawReport r = failed("make_tiled_copy", kTiledCopyLaw);
    r.message.add(": ").add(kTiledCopyShortR);
    inputs(r);
    line(r, "t + size(thr) v", i);
    line(r, "layout_tv(t, v)", at);
    r.message.add("\n  CuTe 4.7 returns layout_tv = ").add(cute_tv ? *cute_tv : layout_tv).add(" here");
    fix(r, kTiledCopyFix);
    return r;
  }
  rep.points = n;
  return rep;
}

}  // namespace cotile::laws
