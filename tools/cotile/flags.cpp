#include "flags.hpp"

#include <algorithm>

#include "atoms.hpp"

namespace cotile::cli {

bool Flags::has(const std::string& k) const {
  for (const auto& [n, v] : named)
    if (n == k) return true;
  return false;
}
std::string Flags::get(const std::string& k, const std::string& fallback) const {
  for (const auto& [n, v] : named)
    if (n == k) return v;
  return fallback;
}

int64_t Flags::integer(const std::string& k, int64_t fallback, const std::string& verb) const {
  if (!has(k)) return fallback;
  return text::to_int(text::parse(get(k)), verb + " --" + k, 1).value;
}

Error unknown_option(const std::string& verb, const std::string& option) {
  const std::string who = "cotile " + verb;
  return Error(who, "unknown option " + option,
               who + ": unknown option " + option + " (" + who + " --help lists its options)");
}

Flags parse_flags(const std::vector<std::string>& args, const std::vector<std::string>& valued,
                  const std::string& verb) {
  const std::string who = "cotile " + verb;
  Flags f;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--json") f.json = true;
    else if (a == "--strict") f.strict = true;
    else if (a == "--html") f.html = true;
    else if (a.rfind("--", 0) == 0 || a == "-o") {
      const std::string key = a == "-o" ? "o" : a.substr(2);
      if (std::find(valued.begin(), valued.end(), key) == valued.end()) throw unknown_option(verb, a);
      if (i + 1 >= args.size())
        throw Error(who, "option " + a + " needs a value",
                    who + ": option " + a + " needs a value (" + who + " --help lists its options)");
      f.named.push_back({key, args[++i]});
    } else {
      f.positional.push_back(a);
    }
  }
  return f;
}

Layout layout_flag(const Flags& f, const std::string& key, const std::string& verb) {
  if (!f.has(key)) throw Error(verb, "missing --" + key, verb + ": missing --" + key + " LAYOUT");
  return text::to_layout(text::parse(f.get(key)), verb + " --" + key, 1);
}

CopyAtom atom_from_flags(const Flags& f, const std::string& verb) {
  if (!f.has("atom") || !f.has("elem"))
    throw Error(verb, "missing --atom or --elem",
                verb + ": missing --atom or --elem: a tiled copy needs --atom NAME --elem TYPE");
  return make_copy_atom(parse_copy_op(f.get("atom"), verb), parse_elem(f.get("elem"), verb));
}

void require_tv_layout(const Layout& tv, const std::string& verb) {
  if (tv.rank() != 2)
    throw Error(verb, "a TV layout has two modes",
                verb + ": a TV layout has two modes, (threads, values); " + to_string(tv) + " has rank " +
                    std::to_string(tv.rank()));
}

TiledCopy copy_from_flags(const Flags& f, const std::string& verb) {
  const CopyAtom atom = atom_from_flags(f, verb);
  if (f.has("atom-tv") || f.has("data"))
    return make_cotiled_copy(atom, layout_flag(f, "atom-tv", verb), layout_flag(f, "data", verb), Options{f.strict});
  if (f.has("thr"))
    return make_tiled_copy(atom, layout_flag(f, "thr", verb), f.has("val") ? layout_flag(f, "val", verb) : Layout{});
  throw Error(verb, "missing the copy's layouts",
              verb + ": give --atom-tv and --data (make_cotiled_copy) or --thr and --val (make_tiled_copy)");
}

}  // namespace cotile::cli
