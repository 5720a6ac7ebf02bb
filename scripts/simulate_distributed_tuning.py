#!/usr/bin/env python3
"""Where distributed tuning stops scaling: a model of ansor_tune_tasks under
mpirun, fed with the costs real runs measured (their --stats files).

Rank 0's search between two rounds (evolving the population under the cost
model, retraining the model on every program measured so far) is fitted as
    S(B, N) = s0 + sB * B + sN * N
over the gaps between rounds of the given runs, where B is the round size
and N the programs measured before the gap: retraining grows with the log.
A round of B candidates is measured by W = ranks - 1 workers of c cores:
each takes chunks of at most c candidates; a chunk of k costs one compile
wave of b seconds (its candidates compile in parallel on the worker's
cores), k timed runs of r seconds one after another (timing stays alone on
the host) and a message round trip m. The round ends with its slowest
worker. With one rank, rank 0 measures itself on its c cores.

A tuning run of T trials is then simulated round by round, for rounds of a
fixed size and for rounds of W * c (every worker core busy).

  simulate_distributed_tuning.py --stats run_b16.json,run_b64.json [--cores 16] [--round 16]
      [--trials 20000] [--tasks 20] [--ranks 1,2,3,8,64,512] [--plot scaling.png]
      [--measured 1:r1.json,2:r2.json,3:r3.json --measured-cores 2]
"""
import argparse
import json
import math
import statistics

import numpy as np


def measure_costs(stats_list):
    chunks = [c for s in stats_list for c in s.get("chunks", [])]
    return {"compile_s": statistics.mean(x for c in chunks for x in c["compile_s"]),
            "run_s": statistics.mean(x for c in chunks for x in c["run_s"]),
            "message_s": statistics.mean(max(0.0, c["round_trip_s"] - c["worker_s"]) for c in chunks)}


def fit_search(stats_list):
    """Least squares of the gaps between rounds on (1, B, N)."""
    rows, gaps = [], []
    for s in stats_list:
        b = s["trials"] / s["rounds"]
        for i, gap in enumerate(s.get("search_gaps_s", [])):
            rows.append([1.0, b, b * (i + 1)])
            gaps.append(gap)
    coef, *_ = np.linalg.lstsq(np.array(rows), np.array(gaps), rcond=None)
    s0, sb, sn = (max(0.0, x) for x in coef)
    return {"s0": s0, "sB": sb, "sN": sn, "gaps": len(gaps)}


def measure_seconds(workers, round_size, cores, c):
    if workers == 0:
        return math.ceil(round_size / cores) * c["compile_s"] + round_size * c["run_s"]
    left, t = math.ceil(round_size / workers), 0.0
    while left > 0:
        k = min(cores, left)
        t += c["compile_s"] + k * c["run_s"] + c["message_s"]
        left -= k
    return t


def simulate(ranks, round_size, trials, cores, c, s, tasks=1):
    """Total seconds and rank 0's search seconds of a run of `trials`
    spread evenly over `tasks` tasks, each with its own model (N counts the
    task's own programs)."""
    workers, n, total, search = ranks - 1, 0, 0.0, 0.0
    while n < trials:
        b = min(round_size, trials - n)
        total += measure_seconds(workers, b, cores, c)
        n += b
        if n < trials:
            gap = s["s0"] + s["sB"] * b + s["sN"] * n / tasks
            total += gap
            search += gap
    return total, search


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--stats", required=True, help="comma-separated --stats files of distributed runs")
    ap.add_argument("--cores", type=int, default=16, help="cores per worker host")
    ap.add_argument("--round", type=int, default=16, help="the fixed round size (HL_ANSOR_MEASURES_PER_ROUND)")
    ap.add_argument("--trials", type=int, default=20000, help="the run simulated (Ansor's ResNet-50 budget)")
    ap.add_argument("--tasks", type=int, default=1,
                    help="tasks the trials are spread over, each retraining its own model (networks/resnet50.json: 27)")
    ap.add_argument("--ranks", default="1,2,3,8,64,512")
    ap.add_argument("--measured", default="", help="ranks:stats.json,... measured runs to print beside the model")
    ap.add_argument("--measured-cores", type=int, default=2)
    ap.add_argument("--plot", default="")
    args = ap.parse_args()
    stats = [json.load(open(p)) for p in args.stats.split(",")]
    c = measure_costs(stats)
    s = fit_search(stats)
    print("measured: compile %.3f s and timed run %.3f s per candidate, message %.4f s per chunk" %
          (c["compile_s"], c["run_s"], c["message_s"]))
    print("rank 0's search between rounds, fitted on %d gaps: S = %.2f s + %.4f s x B + %.5f s x N" %
          (s["gaps"], s["s0"], s["sB"], s["sN"]))

    measured = {}
    for item in filter(None, args.measured.split(",")):
        ranks, path = item.split(":", 1)
        measured[int(ranks)] = json.load(open(path))
    if measured:
        print("\nthis machine (%d cores, every rank on it), rounds of %d:" % (args.measured_cores, args.round))
        print("%6s %14s %14s" % ("ranks", "measured/min", "model/min"))
        for ranks in sorted(measured):
            m = measured[ranks]
            total, _ = simulate(ranks, args.round, m["trials"], args.measured_cores, c, s)
            print("%6d %14.1f %14.1f" % (ranks, m["candidates_per_minute"], 60 * m["trials"] / total))

    print("\n%d trials over %d task(s) on %d-core hosts, one rank per host (rank 0 searches, the others measure):" %
          (args.trials, args.tasks, args.cores))
    print("%6s | %-32s | %-40s" % ("", "rounds of %d" % args.round, "rounds of workers x cores"))
    print("%6s | %9s %9s %11s | %6s %9s %9s %11s" % ("ranks", "hours", "/min", "search", "round", "hours", "/min", "search"))
    rows = []
    for ranks in [int(x) for x in args.ranks.split(",")]:
        w = ranks - 1
        t_fixed, s_fixed = simulate(ranks, args.round, args.trials, args.cores, c, s, args.tasks)
        b_full = max(args.round, w * args.cores)
        t_full, s_full = simulate(ranks, b_full, args.trials, args.cores, c, s, args.tasks)
        rows.append((ranks, 60 * args.trials / t_fixed, 60 * args.trials / t_full))
        print("%6d | %9.2f %9.1f %10.0f%% | %6d %9.2f %9.1f %10.0f%%" %
              (ranks, t_fixed / 3600, rows[-1][1], 100 * s_fixed / t_fixed, b_full, t_full / 3600, rows[-1][2],
               100 * s_full / t_full))

    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(6.5, 4))
        ax.plot([r[0] for r in rows], [r[1] for r in rows], "o-", label="model, rounds of %d" % args.round)
        ax.plot([r[0] for r in rows], [r[2] for r in rows], "s-", label="model, rounds of workers x %d cores" % args.cores)
        if measured:
            ks = sorted(measured)
            ax.plot(ks, [measured[k]["candidates_per_minute"] for k in ks], "k^",
                    label="measured here (%d cores, all ranks on one machine)" % args.measured_cores)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("MPI ranks (rank 0 searches; one worker rank per host)")
        ax.set_ylabel("candidates measured per minute")
        ax.set_title("Distributed tuning, %d trials over %d tasks" % (args.trials, args.tasks))
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(args.plot, dpi=120)
        print("plot: %s" % args.plot)


if __name__ == "__main__":
    main()
