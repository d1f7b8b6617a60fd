// The command's help texts (help.hpp).
#include "help.hpp"

#include <algorithm>

namespace cotile::cli {

const char* usage() {
  return "usage: cotile VERB [options] ...\n"
         "  calc      evaluate expressions of nested calls, as CuTe computes them\n"
         "  explain   the derivation of a layout computation, step by step (default: the FMHA Q-load chain)\n"
         "  verify    check a property: injective, surjective, bijective, tv, copy, inverse, law\n"
         "  draw      a layout, TV layout, tiled copy or swizzle as SVG (or an HTML page)\n"
         "  golden    run golden-corpus files, as CuTe computes and checked\n"
         "`cotile VERB --help` gives a verb's options and examples; docs/cli.md describes them all.\n";
}

const char* verb_help(const std::string& verb) {
  if (verb == "calc")
    return "usage: cotile calc [--json] [--strict] [--as-cute] EXPR...\n"
           "       cotile calc --list\n"
           "Evaluates each expression of nested calls on CuTe text (_4 static, 4 dynamic, S:D a layout,\n"
           "Sw<B,M,S> o _0 o L a swizzled layout) and prints the result as CuTe prints it.\n"
           "options:\n"
           "  --json     the result and its fields as JSON (docs/cli.md)\n"
           "  --strict   refuse dynamic values exactly where CuTe does\n"
           "  --as-cute  what CuTe 4.7 returns, also a result that violates its operation's law (refused by\n"
           "             default); the violated law is printed on stderr as a warning (implies --strict)\n"
           "  --list     the functions and their arguments\n"
           "examples:\n"
           "  cotile calc \"left_inverse(((_128,_32),_1,_4):((_128,_1),_0,_32))\"\n"
           "  cotile calc --json \"composition((_4,_8):(_8,_1), _8:_4)\"\n";
  if (verb == "explain")
    return "usage: cotile explain [--json] [--strict] [SUBJECT] [options]\n"
           "Prints a derivation: numbered steps, each a named value with its function in its own\n"
           "coordinates and why; then tables and notes.\n"
           "subjects and their options:\n"
           "  (none), --preset fmha-gen-q   --elem fp8e5m2|fp8e4m3|fp16|bf16 --head-dim 64|128|256 --m-tile 64|128:\n"
           "                                the FMHA decode kernel's Q-load chain\n"
           "  cotiled-copy                  --atom A --elem T --atom-tv L --data L\n"
           "  tiled-copy                    --atom A --elem T --thr L --val L\n"
           "  partition                     a copy (as above) and --tensor L [--thread t]\n"
           "  mma-partition                 --atom MMA [--atom-layout L] --tensor L [--thread t] [--operand A|B|C]\n"
           "  OPERATION ARG...              any calc operation, its law stated as checked\n"
           "options:\n"
           "  --json     the steps, tables and notes as JSON\n"
           "  --strict   refuse dynamic values exactly where CuTe does\n"
           "examples:\n"
           "  cotile explain\n"
           "  cotile explain --elem fp16 --head-dim 64 --m-tile 64\n"
           "  cotile explain composition \"(_4,_8):(_8,_1)\" \"_8:_4\"\n";
  if (verb == "verify")
    return "usage: cotile verify [--json] CHECK ARG... [options]\n"
           "Checks a property and prints PASS or FAIL with a counterexample; exit 0 when all hold.\n"
           "checks:\n"
           "  injective L | surjective L [--codomain N] | bijective L [--codomain N]\n"
           "  tv TV --tile SHAPE            every element of the tile owned by exactly one (thread, value)\n"
           "  copy + copy options [--tensor L]   (--atom A --elem T and --atom-tv L --data L, or --thr L --val L)\n"
           "  inverse left|right L\n"
           "  law OP ARG...                 the law of any operation, on the unchecked result\n"
           "options:\n"
           "  --json     the checks as JSON\n"
           "examples:\n"
           "  cotile verify injective \"(_4,_8):(_8,_1)\"\n"
           "  cotile verify law composition \"(_3,_4):(_8,_1)\" \"((_4,_2),(_1)):((_2,_1),(_2))\"\n";
  if (verb == "draw")
    return "usage: cotile draw [--json] [--html] [-o FILE] [--rows N] SUBJECT ARG... [options]\n"
           "Draws as SVG (every cell with a tooltip: thread and value, coordinate, offset).\n"
           "subjects:\n"
           "  layout L                      cells labelled with their offset\n"
           "  tv TV --tile SHAPE            cells coloured by thread, labelled T<t>V<v>\n"
           "  copy + copy options [--tensor L]   source and destination partitions side by side\n"
           "  swizzle SWIZZLED [--elem-bytes N]  offsets coloured by bank, with each row's conflicts\n"
           "options:\n"
           "  --html     an HTML page with hover tooltips instead of the SVG\n"
           "  -o FILE    write to FILE (default: standard output)\n"
           "  --rows N   rows of the picture (default: mode 0 of the shape)\n"
           "  --json     what was drawn, as JSON\n"
           "examples:\n"
           "  cotile draw layout \"(_4,_8):(_8,_1)\" -o layout.svg\n"
           "  cotile draw --html swizzle \"Sw<3,4,3> o _0 o (_8,_64):(_64,_1)\" -o swizzle.html\n";
  if (verb == "golden")
    return "usage: cotile golden [--json] [--strict] FILE...\n"
           "Runs golden-corpus files (../shared/golden/README.md): every case as CuTe computes it (the\n"
           "comparison) and checked (a CuTe result that violates its law is listed as refused); exit 1\n"
           "if any case fails in either mode.\n"
           "options:\n"
           "  --json     the counts, failures and refusals as JSON\n"
           "  --strict   refuse dynamic values exactly where CuTe does\n"
           "example:\n"
           "  cotile golden ../shared/golden/*.txt\n";
  return nullptr;
}

bool asks_for_help(const std::vector<std::string>& args) {
  return std::any_of(args.begin(), args.end(), [](const std::string& a) { return a == "--help" || a == "-h"; });
}

}  // namespace cotile::cli
