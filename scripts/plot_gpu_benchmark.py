#!/usr/bin/python3
"""Bar chart of a GPU benchmark run (apps/gpu_benchmark/run_gpu_benchmark.sh):
each variant's best time per shape relative to the vendor library's (cuBLAS,
cuDNN), log scale; 1 is the vendor library's speed.

    scripts/plot_gpu_benchmark.py OUTPUT.txt results.png   (the run's printed output)
"""
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read_table(path):
    """The table the run prints last: a header starting 'shape', then one line per shape."""
    lines = open(path).read().splitlines()
    start = max(i for i, line in enumerate(lines) if line.startswith("shape "))
    header = lines[start].split()
    variants = [h[:-3] for h in header[1:] if h.endswith("_ms") and h != "vendor_ms"]
    rows = {}
    for line in lines[start + 1:]:
        cells = line.split()
        if len(cells) < len(variants) + 3:
            continue
        times = dict(zip(variants + ["vendor"], (float(c) for c in cells[1:len(variants) + 2])))
        rows[cells[0]] = times
    return variants, rows


def main(src, dst):
    variants, rows = read_table(src)
    shapes = list(rows)
    width = 0.8 / len(variants)
    fig, ax = plt.subplots(figsize=(9, 4))
    for k, v in enumerate(variants):
        xs, ys = [], []
        for i, s in enumerate(shapes):
            t, vendor = rows[s][v], rows[s]["vendor"]
            if not math.isnan(t):
                xs.append(i + k * width)
                ys.append(vendor / t)
        ax.bar(xs, ys, width, label=v)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_yscale("log")
    ax.set_xticks([i + width * (len(variants) - 1) / 2 for i in range(len(shapes))])
    ax.set_xticklabels(shapes)
    ax.set_ylabel("speed relative to cuBLAS / cuDNN")
    ax.legend()
    fig.tight_layout()
    fig.savefig(dst, dpi=110)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
