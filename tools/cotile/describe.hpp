// Words for layouts: a layout's function in its own coordinates, as docs/qload.md writes it
// ("a(t,v) = 16*t + v", t in [0,64), v in [0,16)).
#pragma once

#include <string>
#include <vector>

#include "cotile/cotile.hpp"

namespace cotile::cli {

struct FunctionText {
  std::string formula;  // "a(t,v) = 16*t + v"
  std::string domain;   // "t in [0,64), v in [0,16)"; sub-coordinates as "t = t0 + 2*t1"
};

// The function of `l` named `fname`, with top-level modes named `names` (missing names become
// x0, x1, ...). Each mode is coalesced first; a mode that stays split is written with
// sub-coordinates n0, n1, ... and their mixed-radix decomposition.
FunctionText describe_function(const Layout& l, const std::vector<std::string>& names, const std::string& fname);

// The layout's text without staticness markers: ((_2,_8),_1):((4,_1),_0) -> ((2,8),1):((4,1),0).
std::string plain(const std::string& cute_text);

}  // namespace cotile::cli
