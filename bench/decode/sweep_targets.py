"""Issue 24's targets judged on the model sweep's rows (bench/decode/sweep.py): met, NOT met, or
not judged, separately under (a) isolated and (b) in sequence. Plain Python: no PyTorch, no GPU.

    python3 bench/decode/sweep_targets.py OUT/sweep.csv [HOST_US]   # a stored sweep's verdicts

Rows are dicts of the sweep's CSV columns (numbers as numbers or strings; '' or None for none),
one per case and kernel. A case is (Hq, Hkv, D, B, N, kv, layout); the columns used: kernel
('cotile', 'read', or a PyTorch kernel: cudnn, flash, efficient, math, flex), status ('ok' or why
not), label, kv16_MiB (the case's K + V in 16 bits), kv_MiB (its own bytes), {m}_us and
pct_read_{m} for the modes m = a, b (pct_read: the plain read's time of the same bytes over the
kernel's, in %), splits, cluster, oracle (each forced split count's times, "S[c]:A/B ...") and
oracle_{m}_splits (plan_vs_oracle_{m}, the plan's time over the best, where a row has no oracle).

The targets (issue 24, item 2, and items 3 and 4):
  * 16-bit KV of >= 64 MiB: >= 1.00x the best PyTorch backend, and >= 80% of the plain read
    (>= 90% where the case's KV is >= 256 MiB);
  * fp8 KV where the same case has >= 64 MiB in 16 bits: >= 1.7x faster than the 16-bit case
    (cotile's bf16 time of the same case and layout), and >= 80% of the plain read of its own
    bytes (>= 85% where those are >= 128 MiB);
  * below 64 MiB in 16 bits (either KV type): >= 0.95x the best PyTorch backend;
  * the plan's time within 5% of the oracle's (plan_vs_oracle <= 1.05), both from the oracle's
    pass (plan_vs_oracle below): the cotile row's own timing of the same launch, an earlier pass,
    is ~2% slower isolated (median; up to 9%), which would count against the plan what is a
    difference between two timings of one configuration;
  * the host time of one call through the Python module <= 10 us, and through the C++ decode_run
    <= 3 us (not per mode; GPU idle), and (issue 28) of one torch.ops.cotile call <= 10 us (the worst
    of decode's and decode_into's).
The back-to-back table's targets (bench/decode/targets.py, issue 6) are judged too, under (c), on
the table's shapes where the run has them (models.table_shapes: the full sweep adds them), each
figure as bench.py states it (% of the run's streaming-read probe, ratios to the best PyTorch
kernel; table_report).
The PyTorch baseline of a case is the best time of any PyTorch kernel on the contiguous bf16 cache
of the same (Hq, Hkv, D, B, N): no PyTorch attention takes fp8 K/V or a page table, so fp8 and paged
cases are held to what PyTorch does on the 16-bit contiguous cache. A figure that is short fails the
target (so does a cotile row that did not run); a case whose baseline is missing (a PyTorch kernel
or the 16-bit case not run) leaves the target not judged unless another case fails it.
"""
import csv
import sys

import models
import targets as table_targets

SIXTEEN = ("bf16", "fp16")
TORCH_KERNELS = ("cudnn", "flash", "efficient", "math", "flex")
MODES = ("a", "b")
MODE_NAMES = {"a": "isolated", "b": "in sequence", "c": "back to back"}

T_TORCH16 = "16-bit KV >= 64 MiB: >= 1.00x the best PyTorch backend"
T_READ16 = "16-bit KV >= 64 MiB: >= 80% of the plain read (>= 90% from 256 MiB)"
T_FP8_X = "fp8 KV (>= 64 MiB in 16 bits): >= 1.7x faster than the 16-bit case"
T_FP8_READ = "fp8 KV (>= 64 MiB in 16 bits): >= 80% of the plain read (>= 85% from 128 MiB)"
T_SMALL = "below 64 MiB in 16 bits: >= 0.95x the best PyTorch backend"
# Issue 28's (several query tokens; qlen_targets.py judges it, check() does not): every size.
T_TORCH_ALL = "16-bit KV, every case: >= 1.00x the best PyTorch backend"
T_ORACLE = "the plan within 5% of the oracle (best forced split count)"
T_HOST = "host time of one call through the Python module <= 10 us"
T_HOST_OP = "host time of one torch.ops.cotile call (decode, decode_into) <= 10 us (issue 28)"
T_HOST_CPP = "host time of one C++ decode_run <= 3 us"
HOST_BOUNDS = {T_HOST: 10.0, T_HOST_OP: 10.0, T_HOST_CPP: 3.0}
MAX_NAMED = 5  # short cases named in a verdict, then "and N more"


def num(row, key):
    """The row's number under key, or None (missing, '', 'None', 'n/a')."""
    v = row.get(key) if row else None
    if v is None or (isinstance(v, str) and v.strip() in ("", "None", "n/a", "nan")):
        return None
    v = float(v)
    return None if v != v else v


def ratio(a, b):
    """a / b; None without both; infinite for b <= 0 (a (b) time that the subtraction left at or
    below zero: the call cost nothing measurable beside the GEMM before it)."""
    if a is None or b is None:
        return None
    return float("inf") if b <= 0 else a / b


def _int(row, key):
    return int(float(row[key]))


def case_key(row, kv=None, layout=None):
    """(Hq, Hkv, D, B, N, kv, layout) of a row, kv and layout replaced when given."""
    return (_int(row, "Hq"), _int(row, "Hkv"), _int(row, "D"), _int(row, "B"), _int(row, "N"),
            kv or row["kv"], layout or row["layout"])


def case_name(row):
    label = row.get("label") or "?"
    return (f"{label} ({_int(row, 'Hq')},{_int(row, 'Hkv')},{_int(row, 'D')}) B={_int(row, 'B')} N={_int(row, 'N')} "
            f"{row['kv']} {row['layout']}")


def ok(row):
    return row is not None and str(row.get("status", "ok")) == "ok"


class Index:
    """The rows by case and kernel."""

    def __init__(self, rows):
        self.by = {}
        for r in rows:
            self.by[(case_key(r), r["kernel"])] = r

    def cotile_rows(self):
        return [r for (k, kern), r in self.by.items() if kern == "cotile"]

    def best_torch(self, row, mode):
        """(seconds in us, kernel) of the best PyTorch kernel on the contiguous bf16 cache of row's
        case under mode, or (None, None) when none ran."""
        best = (None, None)
        for kern in TORCH_KERNELS:
            r = self.by.get((case_key(row, "bf16", "HND"), kern))
            t = num(r, f"{mode}_us") if ok(r) else None
            if t is not None and (best[0] is None or t < best[0]):
                best = (t, kern)
        return best

    def sixteen_bit(self, row):
        """The cotile row of row's case with a 16-bit cache (bf16, else fp16), same layout."""
        for kv in SIXTEEN:
            r = self.by.get((case_key(row, kv), "cotile"))
            if r is not None:
                return r
        return None


def _figures(idx, target, mode):
    """[(row, value, bound, extra)] for a target under a mode: value None when the cotile row has no
    figure (it did not run: a failure), extra a note; and the count of cases without a baseline."""
    out, missing = [], 0
    for r in idx.cotile_rows():
        is16, kv16, kv = r["kv"] in SIXTEEN, num(r, "kv16_MiB"), num(r, "kv_MiB")
        t = num(r, f"{mode}_us") if ok(r) else None
        if target in (T_TORCH16, T_SMALL, T_TORCH_ALL):
            if target == T_TORCH_ALL:
                if not is16:
                    continue
            elif (target == T_TORCH16) != (kv16 >= 64) or (target == T_TORCH16 and not is16):
                continue
            base, kern = idx.best_torch(r, mode)
            if t is None:
                out.append((r, None, 1.0, "cotile did not run"))
            elif base is None:
                missing += 1
            else:
                out.append((r, ratio(base, t), 0.95 if target == T_SMALL else 1.0, f"{kern} {base:.2f} us, cotile {t:.2f} us"))
        elif target in (T_READ16, T_FP8_READ):
            if is16 != (target == T_READ16) or kv16 < 64:
                continue
            bound = (90.0 if kv >= 256 else 80.0) if is16 else (85.0 if kv >= 128 else 80.0)
            p = num(r, f"pct_read_{mode}") if t is not None else None
            if t is None:
                out.append((r, None, bound, "cotile did not run"))
            elif p is None:
                missing += 1
            else:
                out.append((r, p, bound, f"{t:.2f} us"))
        elif target == T_FP8_X:
            if is16 or kv16 < 64:
                continue
            r16 = idx.sixteen_bit(r)
            t16 = num(r16, f"{mode}_us") if ok(r16) else None
            if t is None:
                out.append((r, None, 1.7, "cotile did not run"))
            elif t16 is None:
                missing += 1
            else:
                out.append((r, ratio(t16, t), 1.7, f"{r16['kv']} {t16:.2f} us, fp8 {t:.2f} us"))
        elif target == T_ORACLE:
            v = plan_vs_oracle(r, mode) if t is not None else None
            if t is None:
                out.append((r, None, 1.05, "cotile did not run"))
            elif v is None:
                missing += 1
            else:
                out.append((r, v, 1.05, f"plan {r.get('splits')} splits, best {r.get(f'oracle_{mode}_splits')}"))
    return out, missing


def _fmt(target, v):
    if v is None:
        return "n/a"
    return f"{v:.1f}%" if target in (T_READ16, T_FP8_READ) else f"x{v:.3f}"


def plan_key(splits, cluster, kv_heads_per_cta):
    """A launch's name in the oracle column and the tables: the split count, `c` when merged in a
    cluster, `p` for pairs of KV heads (numbers or their strings; cluster and pairs None for 1)."""
    return (f"{int(float(splits))}{'c' if int(float(cluster or 1)) > 1 else ''}"
            f"{'p' if int(float(kv_heads_per_cta or 1)) == 2 else ''}")


def row_plan_key(r):
    """plan_key of a cotile row's plan."""
    return plan_key(r.get("splits"), r.get("cluster"), r.get("kv_heads_per_cta"))


def plan_vs_oracle(r, mode):
    """The plan's time over the best forced split count's under mode ('a' or 'b'), both from the
    oracle's column (one pass of timings; entries S[c][p], p: two KV heads a CTA); the row's
    plan_vs_oracle_{mode} where it has none, or where the plan's choice was not among those timed."""
    entries = {}
    for tok in str(r.get("oracle") or "").split():
        key, _, times = tok.partition(":")
        ab = times.split("/")
        if len(ab) == 2:
            try:
                entries[key] = (float(ab[0]), float(ab[1]))
            except ValueError:  # "n/a": that count failed
                pass
    i = MODES.index(mode)
    try:
        mine = row_plan_key(r)
    except (TypeError, ValueError):
        mine = None
    if mine in entries:
        return ratio(entries[mine][i], min(e[i] for e in entries.values()))
    return num(r, f"plan_vs_oracle_{mode}")


def judge(idx, target, mode):
    """(verdict, detail): verdict 'met', 'NOT met' or 'not judged'."""
    figs, missing = _figures(idx, target, mode)
    lower = target == T_ORACLE  # the oracle ratio: lower is better
    if not figs:
        return "not judged", (f"{missing} cases, none with a baseline" if missing else "no case in this run")
    def passes(f):
        return f[1] is not None and (f[1] <= f[2] if lower else f[1] >= f[2])
    def margin(f):  # worst first: failed runs, then the least margin to the bound
        return -1e300 if f[1] is None else (f[2] - f[1] if lower else f[1] - f[2])
    short = sorted((f for f in figs if not passes(f)), key=margin)
    worst = min(figs, key=margin)
    n = len(figs) + missing
    detail = f"{len(figs) - len(short)} of {n} cases"
    if missing:
        detail += f" ({missing} without a baseline)"
    detail += f"; worst {_fmt(target, worst[1])} at {case_name(worst[0])} ({worst[3]})"
    if short:
        named = ", ".join(f"{case_name(f[0])} {_fmt(target, f[1])}" for f in short[:MAX_NAMED])
        more = f" and {len(short) - MAX_NAMED} more" if len(short) > MAX_NAMED else ""
        return "NOT met", detail + f"; short: {named}{more}"
    return ("not judged" if missing else "met"), detail


def judge_host(host_us, bound=10.0):
    """(verdict, detail) of a host-time target from {what: median us per call}: the worst <= bound."""
    if not host_us:
        return "not judged", "not measured"
    worst = max(host_us.values())
    detail = ", ".join(f"{k} {v:.2f} us" for k, v in host_us.items())
    return ("met" if worst <= bound else "NOT met"), detail


def check(rows, host_us=None, op_us=None, cpp_us=None):
    """[(target, mode, verdict, detail)]: each target under (a) and (b), then the host times (mode
    ''): host_us of DecodePlan.run, op_us of torch.ops.cotile's calls, cpp_us of decode_run, each
    {what: median us}."""
    idx = Index(rows)
    out = []
    for target in (T_TORCH16, T_READ16, T_FP8_X, T_FP8_READ, T_SMALL, T_ORACLE):
        for mode in MODES:
            out.append((target, mode) + judge(idx, target, mode))
    for target, us in ((T_HOST, host_us), (T_HOST_CPP, cpp_us), (T_HOST_OP, op_us)):
        out.append((target, "") + judge_host(us, HOST_BOUNDS[target]))
    return out


def table_rows(rows):
    """(rows as bench.py writes them, names of the cases without a (c) time): the cotile rows of the
    table's shapes (contiguous HND), with their (c) figures: cotile_us, cotile_pct_probe (the KV
    bytes at the row's probe rate over the time), cotile_pct_read and, 16-bit,
    speedup_vs_best_torch."""
    idx, shapes = Index(rows), models.table_shapes()
    out, untimed = [], []
    for r in idx.cotile_rows():
        if r["layout"] != "HND" or tuple(_int(r, k) for k in ("B", "Hq", "Hkv", "N", "D")) not in shapes:
            continue
        us, probe = num(r, "c_us") if ok(r) else None, num(r, "probe_TBps")
        if us is None or probe is None:
            untimed.append(case_name(r))
            continue
        mib = num(r, "kv_MiB")
        torch_us = idx.best_torch(r, "c")[0] if r["kv"] in SIXTEEN else None
        out.append(dict(B=r["B"], Hq=r["Hq"], Hkv=r["Hkv"], N=r["N"], D=r["D"], kv=r["kv"], kv_MiB=mib, cotile_us=us,
                        cotile_pct_probe=100.0 * mib * 2**20 / (us * 1e-6) / (probe * 1e12),
                        cotile_pct_read=num(r, "pct_read_c"), speedup_vs_best_torch=ratio(torch_us, us)))
    return out, untimed


def table_report(rows):
    """The table's targets (issue 6) as printed lines, or none without a row of the table's shapes."""
    converted, untimed = table_rows(rows)
    if not converted and not untimed:
        return []
    lines = ["the back-to-back table's targets (issue 6), on its shapes, (c) back to back:"]
    for name, met, detail in table_targets.check(converted):
        lines.append(f"  {'not judged' if met is None else 'met' if met else 'NOT met':<10} {name}: {detail}")
    if untimed:
        lines.append(f"  no (c) time: {', '.join(untimed)}")
    return lines


def report(rows, host_us=None, op_us=None, cpp_us=None):
    """The verdicts as printed lines."""
    lines = ["targets (issue 24; (a) isolated, (b) in sequence):"]
    for target, mode, verdict, detail in check(rows, host_us, op_us, cpp_us):
        lines.append(f"  {verdict:<10} {f'({mode}) ' if mode else ''}{target}: {detail}")
    return lines


def main(argv):
    if len(argv) not in (2, 3):
        print("usage: python3 bench/decode/sweep_targets.py SWEEP.csv [HOST_US]", file=sys.stderr)
        return 2
    with open(argv[1], newline="") as f:
        rows = list(csv.DictReader(f))
    host = {"python call": float(argv[2])} if len(argv) == 3 else None
    print("\n".join(report(rows, host) + table_report(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
