#!/usr/bin/python3
"""Charts of an ansor_benchmark_harness run.

    scripts/plot_harness.py results.csv results.png [--curves tuning_curves.csv tuning_curves.png]

results.png: per case, every variant's median time relative to the case's
fastest variant (1 = fastest; log scale, lower is better). Variants that
failed, computed a wrong output or ran out of time are marked F / T at the
foot of their slot.

tuning_curves.png: per case where Ansor was tuned (or read from a log), the
best time Ansor had found after each trial (its own measurement: min of its
repeats), each trial's time as dots, and the harness's median of every other
correct variant as dashed lines for reference. With Ansor-cold in the run,
each case shows both searches: with the shipped model and cold.

Needs Debian's python3-matplotlib.
"""
import csv
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ORDER = ["root", "expert", "Mullapudi2016", "Li2018", "Adams2019", "Ansor", "Ansor-cold", "Ansor-model", "oneDNN", "OpenBLAS", "Eigen"]


def number(s):
    try:
        v = float(s)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def read_results(path):
    rows = list(csv.DictReader(open(path)))
    if rows and "ratio_to_best" not in rows[0]:
        sys.exit(f"{path} is not a harness results CSV (no ratio_to_best column)")
    cases, by_case = [], {}
    for r in rows:
        if r["case"] not in by_case:
            cases.append(r["case"])
            by_case[r["case"]] = {}
        by_case[r["case"]][r["variant"]] = r
    return cases, by_case


def plot_results(src, dst):
    cases, by_case = read_results(src)
    if not cases:
        sys.exit(f"{src} holds no results")
    present = [v for v in ORDER if any(v in by_case[c] for c in cases)]
    width = 0.8 / max(1, len(present))
    fig, ax = plt.subplots(figsize=(max(8, 1.1 * len(cases) * len(present) * 0.35 + 3), 5))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    worst = 1.0
    for j, variant in enumerate(present):
        xs, ys, marks = [], [], []
        for i, case in enumerate(cases):
            r = by_case[case].get(variant)
            if r is None:
                continue
            x = i + (j - (len(present) - 1) / 2) * width
            ratio = number(r["ratio_to_best"]) if r["status"] == "ok" else None
            if ratio is None:
                marks.append((x, "T" if r["status"] == "timeout" else "F"))
            else:
                xs.append(x)
                ys.append(ratio)
                worst = max(worst, ratio)
        ax.bar(xs, ys, width, label=variant, color=colors[j % len(colors)])
        for x, m in marks:
            ax.text(x, 0.75, m, ha="center", va="bottom", fontsize=8, color=colors[j % len(colors)], fontweight="bold")
    ax.set_yscale("log")
    ax.set_ylim(0.7, worst * 1.5)
    ax.set_xticks(range(len(cases)))
    ax.set_xticklabels(cases, rotation=30, ha="right")
    ax.set_ylabel("median time / fastest variant's (log; lower is better)")
    ax.set_title("ansor_benchmark_harness: every variant checked against root (F: failed or wrong, T: timeout)")
    ax.legend(ncol=min(5, len(present)), fontsize=8)
    ax.grid(axis="y", which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(dst, dpi=120)
    print(f"wrote {dst}")
    return by_case


def plot_curves(src, dst, by_case):
    rows = list(csv.DictReader(open(src)))
    curves = {}
    for r in rows:
        curves.setdefault(r["case"], []).append(r)
    if not curves:
        print(f"{src}: no tuning curves (Ansor not tuned in this run); {dst} not written")
        return
    n = len(curves)
    cols = min(3, n)
    nrows = (n + cols - 1) // cols
    fig, axes = plt.subplots(nrows, cols, figsize=(5 * cols, 3.6 * nrows), squeeze=False)
    for k, (case, pts) in enumerate(curves.items()):
        ax = axes[k // cols][k % cols]
        sources = []
        for p in pts:
            if p["source"] not in sources:
                sources.append(p["source"])
        for source in sources:
            mine = [p for p in pts if p["source"] == source]
            label = "Ansor-cold" if source.endswith("-cold") else "Ansor-model" if source.endswith("-model") else "Ansor"
            trials = [int(p["trial"]) for p in mine]
            best = [number(p["best_ms"]) for p in mine]
            each = [(int(p["trial"]), number(p["ms"])) for p in mine if number(p["ms"]) is not None]
            line = ax.step(trials, [b if b is not None else float("nan") for b in best], where="post",
                           label=f"{label} best so far")[0]
            if each:
                ax.scatter([t for t, _ in each], [m for _, m in each], s=6, alpha=0.3, color=line.get_color(),
                           label=f"{label} trial")
        others = by_case.get(case, {})
        for i, variant in enumerate(ORDER):
            r = others.get(variant)
            if variant.startswith("Ansor") or r is None or r["status"] != "ok":
                continue
            ms = number(r["median_ms"])
            if ms is not None and variant != "root":
                # Colours after the two Ansor curves', one per variant.
                ax.axhline(ms, linestyle="--", linewidth=0.9, color=f"C{2 + i}", label=variant)
        ax.set_yscale("log")
        ax.set_title(f"{case} ({', '.join(sources)})", fontsize=10)
        ax.set_xlabel("trial")
        ax.set_ylabel("ms (log)")
        ax.legend(fontsize=7)
        ax.grid(alpha=0.3, which="both")
    for k in range(n, nrows * cols):
        axes[k // cols][k % cols].axis("off")
    fig.tight_layout()
    fig.savefig(dst, dpi=120)
    print(f"wrote {dst}")


def main(argv):
    if len(argv) not in (3, 6) or (len(argv) == 6 and argv[3] != "--curves"):
        sys.exit(__doc__)
    by_case = plot_results(argv[1], argv[2])
    if len(argv) == 6:
        plot_curves(argv[4], argv[5], by_case)


if __name__ == "__main__":
    main(sys.argv)
