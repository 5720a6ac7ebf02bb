#!/usr/bin/python3
"""End-to-end latencies of graph/bench/run_taso_ansor.sh runs: per network,
the original graph tuned, the joint (TASO + Ansor) graph tuned, and the
joint graph with the original's kernels (the rewrites alone), each timing
round a dot and the best round a bar.

    scripts/plot_taso_joint.py OUT.png LABEL=OUT_DIR ...
    (Debian's /usr/bin/python3, python3-matplotlib)

OUT_DIR is the script's output directory (its *_round<r>.txt files). Prints
each network's best latencies and the two ratios over the original.
"""
import glob
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ARMS = [("original", "original graph, tuned"), ("joint", "joint graph, tuned"),
        ("graph_only", "joint graph, original's kernels")]


def rounds(directory, arm):
    times = []
    for path in sorted(glob.glob(f"{directory}/{arm}_round*.txt")):
        m = re.search(r"end-to-end latency: best ([0-9.]+) ms", open(path).read())
        if m:
            times.append(float(m.group(1)))
    return times


def main():
    if len(sys.argv) < 3 or any("=" not in a for a in sys.argv[2:]):
        sys.exit(__doc__)
    runs = [a.split("=", 1) for a in sys.argv[2:]]
    fig, axes = plt.subplots(1, len(runs), figsize=(4.2 * len(runs), 3.8), squeeze=False)
    for ax, (label, directory) in zip(axes[0], runs):
        data = {arm: rounds(directory, arm) for arm, _ in ARMS}
        if not data["original"]:
            sys.exit(f"{directory}: no original_round*.txt with a latency")
        base = min(data["original"])
        line = f"{label}: original {base:.2f} ms"
        for i, (arm, name) in enumerate(ARMS):
            if not data[arm]:
                continue
            best = min(data[arm])
            ax.bar(i, best, color=["#999999", "#3b75af", "#e08a3c"][i], label=name)
            ax.plot([i] * len(data[arm]), data[arm], "k.", markersize=5)
            ax.text(i, best, f"{base / best:.2f}x", ha="center", va="bottom", fontsize=9)
            if arm != "original":
                line += f", {arm} {best:.2f} ms ({base / best:.2f}x)"
        print(line)
        ax.set_xticks(range(len(ARMS)))
        ax.set_xticklabels(["original", "joint", "rewrites\nonly"])
        ax.set_title(label)
        ax.set_ylabel("end-to-end latency, ms (bar: best round)")
    axes[0][0].legend(fontsize=7, loc="lower left")
    fig.tight_layout()
    fig.savefig(sys.argv[1], dpi=120)


if __name__ == "__main__":
    main()
