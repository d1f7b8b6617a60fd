"""Compare the CSVs of bench/decode/ab.sh: per case, each variant's best time over its runs, its
% of the probe, and the ratio baseline / variant (> 1: the variant is faster); the geomean ratio.

    python3 bench/decode/ab_compare.py DIR BASELINE_NAME
"""
import collections
import csv
import glob
import math
import os
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    directory, base = sys.argv[1], sys.argv[2]
    runs = collections.defaultdict(list)  # name -> [{case: (us, % probe)}]
    for path in sorted(glob.glob(os.path.join(directory, "*_run*.csv"))):
        name = os.path.basename(path).rsplit("_run", 1)[0]
        with open(path, newline="") as f:
            runs[name].append({(r["B"], r["Hq"], r["Hkv"], r["N"], r["D"], r["kv"]):
                               (float(r["cotile_us"]), float(r["cotile_pct_probe"])) for r in csv.DictReader(f)})
    if base not in runs:
        sys.exit(f"no runs of the baseline {base!r} in {directory} (found: {', '.join(runs) or 'none'})")
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
    print("geomean " + "  ".join(f"{n} x{math.exp(sum(map(math.log, r)) / len(r)):.4f}" for n, r in ratios.items()))


if __name__ == "__main__":
    main()
