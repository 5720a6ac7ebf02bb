#!/usr/bin/python3
"""Bar chart of an ansor_operator_benchmark CSV: speedup over the unscheduled
pipeline (every Func at root) per operator shape and scheduler, log scale.
Also prints, for every other scheduler, the geomean of its time over Ansor's
across the operator shapes where both ran correctly (> 1: Ansor faster).

    scripts/plot_benchmark.py results.csv results.png   (Debian's /usr/bin/python3, python3-matplotlib)
"""
import csv
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(src, dst):
    rows = list(csv.DictReader(open(src)))
    cases, variants = [], []
    speedup = {}
    for r in rows:
        case = f"{r['op']}:{r['shape']}"
        if case not in cases:
            cases.append(case)
        if r["variant"] != "root" and r["variant"] not in variants:
            variants.append(r["variant"])
        if r["status"] == "ok" and r["speedup_vs_root"] not in ("", "nan"):
            speedup[(case, r["variant"])] = float(r["speedup_vs_root"])
    ms = {(f"{r['op']}:{r['shape']}", r["variant"]): float(r["ms"]) for r in rows if r["status"] == "ok"}
    for v in variants:
        if v == "Ansor":
            continue
        ratios = [ms[(c, v)] / ms[(c, "Ansor")] for c in cases if (c, v) in ms and (c, "Ansor") in ms]
        if ratios:
            g = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
            print(f"geomean {v} time / Ansor time: {g:.2f}x over {len(ratios)} operator shapes")
    width = 0.8 / max(1, len(variants))
    fig, ax = plt.subplots(figsize=(max(6, 0.9 * len(cases) + 2), 4.5))
    for i, v in enumerate(variants):
        xs = [c + (i - (len(variants) - 1) / 2) * width for c in range(len(cases))]
        ys = [speedup.get((case, v), math.nan) for case in cases]
        ax.bar(xs, ys, width, label=v)
    ax.set_yscale("log")
    ax.axhline(1.0, color="grey", linewidth=0.8)
    ax.set_xticks(range(len(cases)))
    ax.set_xticklabels(cases, rotation=45, ha="right")
    ax.set_ylabel("speedup over every Func at root (log)")
    ax.set_title("Operator suite, batch 1: same run, same machine")
    ax.legend()
    fig.tight_layout()
    fig.savefig(dst, dpi=120)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
