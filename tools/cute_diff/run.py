#!/usr/bin/env python3
"""Generated cases through CuTe, then through cotile: the golden corpus's check on inputs nobody
listed.

    run.py --cutlass DIR [--families algebra,small,swizzle,copy,mma,fmha_gen_q] [--cases N] [--seed S]
           [--cotile BIN] [--out DIR]
    run.py --typed [--families algebra,small,swizzle] ...


For each family, N random cases (cases.py, atoms.py) are written as C++ against CuTe's API and
compiled (g++, CUTLASS's include/ and CUDA's headers); a case CuTe does not compile (a
static_assert on its preconditions) is dropped and counted. The program prints each case as a
corpus line (op, arguments, CuTe's printed result), and `cotile golden` checks the lines: CuTe's
mode must print the same text, the checked mode the same or a refusal naming the law CuTe's result
breaks. A case cotile refuses for a violated precondition where CuTe, unchecked, printed a result
(a run-time value: CuTe's checks of those are compiled out) is listed with cotile's message, for a
reader to confirm; so is a case that crashes CuTe's program (a run-time division by zero), with
what `cotile calc` says of it. Neither is a failure. Exit status 1 when any case failed.

With --typed (no CUTLASS needed: ctest cute_diff_typed), the same programs compile against
cotile's typed layer through the rename-only shim of tests/cute_compat, and `cotile golden`
checks the typed layer's prints against the engine: the two must agree on every value and on its
static or dynamic kind. A case the typed layer refuses at run time (a cotile::Error) must be one
the engine refuses too, and a value it prints where the engine refuses, or a crash, is a failure; one it refuses at compile time (a static law or precondition) is dropped
and counted, as CuTe's are."""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import atoms  # noqa: E402  (registers the atom families)
import cases  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CUDA_INCLUDES = ["-I/usr/local/cuda/include", "-I/usr/local/cuda/include/cccl"]


TYPED_FAMILIES = ("algebra", "small", "swizzle")
TYPED_INCLUDES = ["-I" + os.path.join(ROOT, "tests", "cute_compat", "include"), "-I" + os.path.join(ROOT, "include")]


def guarded(body):
    """The typed layer's run-time refusal printed as the result `!refused`."""
    return f'try {{ {body} }} catch (const std::exception&) {{ printf("!refused"); }}'


def write_program(bodies, header, path):
    """One function a case, one line each (so that a compile error's line names its case); main
    runs the cases from argv[1] on, naming each on stderr before it runs."""
    with open(path, "w") as f:
        f.write(header)
        first = header.count("\n") + 1
        for i, body in enumerate(bodies):
            f.write(f'void case{i}() {{ {body} printf("\\n"); fflush(stdout); }}\n')
        f.write("int main(int argc, char** argv) {\n  void (*cases[])() = {")
        f.write(", ".join(f"case{i}" for i in range(len(bodies))))
        f.write("};\n  for (int i = argc > 1 ? atoi(argv[1]) : 0; i < int(sizeof cases / sizeof *cases); ++i) {\n"
                '    fprintf(stderr, "@%d\\n", i);\n    cases[i]();\n  }\n}\n')
    return first


def compile_cases(bodies, header, path, includes, cxx):
    """Compile, dropping each case whose line a compile error names; returns the cases kept."""
    while bodies:
        first = write_program(bodies, header, path)
        p = subprocess.run([cxx, "-std=c++20", "-O0", "-w", "-DNDEBUG", *includes, path, "-o", path[:-4]],
                           capture_output=True, text=True)
        if p.returncode == 0:
            return bodies
        named = {int(n) - first for n in re.findall(re.escape(os.path.basename(path)) + r":(\d+):", p.stderr)}
        bad = {i for i in named if 0 <= i < len(bodies)}
        if not bad:
            raise SystemExit(f"{path}: a compile error outside the cases:\n{p.stderr[:3000]}")
        bodies = [b for i, b in enumerate(bodies) if i not in bad]
    return bodies


def run_program(exe, count):
    """The corpus lines the program prints, and the indices of the cases that crashed (skipped)."""
    lines, start, crashed = [], 0, []
    while start < count:
        p = subprocess.run([exe, str(start)], capture_output=True, text=True, timeout=300)
        lines += [line for line in p.stdout.splitlines() if "\t=>\t" in line and not line.endswith("\t=>\t")]
        if p.returncode == 0:
            break
        ran = [int(x) for x in re.findall(r"@(\d+)", p.stderr)]
        start = (ran[-1] if ran else start) + 1
        crashed.append(start - 1)
    return lines, crashed


def crashed_heads(bodies, crashed):
    """The corpus-line heads (op and arguments, tab-separated) of the cases that crashed: each body
    prints its head before it computes."""
    heads = []
    for i in crashed:
        m = re.search(r'printf\("([^"]*)\\t=>"\)', bodies[i]) if 0 <= i < len(bodies) else None
        heads.append(m.group(1).replace("\\t", "\t") if m else f"case {i}")
    return heads


def cotile_on(cotile, head, *flags):
    """What `cotile calc` says of a case's head: its value, or its error's first line."""
    op, *args = head.split("\t")
    p = subprocess.run([cotile, "calc", *flags, f"{op}({', '.join(args)})"], capture_output=True, text=True)
    return p.returncode == 0, (p.stdout.strip() if p.returncode == 0 else p.stderr.strip().split("\n")[0])


def judge(path, cotile, typed=False):
    """`cotile golden --json` on the lines: (failed cases, law refusals, precondition refusals).
    A typed-layer refusal (`!refused`) agrees when the engine's checked mode refuses too; a value
    the typed layer printed where the engine refuses a precondition is a failure (the typed layer
    skipped the check). The typed layer is judged against the engine's checked mode alone: where
    CuTe's result breaks its law, that mode answers another, lawful one (e.g. downcast of two
    leaves of stride _1), which CuTe's mode does not print. The typed layer fixes a result's modes
    at compile time, so it keeps CuTe's modes (the engine's strict mode): where the checked mode
    answers with modes that run-time values decide (composition's A joined by value), a typed
    refusal agrees when `cotile calc --strict` refuses too."""
    p = subprocess.run([cotile, "golden", "--json", path], capture_output=True, text=True)
    report = json.loads(p.stdout)
    with open(path) as f:
        lines = f.read().split("\n")
    failed, preconditions, typed_refusals = {}, {}, 0
    for f in report["failures"]:  # each case's CuTe-mode and checked-mode failures
        key = (f["line"], f["op"], f["args"], f["expected"])
        mode, got = re.match(r"^\((as CuTe|checked)\) (.*)", f["got"], re.S).groups()
        refused = got.startswith("error: ")
        if typed and mode == "as CuTe":
            continue
        if f["expected"] == "!refused":  # judged by the engine's checked mode alone
            if mode == "checked" and refused:
                typed_refusals += 1
            elif mode == "checked" and not cotile_on(cotile, lines[f["line"] - 1].split("\t=>")[0], "--strict")[0]:
                typed_refusals += 1
            elif mode == "checked":
                failed[key] = f["got"] + " (the typed layer refused)"
        elif refused and key not in failed and not typed:
            preconditions[key] = got[len("error: "):].split("\n")[0]
        else:
            failed[key] = f["got"]
            preconditions.pop(key, None)
    return failed, report["refused"], preconditions, typed_refusals


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    source = ap.add_mutually_exclusive_group(required=True)
    source.add_argument("--cutlass", help="a CUTLASS checkout (its include/)")
    source.add_argument("--typed", action="store_true", help="compile against cotile's typed layer instead")
    ap.add_argument("--families", help="default: algebra,small,swizzle,copy,mma,fmha_gen_q (--typed: algebra,small,swizzle)")
    ap.add_argument("--cases", type=int, default=100, help="cases generated a family")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cxx", default="g++")
    ap.add_argument("--cotile", default=os.path.join(ROOT, "build", "bin", "cotile"))
    ap.add_argument("--out", help="keep the programs and the corpus lines here")
    ap.add_argument("--min-printed", type=float, default=0.5,
                    help="fail a family of which fewer cases than this share compile, run and print")
    a = ap.parse_args()
    out = a.out or tempfile.mkdtemp(prefix="cute_diff.")
    os.makedirs(out, exist_ok=True)
    families = a.families or (",".join(TYPED_FAMILIES) if a.typed else "algebra,small,swizzle,copy,mma,fmha_gen_q")
    includes = TYPED_INCLUDES if a.typed else [f"-I{a.cutlass}/include", *CUDA_INCLUDES]
    against = "the typed layer" if a.typed else "CuTe"
    total_failed = 0
    for family in families.split(","):
        if a.typed and family not in TYPED_FAMILIES:
            raise SystemExit(f"--typed: the family {family} is spelled with CuTe's atom headers, which the shim lacks")
        header = {"algebra": cases.HEADER, "small": cases.HEADER, "swizzle": atoms.SWIZZLE_HEADER}.get(family, atoms.HEADER)
        bodies = cases.generate(family, a.cases, a.seed)
        if a.typed:
            bodies = [guarded(b) for b in bodies]
            header = "#include <exception>\n" + header
        src = os.path.join(out, f"{family}_{a.seed}.cpp")
        kept = compile_cases(bodies, header, src, includes, a.cxx)
        lines, crashed = run_program(src[:-4], len(kept)) if kept else ([], [])
        corpus = os.path.join(out, f"{family}_{a.seed}.txt")
        with open(corpus, "w") as f:
            f.write("".join(line + "\n" for line in lines))
        failed, refused, preconditions, typed_refusals = judge(corpus, a.cotile, a.typed)
        passed = len(lines) - len(failed) - len(refused) - len(preconditions) - typed_refusals
        ops = Counter(line.split("\t")[0] for line in lines)
        print(f"{family}: {len(bodies)} generated, {len(bodies) - len(kept)} refused by {against}'s compile-time checks, "
              f"{len(crashed)} crashed, {len(lines)} printed ({len(ops)} ops): {passed} passed, "
              + (f"{typed_refusals} refused at run time by both the typed layer and the engine, " if a.typed else
                 f"{len(refused)} refused by cotile for a law CuTe's result breaks, {len(preconditions)} refused by "
                 "cotile for a run-time precondition CuTe does not check, ")
              + f"{len(failed)} failed")
        for (line, op, args, expected), why in sorted(preconditions.items()):
            print(f"  precondition {corpus}:{line} {op} {args}\n    CuTe: {expected}\n    cotile: {why}")
        for (line, op, args, expected), got in sorted(failed.items()):
            print(f"  FAIL {corpus}:{line} {op} {args}\n    CuTe:   {expected}\n    cotile: {got}")
        total_failed += len(failed)
        # A case that crashes CuTe (a division by zero its unchecked run-time values reach) has no
        # reference: listed with what cotile says, for a reader (cotile is expected to refuse it).
        # Through the typed layer a crash is a failure: a run-time refusal is an error, not a trap.
        for head in crashed_heads(kept, crashed):
            ok, said = cotile_on(a.cotile, head)
            tag = "FAIL typed layer crashed" if a.typed else "crashed in CuTe"
            print(f"  {tag}: {head.replace(chr(9), ' ')}\n    cotile: {'value ' if ok else ''}{said}")
            total_failed += 1 if a.typed else 0
        if len(lines) < a.min_printed * len(bodies):
            print(f"  FAIL {family}: only {len(lines)} of {len(bodies)} cases printed (--min-printed {a.min_printed})")
            total_failed += 1
    return 1 if total_failed else 0


if __name__ == "__main__":
    sys.exit(main())
