"""bench/decode/qlen_targets.py: issue 28's speed target for several query tokens a sequence, judged
from two runs of the model sweep: on every case of 64 MiB or more, cotile with q_len tokens costs at
most 1.15x its time with one token (the bytes read are the same), under (a), (b) and (c).

    python3 bench/decode/sweep.py --no-torch --no-oracle --q-len 1 --out DIR/q1
    python3 bench/decode/sweep.py --no-torch --no-oracle --q-len 4 --out DIR/q4
    python3 bench/decode/qlen_targets.py DIR/q1/sweep.csv DIR/q4/sweep.csv

Prints, per mode: the cases compared, how many are within the bound, the geomean cost and the
worst cases (named); then the same by cache kind (16-bit, fp8) and by a KV head's query rows
(G x q_len, in m-tiles of 16), so that what the misses share shows; exit 1 when a CSV is not what it
should be (no cotile rows, or its q_len). Where the q_len run timed PyTorch too (sweep.py without
--no-torch: SDPA with a lower-right causal bias, FlexAttention with its mask), the other half of the
target: on every 16-bit case, cotile at least as fast as every PyTorch backend that ran it (the
fastest of them; paged caches against their case's contiguous PyTorch, as sweep_targets.py judges
issue 24's), under (a) and (b).

The plan's choice of m-tiles a CTA (plan.hpp, two_m_tiles, group_rows_pay) against the best forced
choice, from runs of the same q_len (the plan's, and --m-tiles-per-cta 1 and 2, and 4 if given):

    python3 bench/decode/qlen_targets.py --m-tiles DIR/q4/sweep.csv DIR/q4_m1/sweep.csv DIR/q4_m2/sweep.csv \
        [DIR/q4_m4/sweep.csv]

Per mode (a) and (b): the cases where the forced runs differ (the cases that can take two, or
four), how many have the plan within 5% of the best, and the worst (named); with four forced too,
the count within 5% in both modes; and the fp8 caches' share (they take four but never two).
"""
import csv
import math
import sys

import sweep_targets as T

MAX_COST = 1.15
MIN_MIB = 64.0
MODES = "abc"


def cotile_rows(rows, q_len):
    """{case key: row} of the ok cotile rows of a sweep run with q_len tokens (ValueError otherwise)."""
    out = {}
    for r in rows:
        if r.get("kernel") != "cotile":
            continue
        got = int(float(r.get("q_len") or 1))
        if got != q_len:
            raise ValueError(f"{T.case_name(r)}: q_len {got}, expected {q_len}")
        if T.ok(r):
            out[T.case_key(r)] = r
    if not out:
        raise ValueError("no cotile rows")
    return out


def costs(one, many, mode):
    """[(cost, row)]: the many-token time over the one-token time of each case >= MIN_MIB in both."""
    out = []
    for key, r in many.items():
        base = one.get(key)
        if base is None or (T.num(r, "kv_MiB") or 0.0) < MIN_MIB:
            continue
        c = T.ratio(T.num(r, f"{mode}_us"), T.num(base, f"{mode}_us"))
        if c is not None:
            out.append((c, r))
    return out


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def group_of(r, q_len):
    """(cache kind, m-tiles of a KV head's G x q_len query rows) of a sweep row."""
    g = int(float(r["Hq"])) // int(float(r["Hkv"]))
    return ("fp8" if "fp8" in str(r.get("kv")) else "16-bit", -(-g * q_len // 16))


def report(one_rows, many_rows):
    """The verdict lines for a one-token and a many-token run."""
    many_q = int(float(next(r for r in many_rows if r.get("kernel") == "cotile").get("q_len") or 1))
    one, many = cotile_rows(one_rows, 1), cotile_rows(many_rows, many_q)
    lines = [f"q_len {many_q} against 1 on the cases of >= {MIN_MIB:.0f} MiB (target <= {MAX_COST:.2f}x; "
             "(a) isolated, (b) in sequence, (c) back to back):"]
    for mode in MODES:
        cs = sorted(costs(one, many, mode), key=lambda x: -x[0])
        if not cs:
            lines.append(f"  not judged ({mode}): no case of >= {MIN_MIB:.0f} MiB in both runs")
            continue
        within = sum(c <= MAX_COST for c, _ in cs)
        geo = geomean([c for c, _ in cs])
        verdict = "met" if within == len(cs) else "NOT met"
        worst = "; ".join(f"{T.case_name(r)} {c:.2f}x" for c, r in cs[:T.MAX_NAMED] if c > MAX_COST)
        lines.append(f"  {verdict:<10} ({mode}) {within} of {len(cs)} within, geomean {geo:.3f}x"
                     + (f"; worst: {worst}" if worst else ""))
    groups = {}
    for mode in MODES:
        for c, r in costs(one, many, mode):
            groups.setdefault(group_of(r, many_q), {}).setdefault(mode, []).append(c)
    for (kind, m), per in sorted(groups.items()):
        lines.append(f"  {kind} caches, {m} m-tile{'s' if m > 1 else ''} a KV head: " + "; ".join(
            f"({mode}) {sum(c <= MAX_COST for c in per[mode])} of {len(per[mode])}, geomean {geomean(per[mode]):.3f}x"
            for mode in MODES if mode in per))
    return lines + peer_report(many_rows, many_q)


def peer_report(many_rows, q_len):
    """The verdict lines of cotile against the fastest PyTorch backend that ran each 16-bit case of a
    q_len run (sweep_targets.py's judgment, T_TORCH_ALL), none when the run timed no PyTorch kernel."""
    idx = T.Index(many_rows)
    if not any(kern in T.TORCH_KERNELS and T.ok(r) for (_, kern), r in idx.by.items()):
        return []
    lines = [f"q_len {q_len} against PyTorch ((a) isolated, (b) in sequence):"]
    for mode in "ab":
        verdict, detail = T.judge(idx, T.T_TORCH_ALL, mode)
        lines.append(f"  {verdict:<10} ({mode}) {T.T_TORCH_ALL}: {detail}")
    return lines


ORACLE_SLACK = 1.05


def ran_with(row, m):
    """Whether a forced run's row ran with m m-tiles a CTA (a case that cannot take them ran with one)."""
    return row is not None and int(float(row.get("m_tiles_per_cta") or 1)) == m


def m_tile_report(plan_rows, one_rows, two_rows, four_rows=None):
    """The verdict lines of the plan's m-tiles a CTA against the best of one, two (and four) forced."""
    q = int(float(next(r for r in plan_rows if r.get("kernel") == "cotile").get("q_len") or 1))
    plan, one, two = (cotile_rows(rows, q) for rows in (plan_rows, one_rows, two_rows))
    four = cotile_rows(four_rows, q) if four_rows is not None else {}
    choices = "the better of 1 and 2" if four_rows is None else "the best of 1, 2 and 4"
    can = "two" if four_rows is None else "two or four"
    lines = [f"q_len {q}: the plan's m-tiles a CTA within {ORACLE_SLACK:.2f}x of {choices} forced, "
             f"on the cases that can take {can}:"]
    within_modes, judged_keys = {}, set()
    fp8 = {}  # mode -> (within, judged) on fp8 caches
    for mode in "ab":
        judged = []
        for key, r in plan.items():
            o, t, f = one.get(key), two.get(key), four.get(key)
            if o is None or not (ran_with(t, 2) or ran_with(f, 4)):
                continue
            best = min([T.num(o, f"{mode}_us")] + [T.num(x, f"{mode}_us") for x, m in ((t, 2), (f, 4))
                                                    if ran_with(x, m)])
            c = T.ratio(T.num(r, f"{mode}_us"), best)
            if c is not None:
                judged.append((c, r))
                judged_keys.add(key)
                if c <= ORACLE_SLACK:
                    within_modes.setdefault(key, set()).add(mode)
        if not judged:
            lines.append(f"  not judged ({mode}): no case took {can} m-tiles forced")
            continue
        judged.sort(key=lambda x: -x[0])
        within = sum(c <= ORACLE_SLACK for c, _ in judged)
        on_fp8 = [c for c, r in judged if "fp8" in str(r.get("kv"))]
        if on_fp8:
            fp8[mode] = (sum(c <= ORACLE_SLACK for c in on_fp8), len(on_fp8))
        worst = "; ".join(f"{T.case_name(r)} {c:.2f}x (plan: {int(float(r.get('m_tiles_per_cta') or 1))})"
                          for c, r in judged[:T.MAX_NAMED] if c > ORACLE_SLACK)
        lines.append(f"  ({mode}) {within} of {len(judged)} within" + (f"; worst: {worst}" if worst else ""))
    if four_rows is not None and len(lines) == 3:
        both = sum(modes == set("ab") for modes in within_modes.values())
        lines.append(f"  (a) and (b) {both} of {len(judged_keys)} within both")
    # fp8 caches take four (the warpgroup kernel) but never two (plan.hpp, group_rows_by_plan): their share.
    if fp8:
        lines.append("  fp8 caches: " + "; ".join(f"({mode}) {w} of {n} within" for mode, (w, n) in fp8.items()))
    return lines


def main(argv):
    oracle = len(argv) in (5, 6) and argv[1] == "--m-tiles"
    if len(argv) != 3 and not oracle:
        print("usage: python3 bench/decode/qlen_targets.py Q1_SWEEP.csv QN_SWEEP.csv\n"
              "       python3 bench/decode/qlen_targets.py --m-tiles PLAN.csv M1.csv M2.csv [M4.csv]", file=sys.stderr)
        return 2
    runs = []
    for path in argv[2 if oracle else 1:]:
        with open(path, newline="") as f:
            runs.append(list(csv.DictReader(f)))
    try:
        print("\n".join(m_tile_report(*runs) if oracle else report(*runs)))
    except (ValueError, StopIteration) as e:
        print(f"qlen_targets: {e or 'no cotile rows'}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
