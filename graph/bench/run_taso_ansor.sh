#!/usr/bin/env bash
# The joint search (docs/taso.md, "Joint search"): TASO's graph search
# alternated with Ansor's tuning, against tuning the original graph alone,
# under one total trial budget T.
#
#   (a) original: the graph's task file tuned with T trials, then run;
#   (b) joint:    optimise the graph with default costs (the kernels measured
#                 with the executor's default schedule), tune the optimised graph's
#                 tasks with T/2 trials, optimise again with the tuned costs
#                 (the log's times), tune the new graph's tasks with the
#                 remaining T - T/2 trials (into the same log), run it;
#   (c) graph only: (b)'s final graph run with (a)'s tuned kernels: on a
#                 copy of (a)'s log, only the kernels (a) did not have are
#                 tuned, each with (a)'s trials per task. Every kernel the
#                 two graphs share runs (a)'s program, so (c) against (a) is
#                 what (b)'s rewrites alone give, free of the spread between
#                 two tuning runs that (b) against (a) includes.
#
# Prints the end-to-end latencies, timed in interleaved rounds at the end,
# the ratios, and the substitutions that fired.
#
# usage: graph/bench/run_taso_ansor.sh GRAPH.json TRIALS [OUT_DIR]
#   environment: BUILD (the build directory, default build),
#                SUBSTITUTIONS (a substitution file; default: generated into
#                OUT_DIR with ansor_taso_substitutions at each family's depth),
#                ALPHA (1.05), BUDGET (graphs expanded per search, 100),
#                THREADS (2), REPEATS (whole-network runs timed per round, 10),
#                ROUNDS (interleaved timing rounds of both graphs, 3),
#                LAYOUTS (1: each node's data layout is part of both graph
#                searches, ansor_graph_optimize --layouts; default 0).
# Tuning and timing load the machine: run it where nothing else runs.
set -euo pipefail

if [[ $# -lt 2 || $# -gt 3 ]]; then
    echo "usage: $0 GRAPH.json TRIALS [OUT_DIR]" >&2
    exit 2
fi
graph=$(realpath "$1")
trials=$2
out=${3:-taso_ansor_$(basename "$graph" .json)}
if ! [[ $trials =~ ^[0-9]+$ ]] || (( trials < 2 )); then
    echo "$0: TRIALS must be an integer of at least 2, got '$trials'" >&2
    exit 2
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(realpath "${BUILD:-$root/build}")
alpha=${ALPHA:-1.05}
budget=${BUDGET:-100}
threads=${THREADS:-2}
repeats=${REPEATS:-10}
rounds=${ROUNDS:-3}
layout_flag=()
[[ ${LAYOUTS:-0} == 1 ]] && layout_flag=(--layouts)
tune=$build/apps/tune_tasks/ansor_tune_tasks
run=$build/graph/ansor_network_run
optimize=$build/graph/ansor_graph_optimize
for tool in "$tune" "$run" "$optimize"; do
    [[ -x $tool ]] || { echo "$0: $tool not built (set BUILD)" >&2; exit 1; }
done
mkdir -p "$out"
out=$(realpath "$out")
subs=${SUBSTITUTIONS:-$out/substitutions.json}
if [[ ! -f $subs ]]; then
    "$build/taso/ansor_taso_substitutions" --quiet --out "$subs"
fi
half=$((trials / 2))
rest=$((trials - half))
latency() { grep -o 'end-to-end latency: best [0-9.]* ms' "$1" | grep -o '[0-9.]* ms'; }

echo "== (a) original graph, $trials trials"
"$run" --graph "$graph" --list-tasks > "$out/original_tasks.json"
"$tune" --tasks "$out/original_tasks.json" --log "$out/original.jsonl" --trials "$trials" \
    --parallelism "$threads" > "$out/original_tune.txt"
"$run" --graph "$graph" --log "$out/original.jsonl" --threads "$threads" --repeats "$repeats" \
    | tee "$out/original_run.txt"

echo "== (b) joint: optimise with default costs, tune $half trials"
"$optimize" --graph "$graph" --substitutions "$subs" --cost-cache "$out/default_costs.json" \
    --alpha "$alpha" --budget "$budget" --threads "$threads" "${layout_flag[@]}" \
    --out "$out/joint1.json" --tasks-out "$out/joint1_tasks.json" | tee "$out/joint1_optimize.txt"
"$tune" --tasks "$out/joint1_tasks.json" --log "$out/joint.jsonl" --trials "$half" \
    --parallelism "$threads" > "$out/joint1_tune.txt"

echo "== (b) joint: optimise again with the tuned costs, tune the rest ($rest trials)"
"$optimize" --graph "$graph" --substitutions "$subs" --log "$out/joint.jsonl" \
    --cost-cache "$out/default_costs.json" --alpha "$alpha" --budget "$budget" --threads "$threads" "${layout_flag[@]}" \
    --out "$out/joint2.json" --tasks-out "$out/joint2_tasks.json" | tee "$out/joint2_optimize.txt"
# The budget counts the records already in the log: the first round's half
# and this round's rest make the total.
"$tune" --tasks "$out/joint2_tasks.json" --log "$out/joint.jsonl" --trials "$trials" \
    --parallelism "$threads" > "$out/joint2_tune.txt"
"$run" --graph "$out/joint2.json" --log "$out/joint.jsonl" --threads "$threads" --repeats "$repeats" \
    | tee "$out/joint_run.txt"

echo "== (c) graph only: (b)'s graph with (a)'s kernels; tune the kernels (a) lacks"
cp "$out/original.jsonl" "$out/graph_only.jsonl"
# The tasks of (b)'s graph that (a) did not tune, and their budget: (a)'s trials per task each.
new_trials=$(python3 - "$out/original_tasks.json" "$out/joint2_tasks.json" "$out/graph_only_new_tasks.json" "$trials" <<'PY'
import json, sys
old, new, out, trials = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
key = lambda t: (t["generator"], json.dumps(t["params"], sort_keys=True))
old_tasks = json.load(open(old))["tasks"]
doc = json.load(open(new))
known = {key(t) for t in old_tasks}
doc["tasks"] = [t for t in doc["tasks"] if key(t) not in known]
json.dump(doc, open(out, "w"), indent=2)
print(max(16 * len(doc["tasks"]), round(len(doc["tasks"]) * trials / len(old_tasks))) if doc["tasks"] else 0)
PY
)
echo "(c) tunes $(grep -c '"generator"' "$out/graph_only_new_tasks.json") new tasks with $new_trials trials"
if (( new_trials > 0 )); then
    "$tune" --tasks "$out/graph_only_new_tasks.json" --log "$out/graph_only.jsonl" --trials "$new_trials" \
        --parallelism "$threads" > "$out/graph_only_tune.txt"
fi

# The latencies compared: the three networks timed in interleaved rounds,
# nothing else running, the best of each network's rounds.
echo "== timing all three, $rounds interleaved rounds of $repeats runs"
for ((r = 1; r <= rounds; r++)); do
    "$run" --graph "$graph" --log "$out/original.jsonl" --threads "$threads" --repeats "$repeats" --no-check \
        > "$out/original_round$r.txt"
    "$run" --graph "$out/joint2.json" --log "$out/joint.jsonl" --threads "$threads" --repeats "$repeats" --no-check \
        > "$out/joint_round$r.txt"
    "$run" --graph "$out/joint2.json" --log "$out/graph_only.jsonl" --threads "$threads" --repeats "$repeats" \
        --no-check > "$out/graph_only_round$r.txt"
    echo "round $r: original $(latency "$out/original_round$r.txt"), joint $(latency "$out/joint_round$r.txt")," \
         "graph only $(latency "$out/graph_only_round$r.txt")"
done
best_of() { for ((r = 1; r <= rounds; r++)); do latency "$out/$1_round$r.txt"; done | sort -g | head -1 | cut -d' ' -f1; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", a / b }'; }
original_ms=$(best_of original)
joint_ms=$(best_of joint)
graph_only_ms=$(best_of graph_only)
echo "== summary ($(basename "$graph"), $trials trials in all)"
echo "original graph, tuned:        $original_ms ms"
echo "joint (TASO + Ansor), tuned:  $joint_ms ms"
echo "(b)'s graph, (a)'s kernels:   $graph_only_ms ms"
echo "speedup of the joint graph:   $(ratio "$original_ms" "$joint_ms")"
echo "speedup of the rewrites alone (c over a): $(ratio "$original_ms" "$graph_only_ms")"
if grep -Eq '^substitutions (and layout moves )?that fired: 0$' "$out/joint2_optimize.txt"; then
    echo "nothing fired: the joint graph is the original one, and the ratio is the spread of two tuning runs"
fi
echo "substitutions (and layout moves) that fired in the final graph search:"
sed -En '/^substitutions (and layout moves )?that fired/,/^cost after/p' "$out/joint2_optimize.txt" | sed '1d;$d'
