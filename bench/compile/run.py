"""bench/compile/run.py: what CuTe code costs to compile against cotile and against CuTe.

The FMHA decode kernel's Q-load chain (spec_chain_cotile.cpp, spec_chain_cute.cpp: the same chain in each
library's own spelling; both are run and must print the same lines) and each of CUTLASS's core
unit tests (test/unit/cute/core/*.cpp) are compiled twice, the tests unchanged: through
cotile's rename-only shim (tests/cute_compat) and against CuTe itself (CUTLASS's include/, with a
cutlass_unit_test.h that is GoogleTest and the trace macro only, as the shim's). Each compiler given
(g++, nvcc with -x cu) compiles each file to an object, one at a time, best of --reps runs; time
(wall) and peak memory (max RSS) come from /usr/bin/time. Output: one row per file and compiler
with both figures and the ratios CuTe / cotile (> 1: cotile is cheaper), then the geomean and the
worst file per compiler. Files cotile does not compile (or refuses: a law) show the reason.

    python3 bench/compile/run.py CUTLASS_DIR [--compilers g++,nvcc] [--files a,b] [--reps 1] [--csv FILE]
"""
import argparse
import csv
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
NVCC_FLAGS = ["-x", "cu", "-arch=sm_90a", "--expt-relaxed-constexpr", "-w"]


def compile_once(cmd):
    """(seconds, peak MiB, error text or None) of one compile."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tf:
        r = subprocess.run(["/usr/bin/time", "-f", "%e %M", "-o", tf.name] + cmd, capture_output=True, text=True)
        parts = open(tf.name).read().split()
    secs, kib = float(parts[-2]), float(parts[-1])
    err = None
    if r.returncode != 0:
        law = [l for l in r.stderr.splitlines() if "Message<" in l]
        first = [l for l in r.stderr.splitlines() if "error" in l]
        err = ("refused by a law" if law else (first[0] if first else "failed"))[:120]
    return secs, kib / 1024.0, err


def command(compiler, side, src, cutlass, obj):
    inc = (["-I" + os.path.join(ROOT, "tests", "cute_compat", "include"), "-I" + os.path.join(ROOT, "include")]
           if side == "cotile" else ["-I" + os.path.join(HERE, "cute_side"), "-I" + os.path.join(cutlass, "include")])
    if compiler.startswith("nvcc"):
        return [compiler, "-std=c++20", "-O1", "-DNDEBUG"] + NVCC_FLAGS + inc + ["-c", src, "-o", obj]
    cuda = ["-I/usr/local/cuda/include", "-I/usr/local/cuda/include/cccl"] if side == "cute" else []
    return [compiler, "-std=c++20", "-O1", "-DNDEBUG", "-w"] + inc + cuda + ["-c", src, "-o", obj]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cutlass", help="a CUTLASS checkout (its include/ and test/unit/cute/core)")
    ap.add_argument("--compilers", default="g++", help="comma-separated: g++, nvcc")
    ap.add_argument("--files", help="comma-separated core test names (default: all)")
    ap.add_argument("--reps", type=int, default=1, help="runs per compile (the best is kept)")
    ap.add_argument("--csv", help="write the rows here")
    a = ap.parse_args()
    core = os.path.join(a.cutlass, "test", "unit", "cute", "core")
    names = sorted(f[:-4] for f in os.listdir(core) if f.endswith(".cpp") and f != "core_unit.cpp")
    if a.files:
        names = [n for n in names if n in a.files.split(",")]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        obj = os.path.join(tmp, "x.o")
        for compiler in a.compilers.split(","):
            for name in ["spec_chain"] + names:
                res = {}
                for side in ("cotile", "cute"):
                    src = (os.path.join(HERE, f"spec_chain_{side}.cpp") if name == "spec_chain" else
                           os.path.join(core, name + ".cpp"))
                    runs = [compile_once(command(compiler, side, src, a.cutlass, obj)) for _ in range(a.reps)]
                    res[side] = (min(r[0] for r in runs), min(r[1] for r in runs), runs[0][2])
                    if name == "spec_chain" and runs[0][2] is None:  # link and run: the two must agree
                        exe = os.path.join(tmp, side)
                        subprocess.run([compiler, obj, "-o", exe], check=True)
                        res[side + "_out"] = subprocess.run([exe], capture_output=True, text=True, check=True).stdout
                if name == "spec_chain" and res.get("cotile_out") != res.get("cute_out"):
                    print("FAIL the Q-load chain prints differently against cotile and CuTe")
                    return 1
                (ts, ms, es), (tc, mc, ec) = res["cotile"], res["cute"]
                ok = es is None and ec is None
                row = {"compiler": compiler, "file": name, "cotile_s": ts, "cotile_MiB": ms, "cute_s": tc,
                       "cute_MiB": mc, "time_ratio": tc / ts if ok else "", "mem_ratio": mc / ms if ok else "",
                       "note": es or ec or ""}
                rows.append(row)
                print(f"{compiler:5} {name:18} cotile {ts:6.2f} s {ms:6.0f} MiB   CuTe {tc:6.2f} s {mc:6.0f} MiB   " +
                      (f"x{tc / ts:4.2f} time  x{mc / ms:4.2f} memory" if ok else
                       ("cotile: " + es if es else "CuTe: " + ec)), flush=True)
    for compiler in a.compilers.split(","):
        chain = [r for r in rows if r["compiler"] == compiler and r["file"] == "spec_chain" and r["time_ratio"] != ""]
        for r in chain:
            print(f"{compiler}: the Q-load chain x{r['time_ratio']:.2f} time (target >= 5), x{r['mem_ratio']:.2f} "
                  f"memory (target >= 3), CuTe / cotile")
        ok = [r for r in rows if r["compiler"] == compiler and r["file"] != "spec_chain" and r["time_ratio"] != ""]
        if not ok:
            continue
        geo = lambda k: math.exp(sum(math.log(r[k]) for r in ok) / len(ok))  # noqa: E731
        worst = min(ok, key=lambda r: r["time_ratio"])
        worst_m = min(ok, key=lambda r: r["mem_ratio"])
        print(f"{compiler}: core tests, {len(ok)} files both compile; geomean x{geo('time_ratio'):.2f} time, "
              f"x{geo('mem_ratio'):.2f} memory (CuTe / cotile); worst time x{worst['time_ratio']:.2f} "
              f"({worst['file']}), worst memory x{worst_m['mem_ratio']:.2f} ({worst_m['file']}); "
              f"slower than CuTe: {sum(r['time_ratio'] < 1 for r in ok)} files")
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
            w.writeheader()
            w.writerows(rows)


if __name__ == "__main__":
    sys.exit(main())
