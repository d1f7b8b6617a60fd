"""The golden corpus through the Python API: every case parsed with cotile.parse, called through
the binding, compared as text; the same counts as `cotile golden`."""

import glob
import os

import pytest

import cotile.golden as golden
from conftest import GOLDEN_DIR

FAMILIES = ["inttuple", "layout", "composition", "complement_inverse", "divide_product", "swizzle", "copy", "mma",
            "fmha_gen_q"]


@pytest.mark.parametrize("family", FAMILIES)
def test_family(family):
    path = os.path.join(GOLDEN_DIR, family + ".txt")
    if not os.path.exists(path):
        pytest.skip("no corpus file " + path)
    report = golden.run_file(path)
    assert report.failures == []
    assert report.passed > 0
    assert report.failed == 0 and report.checked_failed == 0
    # every case is accounted for: passed as CuTe, and passed, refused (a law) or answered lawfully
    # (where CuTe's result breaks the law) when checked
    assert report.checked_passed + len(report.refused) + len(report.lawful) == report.passed
    for _, _, law, got in report.lawful:
        assert " fails" in law and not got.startswith("error")


def test_whole_corpus_count():
    files = sorted(glob.glob(os.path.join(GOLDEN_DIR, "*.txt")))
    if not files:
        pytest.skip("no golden corpus at " + GOLDEN_DIR)
    report = golden.Report()
    for f in files:
        golden.run_file(f, report)
    cases = sum(1 for f in files for _ in golden.cases(f))
    print("golden corpus through Python:", report)
    assert report.passed == cases and report.failed == 0


def test_a_wrong_expectation_fails():
    # the comparison is real: a changed character is reported with what was computed
    fields = ["left_inverse", "((_128,_32),_1,_4):((_128,_1),_0,_32)", "=>", "(_128,_128):(_128,1)"]
    assert golden.check_case(fields, True) == "(_128,_128):(_128,_1)"
    fields[-1] = "(_128,_128):(_128,_1)"
    assert golden.check_case(fields, True) == ""
