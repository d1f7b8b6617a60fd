"""bench/decode/sweep_output.py: what sweep.py writes: the CSV's columns, the printed line of a case,
sweep.txt and the plot of each kernel's % of the plain read against KV bytes."""
import csv

import sweep_targets

FIELDS = ["label", "models", "Hq", "Hkv", "D", "G", "B", "N", "kv", "layout", "page_size", "kv_MiB", "kv16_MiB", "kernel",
          "status", "a_us", "a_worst_us", "b_us", "c_us", "pct_read_a", "pct_read_b", "pct_read_c", "graphed",
          "calls_per_graph", "copies", "splits", "cluster", "kv_heads_per_cta", "grid", "rel_err", "oracle_a_splits", "oracle_a_us",
          "plan_vs_oracle_a", "oracle_b_splits", "oracle_b_us", "plan_vs_oracle_b", "oracle", "probe_TBps", "q_len",
          "m_tiles_per_cta"]


def fmt(x, spec):
    return "-".rjust(len(format(1.0, spec))) if x in (None, "") else format(x, spec)


HEADER = (f"{'case':<56} {'MiB':>7} {'spl':>4} | {'a us':>8} {'b us':>8} {'c us':>8} | {'%rd a':>5} {'%rd b':>5} {'%rd c':>5} | "
          f"{'torch a':>8} {'torch b':>8} | {'x a':>5} {'x b':>5} | {'x16 a':>5} {'x16 b':>5} | {'orc a':>5} {'orc b':>5} | err")


def case_line(case_rows, idx):
    """The printed line of a case: cotile's times, % of the read, the best PyTorch, the ratios."""
    r = next(x for x in case_rows if x["kernel"] == "cotile")
    name = sweep_targets.case_name(r)
    if r["status"] != "ok":
        return f"{name:<56} {r['kv_MiB']:>7.1f} cotile {r['status']}"
    tb = [idx.best_torch(r, m)[0] for m in "ab"]
    r16 = idx.sixteen_bit(r) if r["kv"] != "bf16" else None
    x16 = [sweep_targets.ratio(r16.get(f"{m}_us"), r[f"{m}_us"]) if r16 else None for m in "ab"]
    spl = sweep_targets.row_plan_key(r)
    line = (f"{name:<56} {r['kv_MiB']:>7.1f} {spl:>4} | {r['a_us']:>8.2f} {r['b_us']:>8.2f} {r['c_us']:>8.2f} | "
            + " ".join(fmt(r.get(f"pct_read_{m}"), "5.1f") for m in "abc") + " | "
            + " ".join(fmt(t, "8.2f") for t in tb) + " | "
            + " ".join(fmt(sweep_targets.ratio(t, r[f"{m}_us"]), "5.2f") for t, m in zip(tb, "ab")) + " | "
            + " ".join(fmt(x, "5.2f") for x in x16) + " | "
            + " ".join(fmt(r.get(f"plan_vs_oracle_{m}"), "5.3f") for m in "ab") + f" | {r['rel_err']:.1e}")
    torch_rows = [x for x in case_rows if x["kernel"] in sweep_targets.TORCH_KERNELS]
    if torch_rows:
        line += "\n      " + "  ".join(
            f"{x['kernel']} " + ("/".join(fmt(x.get(f"{m}_us"), ".2f") for m in "abc") + ("" if x.get("graphed") else "*")
                                 if x["status"] == "ok" else x["status"][:60]) for x in torch_rows)
    return line


def write_csv(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS, extrasaction="ignore", restval="")
        w.writeheader()
        w.writerows(rows)


def write_txt(path, log):
    with open(path, "w") as f:
        f.write("\n".join(log.lines) + "\n")


def plot(rows, path, log):
    """Each kernel's % of the plain read against the case's KV bytes, one panel per mode."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        log("matplotlib is not installed: no plot")
        return
    series = {}
    for r in rows:
        if r["kernel"] == "read" or r["status"] != "ok":
            continue
        key = r["kernel"] + (" fp8" if r["kv"] != "bf16" else "") + (" paged" if r.get("page_size") else "")
        series.setdefault(key, []).append(r)
    top = max([130.0] + [r.get(f"pct_read_{m}") or 0.0 for rs in series.values() for r in rs for m in "abc"])
    fig, axes = plt.subplots(1, 3, figsize=(19, 6), sharex=True, sharey=True)
    marks = dict(zip(sorted(series), "o^sDv<>pPX*h"))
    for ax, m in zip(axes, "abc"):
        for key in sorted(series):
            pts = [(r["kv_MiB"], r.get(f"pct_read_{m}")) for r in series[key] if r.get(f"pct_read_{m}")]
            if pts:
                ax.scatter(*zip(*pts), label=key, marker=marks[key], s=18, alpha=0.75)
        ax.axhline(100, color="grey", lw=0.8, ls=":")
        ax.set_xscale("log")
        ax.set_ylim(0, min(top + 5, 300))
        ax.set_title(f"({m}) {sweep_targets.MODE_NAMES[m]}")
        ax.set_xlabel("KV MiB of the case (K + V, its own dtype)")
        ax.grid(True, which="both", alpha=0.3)
    axes[0].set_ylabel("% of a plain read of the same bytes (time of the read / time of the kernel)")
    axes[-1].legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    log(f"plot: {path}")
