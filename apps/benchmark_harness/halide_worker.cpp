#include "halide_worker.h"

#include "dag/pipeline_dag.h"
#include "fresh_process_timer.h"
#include "harness_options.h"
#include "measure/fresh_process_measurer.h"
#include "measure/output_check.h"
#include "measure/pipeline_runner.h"
#include "records/pipeline_key.h"
#include "records/tuning_log.h"
#include "sample_timer.h"
#include "util/target.h"
#include "worker_protocol.h"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

namespace ansor_harness {

namespace {

double now_s() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void reply(std::string line) {
    for (char &c : line) {
        if (c == '\n' || c == '\r') c = ' ';
    }
    std::cout << kReplyPrefix << line << std::endl;
}

void write_file(const std::string &path, const void *data, size_t bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(static_cast<const char *>(data), (std::streamsize)bytes);
    if (!out) throw std::runtime_error("cannot write " + path);
}

// The reference's dump: every output, concatenated in order, and every
// buffer input by name (the vendor libraries read them).
void dump(const ansor::PipelineDAG &dag, ansor::PipelineRunner &runner, const std::string &dir) {
    std::ofstream out(dir + "/output.bin", std::ios::binary);
    for (const Halide::Buffer<> &b : runner.outputs()) {
        out.write(reinterpret_cast<const char *>(b.data()), (std::streamsize)b.size_in_bytes());
    }
    if (!out) throw std::runtime_error("cannot write " + dir + "/output.bin");
    // Their rounding spread, laid out as the outputs (zeros for integer outputs).
    const std::vector<Halide::Buffer<>> spread = ansor::rounding_spread(runner);
    std::ofstream spread_out(dir + "/spread.bin", std::ios::binary);
    for (size_t i = 0; i < spread.size(); i++) {
        const Halide::Buffer<> &b = runner.outputs()[i];
        std::vector<char> bytes(b.size_in_bytes(), 0);
        if (spread[i].defined()) {
            Halide::Buffer<> laid_out(b.type(), bytes.data(), b.dimensions(), b.raw_buffer()->dim);
            laid_out.copy_from(spread[i]);
        }
        spread_out.write(bytes.data(), (std::streamsize)bytes.size());
    }
    if (!spread_out) throw std::runtime_error("cannot write " + dir + "/spread.bin");
    for (const ansor::InputInfo &in : dag.inputs()) {
        if (in.dimensions == 0) continue;
        Halide::Buffer<> b = in.param.buffer();
        write_file(dir + "/" + in.name + ".bin", b.data(), b.size_in_bytes());
    }
}

// The outputs in `data` (the root's dump: every output's memory,
// concatenated), viewed in the layouts of `like`'s buffers; `data` must
// outlive them.
std::vector<Halide::Buffer<>> view_outputs(const std::vector<Halide::Buffer<>> &like, std::vector<char> &data,
                                           const std::string &file) {
    std::vector<Halide::Buffer<>> out;
    size_t offset = 0;
    for (const Halide::Buffer<> &b : like) {
        if (offset + b.size_in_bytes() > data.size()) {
            throw std::runtime_error(file + " is smaller than this variant's outputs");
        }
        out.emplace_back(b.type(), data.data() + offset, b.dimensions(), b.raw_buffer()->dim);
        offset += b.size_in_bytes();
    }
    if (offset != data.size()) throw std::runtime_error(file + " is larger than this variant's outputs");
    return out;
}

// The reply to "check <tolerance> <file>": the measurer's comparison
// (ansor::compare_outputs) of this variant's outputs with the root's: the
// JIT copy's, and the built program's when it is what gets timed.
std::string check(const ansor::PipelineDAG &dag, ansor::PipelineRunner &runner, FreshProcessTimer *fresh,
                  const std::string &arg) {
    std::istringstream args(arg);
    double tolerance = 0;
    if (!(args >> tolerance)) throw std::runtime_error("check: expected <tolerance> <file>, got \"" + arg + "\"");
    std::string file;
    std::getline(args >> std::ws, file);
    std::ifstream in(file, std::ios::binary);
    std::vector<char> data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::vector<Halide::Buffer<>> want = view_outputs(runner.outputs(), data, file);
    // The root's rounding spread, dumped beside its outputs.
    const std::string spread_file = file.substr(0, file.find_last_of('/') + 1) + "spread.bin";
    std::ifstream spread_in(spread_file, std::ios::binary);
    std::vector<char> spread_data((std::istreambuf_iterator<char>(spread_in)), std::istreambuf_iterator<char>());
    const std::vector<Halide::Buffer<>> spread = view_outputs(runner.outputs(), spread_data, spread_file);
    ansor::OutputComparison c = ansor::compare_outputs(dag, runner.outputs(), want, tolerance, spread);
    if (c.ok() && fresh) {
        ansor::OutputComparison built = ansor::compare_outputs(dag, fresh->run_for_outputs(), want, tolerance, spread);
        if (!built.ok()) built.detail.insert(0, "the program built for timing: ");
        if (!built.ok() || built.worst > c.worst) c = built;
    }
    std::ostringstream out;
    if (c.ok()) out << "error " << c.worst;
    else out << "wrong " << c.worst << " " << c.detail;
    return out.str();
}

// Ansor's measurements of the pipeline with key `hash` in `log`, in file
// order, as trial,ok,ms,best_ms rows.
void write_curve(const std::string &hash, const Halide::Target &target, const std::string &log,
                 const std::string &file) {
    std::ofstream out(file);
    double best = INFINITY;
    int trial = 0;
    for (const ansor::TuningRecord &r : ansor::TuningLog(log).read_all()) {
        if (r.pipeline != hash || r.target != target.to_string()) continue;
        trial++;
        if (r.ok) best = std::min(best, r.min_ms);
        out << trial << "," << (r.ok ? 1 : 0) << "," << (r.ok ? r.min_ms : NAN) << "," << best << "\n";
    }
}

void serve(const ansor::PipelineDAG &dag, ansor::PipelineRunner &runner, FreshProcessTimer *fresh) {
    SampleTimer timer;
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream in(line);
        std::string command, arg;
        in >> command;
        std::getline(in >> std::ws, arg);
        try {
            if (command == "quit") return;
            if (command == "time") {
                std::istringstream args(arg);
                int n = 1;
                double budget = kRoundBudgetSeconds;
                args >> n >> budget;
                std::ostringstream out;
                out << "samples";
                const std::vector<double> samples = fresh ? fresh->samples_ms(std::max(1, n), budget)
                                                          : timer.samples_ms([&] { runner.run(); }, std::max(1, n), budget);
                for (double ms : samples) out << " " << ms;
                reply(out.str());
            } else if (command == "dump") {
                dump(dag, runner, arg);
                reply("dumped");
            } else if (command == "check") {
                reply(check(dag, runner, fresh, arg));
            } else {
                reply("failed unknown command \"" + line + "\"");
            }
        } catch (const std::exception &e) {
            reply(std::string("failed ") + e.what());
        }
    }
}

}  // namespace

int run_halide_worker(const HalideVariantSpec &spec) {
    const BenchCase &c = *spec.bench_case;
    std::unique_ptr<ansor::PipelineDAG> dag;
    std::unique_ptr<ansor::PipelineRunner> runner;
    BuiltPipeline built;
    std::unique_ptr<FreshProcessTimer> fresh;
    std::string info;
    double schedule_s = 0, compile_s = 0;
    try {
        const bool ansor = is_ansor_variant(spec.variant);
        if (ansor) {
            // Options reach the plugin only through the environment.
            setenv("HL_ANSOR_TRIALS", std::to_string(spec.ansor_trials).c_str(), 1);
            if (!spec.ansor_log.empty()) setenv("HL_ANSOR_LOG", spec.ansor_log.c_str(), 1);
            if (!spec.ansor_search.empty()) setenv("HL_ANSOR_SEARCH", spec.ansor_search.c_str(), 1);
            if (!spec.ansor_model.empty()) setenv("HL_ANSOR_MODEL", spec.ansor_model.c_str(), 1);
            if (!spec.ansor_judge.empty()) setenv("HL_ANSOR_JUDGE_MODEL", spec.ansor_judge.c_str(), 1);
        }
        built = build_case_pipeline(c, spec.variant == "expert", spec.target);
        // Analyse before scheduling: the DAG reads only the algorithm and estimates.
        dag = std::make_unique<ansor::PipelineDAG>(built.outputs(), spec.threads);
        const Halide::Target jit_target = ansor::measurement_target(spec.target);
        // The key of the unscheduled algorithm: scheduling can add Funcs
        // (cache writes, wrappers) to the very Functions the DAG holds.
        const std::string key = ansor ? ansor::make_pipeline_key(*dag).hash : "";
        double t0 = now_s();
        if (spec.variant == "root") {
            runner = std::make_unique<ansor::PipelineRunner>(*dag, nullptr, jit_target);
        } else {
            if (spec.variant != "expert") {
                Halide::MachineParams machine(spec.threads, 32 * 1024 * 1024, 40);
                std::string source =
                    built.pipeline.auto_schedule(scheduler_of(spec.variant), spec.target, machine).schedule_source;
                if (!spec.schedule_file.empty()) std::ofstream(spec.schedule_file) << source;
            }
            runner = std::make_unique<ansor::PipelineRunner>(*dag, built.pipeline, jit_target);
        }
        schedule_s = now_s() - t0;
        if (ansor && !spec.ansor_log.empty() && !spec.curve_file.empty()) {
            write_curve(key, spec.target, spec.ansor_log, spec.curve_file);
        }
        t0 = now_s();
        runner->compile();
        runner->warm_up();  // the heap as a fresh process's after a first run, whatever ran before here
        compile_s = now_s() - t0;  // the JIT's, as for every variant; the build for timing is not counted
        if (spec.fresh_process_timing) {
            const std::string obstacle = ansor::fresh_process_obstacle(*dag);
            if (obstacle.empty()) {
                fresh = std::make_unique<FreshProcessTimer>(runner->pipeline(), spec.target, spec.work_dir, spec.threads);
                fresh->write_inputs(*dag, runner->inputs());
            } else {
                info = "timed in the worker, not in a fresh process: " + obstacle;
            }
        }
    } catch (const std::exception &e) {
        reply(std::string("failed ") + e.what());
        return 1;
    }
    std::ostringstream ready;
    ready << "ready schedule_s=" << schedule_s << " compile_s=" << compile_s << " flops=" << dag->flop_count();
    if (!info.empty()) ready << " info=\"" << info << "\"";
    reply(ready.str());
    serve(*dag, *runner, fresh.get());
    return 0;
}

}  // namespace ansor_harness
