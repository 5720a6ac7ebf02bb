#!/usr/bin/env bash
# Builds the GPU benchmark's programs on this machine (no GPU needed) into
# OUT_DIR, which then travels to a machine with an NVIDIA GPU and runs there
# with run_gpu_benchmark.sh (docs/gpu.md, "GPU benchmark"):
#   - for every shape below, the suite generator scheduled by Ansor and by
#     Halide's Li2018 for a CUDA target, and built unscheduled for the host
#     CPU (the reference the GPU outputs are compared with), each as a shared
#     object that ansor_runner loads;
#   - ansor_runner itself (it links no Halide), vendor_gpu.py (cuBLAS and
#     cuDNN through PyTorch) and the script that runs it all.
#
#   apps/gpu_benchmark/build_gpu_benchmark.sh OUT_DIR [BUILD_DIR]
#
# HL_ANSOR_* options apply to Ansor's scheduling as in any build. With
# ANSOR_BASELINE_PLUGIN=/path/to/another/libansor.so (another build of the
# plugin, with its model file beside it), its programs join as the variant
# ansor_base, timed in the same rounds.
set -euo pipefail
out=${1:?usage: build_gpu_benchmark.sh OUT_DIR [BUILD_DIR]}
build=$(realpath "${2:-build}")
here=$(dirname "$(realpath "$0")")
gen=$build/generators/ansor_operators.generator
plugin=$build/autoscheduler/libansor.so
runner=$build/autoscheduler/ansor_runner  # the build puts it beside libansor.so
peers=/usr/lib/x86_64-linux-gnu/halide14
cpu_target=x86-64-linux-avx-avx2-f16c-fma-sse41
gpu_target=$cpu_target-cuda-cuda_capability_80
# The H100's 132 SMs, its 50 MB L2, the Li2018 and Adams2019 default balance.
machine=132,52428800,40
for f in "$gen" "$plugin" "$runner"; do
  [[ -x $f || -f $f ]] || { echo "build_gpu_benchmark.sh: $f is missing; build the project first" >&2; exit 1; }
done
mkdir -p "$out"
variants=(li2018 ansor)
[[ -n ${ANSOR_BASELINE_PLUGIN:-} ]] && variants+=(ansor_base)
echo "${variants[*]}" > "$out/variants.txt"

# name op generator-params. The unscheduled CPU reference is built for every
# shape but gmm_4096 (137 GFLOP of scalar code would take minutes); there the
# two GPU schedules are compared with each other.
shapes=(
  "gmm_1024 gmm B=1 N=1024 M=1024 K=1024"
  "gmm_4096 gmm B=1 N=4096 M=4096 K=4096"
  "c2d_0 c2d N=1 H=224 W=224 CI=3 CO=64 k=7 s=2 p=3"
  "c2d_1 c2d N=1 H=56 W=56 CI=64 CO=64 k=1 s=1 p=0"
  "c2d_2 c2d N=1 H=14 W=14 CI=256 CO=256 k=3 s=1 p=1"
  "c2d_3 c2d N=1 H=7 W=7 CI=512 CO=512 k=3 s=1 p=1"
)

# Links a generator's static library (Halide runtime included) into a shared object.
link_shared() {
  cc -shared -o "$1.so" -Wl,--whole-archive "$1.a" -Wl,--no-whole-archive -ldl -lpthread -lm
  rm -f "$1.a"
}

: > "$out/shapes.txt"
for line in "${shapes[@]}"; do
  read -r name op params <<< "$line"
  echo "$name $op $params" >> "$out/shapes.txt"
  echo "== $name"
  if [[ $name != gmm_4096 ]]; then
    "$gen" -g "$op" -o "$out" -f "${name}_cpu" -e static_library target=$cpu_target $params
    link_shared "$out/${name}_cpu"
  fi
  "$gen" -g "$op" -o "$out" -f "${name}_li2018" -e static_library,schedule target=$gpu_target \
    -p "$peers/libautoschedule_li2018.so" -s Li2018 auto_schedule=true machine_params=$machine $params
  link_shared "$out/${name}_li2018"
  "$gen" -g "$op" -o "$out" -f "${name}_ansor" -e static_library,schedule target=$gpu_target \
    -p "$plugin" -s Ansor auto_schedule=true machine_params=$machine $params
  link_shared "$out/${name}_ansor"
  if [[ -n ${ANSOR_BASELINE_PLUGIN:-} ]]; then
    "$gen" -g "$op" -o "$out" -f "${name}_ansor_base" -e static_library,schedule target=$gpu_target \
      -p "$ANSOR_BASELINE_PLUGIN" -s Ansor auto_schedule=true machine_params=$machine $params
    link_shared "$out/${name}_ansor_base"
  fi
done
cp "$runner" "$here/vendor_gpu.py" "$here/run_gpu_benchmark.sh" "$here/compare_outputs.py" "$out/"
echo "built into $out; on the GPU machine: cd $out && ./run_gpu_benchmark.sh"
