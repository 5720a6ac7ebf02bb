#!/usr/bin/python3
"""Test of scripts/halide_apps_benchmark.py on a tiny tree of our own
(halide_apps_fake_tree/: apps/<app>/<generator>.cpp and app_table.json):

  * box_blur, a 3x3 blur with its own schedule: hand, Adams2019 and
    Ansor-zero-shot must all be OK, timed, with ratios to hand;
  * off_by_one, whose generator adds 1 when auto_schedule=true: its Adams2019
    and Ansor-zero-shot variants must be WRONG (and not timed), hand OK;
  * table.md, ratios.png and host.txt are written;
  * a second run with a libansor.so that does not exist and --reuse: the
    Ansor row is FAILED naming the plugin, and the run still finishes;
  * two inputs of one shape get different seeds (the same seed would give
    RunGen the same image twice).

    check_halide_apps_mode.py LIBANSOR_SO WORK_DIR
"""
import argparse
import csv
import importlib.util
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "..", "scripts", "halide_apps_benchmark.py")
TREE = os.path.join(HERE, "halide_apps_fake_tree")


def fail(message, output=""):
    sys.stderr.write(output[-6000:] + "\n")
    sys.exit("FAILED: " + message)


def run(args):
    cmd = [sys.executable, SCRIPT, "--halide-source", TREE, "--app-table", os.path.join(TREE, "app_table.json"),
           "--rounds", "1", "--benchmark-min-time", "0.02"] + args
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=170)
    if p.returncode != 0:
        fail(f"{' '.join(cmd)} exited with {p.returncode}", p.stdout)
    return p.stdout


def read_rows(out):
    return {(r["app"], r["variant"]): r for r in csv.DictReader(open(os.path.join(out, "results.csv")))}


def check_each_input_has_its_own_seed():
    sys.path.insert(0, os.path.dirname(SCRIPT))
    spec = importlib.util.spec_from_file_location("halide_apps_benchmark", SCRIPT)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    app = {"rungen_args": ["left=random:{seed}:[8,8]", "k=3", "right=random:{seed}:[8,8]"]}
    got = script.rungen_args(app, argparse.Namespace(seed=5))[:3]
    if got != ["left=random:5:[8,8]", "k=3", "right=random:6:[8,8]"]:
        fail(f"inputs' RunGen arguments {got}: each input needs its own seed")


def main(plugin, work):
    check_each_input_has_its_own_seed()
    shutil.rmtree(work, ignore_errors=True)
    out = os.path.join(work, "out")
    text = run(["--variants", "hand,Adams2019,Ansor-zero-shot", "--ansor-plugin", plugin, "--out", out])

    rows = read_rows(out)
    want = {("box_blur", "hand"): "OK", ("box_blur", "Adams2019"): "OK", ("box_blur", "Ansor-zero-shot"): "OK",
            ("off_by_one", "hand"): "OK", ("off_by_one", "Adams2019"): "WRONG",
            ("off_by_one", "Ansor-zero-shot"): "WRONG"}
    got = {key: r["status"] for key, r in rows.items()}
    if got != want:
        fail(f"statuses {got}, expected {want}", text + "\n" + "\n".join(str(r) for r in rows.values()))
    for key, r in rows.items():
        if r["status"] == "OK":
            if not float(r["best_ms"]) > 0 or len(r["round_ms"].split(";")) != 1:
                fail(f"{key}: best_ms {r['best_ms']!r}, round_ms {r['round_ms']!r}", text)
            if not float(r["ratio_to_hand"]) > 0 or not float(r["generator_seconds"]) > 0:
                fail(f"{key}: ratio_to_hand {r['ratio_to_hand']!r}, generator_seconds {r['generator_seconds']!r}",
                     text)
        else:
            if r["best_ms"] or r["round_ms"]:
                fail(f"{key} is {r['status']} but was timed", text)
            if "differ" not in r["detail"]:
                fail(f"{key}: detail {r['detail']!r} does not say how many elements differ", text)
    if float(rows[("box_blur", "hand")]["ratio_to_hand"]) != 1:
        fail("hand's ratio to hand is not 1", text)

    table = open(os.path.join(out, "table.md")).read()
    for needle in ["| box_blur |", "| off_by_one |", "WRONG", "Adams2019 / hand", "Ansor-zero-shot / Adams2019",
                   "halide_apps_benchmark.py"]:
        if needle not in table:
            fail(f"table.md lacks {needle!r}", table)
    if os.path.getsize(os.path.join(out, "ratios.png")) < 1000:
        fail("ratios.png is missing or empty")
    if "target: x86-64-linux" not in open(os.path.join(out, "host.txt")).read():
        fail("host.txt does not name the target")

    # A plugin that is not there is a FAILED row, not a stop; hand is reused.
    missing = os.path.join(work, "no_such_libansor.so")
    text = run(["--apps", "box_blur", "--variants", "hand,Ansor-zero-shot", "--ansor-plugin", missing,
                "--reuse", "--out", out])
    rows = read_rows(out)
    if [(k, r["status"]) for k, r in rows.items()] != [(("box_blur", "hand"), "OK"),
                                                         (("box_blur", "Ansor-zero-shot"), "FAILED")]:
        fail(f"second run's rows {rows}", text)
    if missing not in rows[("box_blur", "Ansor-zero-shot")]["detail"]:
        fail("the FAILED row does not name the missing plugin", text)
    if "reused" not in text:
        fail("--reuse did not reuse the hand variant", text)
    print("halide apps mode: OK")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]))
