#!/usr/bin/env python3
"""The cotile command as a user runs it: exit codes, counterexamples and --json for every verb."""
import json
import subprocess
import sys

COTILE = sys.argv[1]
failures = checks = 0


def run(*args):
    p = subprocess.run([COTILE, *args], capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def check(name, cond, detail=""):
    global failures, checks
    checks += 1
    if not cond:
        failures += 1
        print(f"FAIL {name}: {detail}")
    else:
        print(f"ok   {name}")


FP8 = ["--atom", "cp.async.16B", "--elem", "float_e5m2_t", "--atom-tv", "((_2,_32),_16):((_16,_32),_1)",
       "--data", "((_128,_32),_1,_4):((_128,_1),_0,_32)"]

# verify: exit status and counterexamples
rc, out, _ = run("verify", "injective", "(_4,_8):(_1,_4)")
check("verify injective passes", rc == 0 and out.startswith("PASS"), out)
rc, out, _ = run("verify", "injective", "(_4,_8):(_1,_2)")
check("verify injective fails with a counterexample", rc == 1 and "counterexample: L(2,0) = L(0,1) = 2" in out, out)
rc, out, _ = run("verify", "surjective", "(_4,_8):(_2,_8)", "--codomain", "64")
check("verify surjective names the missing offset", rc == 1 and "offset 1 is not reached" in out, out)
# onto [0, N) also means nothing outside it: an injective L of 3 elements is no bijection onto [0, 1)
rc, out, _ = run("verify", "bijective", "3:1", "--codomain", "1")
check("verify bijective refuses offsets outside the codomain",
      rc == 1 and "FAIL surjective: not a map onto [0,1): an offset lies outside it\n  counterexample: L1 = 1 (index 1)"
      in out, out)
rc, out, _ = run("verify", "bijective", "3:1", "--codomain", "3")
check("verify bijective onto its own range passes", rc == 0 and out.count("PASS") == 2, out)
rc, out, _ = run("verify", "tv", "((_2,(_4,_8)),_16):((_1,(_256,_2)),_16)", "--tile", "((_2,_8,_16),_1,_4)")
check("verify tv on the Q-load chain's layout_tv", rc == 0, out)
rc, out, _ = run("verify", "tv", "((_2,(_4,_8)),_16):((_1,(_256,_2)),_8)", "--tile", "((_2,_8,_16),_1,_4)")
check("verify tv reports a double owner", rc == 1 and "is owned by" in out, out)
rc, out, _ = run("verify", "copy", *FP8)
check("verify copy on the Q-load chain's FP8 copy", rc == 0 and out.count("PASS") == 5, out)
rc, out, _ = run("verify", "inverse", "left", "((_128,_32),_1,_4):((_128,_1),_0,_32)")
check("verify inverse left", rc == 0 and "R = (_128,_128):(_128,_1)" in out, out)
rc, out, _ = run("verify", "inverse", "left", "(_4,_4):(_1,_2)")
check("verify inverse left fails on a non-injective layout", rc != 0, out)

# --json for every verb parses, with the documented fields
for verb_args, fields in [
    (["calc", "--json", "left_inverse(((_128,_32),_1,_4):((_128,_1),_0,_32))"], ["expression", "result"]),
    (["explain", "--json"], ["title", "steps", "tables", "notes"]),
    (["explain", "--json", "cotiled-copy", *FP8], ["title", "steps"]),
    (["explain", "--json", "tiled-copy", "--atom", "copy.u32", "--elem", "half_t", "--thr", "(_8,_16):(_16,_1)", "--val", "(_1,_2):(_0,_1)"], ["steps"]),
    (["explain", "--json", "partition", *FP8, "--tensor", "((_128,_32),_1,_4):((128,_1),_0,_32)", "--thread", "7"], ["steps", "tables"]),
    (["explain", "--json", "mma-partition", "--atom", "SM100_MMA_F8F6F4_SS<float_e5m2_t,float_e5m2_t,float,128,64,K,K>", "--tensor", "(_128,_128):(128,_1)"], ["steps"]),
    (["explain", "--json", "composition", "(_4,_8):(_2,_16)", "(_2,_8):(_1,_2)"], ["steps", "tables"]),
    (["verify", "--json", "bijective", "(_4,_8):(_8,_1)"], ["holds", "checks"]),
    (["draw", "--json", "layout", "(_4,_8):(_8,_1)", "-o", "/dev/null"], ["subject", "cells", "width", "height"]),
]:
    rc, out, err = run(*verb_args)
    try:
        lines = [json.loads(l) for l in out.strip().splitlines()]
        ok = rc == 0 and all(f in lines[0] for f in fields)
    except json.JSONDecodeError as e:
        ok, err = False, f"{e}: {out[:200]}"
    check("json " + " ".join(verb_args[:3]), ok, err)

# errors: calc exit status and message
rc, out, err = run("calc", "left_inverse((_4,_8):(8,_1))", "--strict")
check("calc --strict refuses a dynamic stride", rc == 1 and "left_inverse: CuTe requires static strides" in err, err)
rc, out, err = run("explain", "cotiled-copy", "--atom", "cp.async.16B")
check("explain reports a missing option", rc == 1 and "missing" in err, err)

# bad integer options and atom names are errors naming the option, not crashes
rc, _, err = run("explain", "partition", "--atom", "copy.u32", "--elem", "half_t", "--thr", "(_8,_16):(_16,_1)",
                 "--val", "(_1,_2):(_0,_1)", "--tensor", "(_64,_64):(_1,_64)", "--thread", "abc")
check("a non-integer --thread is an error", rc == 1 and "explain --thread: argument 1 must be an integer" in err, err)
rc, _, err = run("draw", "swizzle", "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)", "--rows", "99999999999999999999", "-o", "/dev/null")
check("an overflowing --rows is a parse error", rc == 1 and "fits in 64 bits" in err, err)
rc, _, err = run("calc", "mma_atom(SM100_MMA_F8F6F4_SS<float_e5m2_t,float_e5m2_t,float,abc,64,K,K>)")
check("a non-numeric UMMA extent is an error", rc == 1 and "M and N are decimal numbers" in err, err)

# inputs verify and draw cannot enumerate or draw: errors with the values, exit 1, never an abort
# (a negative --codomain once made a vector of 2^64 entries, a 10^10-element drawing ran out of memory)
SW = "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)"
for args, expected in (
    (("verify", "surjective", "4:2", "--codomain", "-1"),
     "error: verify: --codomain N must be >= 0 (the offsets [0, N)), got -1\n"),
    (("verify", "tv", "4:1", "--tile", "4"),
     "error: verify: a TV layout has two modes, (threads, values); 4:1 has rank 1\n"),
    (("verify", "tv", "(4,2):(1,4)", "--tile", "(-4,2)"),
     "error: verify: a layout's shape must not be negative: an extent counts coordinates\n"
     "  shape = (-4,2)\n  fix: give every mode a size >= 0\n"),
    (("verify", "tv", "(4,2):(1,4)", "--tile", "(1073741824,1073741824)"),
     "error: verify: the tile is too large to enumerate (1152921504606846976 elements)\n"),
    (("draw", "layout", "(100000,100000):(1,100000)"),
     "error: draw: the shape (100000,100000) has 10000000000 elements, more than draw draws (2^18 = 262144); "
     "draw a slice or a smaller tile\n"),
    (("draw", "layout", "(0,3):(1,1)"), "error: draw: nothing to draw: the shape (0,3) has no elements\n"),
    (("draw", "tv", "(4,2):(1,4)", "--tile", "(2,3)"),
     "error: draw: T2V1 -> 6 lies outside the tile (2,3) of 6 elements (verify tv checks the TV layout)\n"),
    (("draw", "tv", "8:1", "--tile", "8"),
     "error: draw: a TV layout has two modes, (threads, values); 8:1 has rank 1\n"),
    (("draw", "swizzle", SW, "--elem-bytes", "0"),
     "error: draw: --elem-bytes N must be 1 to 16 (bytes an element), got 0\n"),
    (("draw", "swizzle", "Sw<3,4,3> o _0 o (_8,_64):(_64,_1152921504606846976)"),
     "error: draw: offset 1152921504606846976 of Sw<3,4,3> o _0 o (_8,_64):(_64,_1152921504606846976) has no "
     "shared-memory bank: offsets must be >= 0 and below 2^59\n")):
    rc, _, err = run(*args)
    check(f"{' '.join(args[:2])} refuses {args[2]} {' '.join(args[3:])}".strip(), rc == 1 and err == expected, err)
rc, out, _ = run("explain", "partition", "--atom", "copy.u32", "--elem", "half_t", "--thr", "(_5,_16):(_16,_1)",
                 "--val", "(_1,_2107374182):(_0,_1)", "--tensor", "(_64,_64):(_1,_64)")
check("explain partition leaves out an ownership table of 10^10 elements (it once ran for minutes)",
      rc == 0 and out.endswith("note: ownership table left out: its 5 threads' partitions hold 27395864366 elements "
                               "each, more than explain lists (2^20 in all)\n"), out[-300:])
rc, out, _ = run("verify", "surjective", "4:1099511627776")
check("verify surjective onto a codomain far larger than the layout", rc == 1 and "offset 1 is not reached" in out, out)
rc, out, _ = run("verify", "inverse", "left", "(4,4):(0,1)")
check("verify inverse left names the indices a non-injective L merges",
      rc == 1 and out.startswith("FAIL left_inverse: left_inverse(L) o L is not the identity: L is not injective, "
                                 "L(0,0) = L(1,0) = 0 (indices 0 and 1), so no R has R(L(i)) = i"), out)

# laws: refused by default, CuTe's result with --as-cute (the law as a warning), verify law, golden
BAD = "composition((_3,_4):(_8,_1), ((_4,_2),(_1)):((_2,_1),(_2)))"
rc, out, err = run("calc", BAD)
check("calc refuses a result that violates its law", rc == 1 and out == "" and
      err.startswith("error: composition: R(c) = A(B(c)) fails at c = 2 (R(2) = 1, A(B(2)) = A(4) = 9)\n"), err)
rc, out, err = run("calc", "--as-cute", BAD)
check("calc --as-cute prints CuTe's result and warns", rc == 0 and out == "(((_2,_2),_2),(_1)):(((_16,_1),_8),(_1))\n" and
      err.startswith("warning: composition: R(c) = A(B(c)) fails at c = 2"), out + err)
rc, out, err = run("calc", "--as-cute", "--json", BAD)
check("calc --as-cute --json carries the warnings", rc == 0 and "R(c) = A(B(c)) fails" in json.loads(out)["warnings"][0], out)
rc, out, _ = run("verify", "law", "composition", "(_3,_4):(_8,_1)", "((_4,_2),(_1)):((_2,_1),(_2))")
check("verify law fails with the witness", rc == 1 and out.startswith("FAIL composition: R(c) = A(B(c)): fails at c = 2"), out)
rc, out, _ = run("verify", "law", "logical_divide", "(_8,_8):(_1,_8)", "(_2,_4):(_1,_8)")
check("verify law checks a divide through its definition", rc == 0 and out.count("PASS") == 3, out)
rc, out, _ = run("explain", "left_inverse", "(_4,_8):(_8,_1)")
check("explain states the law as checked", rc == 0 and "holds on all 32 points" in out, out)
with open("/tmp/cotile_cli_test_golden.txt", "w") as f:
    f.write("complement\t((2,1),3):((_3,_3),_1)\t=>\t(1,0,2):(3,6,3)\ncoalesce\t(_2,_4):(_1,_2)\t=>\t_8:_1\n")
rc, out, _ = run("golden", "/tmp/cotile_cli_test_golden.txt")
check("golden lists a CuTe result that violates its law, and passes", rc == 0 and "LAW  /tmp/cotile_cli_test_golden.txt:1 complement" in out
      and out.strip().endswith("2 passed, 0 failed; checked: 1 passed, 1 refused (CuTe's result violates its law), "
                               "0 answered lawfully where CuTe's result violates its law, 0 failed"), out)
with open("/tmp/cotile_cli_test_golden2.txt", "w") as f:
    f.write("downcast\t(_4,_1):(_1,_1)\t_8\t=>\t(_32,_8):(_1,_1)\n")
rc, out, _ = run("golden", "/tmp/cotile_cli_test_golden2.txt")
check("golden lists a lawful answer where CuTe's result violates its law, and passes",
      rc == 0 and "  cotile:   (_32,_1):(_1,_8)" in out and out.strip().endswith(
          "1 passed, 0 failed; checked: 0 passed, 0 refused (CuTe's result violates its law), "
          "1 answered lawfully where CuTe's result violates its law, 0 failed"), out)

# help: every verb listed; each verb's help, its examples run; unknown options name the verb
import shlex  # noqa: E402
VERBS = ("calc", "explain", "verify", "draw", "golden")
rc, out, _ = run("--help")
check("cotile --help lists every verb", rc == 0 and all(f"\n  {v} " in out for v in VERBS), out)
for verb in VERBS:
    rc, out, _ = run(verb, "--help")
    check(f"cotile {verb} --help documents the verb", rc == 0 and out.startswith(f"usage: cotile {verb} ") and "options:" in out, out)
    rc2, out2, _ = run("help", verb)
    check(f"cotile help {verb} says the same", rc2 == 0 and out2 == out, out2)
    for line in out.split("examples:\n")[-1].splitlines() if "examples:" in out else []:
        argv = shlex.split(line.strip())[1:]
        if verb == "golden" or not argv:
            continue
        argv = [a if not a.endswith((".svg", ".html")) else "/tmp/cotile_cli_test_" + a for a in argv]
        erc, _, eerr = run(*argv)
        check(f"the example `{line.strip()}` runs", erc in (0, 1) and "error:" not in eerr, eerr)
for verb, expected in (("calc", "error: cotile calc: unknown option --frobnicate (cotile calc --help lists its options)\n"),
                       ("explain", "error: cotile explain: unknown option --frobnicate (cotile explain --help lists its options)\n"),
                       ("draw", "error: cotile draw: unknown option --frobnicate (cotile draw --help lists its options)\n")):
    rc, _, err = run(verb, "--frobnicate", "1")
    check(f"an unknown {verb} option names the verb", rc in (1, 2) and err == expected, err)

# the main job (README): cotile explain with no arguments runs the preset
rc, out, _ = run("explain")
check("explain runs the fmha-gen-q preset", rc == 0 and "((_2,(_4,_8)),_16):((_1,(_256,_2)),_16)" in out)

print(f"{checks - failures} passed, {failures} failed")
sys.exit(1 if failures else 0)
