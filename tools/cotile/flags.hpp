// The arguments of the verbs explain, verify and draw: options parsed from --name value pairs,
// and the layouts, atoms and tiled copies they describe (an Error naming the verb otherwise).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "ops.hpp"

namespace cotile::cli {

// Options shared by the explain/verify/draw verbs, parsed from --name value pairs.
struct Flags {
  std::vector<std::string> positional;
  std::vector<std::pair<std::string, std::string>> named;
  bool json = false, strict = false, html = false;
  bool has(const std::string& k) const;
  std::string get(const std::string& k, const std::string& fallback = "") const;
  // The integer value of --k (CuTe text: 5 or _5), or fallback; a bad value is an Error naming --k.
  int64_t integer(const std::string& k, int64_t fallback, const std::string& verb) const;
};
// An option not in `valued` (nor --json, --strict, --html) is an Error naming the verb
// (unknown_option).
Flags parse_flags(const std::vector<std::string>& args, const std::vector<std::string>& valued,
                  const std::string& verb);
// The Error for an option `cotile VERB` does not take: it names the verb and where its options are
// listed (every verb's parser reports it so).
Error unknown_option(const std::string& verb, const std::string& option);

// A TV layout given to `verb` has two modes, (threads, values): otherwise an Error naming it.
void require_tv_layout(const Layout& tv, const std::string& verb);

// The layout of --key (an Error naming the verb when it is missing or not a layout).
Layout layout_flag(const Flags& f, const std::string& key, const std::string& verb);
// The copy atom of --atom and --elem.
CopyAtom atom_from_flags(const Flags& f, const std::string& verb);

// A tiled copy described by flags: --atom, --elem and either (--atom-tv, --data) for
// make_cotiled_copy or (--thr, --val) for make_tiled_copy.
TiledCopy copy_from_flags(const Flags& f, const std::string& verb);

}  // namespace cotile::cli
