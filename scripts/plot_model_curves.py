#!/usr/bin/python3
"""Tuning curves with the shipped cost model and cold (HL_ANSOR_MODEL=none):
Ansor's best measured time after each trial over a peer's time from the
(first) run's results.csv (Adams2019 by default). Prints, per case, the
trials each search took to reach the peer's time and the best each reached;
draws one panel per case.

    scripts/plot_model_curves.py RUN_DIR OUT.png [PEER]                 one run with Ansor and Ansor-cold
    scripts/plot_model_curves.py SHIPPED_DIR COLD_DIR OUT.png [PEER]    two runs, Ansor in each
    (Debian's /usr/bin/python3, python3-matplotlib)

The directories are ansor_benchmark_harness --out directories
(results.csv, tuning_curves.csv). The peer's time is the harness median;
Ansor's curve is the tuner's own times, which agree with the harness's
within the spread docs/results.md reports for the tuner against RunGen.
"""
import csv
import math
import os
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from plot_tuning_curve import trials_to_reach  # noqa: E402  (the script's own folder)


def best_curves(run_dir, source):
    """case -> [best ms after trial 1, 2, ...] (inf before any success)."""
    out = defaultdict(list)
    with open(os.path.join(run_dir, "tuning_curves.csv")) as f:
        for r in csv.DictReader(f):
            if r["source"] != source:
                continue
            best = float(r["best_ms"]) if r["best_ms"] not in ("", "nan", "inf") else math.inf
            out[r["case"]].append(best)
    return out


def peer_times(run_dir, peer):
    out = {}
    with open(os.path.join(run_dir, "results.csv")) as f:
        for r in csv.DictReader(f):
            if r["variant"] == peer and r["status"] == "ok" and r["median_ms"]:
                out[r["case"]] = float(r["median_ms"])
    return out


def main(shipped_dir, cold_dir, dst, peer="Adams2019"):
    shipped = best_curves(shipped_dir, "tuned")
    cold = best_curves(cold_dir, "tuned-cold" if cold_dir == shipped_dir else "tuned")
    peers = peer_times(shipped_dir, peer)
    cases = [c for c in shipped if c in cold and c in peers]
    if not cases:
        sys.exit(f"no case has a shipped curve, a cold curve and a {peer} time")
    cols = min(3, len(cases))
    rows = (len(cases) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.2 * rows), squeeze=False)
    print(f"case: trials to reach {peer}'s time (shipped model / cold), best at the end over {peer}'s time")
    for ax, case in zip(axes.flat, cases):
        bar = peers[case]
        for name, curve, colour in (("shipped model", shipped[case], "tab:blue"), ("cold", cold[case], "tab:orange")):
            ax.plot(range(1, len(curve) + 1), [bar / b if math.isfinite(b) else 0 for b in curve], label=name, color=colour)
        ax.axhline(1.0, color="grey", linestyle="--", linewidth=1, label=peer)
        ax.set_title(case)
        ax.set_xlabel("trials")
        ax.set_ylabel(f"speed over {peer}")
        reach = [trials_to_reach(c[case], bar) for c in (shipped, cold)]
        final = [bar / c[case][-1] if math.isfinite(c[case][-1]) else 0 for c in (shipped, cold)]
        shown = ["never" if r is None else str(r) for r in reach]
        print(f"  {case}: {shown[0]} / {shown[1]} trials; final {final[0]:.2f}x / {final[1]:.2f}x")
    for ax in list(axes.flat)[len(cases):]:
        ax.axis("off")
    axes.flat[0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(dst, dpi=110)
    print(f"plot: {dst}")


if __name__ == "__main__":
    args = sys.argv[1:]
    if len(args) in (2, 3) and args[1].endswith(".png"):
        main(args[0], args[0], *args[1:])  # one run: Ansor-cold's curves beside Ansor's
    elif len(args) in (3, 4):
        main(*args)
    else:
        sys.exit(__doc__)
