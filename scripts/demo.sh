#!/usr/bin/env bash
# The main job: Ansor vs Adams2019 vs the unscheduled pipeline on a matmul
# and a conv layer, timed in one process.
set -euo pipefail
cd "$(dirname "$0")/.."
export HL_ANSOR_TRIALS="${HL_ANSOR_TRIALS:-32}"
export HL_NUM_THREADS=2
./build/apps/ansor_compare_demo build/autoscheduler/libansor.so \
  /usr/lib/x86_64-linux-gnu/halide14/libautoschedule_adams2019.so
