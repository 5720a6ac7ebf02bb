#!/usr/bin/python3
"""Benchmark autoschedulers on Halide's own apps (the generators in a Halide
v14.0.0 source tree's apps/ folder), built against the system's Halide 14.

    scripts/halide_apps_benchmark.py --halide-source /path/to/Halide-14.0.0 --out OUT
        [--apps bilateral_grid,unsharp] [--variants hand,Adams2019,Ansor-zero-shot]
        [--build BUILD_DIR | --ansor-plugin libansor.so] [--rounds 3] [--threads 2] [--target T]
        [--peer-timeout 300] [--zero-shot-timeout 120] [--tune-timeout 1800]
        [--benchmark-min-time 0.5] [--seed 0] [--app-table FILE.json] [--reuse]

Nothing of Halide's apps is copied: the script compiles each app's generator
source from the tree given by --halide-source (laid out as DIR/apps/<app>/<file>)
with the system's GenGen.cpp, runs it once per variant, links the result with
RunGenMain.cpp and times it with RunGen. The built-in table below holds only
facts about each app: its generator source file, the generator's name, the
generator params, and the RunGen arguments (input shapes, scalar values,
output extents) that every variant gets. --app-table FILE.json replaces it with
a JSON list of {"name", "generator_source", "generator_name", "params",
"rungen_args"} objects ("{seed}" in the k-th input's argument becomes
--seed + k), e.g. for a test on a tiny tree of one's own.

Variants: hand (the app's own schedule, auto_schedule=false), Mullapudi2016,
Li2018, Adams2019 (Debian's plugins; these four get --peer-timeout each),
Ansor-zero-shot (libansor.so from --build or --ansor-plugin, HL_ANSOR_TRIALS=0,
--zero-shot-timeout) and Ansor-<N> such as Ansor-64 (HL_ANSOR_TRIALS=N,
--tune-timeout). The target is the widest x86 one the CPU runs (AVX-512 with
cannonlake/skylake features, else AVX2), never `host`. A generator
that crashes, times out or cannot be linked is a row of the CSV (FAILED /
TIMEOUT, with its first error line), never a stop.

Phases:
 1. Build: per app, the generator binary (cached in OUT/<app>/), then per
    variant the generator run (its seconds are generator_seconds) and RunGen.
    Each variant runs once on the same random inputs (RunGen random:SEED+k for
    the k-th input) and its outputs are compared with the hand schedule's:
      * floating-point outputs: relative error |out - ref| / max(|ref|,
        1e-3 * max|ref|) <= 1e-3 on all but at most 0.1% of the elements
        (NaN matches NaN);
      * integer outputs: |out - ref| <= 1 everywhere, and nonzero on at most
        5% of the elements.
    Shapes and types must match. A variant that fails this is WRONG (not
    timed); with no hand output to compare against it is UNCHECKED (timed).
 2. Time (nothing else runs meanwhile): --rounds interleaved rounds; each
    round runs every correct variant of every app once, in a fresh RunGen
    process (--benchmarks=all, HL_NUM_THREADS=--threads), the variants' order
    rotated each round; each variant keeps its best time.
 3. Write OUT/results.csv, OUT/table.md (times, ratios to hand, geomeans,
    failure counts, host and command line), OUT/ratios.png (time / hand per
    app and variant, log scale) and OUT/host.txt (CPU model and target).

--reuse keeps a variant built by an earlier run into the same OUT (same app
table entry, target and generator arguments: threads and plugin path) instead
of running its generator again; its correctness run is repeated.
"""
import argparse
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time

from halide_apps_outputs import compare_arrays, load_tmp
from halide_apps_reports import write_chart, write_csv, write_host, write_table

# Facts about Halide v14.0.0's apps: the generator each app's CMakeLists.txt
# builds for its benchmark, with default generator params, and the inputs its
# process/filter driver uses (shapes from the generator's estimates or the
# driver; scalars from the estimates or the app's Makefile run line).
BUILTIN_APPS = [
    {"name": "bilateral_grid", "generator_source": "bilateral_grid_generator.cpp",
     "generator_name": "bilateral_grid", "params": {},
     "rungen_args": ["input=random:{seed}:[1536,2560]", "r_sigma=0.1", "--output_extents=[1536,2560]"]},
    {"name": "camera_pipe", "generator_source": "camera_pipe_generator.cpp",
     "generator_name": "camera_pipe", "params": {},
     # The pipeline reads the raw image shifted by (16, 12): a 2592x1968
     # input gives a 2560x1920 output (its estimates give both 2592x1968).
     "rungen_args": ["input=random:{seed}:[2592,1968]", "matrix_3200=random:{seed}:[4,3]",
                     "matrix_7000=random:{seed}:[4,3]", "color_temp=3700", "gamma=2.0", "contrast=50",
                     "sharpen_strength=1.0", "blackLevel=25", "whiteLevel=1023",
                     "--output_extents=[2560,1920,3]"]},
    {"name": "local_laplacian", "generator_source": "local_laplacian_generator.cpp",
     "generator_name": "local_laplacian", "params": {},
     # The app's run: levels 8, alpha 1 / (levels - 1), beta 1.
     "rungen_args": ["input=random:{seed}:[1536,2560,3]", "levels=8", "alpha=0.142857", "beta=1",
                     "--output_extents=[1536,2560,3]"]},
    {"name": "nl_means", "generator_source": "nl_means_generator.cpp",
     "generator_name": "nl_means", "params": {},
     "rungen_args": ["input=random:{seed}:[1536,2560,3]", "patch_size=7", "search_area=7", "sigma=0.12",
                     "--output_extents=[1536,2560,3]"]},
    {"name": "lens_blur", "generator_source": "lens_blur_generator.cpp",
     "generator_name": "lens_blur", "params": {},
     "rungen_args": ["left_im=random:{seed}:[192,320,3]", "right_im=random:{seed}:[192,320,3]",
                     "slices=32", "focus_depth=13", "blur_radius_scale=0.5", "aperture_samples=32",
                     "--output_extents=[192,320,3]"]},
    {"name": "harris", "generator_source": "harris_generator.cpp",
     "generator_name": "harris", "params": {},
     # The app's output is the input less a 3-pixel border.
     "rungen_args": ["input=random:{seed}:[1536,2560,3]", "--output_extents=[1530,2554]"]},
    {"name": "unsharp", "generator_source": "unsharp_generator.cpp",
     "generator_name": "unsharp", "params": {},
     "rungen_args": ["input=random:{seed}:[1536,2560,3]", "--output_extents=[1536,2560,3]"]},
    {"name": "iir_blur", "generator_source": "iir_blur_generator.cpp",
     "generator_name": "iir_blur", "params": {},
     "rungen_args": ["input=random:{seed}:[1536,2560,3]", "alpha=0.1", "--output_extents=[1536,2560,3]"]},
    {"name": "interpolate", "generator_source": "interpolate_generator.cpp",
     "generator_name": "interpolate", "params": {},
     # RGBA in, RGB out.
     "rungen_args": ["input=random:{seed}:[1536,2560,4]", "--output_extents=[1536,2560,3]"]},
    {"name": "max_filter", "generator_source": "max_filter_generator.cpp",
     "generator_name": "max_filter", "params": {},
     "rungen_args": ["input=random:{seed}:[1536,2560,3]", "--output_extents=[1536,2560,3]"]},
    {"name": "stencil_chain", "generator_source": "stencil_chain_generator.cpp",
     "generator_name": "stencil_chain", "params": {},
     "rungen_args": ["input=random:{seed}:[1536,2560]", "--output_extents=[1536,2560]"]},
    {"name": "conv_layer", "generator_source": "conv_layer_generator.cpp",
     "generator_name": "conv_layer", "params": {},
     # N=5, CI=CO=128, W=100, H=80 (the generator constrains these bounds).
     "rungen_args": ["input=random:{seed}:[128,102,82,5]", "filter=random:{seed}:[128,3,3,128]",
                     "bias=random:{seed}:[128]", "--output_extents=[128,100,80,5]"]},
    {"name": "depthwise_separable_conv", "generator_source": "depthwise_separable_conv_generator.cpp",
     "generator_name": "depthwise_separable_conv", "params": {},
     # N=4, CI=32, CO=16, CM=1, W=H=112 (the app's driver; the estimates'
     # channel multiplier of CI / CO does not match its pointwise filter).
     "rungen_args": ["input=random:{seed}:[32,112,112,4]", "depthwise_filter=random:{seed}:[1,32,3,3]",
                     "pointwise_filter=random:{seed}:[16,32]", "bias=random:{seed}:[16]",
                     "--output_extents=[16,112,112,4]"]},
    {"name": "hist", "generator_source": "hist_generator.cpp",
     "generator_name": "hist", "params": {},
     "rungen_args": ["input=random:{seed}:[1536,2560,3]", "--output_extents=[1536,2560,3]"]},
]

DEFAULT_VARIANTS = "hand,Mullapudi2016,Li2018,Adams2019,Ansor-zero-shot,Ansor-64"
PEER_PLUGINS = {"Mullapudi2016": "libautoschedule_mullapudi2016.so",
                "Li2018": "libautoschedule_li2018.so",
                "Adams2019": "libautoschedule_adams2019.so"}
PEER_PLUGIN_DIR = "/usr/lib/x86_64-linux-gnu/halide14"
DEFAULT_BUILD = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build"))
HALIDE_INCLUDE = "/usr/include/halide14"
HALIDE_TOOLS = "/usr/src/halide14"  # GenGen.cpp, RunGenMain.cpp, RunGen.h
HALIDE_LIBS = ["/usr/lib/x86_64-linux-gnu/libHalide14.so", "/usr/lib/x86_64-linux-gnu/libHalide.so"]
AVX512_FLAGS = ["avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl", "avx512ifma", "avx512vbmi"]
TARGET_AVX512 = "x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41"
TARGET_AVX2 = "x86-64-linux-avx-avx2-f16c-fma-sse41"
CACHE_BYTES, BALANCE = 33554432, 40


def log(message):
    sys.stderr.write(f"[{time.strftime('%H:%M:%S')}] {message}\n")
    sys.stderr.flush()


# ---------------------------------------------------------------- arguments

def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--halide-source", required=True, help="Halide v14 source tree (DIR/apps/<app>/...)")
    p.add_argument("--out", required=True, help="output folder (also the build cache)")
    p.add_argument("--apps", help="comma-separated app names (default: all in the table)")
    p.add_argument("--variants", default=DEFAULT_VARIANTS)
    p.add_argument("--build", default=DEFAULT_BUILD, help="build folder holding autoscheduler/libansor.so "
                   "(default: this repository's build/)")
    p.add_argument("--ansor-plugin", help="libansor.so to use (default: BUILD/autoscheduler/libansor.so)")
    p.add_argument("--app-table", help="JSON app table replacing the built-in one")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--target", help="Halide target (default: the widest x86 target this CPU runs)")
    p.add_argument("--peer-timeout", type=float, default=300, help="generator time limit (s) of hand and the peers")
    p.add_argument("--zero-shot-timeout", type=float, default=120, help="generator time limit of Ansor-zero-shot")
    p.add_argument("--tune-timeout", type=float, default=1800, help="generator time limit of Ansor-<trials>")
    p.add_argument("--run-timeout", type=float, default=300, help="limit for one RunGen process")
    p.add_argument("--benchmark-min-time", type=float, default=0.5, help="RunGen --benchmark_min_time")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--stmt", action="store_true", help="also emit each variant's .stmt")
    p.add_argument("--reuse", action="store_true", help="keep variants built by an earlier run into OUT")
    args = p.parse_args(argv)
    if args.rounds < 1 or args.threads < 1:
        p.error("--rounds and --threads must be at least 1")
    args.variants = [v for v in args.variants.split(",") if v]
    if len(set(args.variants)) != len(args.variants):
        p.error("--variants names a variant twice")
    for v in args.variants:
        if not (v == "hand" or v in PEER_PLUGINS or v == "Ansor-zero-shot" or re.fullmatch(r"Ansor-\d+", v)):
            p.error(f"unknown variant {v!r} (hand, {', '.join(PEER_PLUGINS)}, Ansor-zero-shot, Ansor-<trials>)")
    return args


def load_app_table(args):
    table = BUILTIN_APPS
    if args.app_table:
        with open(args.app_table) as f:
            table = json.load(f)
        for app in table:
            missing = {"name", "generator_source", "generator_name"} - set(app)
            if missing:
                sys.exit(f"{args.app_table}: app {app.get('name')} lacks {sorted(missing)}")
            app.setdefault("params", {})
            app.setdefault("rungen_args", [])
    if args.apps:
        names = [a for a in args.apps.split(",") if a]
        known = {a["name"]: a for a in table}
        unknown = [n for n in names if n not in known]
        if unknown:
            sys.exit(f"unknown apps {unknown}; the table has {sorted(known)}")
        table = [known[n] for n in names]
    return table


# ---------------------------------------------------------------- host

def cpu_model():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return "unknown"


def pick_target():
    """The widest target this CPU runs; never `host` (on Zen 5 it picks
    AVX512-FP16, which Halide 14 then uses although the CPU lacks it)."""
    flags = set()
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("flags"):
                flags = set(line.split(":", 1)[1].split())
                break
    return TARGET_AVX512 if all(fl in flags for fl in AVX512_FLAGS) else TARGET_AVX2


def halide_library():
    for path in HALIDE_LIBS:
        if os.path.exists(path):
            return [path]
    return ["-lHalide"]


# ---------------------------------------------------------------- processes

class Result:
    def __init__(self, rc, output, seconds, timed_out):
        self.rc, self.output, self.seconds, self.timed_out = rc, output, seconds, timed_out


def run_limited(cmd, timeout, env=None, cwd=None, log_path=None):
    """Run cmd in a process group of its own; on timeout kill that group
    (the generator's children too)."""
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, cwd=cwd,
                            start_new_session=True, text=True, errors="replace")
    timed_out = False
    try:
        output, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        os.killpg(proc.pid, signal.SIGKILL)
        output, _ = proc.communicate()
    seconds = time.monotonic() - start
    if log_path:
        with open(log_path, "w") as f:
            f.write("$ " + " ".join(shlex.quote(c) for c in cmd) + "\n" + output)
    return Result(proc.returncode, output, seconds, timed_out)


def first_error_line(text):
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    for line in lines:
        if re.search(r"error|Error|ERROR|terminate|Assertion|Segmentation|Aborted|exception", line):
            return line[:300]
    return lines[-1][:300] if lines else "(no output)"


def failure_detail(result, what):
    if result.timed_out:
        return f"{what} timed out after {result.seconds:.0f} s"
    rc = result.rc
    how = f"signal {-rc}" if rc < 0 else f"exit {rc}"
    return f"{what} failed ({how}): {first_error_line(result.output)}"


# ---------------------------------------------------------------- building

def compile_cmd(sources, output, extra):
    return ["g++", "-std=c++17", "-DHALIDE_ENABLE_RTTI", "-DHALIDE_WITH_EXCEPTIONS",
            "-I", HALIDE_INCLUDE, "-I", HALIDE_TOOLS] + extra + sources + ["-o", output]


def build_generator(app, args, app_dir):
    """The app's generator binary, built once and cached in OUT/<app>/."""
    source = os.path.join(args.halide_source, "apps", app["name"], app["generator_source"])
    gen = os.path.join(app_dir, "generator")
    stamp = os.path.join(app_dir, "generator.json")
    if not os.path.exists(source):
        return None, f"generator source {source} not found", 0.0
    if os.path.exists(gen) and os.path.exists(stamp) and os.path.getmtime(gen) >= os.path.getmtime(source):
        with open(stamp) as f:
            return gen, None, json.load(f)["seconds"]
    log(f"{app['name']}: compiling the generator")
    tools = os.path.join(args.halide_source, "tools")
    cmd = compile_cmd([source, os.path.join(HALIDE_TOOLS, "GenGen.cpp")], gen,
                      ["-O1", "-g0", "-I", os.path.join(args.halide_source, "apps", "support"), "-I", tools])
    cmd += halide_library() + ["-ldl", "-lpthread"]
    result = run_limited(cmd, 900, log_path=os.path.join(app_dir, "generator_build.log"))
    if result.rc != 0:
        return None, failure_detail(result, "generator compile"), result.seconds
    with open(stamp, "w") as f:
        json.dump({"seconds": result.seconds}, f)
    log(f"{app['name']}: generator compiled in {result.seconds:.1f} s")
    return gen, None, result.seconds


def rungen_main_object(args):
    """RunGenMain.cpp compiled once (no PNG/JPEG support needed: .tmp files)."""
    obj = os.path.join(args.out, "RunGenMain.o")
    if os.path.exists(obj):
        return obj
    log("compiling RunGenMain.cpp")
    cmd = compile_cmd([os.path.join(HALIDE_TOOLS, "RunGenMain.cpp")], obj + ".part",
                      ["-O2", "-c", "-DHALIDE_NO_PNG", "-DHALIDE_NO_JPEG"])
    result = run_limited(cmd, 900, log_path=os.path.join(args.out, "RunGenMain.log"))
    if result.rc != 0:
        sys.exit(failure_detail(result, "compiling RunGenMain.cpp"))
    os.replace(obj + ".part", obj)
    return obj


def variant_setup(variant, args):
    """(generator arguments, extra environment, time limit, error) of a variant."""
    machine = f"machine_params={args.threads},{CACHE_BYTES},{BALANCE}"
    if variant == "hand":
        return ["auto_schedule=false"], {}, args.peer_timeout, None
    if variant in PEER_PLUGINS:
        plugin = os.path.join(PEER_PLUGIN_DIR, PEER_PLUGINS[variant])
        env, limit = {}, args.peer_timeout
        scheduler = variant
    else:
        plugin = args.ansor_plugin or os.path.join(args.build, "autoscheduler", "libansor.so")
        trials = 0 if variant == "Ansor-zero-shot" else int(variant.split("-")[1])
        env = {"HL_ANSOR_TRIALS": str(trials)}
        limit = args.zero_shot_timeout if trials == 0 else args.tune_timeout
        scheduler = "Ansor"
    if not os.path.exists(plugin):
        return None, None, None, f"plugin {plugin} not found"
    return ["auto_schedule=true", machine, "-p", plugin, "-s", scheduler], env, limit, None


def variant_key(app, variant, args):
    """What a reused build must match: the app's table entry, the variant and
    its generator arguments (plugin path included), the target."""
    gen_args, env, _, error = variant_setup(variant, args)
    return {"app": app, "variant": variant, "target": args.target, "generator_args": gen_args, "env": env,
            "error": error}


def new_row(app, variant):
    return {"app": app, "variant": variant, "status": "", "generator_seconds": None, "best_ms": None,
            "round_ms": [], "ratio_to_hand": None, "detail": "", "rungen": None, "outputs": []}


def build_variant(app, variant, gen, args, app_dir, rungen_main):
    """Run the generator for one variant and link RunGen; returns its row."""
    row = new_row(app["name"], variant)
    vdir = os.path.join(app_dir, variant)
    rungen = os.path.join(vdir, "rungen")
    record = os.path.join(vdir, "build.json")
    key = variant_key(app, variant, args)
    if args.reuse and os.path.exists(record):
        with open(record) as f:
            saved = json.load(f)
        if saved.get("key") == key and (saved["status"] != "OK" or os.path.exists(rungen)):
            row.update(status=saved["status"], generator_seconds=saved["generator_seconds"],
                       detail=saved["detail"], rungen=rungen if saved["status"] == "OK" else None)
            log(f"{app['name']} / {variant}: reused ({row['status']})")
            return row
    os.makedirs(vdir, exist_ok=True)
    for name in os.listdir(vdir):
        os.remove(os.path.join(vdir, name))
    gen_args, extra_env, limit, error = variant_setup(variant, args)
    if error:
        row.update(status="FAILED", detail=error)
    else:
        fn = app["generator_name"]
        emit = "static_library,h,registration,schedule" + (",stmt" if args.stmt else "")
        cmd = [gen, "-g", fn, "-f", fn, "-o", vdir, "-e", emit, f"target={args.target}"] + gen_args
        cmd += [f"{k}={v}" for k, v in app["params"].items()]
        # The thread count RunGen will use, for an autoscheduler that times candidates.
        env = dict(os.environ, HL_NUM_THREADS=str(args.threads), **extra_env)
        log(f"{app['name']} / {variant}: running the generator (limit {limit:.0f} s)")
        result = run_limited(cmd, limit, env=env, log_path=os.path.join(vdir, "generator.log"))
        row["generator_seconds"] = round(result.seconds, 2)
        if result.timed_out:
            row.update(status="TIMEOUT", detail=failure_detail(result, "generator"))
        elif result.rc != 0:
            row.update(status="FAILED", detail=failure_detail(result, "generator"))
        else:
            link = compile_cmd([rungen_main, os.path.join(vdir, fn + ".registration.cpp"),
                                os.path.join(vdir, fn + ".a")], rungen,
                               ["-O2", "-I", vdir]) + ["-ldl", "-lpthread"]
            linked = run_limited(link, 600, log_path=os.path.join(vdir, "link.log"))
            if linked.rc != 0:
                row.update(status="FAILED", detail=failure_detail(linked, "RunGen link"))
            else:
                row.update(status="OK", rungen=rungen)
        log(f"{app['name']} / {variant}: {row['status']} after {result.seconds:.1f} s {row['detail']}")
    with open(record, "w") as f:
        json.dump({"key": key, "status": row["status"], "generator_seconds": row["generator_seconds"],
                   "detail": row["detail"]}, f)
    return row


# ---------------------------------------------------------------- running

def rungen_env(args):
    return dict(os.environ, HL_NUM_THREADS=str(args.threads))


def rungen_args(app, args):
    # Each input its own seed (--seed plus its position): RunGen fills two
    # buffers of one shape and one seed with the same values, and a stereo
    # pipeline (lens_blur) given the same image twice finds every pixel at
    # depth 0, as no real pair of views does.
    fixed, seeded = [], 0
    for a in app["rungen_args"]:
        if "{seed}" in a:
            a = a.replace("{seed}", str(args.seed + seeded))
            seeded += 1
        fixed.append(a)
    return fixed + [f"--default_input_buffers=random:{args.seed}:estimate_then_auto",
                    "--default_input_scalars=estimate", "--quiet"]


def output_names(rungen, args):
    result = run_limited([rungen, "--describe"], 60, env=rungen_env(args))
    return re.findall(r'Output "([^"]+)"', result.output)


def run_for_output(row, app, args):
    """Run a built variant once, saving its outputs as .tmp files."""
    vdir = os.path.dirname(row["rungen"])
    names = output_names(row["rungen"], args)
    outputs = [os.path.join(vdir, f"{n}.tmp") for n in names]
    cmd = [row["rungen"]] + rungen_args(app, args) + [f"{n}={p}" for n, p in zip(names, outputs)]
    result = run_limited(cmd, args.run_timeout, env=rungen_env(args), log_path=os.path.join(vdir, "run.log"))
    if result.rc != 0 or result.timed_out or not names:
        row.update(status="TIMEOUT" if result.timed_out else "FAILED",
                   detail=failure_detail(result, "RunGen") if names else "RunGen --describe lists no outputs")
        return
    row["outputs"] = outputs
    row["run_seconds"] = result.seconds


def check_outputs(rows):
    """Compare each variant of one app with its hand row; then delete the
    (large) output files."""
    hand = next((r for r in rows if r["variant"] == "hand" and r["status"] == "OK"), None)
    for row in rows:
        if row["status"] != "OK" or row["variant"] == "hand":
            continue
        if hand is None:
            row.update(status="UNCHECKED", detail="no hand output to compare against")
            continue
        details = []
        for ref_path, out_path in zip(hand["outputs"], row["outputs"]):
            ok, detail = compare_arrays(load_tmp(ref_path), load_tmp(out_path))
            details.append(detail)
            if not ok:
                row["status"] = "WRONG"
        if len(hand["outputs"]) != len(row["outputs"]):
            row["status"] = "WRONG"
            details.append("different number of outputs")
        row["detail"] = "; ".join(details)
        log(f"{row['app']} / {row['variant']}: {row['status']} ({row['detail']})")
    for row in rows:
        for path in row.pop("outputs", []) or []:
            if os.path.exists(path):
                os.remove(path)


def time_once(row, app, args):
    cmd = [row["rungen"]] + rungen_args(app, args) + [
        "--benchmarks=all", f"--benchmark_min_time={args.benchmark_min_time}", "--parsable_output"]
    result = run_limited(cmd, args.run_timeout, env=rungen_env(args))
    match = re.search(r"BEST_TIME_MSEC_PER_ITER\s+([0-9.eE+-]+)", result.output)
    if result.rc != 0 or result.timed_out or not match:
        return None, failure_detail(result, "RunGen benchmark")
    return float(match.group(1)), None


def timing_phase(apps, rows_by_app, args):
    for rnd in range(args.rounds):
        log(f"timing round {rnd + 1}/{args.rounds}")
        for app in apps:
            rows = [r for r in rows_by_app[app["name"]] if r["status"] in ("OK", "UNCHECKED")]
            if not rows:
                continue
            shift = rnd % len(rows)
            for row in rows[shift:] + rows[:shift]:
                ms, error = time_once(row, app, args)
                if error:
                    row.update(status="FAILED", detail=error)
                    log(f"{app['name']} / {row['variant']}: {error}")
                    continue
                row["round_ms"].append(ms)
        for app in apps:
            summary = ", ".join(f"{r['variant']} {min(r['round_ms']):.3f}"
                                for r in rows_by_app[app["name"]] if r["round_ms"] and r["status"] != "FAILED")
            log(f"  {app['name']}: {summary}")
    for rows in rows_by_app.values():
        for row in rows:
            if row["round_ms"] and row["status"] in ("OK", "UNCHECKED"):
                row["best_ms"] = min(row["round_ms"])
        hand = next((r for r in rows if r["variant"] == "hand" and r["best_ms"]), None)
        for row in rows:
            if hand and row["best_ms"]:
                row["ratio_to_hand"] = row["best_ms"] / hand["best_ms"]


# ---------------------------------------------------------------- main

def build_phase(apps, args):
    rows_by_app, gen_build_seconds = {}, {}
    rungen_main = rungen_main_object(args)
    for app in apps:
        app_dir = os.path.join(args.out, app["name"])
        os.makedirs(app_dir, exist_ok=True)
        gen, error, seconds = build_generator(app, args, app_dir)
        gen_build_seconds[app["name"]] = seconds
        rows = []
        for variant in args.variants:
            if gen is None:
                row = new_row(app["name"], variant)
                row.update(status="FAILED", detail=error)
            else:
                row = build_variant(app, variant, gen, args, app_dir, rungen_main)
                if row["status"] == "OK":
                    run_for_output(row, app, args)
                    log(f"{app['name']} / {variant}: correctness run {row['status']}"
                        + (f" in {row['run_seconds']:.1f} s" if row.get("run_seconds") else f": {row['detail']}"))
            rows.append(row)
        check_outputs(rows)
        rows_by_app[app["name"]] = rows
    return rows_by_app, gen_build_seconds


def main(argv):
    args = parse_args(argv)
    args.target = args.target or pick_target()
    apps = load_app_table(args)
    os.makedirs(args.out, exist_ok=True)
    host = {"cpu": cpu_model()}
    write_host(os.path.join(args.out, "host.txt"), host, args)
    log(f"{len(apps)} apps x {len(args.variants)} variants on {host['cpu']}, target {args.target}")
    rows_by_app, gen_build_seconds = build_phase(apps, args)
    timing_phase(apps, rows_by_app, args)
    all_rows = [r for app in apps for r in rows_by_app[app["name"]]]
    write_csv(os.path.join(args.out, "results.csv"), all_rows)
    write_table(os.path.join(args.out, "table.md"), apps, rows_by_app, args.variants, host, args, (CACHE_BYTES, BALANCE),
                gen_build_seconds)
    write_chart(os.path.join(args.out, "ratios.png"), apps, rows_by_app, args.variants)
    log(f"wrote {args.out}/results.csv, table.md, ratios.png, host.txt")
    with open(os.path.join(args.out, "table.md")) as f:
        print(f.read())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
