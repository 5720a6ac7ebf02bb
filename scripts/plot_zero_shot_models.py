#!/usr/bin/python3
"""Zero-shot programs of several cost models, one harness run per model
compared with the shipped one: per case, each model's program time over the
peer's time measured in the same run (Adams2019 by default), log scale.

    scripts/plot_zero_shot_models.py OUT.png LABEL=RESULTS.csv[:VARIANT] ... [--peer Adams2019]
    (Debian's /usr/bin/python3, python3-matplotlib)

RESULTS.csv is an ansor_benchmark_harness results file; VARIANT is the row
to read (Ansor by default, Ansor-model for the --model file's program).
Cases the peer did not schedule correctly are left out. Prints each
label's geomean over the peer and its worst case.
"""
import csv
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read_times(path):
    times = {}
    with open(path) as f:
        for row in csv.DictReader(f):
            if row["status"] == "ok":
                times[(row["case"], row["variant"])] = float(row["median_ms"])
    return times


def main(argv):
    peer = "Adams2019"
    if "--peer" in argv:
        i = argv.index("--peer")
        peer = argv[i + 1]
        argv = argv[:i] + argv[i + 2:]
    if len(argv) < 3:
        sys.exit(__doc__)
    out, series = argv[1], []
    for spec in argv[2:]:
        if "=" not in spec:
            sys.exit("expected LABEL=RESULTS.csv[:VARIANT], not " + spec)
        label, source = spec.split("=", 1)
        path, _, variant = source.partition(":")
        series.append((label, read_times(path), variant or "Ansor"))
    cases = []
    for _, times, _ in series:
        for case, variant in times:
            if case not in cases and variant == peer:
                cases.append(case)
    fig, ax = plt.subplots(figsize=(max(8, 0.9 * len(cases)), 4.5))
    width = 0.8 / len(series)
    for k, (label, times, variant) in enumerate(series):
        ratios = [times[(c, variant)] / times[(c, peer)] if (c, variant) in times and (c, peer) in times else float("nan")
                  for c in cases]
        ax.bar([i + (k - (len(series) - 1) / 2) * width for i in range(len(cases))], ratios, width, label=label)
        done = [(r, c) for r, c in zip(ratios, cases) if not math.isnan(r)]
        geomean = math.exp(sum(math.log(r) for r, _ in done) / len(done))
        worst = max(done)
        print(f"{label}: {peer} / model {1 / geomean:.2f}x over {len(done)} cases; worst {worst[1]} at {worst[0]:.2f}x the peer's time")
    ax.axhline(1, color="black", linewidth=0.8)
    ax.set_yscale("log")
    ax.set_xticks(range(len(cases)))
    ax.set_xticklabels(cases, rotation=35, ha="right")
    ax.set_ylabel(f"zero-shot time / {peer}'s (lower is better)")
    ax.set_title("Zero-shot programs of each cost model against " + peer)
    ax.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    main(sys.argv)
