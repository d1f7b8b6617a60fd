"""Instruction mix and stall samples of one kernel, per unit of work, from ncu's source counters.

Collect (on the GPU machine; one launch of the decode kernel, e.g. fp8 (128,32,8,1024) = 65536
16-row tiles):
    ncu --section SourceCounters --section WarpStateStats -k regex:decode_kernel --launch-skip 3 \
        --launch-count 1 -o fp8 python3 bench/decode/bench.py --no-torch --no-flex \
        --kv fp8-e4m3 --shape 128,32,8,1024,128
    ncu --import fp8.ncu-rep --page source --csv --print-source sass > fp8_source.csv
Then:
    python3 bench/decode/ncu_mix.py fp8_source.csv --units 65536

Prints the warp instructions executed per unit by opcode, the stall reasons' shares, and how the
stall samples split between the hot loop (instructions executed at least `--hot` times per unit)
and the rest (prologue, epilogue), with the most-sampled instructions of each.
"""
import argparse
import collections
import csv


def number(s):
    try:
        return float(s.replace(",", ""))
    except ValueError:
        return 0.0


def opcode(source):
    """'@!P0 LDGSTS.E.BYPASS.128 [..]' -> 'LDGSTS'."""
    words = source.split()
    if words and words[0].startswith("@"):
        words = words[1:]
    return words[0].split(".")[0] if words else ""


def read(path):
    """The instruction rows of an ncu source CSV (the header row is the one naming 'Source')."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    start = next(i for i, r in enumerate(rows) if "Source" in r and "Instructions Executed" in r)
    header = rows[start]
    return [dict(zip(header, r)) for r in rows[start + 1:] if len(r) == len(header)]


def mix(rows, units, hot):
    executed = collections.Counter()
    stalls = collections.Counter()
    samples = {True: [], False: []}  # hot -> [(samples, address, source)]
    for r in rows:
        n = number(r["Instructions Executed"])
        executed[opcode(r["Source"])] += n
        for k, v in r.items():
            if k.startswith("stall_") and "Not Issued" not in k:
                stalls[k[len("stall_"):]] += number(v)
        s = number(r.get("Warp Stall Sampling (All Samples)", "0"))
        samples[n >= hot * units].append((s, r.get("Address", "")[-5:], r["Source"].strip()))
    return executed, stalls, samples


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("csv")
    ap.add_argument("--units", type=float, default=1.0, help="units of work in the launch (e.g. 16-row tiles)")
    ap.add_argument("--hot", type=float, default=0.3, help="executions per unit that make an instruction part of the hot loop")
    ap.add_argument("--top", type=int, default=8)
    args = ap.parse_args()
    executed, stalls, samples = mix(read(args.csv), args.units, args.hot)
    total = sum(executed.values())
    print(f"warp instructions executed: {total:.0f} = {total / args.units:.1f} per unit")
    shown = [(op, n) for op, n in executed.most_common() if n >= 0.5 * args.units]
    rest = total - sum(n for _, n in shown)
    print("per unit: " + "  ".join(f"{op} {n / args.units:.1f}" for op, n in shown) + f"  (others {rest / args.units:.1f})")
    all_stalls = sum(stalls.values()) or 1.0
    print("stall reasons: " + "  ".join(f"{k} {100 * v / all_stalls:.1f}%" for k, v in stalls.most_common(10)))
    all_samples = sum(s for part in samples.values() for s, _, _ in part) or 1.0
    for is_hot in (True, False):
        part = samples[is_hot]
        share = sum(s for s, _, _ in part) / all_samples
        print(f"{'hot loop' if is_hot else 'outside it'}: {len(part)} instructions, {100 * share:.1f}% of the stall samples")
        for s, addr, src in sorted(part, reverse=True)[: args.top]:
            print(f"   {s:6.0f}  {addr}  {src}")


if __name__ == "__main__":
    main()
