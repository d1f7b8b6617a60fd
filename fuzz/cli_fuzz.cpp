// libFuzzer target: the verbs explain, verify and draw on arbitrary arguments, as the command,
// Python and the browser call them (explain_from, verify_from, draw_from).
// Input: lines; the first names the verb, each other line is one argument (so that arguments may
// hold spaces: "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)"). Any input must give a result or a
// cotile::Error: never another exception (a vector of 2^64 entries, memory run out), a crash, a
// sanitizer report or a hang. What the verbs print must render (text and JSON).
#include <cstdint>
#include <string>
#include <vector>

#include "explain.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 2048) return 0;
  std::vector<std::string> lines(1);
  for (size_t k = 0; k < size; ++k) {
    const char ch = char(data[k]);
    if (ch == '\n') lines.emplace_back();
    else lines.back() += ch;
  }
  const std::string verb = lines[0];
  const std::vector<std::string> args(lines.begin() + 1, lines.end());
  try {
    using namespace cotile::cli;
    if (verb == "explain") {
      const Derivation d = explain_from(explain_flags(args));
      (void)render_text(d);
      (void)render_json(d);
    } else if (verb == "verify") {
      const VerifyReport r = verify_from(verify_flags(args));
      (void)render_text(r);
      (void)render_json(r);
    } else if (verb == "draw") {
      (void)draw_from(draw_flags(args), args.size() % 2 == 0);
    }
  } catch (const cotile::Error&) {
  }
  return 0;
}
