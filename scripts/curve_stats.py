#!/usr/bin/env python3
"""Summarises a tuning-curve CSV written by ansor_tuning_curve --csv.

For every policy it prints the figures docs/results.md tabulates: the best
time per seed at the half and full budget, the mean over seeds of those, the
trial at which the policy's mean curve first reaches random sampling's mean
final best, the trial at which each seed reaches random's final best of the
same seed, the median program measured after the first round, how many
programs beat a threshold, and the best of the first round.

usage: curve_stats.py CURVE.csv [--under MS] [--first-round N]
"""
import argparse
import csv
import statistics
from collections import defaultdict


def load(path):
    """Returns {policy: {seed: [(trial, ok, ms, best_ms)]}} in trial order."""
    runs = defaultdict(lambda: defaultdict(list))
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            best = row["best_ms"]
            runs[row["policy"]][int(row["seed"])].append(
                (int(row["trial"]), row["ok"] == "1",
                 float(row["ms"]) if row["ms"] else None,
                 float(best) if best not in ("", "inf", "nan") else float("inf")))
    for seeds in runs.values():
        for rows in seeds.values():
            rows.sort()
    return runs


def best_at(rows, trial):
    """Best time after `trial` trials (the last row at or before it)."""
    best = float("inf")
    for t, _, _, b in rows:
        if t > trial:
            break
        best = b
    return best


def first_trial_reaching(rows, target):
    for t, _, _, b in rows:
        if b <= target:
            return t
    return None


def mean_curve(seeds, trials):
    return [statistics.mean(best_at(rows, t) for rows in seeds.values())
            for t in range(1, trials + 1)]


def fmt(x):
    return "never" if x is None else str(x)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv")
    parser.add_argument("--under", type=float, default=None,
                        help="count programs faster than this many ms")
    parser.add_argument("--first-round", type=int, default=16)
    args = parser.parse_args()

    runs = load(args.csv)
    trials = max(t for seeds in runs.values() for rows in seeds.values() for t, *_ in rows)
    half = trials // 2
    if "random" not in runs:
        raise SystemExit(f"{args.csv}: no 'random' policy to compare with")
    random_final = {s: best_at(rows, trials) for s, rows in runs["random"].items()}
    random_mean_final = statistics.mean(random_final.values())
    print(f"{args.csv}: {trials} trials; random's mean final best {random_mean_final:.4g} ms")

    for policy, seeds in runs.items():
        order = sorted(seeds)
        at_half = [best_at(seeds[s], half) for s in order]
        at_end = [best_at(seeds[s], trials) for s in order]
        curve = mean_curve(seeds, trials)
        reach_mean = next((t + 1 for t, v in enumerate(curve) if v <= random_mean_final), None)
        reach_own = [first_trial_reaching(seeds[s], random_final[s]) if s in random_final else None
                     for s in order]
        later = [ms for s in order for t, ok, ms, _ in seeds[s]
                 if t > args.first_round and ok and ms is not None]
        first = [best_at(seeds[s], args.first_round) for s in order]
        print(f"\n{policy} (seeds {', '.join(map(str, order))})")
        print(f"  best after {half}: {' / '.join(f'{v:.4g}' for v in at_half)}  mean {statistics.mean(at_half):.4g}")
        print(f"  best after {trials}: {' / '.join(f'{v:.4g}' for v in at_end)}  mean {statistics.mean(at_end):.4g}")
        print(f"  mean curve reaches random's mean final best at trial {fmt(reach_mean)}")
        print(f"  each seed reaches random's final best of the same seed at {' / '.join(map(fmt, reach_own))}")
        print(f"  best of the first {args.first_round}: {' / '.join(f'{v:.4g}' for v in first)}")
        if later:
            print(f"  median program, trials {args.first_round + 1}-{trials}: {statistics.median(later):.4g} ms"
                  f" ({len(later)} valid)")
        if args.under is not None:
            every = [ms for s in order for _, ok, ms, _ in seeds[s] if ok and ms is not None]
            print(f"  programs under {args.under} ms: {sum(ms < args.under for ms in every)} of {len(every)}")


if __name__ == "__main__":
    main()
