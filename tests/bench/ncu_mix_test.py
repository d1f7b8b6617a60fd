"""bench/decode/ncu_mix.py on a small ncu source CSV (the layout of
`ncu --page source --csv --print-source sass`): per-unit opcode counts, stall shares, hot/cold
split of the samples."""
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
tool = os.path.join(here, "..", "..", "bench", "decode", "ncu_mix.py")
sys.path.insert(0, os.path.dirname(tool))
import ncu_mix  # noqa: E402

failures = 0


def check(ok, what):
    global failures
    if not ok:
        failures += 1
        print("FAIL", what)


fixture = os.path.join(here, "ncu_source_fixture.csv")
rows = ncu_mix.read(fixture)
check(len(rows) == 8, f"8 instruction rows, got {len(rows)}")
check(ncu_mix.opcode("@!P0  BRA 0x10") == "BRA", "predicate stripped")
check(ncu_mix.opcode("      F2FP.F16.E4M3.UNPACK_B R1, R2") == "F2FP", "modifiers stripped")
executed, stalls, samples = ncu_mix.mix(rows, units=1000, hot=0.3)
check(executed["F2FP"] == 4000 and executed["HMMA"] == 1000 and executed["LDC"] == 128, f"opcode counts {dict(executed)}")
check(stalls == {"wait": 125, "long_sb": 305}, f"stall totals, not-issued columns left out: {dict(stalls)}")
hot = sorted(src for _, _, src in samples[True])
check(len(hot) == 5 and all("LDC" not in s and "STG" not in s for s in hot), f"hot loop: {hot}")
check(sum(s for s, _, _ in samples[False]) == 34, "samples outside the hot loop")

out = subprocess.run([sys.executable, tool, fixture, "--units", "1000"], capture_output=True, text=True, check=True).stdout
check("= 7.2 per unit" in out, "total per unit printed:\n" + out)  # 7228 / 1000
check("F2FP 4.0" in out and "(others 0.2)" in out, "opcode line:\n" + out)
check("hot loop: 5 instructions" in out, "hot loop line:\n" + out)
print("passed" if failures == 0 else f"{failures} failure(s)")
sys.exit(1 if failures else 0)
