#!/usr/bin/env bash
# Builds (installing what is missing) and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
# Two tests at a time: most are single-threaded compiles, and no test times
# anything against a threshold.
ctest --test-dir build --output-on-failure --timeout 1200 -j2
