"""The CSV, the Markdown table, the chart and the host file that
scripts/halide_apps_benchmark.py writes."""
import csv
import math
import os
import shlex
import sys

CSV_FIELDS = ["app", "variant", "status", "generator_seconds", "best_ms", "round_ms", "ratio_to_hand", "detail"]


def fmt(value, digits=4):
    return "" if value is None else f"{value:.{digits}g}"


def write_csv(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(CSV_FIELDS)
        for r in rows:
            w.writerow([r["app"], r["variant"], r["status"], fmt(r["generator_seconds"]), fmt(r["best_ms"]),
                        ";".join(f"{ms:.4g}" for ms in r["round_ms"]), fmt(r["ratio_to_hand"]), r["detail"]])


def geomean_ratio(rows_by_app, a, b):
    """Geomean of time(a) / time(b) over the apps where both ran correctly."""
    ratios = []
    for rows in rows_by_app.values():
        ms = {r["variant"]: r["best_ms"] for r in rows if r["best_ms"] and r["status"] in ("OK", "UNCHECKED")}
        if a in ms and b in ms:
            ratios.append(ms[a] / ms[b])
    if not ratios:
        return None, 0
    return math.exp(sum(math.log(x) for x in ratios) / len(ratios)), len(ratios)


def table_cell(row):
    if row is None:
        return ""
    if row["best_ms"] is None:
        return row["status"]
    ratio = f" ({row['ratio_to_hand']:.2f}x)" if row["ratio_to_hand"] is not None else ""
    flag = " unchecked" if row["status"] == "UNCHECKED" else ""
    return f"{row['best_ms']:.3f}{ratio}{flag}"


def write_table(path, apps, rows_by_app, variants, host, args, machine_params, gen_build_seconds):
    lines = ["# Halide apps: time per variant", "",
             "Best time over rounds in ms, (time / hand). Status where a variant did not run correctly.", "",
             "| app | " + " | ".join(variants) + " |", "|---" * (len(variants) + 1) + "|"]
    for app in apps:
        by_variant = {r["variant"]: r for r in rows_by_app[app["name"]]}
        lines.append(f"| {app['name']} | " + " | ".join(table_cell(by_variant.get(v)) for v in variants) + " |")
    lines += ["", "## Geomeans (apps where both ran correctly)", "", "| ratio | geomean | apps |", "|---|---|---|"]
    pairs = [(v, "hand") for v in variants if v != "hand"]
    pairs += [("Ansor-zero-shot", "Adams2019"), ("Ansor-64", "Ansor-zero-shot")]
    for a, b in pairs:
        if a in variants and b in variants:
            g, n = geomean_ratio(rows_by_app, a, b)
            lines.append(f"| {a} / {b} | {'' if g is None else f'{g:.3f}'} | {n} |")
    lines += ["", "## Apps far behind the hand schedule (of those that ran correctly)", "",
              "| variant | slower than 1.5x | slower than 2x |", "|---|---|---|"]
    for v in variants:
        if v == "hand":
            continue
        ratios = {app["name"]: r["ratio_to_hand"] for app in apps for r in rows_by_app[app["name"]]
                  if r["variant"] == v and r["ratio_to_hand"] is not None}
        far = [", ".join(f"{name} {ratio:.2f}x" for name, ratio in ratios.items() if ratio > limit) or "none"
               for limit in (1.5, 2.0)]
        lines.append(f"| {v} | {far[0]} | {far[1]} |")
    lines += ["", "## Failures", "", "| variant | FAILED | TIMEOUT | WRONG | UNCHECKED |", "|---|---|---|---|---|"]
    all_rows = [r for rows in rows_by_app.values() for r in rows]
    for v in variants:
        counts = [sum(1 for r in all_rows if r["variant"] == v and r["status"] == s)
                  for s in ("FAILED", "TIMEOUT", "WRONG", "UNCHECKED")]
        lines.append(f"| {v} | " + " | ".join(str(c) for c in counts) + " |")
    lines += ["", "## Host", "", f"- CPU: {host['cpu']}", f"- target: {args.target}",
              f"- threads: {args.threads} (machine_params {args.threads},{machine_params[0]},{machine_params[1]}; HL_NUM_THREADS)",
              f"- rounds: {args.rounds}, RunGen --benchmark_min_time={args.benchmark_min_time}",
              "- generator binary compile seconds: " +
              ", ".join(f"{k} {v:.0f}" for k, v in gen_build_seconds.items()),
              f"- command: `{' '.join(shlex.quote(a) for a in sys.argv)}`", ""]
    with open(path, "w") as f:
        f.write("\n".join(lines))


def write_chart(path, apps, rows_by_app, variants):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker
    shown = [v for v in variants if v != "hand"]
    names = [a["name"] for a in apps]
    fig, ax = plt.subplots(figsize=(min(22, max(6, 2 + 0.25 * len(names) * max(1, len(shown)))), 4.5))
    width = 0.8 / max(1, len(shown))
    for i, v in enumerate(shown):
        xs, ys = [], []
        for j, name in enumerate(names):
            row = next((r for r in rows_by_app[name] if r["variant"] == v), None)
            x = j + (i - (len(shown) - 1) / 2) * width
            if row and row["ratio_to_hand"]:
                xs.append(x)
                ys.append(row["ratio_to_hand"])
            elif row and row["status"] not in ("OK", "UNCHECKED"):
                # A variant without a time: its status's initial (F, T, W) at 1x.
                ax.text(x, 1.0, row["status"][0], ha="center", va="bottom", fontsize="x-small", color="red")
        ax.bar(xs, ys, width=width, label=v)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_yscale("log")
    ratio_label = matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}x")
    ax.yaxis.set_major_formatter(ratio_label)
    ax.yaxis.set_minor_formatter(ratio_label)
    ax.tick_params(axis="y", which="minor", labelsize="x-small")
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names, rotation=30, ha="right")
    ax.set_ylabel("time / hand schedule (lower is faster)")
    ax.set_title("Halide apps: time relative to the hand schedule (F failed, T timeout, W wrong)")
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def write_host(path, host, args):
    with open(path, "w") as f:
        f.write(f"cpu: {host['cpu']}\ntarget: {args.target}\nthreads: {args.threads}\n"
                f"halide_source: {os.path.abspath(args.halide_source)}\n")
