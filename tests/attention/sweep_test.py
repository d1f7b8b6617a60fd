"""bench/decode/sweep.py's parts that need no GPU and no PyTorch: the C++ host-time measurement it runs
(host_cost.cu's binary, named by COTILE_HOST_COST_BIN: its medians read from its lines, a binary
that skips or fails measuring nothing) and its arguments (several query tokens keep the PyTorch
kernels, which take the tokens' causal offset).

    python3 tests/attention/sweep_test.py
"""
import os
import stat
import sys
import tempfile
import unittest
from unittest import mock

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench", "decode"))
import sweep  # noqa: E402

LINES = ("(28,4,128) B=1 N=1024 bf16         splits  16   host us: median 2.81  p90 3.02  min 2.70",
         "(16,2,128) B=8 N=8192 bf16 paged16  splits   8c  host us: median 3.20  p90 3.40  min 3.00")


class CppHostCost(unittest.TestCase):
    def run_binary(self, body):
        """cpp_host_cost on a script standing in for the binary; returns (result, logged lines)."""
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "decode_host_cost")
            with open(path, "w") as f:
                f.write("#!/bin/sh\n" + body)
            os.chmod(path, stat.S_IRWXU)
            logged = []
            with mock.patch.dict(os.environ, {"COTILE_HOST_COST_BIN": path}):
                return sweep.cpp_host_cost(logged.append), logged

    def test_medians_by_configuration(self):
        got, logged = self.run_binary("".join(f"echo '{line}'\n" for line in LINES))
        self.assertEqual(got, {"(28,4,128) B=1 N=1024 bf16": 2.81, "(16,2,128) B=8 N=8192 bf16 paged16": 3.2})
        self.assertEqual(logged, [f"host time of one decode_run: {line}" for line in LINES])
        self.assertEqual(sweep.sweep_targets.judge_host(got, 3.0),
                         ("NOT met", "(28,4,128) B=1 N=1024 bf16 2.81 us, (16,2,128) B=8 N=8192 bf16 paged16 3.20 us"))

    def test_a_binary_that_skips_or_fails_measures_nothing(self):
        got, logged = self.run_binary("echo 'no GPU: skipped'\nexit 77\n")
        self.assertIsNone(got)
        self.assertEqual(logged[0], "host time of one decode_run: no GPU: skipped")
        self.assertRegex(logged[1], r"^decode_run host time: .*decode_host_cost exited with 77$")
        got, _ = self.run_binary(f"echo '{LINES[0]}'\nexit 1\n")  # a run error after one configuration
        self.assertIsNone(got)

    def test_no_binary_named(self):
        with mock.patch.dict(os.environ):
            os.environ.pop("COTILE_HOST_COST_BIN", None)
            self.assertIsNone(sweep.cpp_host_cost(print))


class Arguments(unittest.TestCase):
    def test_several_tokens_keep_pytorch(self):
        a = sweep.parse_args(["--q-len", "4", "--out", "x"])
        self.assertEqual((a.q_len, a.no_torch, a.flex), (4, False, "some"))
        self.assertTrue(sweep.parse_args(["--q-len", "4", "--no-torch", "--out", "x"]).no_torch)


if __name__ == "__main__":
    unittest.main()
