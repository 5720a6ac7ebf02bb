#!/usr/bin/python3
"""Plots and summarises the task-scheduler benchmark
(run_scheduler_benchmark.sh): network latency (Σ weight × best measured
latency, from each run's unit CSV) against total trials, per network, one
line per policy and seed.

    plot_scheduler_benchmark.py RUN_DIR OUT.csv OUT.png

Writes one combined CSV (network, variant, seed, unit, total_trials,
latency_ms) and the plot, and prints per network and seed: each policy's
final latency, and the trials the gradient and family variants took to reach
round-robin's final latency (total, and beyond the shared warm-up).
"""
import csv
import glob
import math
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def load(run_dir):
    runs = {}
    for path in sorted(glob.glob(os.path.join(run_dir, "*_s*.csv"))):
        m = re.match(r"(.+)_(gradient|round-robin|family)_s(\d+)\.csv$", os.path.basename(path))
        if not m:
            continue
        net, variant, seed = m.group(1), m.group(2), int(m.group(3))
        rows = []
        with open(path) as f:
            for r in csv.DictReader(f):
                lat = float(r["network:" + net])
                rows.append((int(r["unit"]), int(r["total_trials"]), lat))
        runs[(net, variant, seed)] = rows
    return runs


def first_reaching(rows, target):
    for unit, trials, lat in rows:
        if math.isfinite(lat) and lat <= target * (1 + 1e-9):
            return trials
    return None


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: plot_scheduler_benchmark.py RUN_DIR OUT.csv OUT.png")
    run_dir, out_csv, out_png = sys.argv[1:]
    runs = load(run_dir)
    if not runs:
        sys.exit("no run CSVs in " + run_dir)
    with open(out_csv, "w") as f:
        f.write("network,variant,seed,unit,total_trials,latency_ms\n")
        for (net, variant, seed), rows in sorted(runs.items()):
            for unit, trials, lat in rows:
                f.write("%s,%s,%d,%d,%d,%s\n" % (net, variant, seed, unit, trials, lat if math.isfinite(lat) else "inf"))

    nets = sorted({k[0] for k in runs})
    fig, axes = plt.subplots(1, len(nets), figsize=(6.5 * len(nets), 4.5), squeeze=False)
    colors = {"gradient": "tab:blue", "round-robin": "tab:orange", "family": "tab:green"}
    styles = ["-", "--", ":", "-."]
    for ax, net in zip(axes[0], nets):
        warm = None
        for (n, variant, seed), rows in sorted(runs.items()):
            if n != net:
                continue
            pts = [(t, lat) for _, t, lat in rows if math.isfinite(lat)]
            if not pts:
                continue
            warm = pts[0][0] if warm is None else min(warm, pts[0][0])
            ax.step([p[0] for p in pts], [p[1] for p in pts], where="post", color=colors[variant],
                    linestyle=styles[seed % len(styles)], label="%s seed %d" % (variant, seed))
        ax.set_title("%s: Σ weight × best latency" % net)
        ax.set_xlabel("trials (measurements), all tasks")
        ax.set_ylabel("network latency (ms)")
        if warm is not None:
            ax.axvline(warm, color="gray", linewidth=0.8)
            ax.text(warm, ax.get_ylim()[1], " warm-up done", va="top", fontsize=8, color="gray")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out_png, dpi=110)

    for net in nets:
        print("== %s" % net)
        seeds = sorted({k[2] for k in runs if k[0] == net})
        for seed in seeds:
            rr = runs.get((net, "round-robin", seed))
            if not rr:
                continue
            warm = next((t for _, t, lat in rr if math.isfinite(lat)), None)
            rr_final, rr_trials = rr[-1][2], rr[-1][1]
            print("seed %d: round-robin final %.3f ms at %d trials (warm-up %s trials)" % (seed, rr_final, rr_trials, warm))
            for variant in ("gradient", "family"):
                rows = runs.get((net, variant, seed))
                if not rows:
                    continue
                reach = first_reaching(rows, rr_final)
                extra_rr = rr_trials - warm
                if reach is None:
                    verdict = "never reached round-robin's final"
                else:
                    verdict = "reached it at %d trials (%d beyond warm-up, round-robin used %d beyond warm-up: %.0f%%)" % (
                        reach, reach - warm, extra_rr, 100.0 * (reach - warm) / max(1, extra_rr))
                print("  %-9s final %.3f ms (%+.1f%% vs round-robin); %s" % (
                    variant, rows[-1][2], 100 * (rows[-1][2] / rr_final - 1), verdict))


if __name__ == "__main__":
    main()
