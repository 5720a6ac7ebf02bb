#!/usr/bin/env bash
# The main job: a batched matmul (512^3) and a conv layer (conv + batch-norm +
# ReLU, 56x56x64 -> 128, 3x3 stride 2) scheduled by Ansor and by Adams2019,
# timed in one process beside the unscheduled pipeline (every Func at root).
# HL_ANSOR_TRIALS sets Ansor's budget (default here 64).
set -euo pipefail
cd "$(dirname "$0")/.."
export HL_NUM_THREADS=2
./build/apps/ansor_operator_benchmark --ops gmm:2,conv_layer:1 \
  --schedulers Adams2019,Ansor --trials "${HL_ANSOR_TRIALS:-64}"
