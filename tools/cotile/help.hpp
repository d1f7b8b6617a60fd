// The command's help: every verb in one list (`cotile --help`), and each verb's options and
// examples (`cotile VERB --help`). The texts follow docs/cli.md.
#pragma once

#include <string>
#include <vector>

namespace cotile::cli {

// `cotile --help`: every verb with what it does.
const char* usage();
// `cotile VERB --help`: the verb's forms, options and examples; nullptr for an unknown verb.
const char* verb_help(const std::string& verb);
// Whether a verb's arguments ask for its help (--help or -h).
bool asks_for_help(const std::vector<std::string>& args);

}  // namespace cotile::cli
