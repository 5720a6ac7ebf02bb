#!/usr/bin/env python3
"""End-to-end test of ansor_tune_tasks (run by ctest as tune_tasks_resume).

1. Tunes two tiny tasks for 8 trials (units of 4) with a log: the log holds 8
   records and the CSV one row per unit.
2. Starts a run with a budget of 40, kills it (SIGKILL) once the log holds at
   least 12 records, and reruns with a budget of 24: the rerun must report the
   killed run's records as already spent and stop with exactly 24 records in
   the log (or as many as the killed run left, if it got further).
3. For each task, builds its generator through GenGen with the plugin,
   HL_ANSOR_LOG=<log> and HL_ANSOR_TRIALS=0: the plugin must find the records
   under the same pipeline key and apply the fastest one, whose time (in the
   schedule file's comment) must equal both the fastest time in the log for
   that task and the best time the tool reported. The build gives the plugin
   the tool's parallelism (machine_params), since a record applies only under
   the thread count it was measured with.
"""
import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def records(log):
    if not os.path.exists(log):
        return []
    out = []
    with open(log) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError:
                pass  # a line cut short by the kill
    return out


def tool_table(stdout):
    """task -> (trials, best ms) from the tool's final table."""
    table = {}
    for line in stdout.splitlines():
        m = re.match(r"^(\S+)\s+([0-9.]+)\s+(\d+)\s+(\d+)\s+(\S+)\s+(\S+)", line)
        if m and m.group(1) != "task":
            table[m.group(1)] = (int(m.group(3)), float(m.group(5)) if m.group(5) != "-" else None)
    return table


def main():
    ap = argparse.ArgumentParser()
    for a in ("tool", "generator", "plugin", "tasks", "target", "workdir"):
        ap.add_argument("--" + a, required=True)
    args = ap.parse_args()
    shutil.rmtree(args.workdir, ignore_errors=True)
    os.makedirs(args.workdir)
    log = os.path.join(args.workdir, "tiny.jsonl")
    csv = os.path.join(args.workdir, "units.csv")
    env = dict(os.environ)
    for k in list(env):
        if k.startswith("HL_ANSOR_"):
            del env[k]
    env.update({"HL_ANSOR_MEASURES_PER_ROUND": "4", "HL_ANSOR_POPULATION": "64", "HL_ANSOR_REPEATS": "2",
                "HL_ANSOR_GENERATIONS": "2"})
    base = [args.tool, "--tasks", args.tasks, "--log", log, "--csv", csv, "--target", args.target]

    # 1. A first run.
    r = subprocess.run(base + ["--trials", "8"], env=env, capture_output=True, text=True, timeout=200)
    if r.returncode != 0:
        fail("first run exited %d:\n%s" % (r.returncode, r.stderr))
    if len(records(log)) != 8:
        fail("first run: expected 8 records, log has %d" % len(records(log)))
    with open(csv) as f:
        rows = f.read().strip().splitlines()
    if len(rows) != 1 + 2 or not rows[0].startswith("unit,task,"):
        fail("first run: expected a header and 2 unit rows in the CSV, got:\n" + "\n".join(rows))
    print("first run: 8 records, 2 units")

    # 2. Killed mid-run, then resumed.
    p = subprocess.Popen(base + ["--trials", "40"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 150
    while len(records(log)) < 12:
        if p.poll() is not None:
            fail("the run to be killed ended by itself (exit %d)" % p.returncode)
        if time.time() > deadline:
            p.kill()
            fail("the run to be killed made no progress")
        time.sleep(0.05)
    p.send_signal(signal.SIGKILL)
    p.wait()
    before = len(records(log))
    print("killed with %d records in the log" % before)
    r = subprocess.run(base + ["--trials", "24"], env=env, capture_output=True, text=True, timeout=200)
    if r.returncode != 0:
        fail("resumed run exited %d:\n%s" % (r.returncode, r.stderr))
    if "(%d in the log already)" % before not in r.stderr:
        fail("resumed run did not count the %d logged trials:\n%s" % (before, r.stderr[:2000]))
    after = len(records(log))
    if after != max(before, 24):
        fail("resumed run: expected %d records, log has %d" % (max(before, 24), after))
    table = tool_table(r.stdout)
    if set(table) != {"dense", "conv"} or sum(t for t, _ in table.values()) != after:
        fail("tool table does not account for the %d records:\n%s" % (after, r.stdout))
    print("resumed: %d records; tool says %s" % (after, table))

    # 3. The plugin applies each task's logged best.
    spec = json.load(open(args.tasks))
    by_pipeline = {}
    for rec in records(log):
        if rec["ok"]:
            by_pipeline.setdefault(rec["pipeline"], []).append(rec["min_ms"])
    for task in spec["tasks"]:
        name = task["name"]
        out = os.path.join(args.workdir, name)
        os.makedirs(out, exist_ok=True)
        params = ["%s=%s" % (k, v) for k, v in task["params"].items()]
        genv = dict(env, HL_ANSOR_LOG=log, HL_ANSOR_TRIALS="0")
        g = subprocess.run([args.generator, "-g", task["generator"], "-o", out, "-e", "schedule", "-f", name,
                            "target=" + args.target, "-p", args.plugin, "-s", "Ansor", "auto_schedule=true",
                            # The tool's thread count (--parallelism, default 2): records of
                            # another thread count are never applied.
                            "machine_params=2,33554432,40"] + params,
                           env=genv, capture_output=True, text=True, timeout=200)
        if g.returncode != 0:
            fail("plugin build of %s exited %d:\n%s" % (name, g.returncode, g.stderr))
        m = re.search(r"for pipeline ([0-9a-f]{16})", g.stderr)
        if not m:
            fail("plugin build of %s did not name its pipeline key:\n%s" % (name, g.stderr))
        key = m.group(1)
        if key not in by_pipeline:
            fail("plugin's key %s for %s is not a key the tool logged (%s)" % (key, name, sorted(by_pipeline)))
        with open(os.path.join(out, name + ".schedule.h")) as f:
            schedule = f.read()
        m = re.search(r"best record of .*, ([0-9.eE+-]+) ms", schedule)
        if not m:
            fail("the schedule of %s was not taken from the log:\n%s" % (name, schedule[:1500]))
        applied = float(m.group(1))
        logged_best = min(by_pipeline[key])
        tool_best = table[name][1]
        if abs(applied - logged_best) > 1e-6 * logged_best or abs(tool_best - logged_best) > 1e-4 * logged_best:
            fail("%s: plugin applied %g ms, log's best %g ms, tool reported %g ms" % (name, applied, logged_best, tool_best))
        print("%s: plugin applied the logged best, %g ms (key %s)" % (name, applied, key))
    print("PASS")


if __name__ == "__main__":
    main()
