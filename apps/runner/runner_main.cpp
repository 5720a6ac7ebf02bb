// ansor_runner: runs a Halide AOT pipeline built as a shared object
// (src/measure/gpu_build.h, runner_program.h) in a process of its own, so
// that no GPU runtime (CUDA, an OpenCL ICD such as PoCL with its own LLVM)
// is ever loaded into a process that holds libHalide, and so that a CPU
// program is timed with the heap of a fresh process, as RunGen times it
// (fresh_process_measurer.h). It links only the C++ library and libdl, so it
// also runs on a GPU machine that has nothing but the driver.
//
//   ansor_runner --probe cuda|opencl
//   ansor_runner LIBRARY.so FUNCTION (--inputs SPEC.json | --random-inputs SEED)
//                    [--outputs-dir DIR] [--runs N] [--sample-seconds S] [--bounds-query]
// Timing: N back-to-back runs and the fastest; with --sample-seconds, as
// RunGen times (run_timing.h: samples for about S/2 seconds, 2S at most, N
// runs at least) and the best sample's time per run.
// --bounds-query runs nothing: it prints the region of each input buffer the
// pipeline reads for the given outputs.
//
// docs/gpu.md ("Measuring and verifying GPU programs") describes the files.
#include "cli.h"
#include "device_probe.h"
#include "host_buffer.h"
#include "measure/run_timing.h"
#include "measure/runner_files.h"
#include "pipeline_library.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ansor;
using namespace ansor::runner;

namespace {

struct Options {
    std::string library, function, inputs, outputs_dir;
    bool random = false;
    bool bounds_query = false;
    uint64_t seed = 0;
    int runs = 0;
    double sample_seconds = 0;  // 0: N back-to-back runs
};

// The command line; probe names an API to probe instead of running.
struct CommandLine {
    Options options;
    std::string probe;
};

CommandLine parse(int argc, char **argv) {
    CommandLine c;
    Options &o = c.options;
    unsigned long seed = 0;
    ansor_cli::Parser p("ansor_runner",
                        "Runs a pipeline library built by the tuner, in a process of its own, and prints its "
                        "times as JSON (or probes a GPU API with --probe).");
    p.positional("LIBRARY.so", &o.library, "the pipeline library").optional();
    p.positional("FUNCTION", &o.function, "its function").optional();
    p.option("--probe", &c.probe, "only say whether this API (cuda or opencl) can run here", "API");
    p.option("--inputs", &o.inputs, "the inputs' shapes and values", "SPEC.json");
    p.option("--random-inputs", &seed, "random inputs at the estimates, from this seed", "SEED");
    p.option("--outputs-dir", &o.outputs_dir, "where to write the outputs", "DIR");
    p.option("--runs", &o.runs, "runs", "N");
    p.option("--sample-seconds", &o.sample_seconds, "time samples of this many seconds instead of N runs", "S");
    p.option("--bounds-query", &o.bounds_query, "print the regions the pipeline reads instead of running it");
    p.parse(argc, argv);
    if (p.given("--probe")) {
        if (c.probe != "cuda" && c.probe != "opencl") p.fail("--probe takes cuda or opencl, not " + c.probe);
        if (p.given("LIBRARY.so")) p.fail("--probe takes no library");
        return c;
    }
    o.random = p.given("--random-inputs");
    o.seed = seed;
    if (!p.given("FUNCTION")) p.fail("give the library and the function name");
    if (o.inputs.empty() == !o.random) p.fail("give exactly one of --inputs and --random-inputs");
    if (p.given("--sample-seconds") && !(o.sample_seconds > 0)) {
        p.fail("--sample-seconds needs a positive number of seconds");
    }
    return c;
}

RunnerBuffer estimated_shape(const halide_filter_argument_t &a) {
    RunnerBuffer b;
    b.name = a.name;
    b.type = a.type;
    for (int d = 0; d < a.dimensions; d++) {
        const int64_t *min = a.buffer_estimates ? a.buffer_estimates[2 * d] : nullptr;
        const int64_t *extent = a.buffer_estimates ? a.buffer_estimates[2 * d + 1] : nullptr;
        if (!min || !extent) {
            throw std::runtime_error(std::string("buffer ") + a.name + " has no estimate for dimension " +
                                     std::to_string(d) + "; give its shape in --inputs");
        }
        b.min.push_back(*min);
        b.extent.push_back(*extent);
    }
    return b;
}

halide_scalar_value_t scalar_value(const halide_type_t &t, double v) {
    halide_scalar_value_t s;
    std::memset(&s, 0, sizeof(s));
    if (t.code == halide_type_float) {
        if (t.bits == 32) s.u.f32 = (float)v;
        else s.u.f64 = v;
    } else if (t.code == halide_type_int) {
        if (t.bits == 8) s.u.i8 = (int8_t)v;
        else if (t.bits == 16) s.u.i16 = (int16_t)v;
        else if (t.bits == 32) s.u.i32 = (int32_t)v;
        else s.u.i64 = (int64_t)v;
    } else if (t.code == halide_type_uint) {
        if (t.bits == 1) s.u.b = v != 0;
        else if (t.bits == 8) s.u.u8 = (uint8_t)v;
        else if (t.bits == 16) s.u.u16 = (uint16_t)v;
        else if (t.bits == 32) s.u.u32 = (uint32_t)v;
        else s.u.u64 = (uint64_t)v;
    }
    return s;
}

// The pipeline's arguments, in its argv order.
struct Arguments {
    std::vector<std::unique_ptr<HostBuffer>> buffers;
    std::vector<HostBuffer *> outputs;
    std::vector<HostBuffer *> inputs;  // bounds-query buffers only
    std::vector<halide_scalar_value_t> scalars;  // reserved up front: argv points into it
    std::vector<void *> argv;
};

const RunnerBuffer *find_input(const RunnerSpec &spec, const std::string &name) {
    for (const RunnerBuffer &b : spec.inputs) {
        if (b.name == name) return &b;
    }
    return nullptr;
}

void check_matches(const RunnerBuffer &given, const halide_filter_argument_t &a) {
    if ((int)given.extent.size() != a.dimensions) {
        throw std::runtime_error("buffer " + given.name + " is given " + std::to_string(given.extent.size()) +
                                 " dimensions; the pipeline's has " + std::to_string(a.dimensions));
    }
    if (given.type.bits && !(given.type == a.type)) {
        throw std::runtime_error("buffer " + given.name + " is given as " + runner_type_name(given.type) +
                                 "; the pipeline's is " + runner_type_name(a.type));
    }
}

Arguments make_arguments(const halide_filter_metadata_t &md, const Options &o, const RunnerSpec &spec) {
    Arguments args;
    args.scalars.reserve(md.num_arguments);
    size_t output_index = 0;
    std::map<std::string, double> given_scalars;
    for (const RunnerScalar &s : spec.scalars) given_scalars[s.name] = s.value;
    for (int i = 0; i < md.num_arguments; i++) {
        const halide_filter_argument_t &a = md.arguments[i];
        if (a.kind == halide_argument_kind_input_scalar) {
            halide_scalar_value_t v;
            std::memset(&v, 0, sizeof(v));
            if (auto it = given_scalars.find(a.name); it != given_scalars.end()) v = scalar_value(a.type, it->second);
            else if (a.scalar_estimate) v = *a.scalar_estimate;
            else if (a.scalar_def) v = *a.scalar_def;
            args.scalars.push_back(v);
            args.argv.push_back(&args.scalars.back());
            continue;
        }
        RunnerBuffer shape;
        const bool output = a.kind == halide_argument_kind_output_buffer;
        if (output) {
            shape = output_index < spec.outputs.size() ? spec.outputs[output_index] : estimated_shape(a);
            output_index++;
        } else if (const RunnerBuffer *given = find_input(spec, a.name)) {
            shape = *given;
        } else if (o.random) {
            shape = estimated_shape(a);
        } else {
            throw std::runtime_error(std::string("the inputs file gives no buffer for the pipeline's input ") + a.name);
        }
        check_matches(shape, a);
        shape.name = a.name;
        shape.type = a.type;
        auto buffer = std::make_unique<HostBuffer>(shape);
        if (!output && o.bounds_query) {
            buffer->make_query();
            args.inputs.push_back(buffer.get());
        } else if (!output) {
            if (!shape.file.empty()) {
                read_raw_file_into(shape.file, buffer->host(), buffer->bytes());
            } else {
                buffer->fill_random(o.seed + 1000003ull * (uint64_t)i);
            }
            buffer->mark_host_dirty();
        } else {
            args.outputs.push_back(buffer.get());
        }
        args.argv.push_back(buffer->raw());
        args.buffers.push_back(std::move(buffer));
    }
    return args;
}

void write_outputs(const PipelineLibrary &lib, Arguments &args, const std::string &dir) {
    nlohmann::json header = {{"outputs", nlohmann::json::array()}};
    for (size_t i = 0; i < args.outputs.size(); i++) {
        HostBuffer *b = args.outputs[i];
        lib.copy_to_host(b->raw());
        // By position: Func names may hold characters ("C$1") a file name should not.
        const std::string file = "output" + std::to_string(i) + ".bin";
        write_raw_file(dir + "/" + file, b->host(), b->bytes());
        header["outputs"].push_back({{"name", b->shape().name},
                                     {"type", runner_type_name(b->shape().type)},
                                     {"min", b->shape().min},
                                     {"extent", b->shape().extent},
                                     {"file", file}});
    }
    const std::string path = dir + "/outputs.json";
    FILE *f = std::fopen(path.c_str(), "w");
    if (!f) throw std::runtime_error("cannot write " + path);
    std::fputs(header.dump(1).c_str(), f);
    std::fclose(f);
}

double now_ms() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Back-to-back runs, each waited for on the device before the clock is read.
std::vector<double> timed_runs(const PipelineLibrary &lib, Arguments &args, int runs) {
    std::vector<double> ms;
    for (int r = 0; r < runs; r++) {
        const double begin = now_ms();
        lib.call(args.argv.data());
        for (HostBuffer *b : args.outputs) lib.sync(b->raw());
        ms.push_back(now_ms() - begin);
    }
    return ms;
}

// The region of each input the pipeline reads for the outputs given.
int bounds_query(const PipelineLibrary &lib, Arguments &args) {
    lib.call(args.argv.data());
    nlohmann::json result = {{"inputs", nlohmann::json::array()}};
    for (HostBuffer *b : args.inputs) {
        result["inputs"].push_back({{"name", b->shape().name}, {"min", b->queried_min()}, {"extent", b->queried_extent()}});
    }
    std::printf("%s\n", result.dump().c_str());
    return 0;
}

// Prints the result line and releases the device buffers.
int finish(const PipelineLibrary &lib, Arguments &args, const Options &o, nlohmann::json &result) {
    if (!o.outputs_dir.empty()) result["outputs"] = o.outputs_dir + "/outputs.json";
    for (auto &b : args.buffers) lib.release_device(b->raw());
    std::printf("%s\n", result.dump().c_str());
    return 0;
}

int run(const Options &o) {
    PipelineLibrary lib(o.library, o.function);
    const RunnerSpec spec = o.inputs.empty() ? RunnerSpec{} : read_runner_spec(o.inputs);
    Arguments args = make_arguments(lib.metadata(), o, spec);
    if (o.bounds_query) return bounds_query(lib, args);
    lib.call(args.argv.data());  // the warm-up run, whose outputs are written
    if (!o.outputs_dir.empty()) write_outputs(lib, args, o.outputs_dir);
    nlohmann::json result = {{"function", o.function}, {"target", lib.metadata().target}};
    if (o.sample_seconds > 0) {
        const SampledTime t = time_in_samples(
            [&] {
                lib.call(args.argv.data());
                for (HostBuffer *b : args.outputs) lib.sync(b->raw());
            },
            sampling_options(o.sample_seconds, std::max(1, o.runs), 1000000));
        result["runs"] = t.runs;
        result["min_ms"] = t.best_ms;
        result["median_ms"] = t.median_ms;
        return finish(lib, args, o, result);
    }
    std::vector<double> ms = timed_runs(lib, args, o.runs);
    result["runs"] = ms.size();
    if (!ms.empty()) {
        std::sort(ms.begin(), ms.end());
        result["min_ms"] = ms.front();
        result["median_ms"] = ms[ms.size() / 2];
    }
    return finish(lib, args, o, result);
}

}  // namespace

int main(int argc, char **argv) {
    try {
        const CommandLine c = parse(argc, argv);
        if (!c.probe.empty()) {
            const ProbeResult r = c.probe == "cuda" ? probe_cuda() : probe_opencl();
            std::printf("%s\n", probe_json(r).c_str());
            return r.usable ? 0 : 3;
        }
        return run(c.options);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
}
