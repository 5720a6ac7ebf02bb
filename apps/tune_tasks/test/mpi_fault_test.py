#!/usr/bin/env python3
"""Distributed tuning on one machine (run by ctest as tune_tasks_mpi).

1. `mpirun -np 3` tunes two tiny tasks: rank 0 searches and writes the log,
   ranks 1 and 2 measure. Once both workers have measured something, rank 2
   is killed with SIGKILL. The run must finish (exit 0) with the whole
   budget in the log: every candidate accounted for (measured by rank 1 or
   2, failed as lost, or measured by rank 0 with no worker left), rank 2
   reported lost, both workers' results in the one log.
2. `mpirun -np 2` tunes one pipeline (--generator) and the log holds its budget.
"""
import argparse
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def count_records(log):
    if not os.path.exists(log):
        return 0
    with open(log) as f:
        return sum(1 for line in f if line.strip())


def mpirun(args, np):
    cmd = [args.mpirun, "-np", str(np), "--oversubscribe", "--enable-recovery", "--bind-to", "none"]
    if os.geteuid() == 0:
        cmd.append("--allow-run-as-root")
    return cmd


def worker_table(stdout):
    """rank -> (state, candidates measured) from the tool's worker lines."""
    table = {}
    for m in re.finditer(r"^rank (\d+) \S+ \d+ cores: ([a-z ]+), (\d+) candidates measured", stdout, re.M):
        table[int(m.group(1))] = (m.group(2), int(m.group(3)))
    return table


def run_with_kill(args, workdir):
    log = os.path.join(workdir, "three_ranks.jsonl")
    trials = 32
    cmd = mpirun(args, 3) + [args.tool, "--tasks", args.tasks, "--log", log, "--trials", str(trials),
                             "--target", args.target, "--worker-silence", "8"]
    env = dict(os.environ, HL_ANSOR_MEASURES_PER_ROUND="8")
    print("$ " + " ".join(cmd), flush=True)
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    pids, err_lines = {}, []

    def read_stderr():
        for line in p.stderr:
            err_lines.append(line)
            sys.stderr.write(line)
            m = re.search(r"\[mpi\] rank (\d+) on \S+ \(\d+ cores, pid (\d+)\) measures", line)
            if m:
                pids[int(m.group(1))] = int(m.group(2))

    reader = threading.Thread(target=read_stderr)
    reader.start()
    out_chunks = []
    threading.Thread(target=lambda: out_chunks.append(p.stdout.read())).start()
    killed = False
    deadline = time.time() + args.timeout
    while p.poll() is None and time.time() < deadline:
        time.sleep(0.2)
        # Kill rank 2 once the log holds a few records from the first round on.
        if not killed and 2 in pids and count_records(log) >= 6:
            os.kill(pids[2], signal.SIGKILL)
            killed = True
            print("killed rank 2 (pid %d) with %d records in the log" % (pids[2], count_records(log)), flush=True)
    if p.poll() is None:
        p.kill()
        fail("the 3-rank run did not finish in %d s" % args.timeout)
    reader.join()
    time.sleep(0.2)
    stdout = "".join(out_chunks)
    print(stdout)
    if p.returncode != 0:
        fail("the 3-rank run exited with %d" % p.returncode)
    if not killed:
        fail("rank 2 was never killed (pids seen: %s, records: %d)" % (pids, count_records(log)))
    records = count_records(log)
    if records != trials:
        fail("the log holds %d records, the budget was %d" % (records, trials))
    workers = worker_table(stdout)
    if set(workers) != {1, 2}:
        fail("worker lines for ranks %s, expected 1 and 2" % sorted(workers))
    if workers[2][0] != "lost":
        fail("rank 2 is reported %s, not lost" % workers[2][0])
    if workers[1][1] == 0 or workers[2][1] == 0:
        fail("a worker measured nothing: %s" % workers)
    m = re.search(r"workers: \d+ candidates sent in \d+ chunks, (\d+) results back, (\d+) requeued after a lost "
                  r"worker, (\d+) failed as lost, (\d+) measured on rank 0, (\d+) worker\(s\) lost", stdout)
    if not m:
        fail("no workers summary line")
    results, requeued, lost_failed, here, lost = map(int, m.groups())
    if lost != 1:
        fail("%d workers lost, expected 1" % lost)
    if results + lost_failed + here != trials:
        fail("results %d + failed as lost %d + measured on rank 0 %d != %d trials" % (results, lost_failed, here, trials))
    if results != workers[1][1] + workers[2][1]:
        fail("results back %d != ranks' candidates %s" % (results, workers))
    hosts = set()
    with open(log) as f:
        for line in f:
            hosts.add(json.loads(line)["host"])
    if len(hosts) != 1:
        fail("records name several hosts: %s" % hosts)
    print("ok: %d records; rank 1 measured %d, rank 2 %d before it was killed; %d requeued" %
          (records, workers[1][1], workers[2][1], requeued))


def run_one_pipeline(args, workdir):
    log = os.path.join(workdir, "one_pipeline.jsonl")
    cmd = mpirun(args, 2) + [args.tool, "--generator", "dense_bias_act", "--param", "N=4", "--param", "K=32",
                             "--param", "M=16", "--param", "act=1", "--log", log, "--trials", "8",
                             "--target", args.target]
    print("$ " + " ".join(cmd), flush=True)
    env = dict(os.environ, HL_ANSOR_MEASURES_PER_ROUND="8")
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout, env=env)
    sys.stderr.write(p.stderr)
    print(p.stdout)
    if p.returncode != 0:
        fail("the single-pipeline run exited with %d" % p.returncode)
    if count_records(log) != 8:
        fail("the single-pipeline log holds %d records, not 8" % count_records(log))
    workers = worker_table(p.stdout)
    if workers.get(1, ("", 0))[1] != 8:
        fail("rank 1 did not measure all 8 candidates: %s" % workers)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mpirun", required=True)
    ap.add_argument("--tool", required=True)
    ap.add_argument("--tasks", required=True)
    ap.add_argument("--target", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--timeout", type=int, default=400)
    args = ap.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    for f in os.listdir(args.workdir):
        os.remove(os.path.join(args.workdir, f))
    run_with_kill(args, args.workdir)
    run_one_pipeline(args, args.workdir)
    print("PASS")


if __name__ == "__main__":
    main()
