"""Compare the runs of bench/decode/ab.sh, the baseline variant against each other one.

    python3 bench/decode/ab_compare.py DIR BASELINE_NAME

The back-to-back table (runs DIR/NAME_runK.csv of bench.py): per case, each variant's best time
over its runs, its % of the probe, and the ratio baseline / variant (> 1: the variant is faster);
the geomean ratio.

The model sweep (AB_BENCH=sweep: runs DIR/NAME_runK/sweep.csv of sweep.py --no-torch --no-oracle):
per case, cotile's (a) isolated, (b) in sequence and (c) back-to-back times averaged over the
variant's runs, the ratios baseline / variant, and their geomeans by group (cache type, layout,
and how the baseline's plan merges: one split, a cluster, split without a cluster, pairs of KV
heads), with each group's smallest ratios (the worst case a variant lost).
"""
import collections
import csv
import glob
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sweep_targets as T  # noqa: E402

MODES = "abc"


def table_runs(directory):
    runs = collections.defaultdict(list)  # name -> [{case: (us, % probe)}]
    for path in sorted(glob.glob(os.path.join(directory, "*_run*.csv"))):
        name = os.path.basename(path).rsplit("_run", 1)[0]
        with open(path, newline="") as f:
            runs[name].append({(r["B"], r["Hq"], r["Hkv"], r["N"], r["D"], r["kv"]):
                               (float(r["cotile_us"]), float(r["cotile_pct_probe"])) for r in csv.DictReader(f)})
    return runs


def compare_table(runs, base):
    names = [base] + [n for n in runs if n != base]
    print(f"{'case':34}" + "".join(f"{n:>24}" for n in names))
    ratios = collections.defaultdict(list)
    for case in runs[base][0]:
        best_base = min(r[case][0] for r in runs[base])
        line = f"{','.join(case[:5]) + ' ' + case[5]:34}"
        for n in names:
            us = min(r[case][0] for r in runs[n] if case in r)
            pct = max(r[case][1] for r in runs[n] if case in r)
            ratios[n].append(best_base / us)
            line += f"{us:10.2f} {pct:5.1f}% x{best_base / us:.3f}"
        print(line)
    print("geomean " + "  ".join(f"{n} x{geomean(r):.4f}" for n, r in ratios.items()))


def sweep_runs(directory):
    """name -> [rows of cotile (status ok) by case] from DIR/NAME_runK/sweep.csv."""
    runs = collections.defaultdict(list)
    for path in sorted(glob.glob(os.path.join(directory, "*_run*", "sweep.csv"))):
        name = os.path.basename(os.path.dirname(path)).rsplit("_run", 1)[0]
        with open(path, newline="") as f:
            runs[name].append({T.case_key(r): r for r in csv.DictReader(f) if r["kernel"] == "cotile" and T.ok(r)})
    return runs


def merge_kind(r):
    if T.row_plan_key(r).endswith("p"):
        return "pairs"
    if int(r["splits"]) == 1:
        return "one split"
    return "cluster" if int(r["cluster"]) > 1 else "split, no cluster"


def mean_times(rows):
    """(a, b, c) us averaged over the runs that have the case."""
    return tuple(sum(float(r[f"{m}_us"]) for r in rows) / len(rows) for m in MODES)


def geomean(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs))


def compare_sweeps(runs, base, out=print):
    for name in [n for n in runs if n != base]:
        out(f"== {base} / {name} (> 1: {name} faster; (a) isolated, (b) in sequence, (c) back to back; "
            f"mean of {len(runs[base])} / {len(runs[name])} runs)")
        groups = collections.defaultdict(list)
        for case, r0 in runs[base][0].items():
            mine = [r[case] for r in runs[name] if case in r]
            theirs = [r[case] for r in runs[base] if case in r]
            if not mine:
                continue
            ratio = [x / y for x, y in zip(mean_times(theirs), mean_times(mine))]
            name_of = f"{r0['label']} ({r0['Hq']},{r0['Hkv']},{r0['D']}) B={r0['B']} N={r0['N']}"
            out(f"  {name_of:44} {r0['kv']:8} {r0['layout']:8} {T.row_plan_key(r0):>5} " +
                " ".join(f"{x:6.3f}" for x in ratio))
            groups[(r0["kv"], r0["layout"], merge_kind(r0))].append(ratio)
        out(f"  {'group (kv, layout, baseline merge)':44} {'n':>4}  geomean a b c        min a b c")
        every = []
        for g, rs in sorted(groups.items()):
            every += rs
            out(f"  {' '.join(g):44} {len(rs):4}  " + " ".join(f"{geomean([x[i] for x in rs]):6.3f}" for i in range(3)) +
                "  " + " ".join(f"{min(x[i] for x in rs):6.3f}" for i in range(3)))
        if every:
            out(f"  {'all':44} {len(every):4}  " + " ".join(f"{geomean([x[i] for x in every]):6.3f}" for i in range(3)))


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    directory, base = argv[1], argv[2]
    runs = sweep_runs(directory)
    if not runs:
        runs = table_runs(directory)
        if base not in runs:
            sys.exit(f"no runs of the baseline {base!r} in {directory} (found: {', '.join(runs) or 'none'})")
        return compare_table(runs, base)
    if base not in runs:
        sys.exit(f"no sweep runs of the baseline {base!r} in {directory} (found: {', '.join(runs)})")
    compare_sweeps(runs, base)


if __name__ == "__main__":
    main(sys.argv)
