#!/usr/bin/python3
"""End-to-end test of ansor_benchmark_harness on one tiny case (ctest
harness_end_to_end): the suite's gmm at its small shape with root,
Mullapudi2016, Ansor (2 trials) with the shipped model, cold and with a
model file named by --model, OpenBLAS, and an Eigen whose executable is
missing, which must show as FAILED without stopping the run. Checks the CSV's
rows and statuses, the tuning curve, the saved schedules, the chart, that
--resume skips the finished case, and that bad input is refused by name.

    check_harness_run.py HARNESS VENDOR_BIN_DIR WORK_DIR MODEL_FILE
"""
import csv
import json
import os
import shutil
import subprocess
import sys


def fail(message, output=""):
    sys.stderr.write(output[-6000:] + "\n")
    sys.exit("FAILED: " + message)


def run(args, expect_rc=0):
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
    if p.returncode != expect_rc:
        fail(f"{' '.join(args)} exited with {p.returncode}, expected {expect_rc}", p.stdout)
    return p.stdout


def main(harness, vendor_bin, work, model):
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    # Only OpenBLAS's executable: the Eigen variant cannot start.
    vendor = os.path.join(work, "vendor")
    os.makedirs(vendor)
    os.symlink(os.path.join(vendor_bin, "ansor_openblas_bench"), os.path.join(vendor, "ansor_openblas_bench"))
    out = os.path.join(work, "run")
    # A copy of the shipped model under another name, so that the output
    # tells which variant started from which file.
    shutil.copy(model, os.path.join(work, "other_model.gz"))
    model = os.path.join(work, "other_model.gz")
    args = [harness, "--apps", "none", "--ops", "gmm:small", "--variants",
            "Mullapudi2016,Ansor,Ansor-cold,Ansor-model,OpenBLAS,Eigen", "--model", model,
            "--trials", "2", "--rounds", "2", "--samples", "2", "--vendor-bin", vendor, "--out", out]
    text = run(args)

    rows = list(csv.DictReader(open(os.path.join(out, "results.csv"))))
    got = [(r["case"], r["variant"], r["status"]) for r in rows]
    want = [("gmm:small", v, s) for v, s in
            [("root", "ok"), ("Mullapudi2016", "ok"), ("Ansor", "ok"), ("Ansor-cold", "ok"), ("Ansor-model", "ok"),
             ("OpenBLAS", "ok"), ("Eigen", "failed")]]
    if got != want:
        fail(f"CSV rows {got}, expected {want}", text)
    for r in rows:
        if r["status"] != "ok":
            continue
        if not float(r["median_ms"]) > 0 or not float(r["gflops"]) > 0:
            fail(f"{r['variant']}: median_ms {r['median_ms']}, gflops {r['gflops']}", text)
        if not float(r["rel_error"]) <= 1e-3:
            fail(f"{r['variant']}: relative error {r['rel_error']} passed as ok", text)
        if int(r["samples"]) != 4:
            fail(f"{r['variant']}: {r['samples']} samples, expected 2 rounds x 2", text)
        # RunGen's statistic (each round's best, median over rounds) lies between the best sample and the median.
        if not float(r["min_ms"]) <= float(r["rungen_ms"]) <= float(r["median_ms"]) * (1 + 1e-9):
            fail(f"{r['variant']}: rungen_ms {r['rungen_ms']} outside [min_ms, median_ms]", text)
    if min(float(r["ratio_to_best"]) for r in rows if r["status"] == "ok") != 1:
        fail("no variant has ratio_to_best 1", text)
    if "127" not in rows[-1]["detail"]:
        fail(f"Eigen's failure does not say the executable could not run: {rows[-1]['detail']}", text)
    if not any(line.split()[:2] == ["Eigen", "FAILED"] for line in text.splitlines()):
        fail("the printed table does not show Eigen as FAILED", text)

    curve = list(csv.DictReader(open(os.path.join(out, "tuning_curves.csv"))))
    want_curve = [("gmm:small", source, trial) for source in ["tuned", "tuned-cold", "tuned-model"] for trial in ["1", "2"]]
    if [(c["case"], c["source"], c["trial"]) for c in curve] != want_curve:
        fail(f"tuning curve rows {curve}, expected {want_curve}", text)
    # Measured = delivered: each Ansor variant's row carries the tuner's time
    # for the program it applied, the best of its own log.
    for variant, log_name in [("Ansor", "gmm_small.jsonl"), ("Ansor-cold", "gmm_small.cold.jsonl"),
                              ("Ansor-model", "gmm_small.model.jsonl")]:
        with open(os.path.join(out, "ansor_logs", log_name)) as log:
            records = [json.loads(line) for line in log]
        if len(records) != 2:
            fail(f"{variant}'s log {log_name} does not hold its 2 trials", text)
        tuned = min(r["min_ms"] for r in records if r["ok"])
        row = next(r for r in rows if r["variant"] == variant)
        if abs(float(row["tuned_ms"]) - tuned) > 1e-3 * tuned:
            fail(f"{variant}'s tuned_ms {row['tuned_ms']}, its log's best is {tuned}", text)
    if any(r["tuned_ms"] for r in rows if not r["variant"].startswith("Ansor")):
        fail("a variant other than Ansor's has a tuned_ms", text)
    # Ansor starts from the shipped model and Ansor-model from --model's file;
    # Ansor-cold (HL_ANSOR_MODEL=none) from none.
    if text.count("cost model starts from") != 2 or text.count(f"cost model starts from {model}") != 1:
        fail(f"'cost model starts from' printed {text.count('cost model starts from')} times, expected twice "
             f"(Ansor, and Ansor-model from {model})", text)
    if "time of Ansor-cold" not in text:
        fail("no summary against Ansor-cold", text)
    if "each sample a fresh process" not in text:
        fail("the run does not say its Halide variants are timed in fresh processes", text)
    if "the tuner measured" not in text or "within 10%:" not in text or "RunGen's statistic" not in text:
        fail("the tuner's time against the delivered median is not printed", text)
    for f in ["schedules/gmm_small.Mullapudi2016.schedule.h", "schedules/gmm_small.Ansor.schedule.h",
              "results.png", "tuning_curves.png"]:
        if not os.path.getsize(os.path.join(out, f)) > 0:
            fail(f"{f} missing or empty", text)

    # --resume: the finished case is skipped and the CSV stays as it was.
    before = open(os.path.join(out, "results.csv")).read()
    text = run(args + ["--resume", "--no-plot"])
    if "already in" not in text or open(os.path.join(out, "results.csv")).read() != before:
        fail("--resume did not skip the finished case", text)
    # Without --resume an existing CSV is never overwritten.
    text = run(args + ["--no-plot"], expect_rc=2)
    if "exists" not in text:
        fail("rerunning into an existing CSV was not refused", text)
    # Bad input names the culprit.
    text = run([harness, "--ops", "gmm,nosuchop", "--out", os.path.join(work, "bad")], expect_rc=2)
    if "nosuchop" not in text:
        fail("an unknown operator is not named in the error", text)
    text = run([harness, "--ops", "gmm", "--timing", "jit", "--out", os.path.join(work, "bad")], expect_rc=2)
    if "--timing" not in text or "jit" not in text:
        fail("an unknown --timing is not named in the error", text)
    text = run([harness, "--ops", "gmm", "--variants", "Ansor-model", "--out", os.path.join(work, "bad")], expect_rc=2)
    if "needs --model" not in text:
        fail("Ansor-model without --model was not refused by name", text)
    text = run([harness, "--ops", "gmm", "--model", model, "--out", os.path.join(work, "bad")], expect_rc=2)
    if "add it to --variants" not in text:
        fail("--model without the Ansor-model variant was not refused", text)
    text = run([harness, "--ops", "gmm", "--variants", "Ansor-model", "--model", os.path.join(work, "no_such_model.gz"),
                "--out", os.path.join(work, "bad")], expect_rc=2)
    if "no_such_model.gz" not in text:
        fail("an unreadable --model file is not named in the error", text)
    print("harness end to end: ok")


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    main(*sys.argv[1:])
