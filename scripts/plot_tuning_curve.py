#!/usr/bin/python3
"""Tuning curves of an ansor_tuning_curve CSV: best time so far against
trials, one line per policy (the mean over seeds, each seed faint). Prints,
per policy, the final best time and the trials it took to reach random
search's final best (the mean over seeds of random's final best), for
each seed and for the policy's mean curve.

    scripts/plot_tuning_curve.py curve.csv curve.png   (Debian's /usr/bin/python3, python3-matplotlib)
"""
import csv
import math
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def curves(rows):
    """policy -> seed -> [best ms after trial 1, 2, ...] (inf before any success)."""
    out = defaultdict(dict)
    for r in rows:
        best = float(r["best_ms"]) if r["best_ms"] not in ("", "nan", "inf") else math.inf
        out[r["policy"]].setdefault(r["seed"], []).append(best)
    return out


def trials_to_reach(curve, target):
    for i, best in enumerate(curve):
        if best <= target:
            return i + 1
    return None


def main(src, dst):
    rows = list(csv.DictReader(open(src)))
    if not rows:
        sys.exit(f"{src}: no measurements")
    by_policy = curves(rows)
    title = f"{rows[0]['op']} shape {rows[0]['shape']}"
    random_finals = [c[-1] for c in by_policy.get("random", {}).values() if math.isfinite(c[-1])]
    target = sum(random_finals) / len(random_finals) if random_finals else None

    fig, ax = plt.subplots(figsize=(7, 4.5))
    print(f"{title}: policy, seeds, final best ms (mean), trials to reach random's final best"
          + (f" ({target:.4f} ms)" if target else " (no random run)"))
    for policy, seeds in by_policy.items():
        n = min(len(c) for c in seeds.values())
        mean = []
        for i in range(n):
            vals = [c[i] for c in seeds.values() if math.isfinite(c[i])]
            mean.append(sum(vals) / len(vals) if len(vals) == len(seeds) else math.nan)
        line, = ax.plot(range(1, n + 1), mean, label=policy)
        for c in seeds.values():
            ax.plot(range(1, len(c) + 1), c, color=line.get_color(), alpha=0.25, linewidth=0.8)
        finals = [c[-1] for c in seeds.values()]
        reach = [trials_to_reach(c, target) for c in seeds.values()] if target else []
        reach_text = ", ".join("never" if r is None else str(r) for r in reach) or "-"
        if target:
            on_mean = trials_to_reach(mean, target)
            reach_text += f"; mean curve: {'never' if on_mean is None else on_mean}"
        print(f"  {policy:14s} {len(seeds):2d}  {sum(finals) / len(finals):10.4f}  {reach_text}")
    ax.set_yscale("log")
    ax.set_xlabel("trials (programs measured)")
    ax.set_ylabel("best time so far (ms, log scale)")
    ax.set_title(f"Tuning curves, {title}")
    ax.legend()
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(dst, dpi=120)
    print(f"wrote {dst}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
