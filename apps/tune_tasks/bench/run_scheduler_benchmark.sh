#!/bin/bash
# The task-scheduler benchmark (docs/tuning_networks.md): network latency
# (Σ weight × best measured latency) against trials for the gradient
# scheduler, round-robin and the family variant, on one budget.
#
#   apps/tune_tasks/bench/run_scheduler_benchmark.sh BUILD_DIR OUT_DIR [EXTRA_TRIALS] [NETWORKS] [SEEDS]
#
# Every policy and seed of a network starts from one shared warm-up log (one
# round of every task, round-robin, seed 0): the warm-up is the same
# round-robin pass in every policy, and sharing it leaves the whole budget
# this machine affords for the part where the policies differ. Each run
# copies that log and resumes from it with EXTRA_TRIALS more trials.
# Runs are sequential (2 cores), under nice.
set -euo pipefail
build=${1:?build dir}
out=${2:?output dir}
extra=${3:-60}
networks=${4:-"mobilenet_v2 resnet50"}
seeds=${5:-"0 1"}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
tool="$build/apps/tune_tasks/ansor_tune_tasks"
mkdir -p "$out"
# Small rounds and a small population so that this 2-core machine affords
# more than one round per task.
export HL_ANSOR_MEASURES_PER_ROUND=4 HL_ANSOR_POPULATION=256 HL_ANSOR_GENERATIONS=2 HL_ANSOR_REPEATS=3
unset HL_ANSOR_TRIALS HL_ANSOR_LOG
for net in $networks; do
  tasks="$root/networks/$net.json"
  ntasks=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['tasks']))" "$tasks")
  warm=$((ntasks * HL_ANSOR_MEASURES_PER_ROUND))
  total=$((warm + extra))
  if [ ! -s "$out/warmup_$net.jsonl" ] || [ "$(wc -l < "$out/warmup_$net.jsonl")" -lt "$warm" ]; then
    nice "$tool" --tasks "$tasks" --log "$out/warmup_$net.jsonl" --trials "$warm" --policy round-robin --seed 0 \
      2> "$out/warmup_$net.stderr" > "$out/warmup_$net.stdout"
  fi
  for seed in $seeds; do
    for variant in gradient round-robin family; do
      # The family variant (one model per family, foresee tuning) runs on the first seed only (time).
      if [ "$variant" = family ] && [ "$seed" != "${seeds%% *}" ]; then continue; fi
      name="${net}_${variant}_s${seed}"
      [ -s "$out/$name.done" ] && continue
      cp "$out/warmup_$net.jsonl" "$out/$name.jsonl"
      rm -f "$out/$name.csv"
      case $variant in
        gradient) flags=(--policy gradient) ;;
        round-robin) flags=(--policy round-robin) ;;
        family) flags=(--policy gradient --model family --families structure --foresee 2) ;;
      esac
      nice "$tool" --tasks "$tasks" --log "$out/$name.jsonl" --csv "$out/$name.csv" --trials "$total" --seed "$seed" \
        "${flags[@]}" 2> "$out/$name.stderr" > "$out/$name.stdout"
      date > "$out/$name.done"
    done
  done
done
