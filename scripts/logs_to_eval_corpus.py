#!/usr/bin/env python3
"""Turns the apps' tuning logs into an evaluation corpus (docs/corpus.md format).

    scripts/logs_to_eval_corpus.py LOG_DIR OUT.jsonl.gz

LOG_DIR holds one tuning log per app, named <app>.jsonl (the benchmark
harness writes them under <out>/ansor_logs/). Each app's pipeline entry
(generator, params, key) is taken from corpus/apps_eval.jsonl.gz; every
record of its log becomes one program (steps, times, ok, error). A log
whose records belong to another pipeline key is an error naming the file.
"""
import gzip
import json
import os
import sys


def pipeline_headers(path):
    headers = {}
    with gzip.open(path, "rt") as f:
        for line in f:
            line = line.strip()
            if line:
                entry = json.loads(line)
                if "pipeline" in entry:
                    headers[entry["pipeline"]["generator"]] = entry["pipeline"]
    return headers


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    log_dir, out_path = sys.argv[1], sys.argv[2]
    headers = pipeline_headers(os.path.join(os.path.dirname(__file__), "..", "corpus", "apps_eval.jsonl.gz"))
    with gzip.open(out_path, "wt") as out:
        for app, header in headers.items():
            log = os.path.join(log_dir, app + ".jsonl")
            if not os.path.exists(log):
                print(f"{app}: no {log}, left out")
                continue
            with open(log) as f:
                records = [json.loads(line) for line in f if line.strip()]
            keys = {r["pipeline"] for r in records}
            if keys != {header["key"]}:
                sys.exit(f"{log}: pipeline keys {sorted(keys)}, but {app} is {header['key']}")
            out.write(json.dumps({"pipeline": header}) + "\n")
            for r in records:
                program = {"ok": r["ok"], "min_ms": r["min_ms"] if r["ok"] else None,
                           "median_ms": r["median_ms"] if r["ok"] else None,
                           "seconds": r["seconds"], "steps": r["steps"]}
                if not r["ok"]:
                    program["error"] = r["error"]
                out.write(json.dumps(program) + "\n")
            out.write(json.dumps({"end": {"programs": len(records),
                                          "seconds": sum(r["seconds"] for r in records)}}) + "\n")
            print(f"{app}: {len(records)} programs")


if __name__ == "__main__":
    main()
