#!/usr/bin/env bash
# Runs the GPU benchmark that build_gpu_benchmark.sh built, on a machine with
# an NVIDIA GPU (its driver and PyTorch for the vendor side; no Halide):
# checks every GPU program's outputs against the CPU reference on the same
# random inputs, then times the variants of variants.txt (Li2018, Ansor, and
# ansor_base where it was built) and the vendor library (cuBLAS, cuDNN) in
# interleaved rounds and prints each one's best time and the ratios to Ansor.
#
#   cd OUT_DIR && ./run_gpu_benchmark.sh [ROUNDS]
set -uo pipefail
rounds=${1:-3}
runs=50
./ansor_runner --probe cuda || { echo "no usable CUDA device" >&2; exit 1; }
min_ms() { python3 -c 'import json,sys; print(json.loads(sys.stdin.read().strip().splitlines()[-1])["min_ms"])'; }
# Keeps the lesser of a time and the best so far ("nan" for a run that failed).
keep_best() {
  [[ -z ${best[$1]:-} || $(python3 -c "t, b = float('$2'), float('${best[$1]}'); print(b != b or t < b)") == True ]] && best[$1]=$2
}
ratio() { python3 -c "print(f'{float(\"$1\") / float(\"$2\"):.2f}x')"; }

# Correctness: each GPU program's outputs against the unscheduled CPU build on
# the same random inputs (where there is one; else Ansor against Li2018).
read -r -a variants < variants.txt
declare -A best
while read -r name op params; do
  for v in "${variants[@]}"; do
    mkdir -p "${v}_$name"
    ./ansor_runner "./${name}_$v.so" "${name}_$v" --random-inputs 7 --outputs-dir "${v}_$name" --runs 0 > /dev/null ||
      echo "$name $v: FAILED to run"
  done
  ref=li2018_$name against="Li2018's output"
  if [[ -f ${name}_cpu.so ]]; then
    mkdir -p "ref_$name"
    ./ansor_runner "./${name}_cpu.so" "${name}_cpu" --random-inputs 7 --outputs-dir "ref_$name" --runs 0 > /dev/null
    ref=ref_$name against="the CPU reference"
  fi
  for v in "${variants[@]}"; do
    [[ ref_$name != "$ref" && $v == li2018 ]] && continue
    [[ -f ${v}_$name/outputs.json ]] || { echo "$name $v: not run"; continue; }
    echo "$name $v: relative error $(python3 compare_outputs.py "$ref" "${v}_$name" || echo WRONG) against $against"
  done
done < shapes.txt

for ((r = 0; r < rounds; r++)); do
  while read -r name op params; do
    dims=$(echo "$params" | sed 's/[A-Za-z]*=//g')
    for v in "${variants[@]}"; do
      t=$(./ansor_runner "./${name}_$v.so" "${name}_$v" --random-inputs 7 --runs $runs 2>/dev/null | min_ms 2>/dev/null) || t=nan
      [[ -n $t ]] || t=nan
      keep_best "$name/$v" "$t"
    done
    read -r lib t _ < <(python3 vendor_gpu.py "$op" $dims) || t=nan
    keep_best "$name/vendor" "$t"
    best["$name/lib"]=$lib
  done < shapes.txt
done

header="shape"
for v in "${variants[@]}" vendor; do header+=" ${v}_ms"; done
header+=" vendor"
for v in "${variants[@]}" vendor; do [[ $v != ansor ]] && header+=" $v/ansor"; done
echo; echo "$header"
while read -r name op params; do
  a=${best[$name/ansor]}
  line="$name"
  for v in "${variants[@]}" vendor; do line+=" ${best[$name/$v]}"; done
  line+=" ${best[$name/lib]}"
  for v in "${variants[@]}" vendor; do
    [[ $v != ansor ]] && line+=" $(ratio "${best[$name/$v]}" "$a")"
  done
  echo "$line"
done < shapes.txt
