#!/usr/bin/env python3
"""Compares the outputs two ansor_runner runs wrote (--outputs-dir).

    compare_outputs.py REFERENCE_DIR CANDIDATE_DIR [TOLERANCE]

Float outputs: the largest difference relative to the reference's largest
magnitude (the measurer's float rule, docs/correctness.md) must be at most
TOLERANCE (1e-3); integer outputs must be equal. Prints the error; exits 1
when an output is wrong.
"""
import json
import sys

import numpy as np

TYPES = {"float32": np.float32, "float64": np.float64, "float16": np.float16,
         "uint8": np.uint8, "uint16": np.uint16, "uint32": np.uint32, "uint64": np.uint64,
         "int8": np.int8, "int16": np.int16, "int32": np.int32, "int64": np.int64}


def load(directory):
    with open(f"{directory}/outputs.json") as f:
        header = json.load(f)
    return {o["name"]: np.fromfile(f"{directory}/{o['file']}", dtype=TYPES[o["type"]]) for o in header["outputs"]}


def main(argv):
    want, got = load(argv[1]), load(argv[2])
    tolerance = float(argv[3]) if len(argv) > 3 else 1e-3
    worst = 0.0
    for name, w in want.items():
        g = got[name]
        if np.issubdtype(w.dtype, np.floating):
            scale = max(float(np.max(np.abs(w))), 1e-30)
            worst = max(worst, float(np.max(np.abs(g.astype(np.float64) - w))) / scale)
        elif not np.array_equal(g, w):
            worst = float("inf")
    print(f"{worst:.2e}")
    return 0 if worst <= tolerance else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
