#!/usr/bin/python3
"""A killed ansor_benchmark_harness leaves no worker behind (ctest
harness_workers_die_with_it). Starts the harness on one case whose Ansor
variant tunes for far longer than the test runs, waits until that worker is
busy measuring (it has children of its own), kills the harness with SIGKILL
and checks that every process it had started is gone within a few seconds.
Each worker leads a process group of its own, so nothing but its death
signal ties it to the harness.

    check_workers_die_with_harness.py HARNESS WORK_DIR
"""
import os
import shutil
import signal
import subprocess
import sys
import time

GRACE_S = 5
START_S = 240


def parents():
    """pid -> parent pid of every process now."""
    out = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            text = open(f"/proc/{name}/stat").read()
        except OSError:
            continue
        fields = text[text.rfind(")") + 2:].split()
        if fields[0] not in ("Z", "X"):
            out[int(name)] = int(fields[1])
    return out


def descendants(root):
    tree = parents()
    found, todo = set(), [root]
    while todo:
        p = todo.pop()
        for child, parent in tree.items():
            if parent == p and child not in found:
                found.add(child)
                todo.append(child)
    return found


def main(harness, work):
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    args = [harness, "--apps", "none", "--ops", "gmm:small", "--variants", "Ansor", "--trials", "100000",
            "--samples", "1", "--rounds", "1", "--out", os.path.join(work, "run")]
    log = open(os.path.join(work, "harness.log"), "w")
    p = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.time() + START_S
    started = set()
    busy = False
    while time.time() < deadline and p.poll() is None:
        tree = parents()
        workers = [c for c, parent in tree.items() if parent == p.pid]
        started |= descendants(p.pid)
        # An Ansor worker measuring has children of its own.
        if any(parent in workers for parent in tree.values()):
            busy = True
            break
        time.sleep(0.2)
    if not busy:
        p.kill()
        p.wait()
        sys.exit(f"FAILED: no worker of the harness was busy within {START_S} s (see {log.name})")
    time.sleep(1)
    started |= descendants(p.pid)
    p.send_signal(signal.SIGKILL)
    p.wait()
    left = set()
    end = time.time() + GRACE_S
    while time.time() < end:
        left = started & set(parents())
        if not left:
            break
        time.sleep(0.1)
    if left:
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        sys.exit(f"FAILED: {len(left)} of the {len(started)} processes the killed harness started still ran "
                 f"{GRACE_S} s later: {sorted(left)}")
    print(f"PASS: the {len(started)} processes the harness started ended with it")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
