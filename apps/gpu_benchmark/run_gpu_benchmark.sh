#!/usr/bin/env bash
# Runs the GPU benchmark that build_gpu_benchmark.sh built, on a machine with
# an NVIDIA GPU (its driver and PyTorch for the vendor side; no Halide):
# checks every GPU program's outputs against the CPU reference on the same
# random inputs, then times Ansor, Li2018 and the vendor library (cuBLAS,
# cuDNN) in interleaved rounds and prints each one's best time and the ratios.
#
#   cd OUT_DIR && ./run_gpu_benchmark.sh [ROUNDS]
set -uo pipefail
rounds=${1:-3}
runs=50
./ansor_gpu_runner --probe cuda || { echo "no usable CUDA device" >&2; exit 1; }
min_ms() { python3 -c 'import json,sys; print(json.loads(sys.stdin.read().strip().splitlines()[-1])["min_ms"])'; }

# Correctness: each GPU program's outputs against the unscheduled CPU build on
# the same random inputs (where there is one; else Ansor against Li2018).
declare -A best
while read -r name op params; do
  for v in li2018 ansor; do
    mkdir -p "${v}_$name"
    ./ansor_gpu_runner "./${name}_$v.so" "${name}_$v" --random-inputs 7 --outputs-dir "${v}_$name" --runs 0 > /dev/null ||
      echo "$name $v: FAILED to run"
  done
  ref=li2018_$name against="Li2018's output"
  if [[ -f ${name}_cpu.so ]]; then
    mkdir -p "ref_$name"
    ./ansor_gpu_runner "./${name}_cpu.so" "${name}_cpu" --random-inputs 7 --outputs-dir "ref_$name" --runs 0 > /dev/null
    ref=ref_$name against="the CPU reference"
    echo "$name li2018: relative error $(python3 compare_outputs.py "$ref" "li2018_$name" || echo WRONG) against $against"
  fi
  echo "$name ansor: relative error $(python3 compare_outputs.py "$ref" "ansor_$name" || echo WRONG) against $against"
done < shapes.txt

for ((r = 0; r < rounds; r++)); do
  while read -r name op params; do
    dims=$(echo "$params" | sed 's/[A-Za-z]*=//g')
    for v in ansor li2018; do
      t=$(./ansor_gpu_runner "./${name}_$v.so" "${name}_$v" --random-inputs 7 --runs $runs | min_ms) || t=nan
      k="$name/$v"; [[ -z ${best[$k]:-} || $(python3 -c "print($t < ${best[$k]})") == True ]] && best[$k]=$t
    done
    read -r lib t _ < <(python3 vendor_gpu.py "$op" $dims)
    k="$name/vendor"; [[ -z ${best[$k]:-} || $(python3 -c "print($t < ${best[$k]})") == True ]] && best[$k]=$t
    best["$name/lib"]=$lib
  done < shapes.txt
done

printf "\n%-9s %10s %10s %10s %-7s %14s %14s\n" shape ansor_ms li2018_ms vendor_ms vendor li2018/ansor vendor/ansor
while read -r name op params; do
  a=${best[$name/ansor]}; l=${best[$name/li2018]}; v=${best[$name/vendor]}
  printf "%-9s %10.4f %10.4f %10.4f %-7s %13.2fx %13.2fx\n" "$name" "$a" "$l" "$v" "${best[$name/lib]}" \
    "$(python3 -c "print($l / $a)")" "$(python3 -c "print($v / $a)")"
done < shapes.txt
