"""bench/decode/results holds one reference run per benchmark, each listed in its README (file, command,
commit, probe), each a correct run that its judge reads: every CSV in the folder is listed and every
listed file is there; every cotile row of a stored run ran (status ok) within the sweep's error bound
(sweep.py MAX_REL_ERR); the probe the README states is the run's; and each judge (sweep_targets.py,
qlen_targets.py, targets.py) reads its run to the end, verdict lines and all. No GPU, no PyTorch.

    python3 tests/attention/results_test.py
"""
import csv
import os
import re
import subprocess
import sys
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
BENCH = os.path.join(ROOT, "bench", "decode")
RESULTS = os.path.join(BENCH, "results")
MAX_REL_ERR = 2e-2  # sweep.py's bound on cotile's error against fp32 (decode_test's: 4e-3 / 2e-2)


def listed():
    """{file: (commit, probe in TB/s)} from the README's table rows."""
    out = {}
    with open(os.path.join(RESULTS, "README.md")) as f:
        for line in f:
            m = re.match(r"\| `([^`]+\.csv)` \|.*\| ([0-9a-f]{7,40}) \| ([0-9.]+) TB/s \|\s*$", line)
            if m:
                out[m.group(1)] = (m.group(2), float(m.group(3)))
    return out


def rows(name):
    with open(os.path.join(RESULTS, name), newline="") as f:
        return list(csv.DictReader(f))


def judge(script, *names):
    return subprocess.run([sys.executable, os.path.join(BENCH, script), *(os.path.join(RESULTS, n) for n in names)],
                          capture_output=True, text=True)


class StoredResults(unittest.TestCase):
    def test_every_csv_is_listed_and_every_listed_file_is_there(self):
        files = {f for f in os.listdir(RESULTS) if f.endswith(".csv")}
        self.assertTrue(files)
        self.assertEqual(files, set(listed()))

    def test_sweep_runs_are_correct_runs_at_the_stated_probe(self):
        for name, (_, probe) in listed().items():
            rs = rows(name)
            if "kernel" not in rs[0]:  # the back-to-back table (bench.py): one row a shape
                errs = [float(r["rel_err"]) for r in rs if r.get("rel_err")]
                self.assertTrue(errs and max(errs) <= MAX_REL_ERR, name)
                continue
            cot = [r for r in rs if r["kernel"] == "cotile"]
            self.assertTrue(cot, name)
            bad = [f"{r['label']} B={r['B']} N={r['N']} {r['kv']} {r['layout']}: {r['status']}" for r in cot
                   if r["status"] != "ok" or not float(r["rel_err"]) <= MAX_REL_ERR]
            self.assertEqual(bad, [], name)
            self.assertEqual({round(float(r["probe_TBps"]), 3) for r in rs}, {probe}, name)

    def test_each_judge_reads_its_run(self):
        runs = listed()
        self.assertIn("sweep_h200.csv", runs)
        out = judge("sweep_targets.py", "sweep_h200.csv")
        self.assertIn(out.returncode, (0, 1), out.stderr)
        self.assertIn("targets (issue 24; (a) isolated, (b) in sequence):", out.stdout)
        self.assertRegex(out.stdout, r"the plan within 5% of the oracle \(best forced split count\): \d+ of 254 cases")
        if "qlen4_h200.csv" in runs:
            out = judge("qlen_targets.py", "sweep_h200.csv", "qlen4_h200.csv")
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertRegex(out.stdout, r"\(b\) \d+ of 186 within, geomean \d\.\d{3}x")
        if "decode_h200.csv" in runs:
            out = judge("targets.py", "decode_h200.csv")
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertTrue(out.stdout.strip())


if __name__ == "__main__":
    unittest.main()
