#!/usr/bin/env python3
"""Where distributed tuning stops scaling: a model of ansor_tune_tasks under
mpirun, fed with the costs a real run measured (its --stats file).

A round of B candidates costs rank 0 a search time S (evolving the
population under the cost model and retraining it: the time of the run
outside the pool's measure() calls, per round), then the workers measure the
round: each of the W = ranks - 1 workers takes chunks of at most c candidates
(its cores); a chunk of k costs ceil(k / c) compile waves of b seconds (the
candidates compile in parallel on the worker's cores), k timed runs of r
seconds one after another (timing stays alone on the host), and a message
round trip m. The round ends with its slowest worker. Throughput is
B / (S + slowest worker) candidates per unit of time.

b, r and m are the means over the stats file's chunks (m: round trip minus
the worker's own time); S the median gap between consecutive rounds (rank
0 evolving the population under the retrained model). S is taken as
independent of B: the evolutionary search scores a population of fixed size
whatever the round size (the retraining, which grows with the programs
measured, is not modelled).

  simulate_distributed_tuning.py --stats three_ranks.json [--cores 16] [--round 16]
      [--ranks 1,2,3,8,64,512] [--plot scaling.png] [--measured 1:r1.json,2:r2.json,3:r3.json]
"""
import argparse
import json
import math
import statistics


def costs(stats):
    chunks = stats["chunks"]
    compile_s = [x for c in chunks for x in c["compile_s"]]
    run_s = [x for c in chunks for x in c["run_s"]]
    message_s = [max(0.0, c["round_trip_s"] - c["worker_s"]) for c in chunks]
    # Rank 0's search per round: the median gap between consecutive rounds
    # (evolution under the trained model and its retraining); the run's
    # time outside measurement per round where there is a single round.
    gaps = stats.get("search_gaps_s", [])
    search_s = statistics.median(gaps) if gaps else (stats["wall_s"] - stats["measuring_s"]) / max(1, stats["rounds"])
    return {"compile_s": statistics.mean(compile_s), "run_s": statistics.mean(run_s),
            "message_s": statistics.mean(message_s), "search_s": search_s}


def round_seconds(workers, round_size, cores, c):
    """Rank 0's search plus the slowest worker's share of one round."""
    if workers == 0:
        # Rank 0 measures itself: its cores compile, one run at a time.
        measure = math.ceil(round_size / cores) * c["compile_s"] + round_size * c["run_s"]
        return c["search_s"] + measure
    per_worker = math.ceil(round_size / workers)
    measure = 0.0
    left = per_worker
    while left > 0:
        k = min(cores, left)
        measure += c["compile_s"] + k * c["run_s"] + c["message_s"]
        left -= k
    return c["search_s"] + measure


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--stats", required=True, help="--stats file of a distributed ansor_tune_tasks run")
    ap.add_argument("--cores", type=int, default=16, help="cores per worker host")
    ap.add_argument("--round", type=int, default=16, help="today's round size (HL_ANSOR_MEASURES_PER_ROUND)")
    ap.add_argument("--ranks", default="1,2,3,8,64,512")
    ap.add_argument("--measured", default="", help="ranks:stats.json,... measured runs to print beside the model")
    ap.add_argument("--measured-cores", type=int, default=0, help="cores per rank in the measured runs, to model them too")
    ap.add_argument("--plot", default="")
    args = ap.parse_args()
    with open(args.stats) as f:
        c = costs(json.load(f))
    print("costs from %s: compile %.3f s, timed run %.3f s per candidate; message %.4f s per chunk; "
          "rank 0's search %.2f s per round" % (args.stats, c["compile_s"], c["run_s"], c["message_s"], c["search_s"]))

    measured = {}
    for item in filter(None, args.measured.split(",")):
        ranks, path = item.split(":", 1)
        with open(path) as f:
            measured[int(ranks)] = json.load(f)["candidates_per_minute"]
    if measured:
        mc = args.measured_cores or args.cores
        print("\nthis machine (%d cores per rank in the model), round %d:" % (mc, args.round))
        print("%6s %14s %14s" % ("ranks", "measured/min", "model/min"))
        for ranks in sorted(measured):
            model = 60 * args.round / round_seconds(ranks - 1, args.round, mc, c)
            print("%6d %14.1f %14.1f" % (ranks, measured[ranks], model))

    rank_list = [int(x) for x in args.ranks.split(",")]
    print("\ncluster of %d-core hosts, one rank per host (rank 0 searches, the others measure):" % args.cores)
    print("%6s | %12s %12s | %12s %12s %12s" % ("ranks", "B=%d /min" % args.round, "search share",
                                                "B=W*c", "/min", "search share"))
    rows = []
    for ranks in rank_list:
        w = ranks - 1
        t_fixed = round_seconds(w, args.round, args.cores, c)
        b_full = max(args.round, w * args.cores)
        t_full = round_seconds(w, b_full, args.cores, c)
        fixed = 60 * args.round / t_fixed
        full = 60 * b_full / t_full
        rows.append((ranks, fixed, full))
        print("%6d | %12.1f %11.0f%% | %12d %12.1f %11.0f%%" % (ranks, fixed, 100 * c["search_s"] / t_fixed, b_full, full,
                                                             100 * c["search_s"] / t_full))
    # Rank 0's ceiling: all its time searching, measurement free.
    print("\nceiling with measurement free: B / S = %.0f candidates/min at B=%d; with rounds of W*c, "
          "the search itself (S per round, independent of B in this model) is what stops scaling."
          % (60 * args.round / c["search_s"], args.round))

    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(6.5, 4))
        ax.plot([r[0] for r in rows], [r[1] for r in rows], "o-", label="model, rounds of %d" % args.round)
        ax.plot([r[0] for r in rows], [r[2] for r in rows], "s-", label="model, rounds of workers x %d cores" % args.cores)
        if measured:
            ax.plot(sorted(measured), [measured[k] for k in sorted(measured)], "k^", label="measured here (2 cores)")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("MPI ranks (rank 0 searches, one worker rank per host)")
        ax.set_ylabel("measured candidates per minute")
        ax.set_title("Distributed tuning: throughput by ranks")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(args.plot, dpi=120)
        print("plot: %s" % args.plot)


if __name__ == "__main__":
    main()
