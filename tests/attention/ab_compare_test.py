"""bench/decode/ab_compare.py compares A/B runs of bench/decode/ab.sh: the model sweep's runs
(NAME_runK/sweep.csv) by case and by group, and the back-to-back table's (NAME_runK.csv), checked
word for word on synthetic runs. No GPU, no PyTorch.

    python3 tests/attention/ab_compare_test.py
"""
import contextlib
import csv
import io
import os
import sys
import tempfile
import unittest

BENCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench", "decode")
sys.path.insert(0, BENCH)
import ab_compare as A  # noqa: E402

SWEEP_FIELDS = ["label", "Hq", "Hkv", "D", "B", "N", "kv", "layout", "kernel", "status", "a_us", "b_us", "c_us",
                "splits", "cluster", "kv_heads_per_cta"]


def sweep_row(label, shape, kv, layout, plan, times, kernel="cotile", status="ok"):
    (Hq, Hkv, D, B, N), (splits, cluster, per_cta), (a, b, c) = shape, plan, times
    return dict(label=label, Hq=Hq, Hkv=Hkv, D=D, B=B, N=N, kv=kv, layout=layout, kernel=kernel, status=status,
                a_us=a, b_us=b, c_us=c, splits=splits, cluster=cluster, kv_heads_per_cta=per_cta)


def write_sweep(directory, name, run, rows):
    os.makedirs(os.path.join(directory, f"{name}_run{run}"))
    with open(os.path.join(directory, f"{name}_run{run}", "sweep.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, SWEEP_FIELDS)
        w.writeheader()
        w.writerows(rows)


LONG = ("StarCoder2-3B", (24, 2, 128, 1, 65536), "bf16", "HND", (128, 1, 1))
CLUSTERED = ("Llama-3-8B", (32, 8, 128, 1, 1024), "bf16", "HND", (8, 8, 1))
PAIRED = ("Qwen1.5-0.5B", (16, 16, 64, 1, 65536), "fp8-e4m3", "paged64", (32, 1, 2))


def runs_of(scale_a, scale_b, scale_c):
    """Rows of a run: the three cases, times scaled per mode, a read row and a failed case beside."""
    base = {LONG: (28.0, 22.0, 23.0), CLUSTERED: (12.0, 6.0, 6.4), PAIRED: (42.0, 38.0, 39.0)}
    rows = [sweep_row(*case, (a * scale_a, b * scale_b, c * scale_c)) for case, (a, b, c) in base.items()]
    rows.append(sweep_row(*LONG, (19.6, 15.3, 16.0), kernel="read"))
    rows.append(sweep_row("Gemma-2-9B", (16, 8, 256, 8, 1024), "bf16", "HND", (2, 2, 1), (1, 1, 1), status="error"))
    return rows


class SweepCompare(unittest.TestCase):
    def compare(self, new_scales):
        with tempfile.TemporaryDirectory() as d:
            write_sweep(d, "old", 1, runs_of(1.0, 1.0, 1.0))
            write_sweep(d, "old", 4, runs_of(1.0, 1.0, 1.0))
            for run, scales in zip((2, 3), new_scales):
                write_sweep(d, "new", run, runs_of(*scales))
            runs = A.sweep_runs(d)
            self.assertEqual(sorted(runs), ["new", "old"])
            lines = []
            A.compare_sweeps(runs, "old", out=lines.append)
            return lines

    def test_cases_and_groups_word_for_word(self):
        # the new runs' times x0.8 and x1.2 of the old (mean x1.0 in (c)), x0.5 (a), x1.0 (b)
        lines = self.compare([(0.5, 1.0, 0.8), (0.5, 1.0, 1.2)])
        self.assertEqual(lines[0], "== old / new (> 1: new faster; (a) isolated, (b) in sequence, (c) back to back; "
                                   "mean of 2 / 2 runs)")
        self.assertEqual(lines[1], "  StarCoder2-3B (24,2,128) B=1 N=65536         bf16     HND        128  2.000  1.000  1.000")
        self.assertEqual(lines[2], "  Llama-3-8B (32,8,128) B=1 N=1024             bf16     HND         8c  2.000  1.000  1.000")
        self.assertEqual(lines[3], "  Qwen1.5-0.5B (16,16,64) B=1 N=65536          fp8-e4m3 paged64    32p  2.000  1.000  1.000")
        self.assertEqual(lines[4], "  group (kv, layout, baseline merge)              n  geomean a b c        min a b c")
        self.assertEqual(lines[5:8], [
            "  bf16 HND cluster                                1   2.000  1.000  1.000   2.000  1.000  1.000",
            "  bf16 HND split, no cluster                      1   2.000  1.000  1.000   2.000  1.000  1.000",
            "  fp8-e4m3 paged64 pairs                          1   2.000  1.000  1.000   2.000  1.000  1.000"])
        self.assertEqual(lines[8], "  all                                             3   2.000  1.000  1.000")
        self.assertEqual(len(lines), 9)  # the read row and the failed case are not compared

    def test_a_slower_variant_reads_below_one(self):
        lines = self.compare([(1.25, 1.25, 1.25), (1.25, 1.25, 1.25)])
        self.assertIn("  all                                             3   0.800  0.800  0.800", lines)

    def test_merge_kinds(self):
        self.assertEqual(A.merge_kind(sweep_row(*LONG, (1, 1, 1))), "split, no cluster")
        self.assertEqual(A.merge_kind(sweep_row(*CLUSTERED, (1, 1, 1))), "cluster")
        self.assertEqual(A.merge_kind(sweep_row(*PAIRED, (1, 1, 1))), "pairs")
        self.assertEqual(A.merge_kind(sweep_row("x", (8, 1, 128, 128, 1024), "bf16", "HND", (1, 1, 1), (1, 1, 1))),
                         "one split")


class TableCompare(unittest.TestCase):
    def test_best_of_runs_and_geomean(self):
        fields = ["B", "Hq", "Hkv", "N", "D", "kv", "cotile_us", "cotile_pct_probe"]
        with tempfile.TemporaryDirectory() as d:
            for name, run, us in (("old", 1, 10.0), ("new", 2, 8.0), ("new", 3, 9.0), ("old", 4, 11.0)):
                with open(os.path.join(d, f"{name}_run{run}.csv"), "w", newline="") as f:
                    w = csv.DictWriter(f, fields)
                    w.writeheader()
                    w.writerow(dict(B=1, Hq=32, Hkv=8, N=1024, D=128, kv="bf16", cotile_us=us, cotile_pct_probe=50.0))
            self.assertEqual(A.sweep_runs(d), {})
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                A.compare_table(A.table_runs(d), "old")
            lines = buf.getvalue().splitlines()
        self.assertEqual(lines[-1], "geomean old x1.0000  new x1.2500")  # best of runs: 10 / 8


if __name__ == "__main__":
    unittest.main()
