// Times the operator suite (generators/) scheduled by Ansor and by Halide's
// own autoschedulers, all in one process and one run, beside the unscheduled
// pipeline (every Func at root), and prints the ratios. Every variant's output
// is checked against the unscheduled one on the same inputs.
//
//   ansor_operator_benchmark [--ops gmm,c2d:1,...] [--shapes 0|0,2|all]
//       [--schedulers Ansor,Adams2019,Mullapudi2016] [--trials 200]
//       [--csv results.csv [--resume]] [--ansor path/libansor.so] [--halide-plugins DIR]
//
// --resume appends to an existing CSV and skips the operator shapes it
// already holds, so a long suite can be run in several sittings (each
// operator shape's variants are still timed together, in one run).
//
// An operator written op:i runs only its i-th shape; the others run --shapes.
// Timing: each variant is compiled once; then, for three rounds, every
// variant is timed in turn (min over samples), so drift on this shared
// machine hits all of them alike. A ratio > 1 means Ansor is faster.
#include "cli.h"
#include "dag/pipeline_dag.h"
#include "measure/output_check.h"
#include "options/options.h"
#include "measure/pipeline_runner.h"
#include "shapes.h"
#include "suite_pipelines.h"
#include "util/target.h"

#include <Halide.h>
#include <halide_benchmark.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

using namespace Halide;

namespace {

const char *const default_target = ansor::project_cpu_target();

struct Args {
    std::vector<std::string> ops;
    std::vector<std::string> shapes = {"0"};
    std::vector<std::string> schedulers = {"Mullapudi2016", "Adams2019", "Ansor"};
    int trials = 200;
    std::string search;  // HL_ANSOR_SEARCH for the Ansor variant; empty: the plugin's default
    std::string csv;
    bool resume = false;
    std::string ansor_plugin = ANSOR_PLUGIN_PATH;
    std::string halide_plugins = "/usr/lib/x86_64-linux-gnu/halide14";
    std::string target = default_target;
};

// The command line, filling a (its members hold the defaults).
ansor_cli::Parser command_line(Args &a) {
    for (const auto &op : ansor_ops::operator_suite()) a.ops.push_back(op.name);
    ansor_cli::Parser p("ansor_operator_benchmark", "Times the operator suite scheduled by Ansor and by Halide's "
                                                    "autoschedulers, beside the unscheduled pipeline.");
    p.option("--ops", &a.ops, "operators of the suite, op:i for only its i-th shape", "a,b:shape");
    p.option("--shapes", &a.shapes, "the shapes of the operators without :i (0,1 or all)", "0,1|all");
    p.option("--schedulers", &a.schedulers, "Ansor, Adams2019, Mullapudi2016, Li2018", "A,B");
    p.option("--trials", &a.trials, "Ansor's trials per operator shape, >= 0");
    p.option("--csv", &a.csv, "the CSV of the results", "FILE");
    p.option("--resume", &a.resume, "appends to --csv, skipping the operator shapes it holds");
    p.option("--search", &a.search, "Ansor's search (HL_ANSOR_SEARCH)", "random|model|evolution");
    p.option("--ansor", &a.ansor_plugin, "the Ansor plugin", "libansor.so");
    p.option("--halide-plugins", &a.halide_plugins, "the directory of Halide's autoscheduler plugins", "DIR");
    p.option("--target", &a.target, "the Halide target", "T");
    return p;
}

// The checks of the values parse() cannot make.
void check(const ansor_cli::Parser &p, const Args &a) {
    for (const auto &op : a.ops) {
        try {
            ansor_ops::find_op(op.substr(0, op.find(':')));
        } catch (const std::out_of_range &) {
            p.fail("unknown operator " + op);
        }
    }
    if (a.trials < 0) p.fail("--trials must be >= 0");
    if (a.resume && a.csv.empty()) p.fail("--resume needs --csv");
}

std::vector<size_t> shape_indices(const ansor_cli::Parser &p, const std::vector<std::string> &spec, size_t count) {
    std::vector<size_t> out;
    if (spec == std::vector<std::string>{"all"}) {
        for (size_t i = 0; i < count; i++) out.push_back(i);
        return out;
    }
    for (const auto &s : spec) {
        size_t i = (size_t)std::atoi(s.c_str());
        if (i >= count) p.fail("shape index " + s + " out of range");
        out.push_back(i);
    }
    return out;
}

std::string plugin_file(const Args &a, const std::string &scheduler) {
    if (scheduler == "Ansor") return a.ansor_plugin;
    std::string lower;
    for (char c : scheduler) lower += (char)std::tolower((unsigned char)c);
    return a.halide_plugins + "/libautoschedule_" + lower + ".so";
}

double now_s() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// One schedule of one operator at one shape, ready to run.
struct Variant {
    std::string name;  // "root" or the autoscheduler's
    std::unique_ptr<Internal::GeneratorBase> generator;
    std::unique_ptr<ansor::PipelineDAG> dag;
    std::unique_ptr<ansor::PipelineRunner> runner;
    double tune_s = 0;
    double best_ms = INFINITY;
    double error = 0;
    std::string failure;
    std::string schedule_source;  // what the autoscheduler printed
};

void compute_everything_at_root(Pipeline &p) {
    std::map<std::string, Internal::Function> env;
    for (const Func &o : p.outputs()) {
        auto more = Internal::find_transitive_calls(o.function());
        env.insert(more.begin(), more.end());
    }
    for (auto &kv : env) {
        bool is_output = false;
        for (const Func &o : p.outputs()) is_output |= o.name() == kv.first;
        if (!is_output) Func(kv.second).compute_root();
    }
}

void build(Variant &v, const std::string &op, const ansor_ops::Shape &shape, const Target &target,
           const MachineParams &machine) {
    ansor_apps::SuitePipeline built = ansor_apps::build_suite_pipeline(op, shape, target);
    v.generator = std::move(built.generator);
    Pipeline p = built.pipeline;
    std::vector<Internal::Function> outputs = built.outputs();
    // Analyse before scheduling: the DAG only reads the algorithm and estimates.
    v.dag = std::make_unique<ansor::PipelineDAG>(outputs, machine.parallelism);
    double t0 = now_s();
    if (v.name == "root") compute_everything_at_root(p);
    else v.schedule_source = p.auto_schedule(v.name, target, machine).schedule_source;
    v.tune_s = now_s() - t0;
    v.runner = std::make_unique<ansor::PipelineRunner>(*v.dag, p, ansor::measurement_target(target));
    v.runner->compile();
    v.runner->warm_up();
}

double time_once_ms(ansor::PipelineRunner &r) {
    // Enough iterations per sample to span ~20 ms, so timer noise stays small.
    double t0 = now_s();
    r.run();
    double single = now_s() - t0;
    int iterations = (int)std::max(1.0, std::min(1000.0, 0.02 / std::max(single, 1e-7)));
    return Tools::benchmark(5, iterations, [&] { r.run(); }) * 1e3;
}

double geomean(const std::vector<double> &v) {
    double s = 0;
    for (double x : v) s += std::log(x);
    return v.empty() ? NAN : std::exp(s / v.size());
}

}  // namespace

int main(int argc, char **argv) {
    Args args;
    ansor_cli::Parser p = command_line(args);
    p.parse(argc, argv);
    check(p, args);
    Target target(args.target);
    // Options reach the plugin only through the environment.
    setenv("HL_ANSOR_TRIALS", std::to_string(args.trials).c_str(), 1);
    if (!args.search.empty()) setenv("HL_ANSOR_SEARCH", args.search.c_str(), 1);
    for (const auto &s : args.schedulers) load_plugin(plugin_file(args, s));
    MachineParams machine(2, 32 * 1024 * 1024, 40);

    std::vector<std::string> variants = {"root"};
    variants.insert(variants.end(), args.schedulers.begin(), args.schedulers.end());

    const std::string csv_header = "op,shape,params,variant,tune_s,ms,gflops,speedup_vs_root,rel_error,status";
    std::set<std::string> done;  // "op,shape" already in the CSV (--resume)
    std::ofstream csv;
    if (!args.csv.empty()) {
        bool append = false;
        if (args.resume) {
            std::ifstream old(args.csv);
            std::string line;
            if (std::getline(old, line)) {
                if (line != csv_header) p.fail(args.csv + " is not a CSV this benchmark wrote; not resuming into it");
                append = true;
                while (std::getline(old, line)) {
                    auto second = line.find(',', line.find(',') + 1);
                    if (second != std::string::npos) done.insert(line.substr(0, second));
                }
            }
        } else if (std::ifstream(args.csv).good()) {
            p.fail(args.csv + " exists; pass --resume to add to it, or name a new file");
        }
        csv.open(args.csv, append ? std::ios::app : std::ios::out);
        if (!csv) p.fail("cannot write " + args.csv);
        if (!append) csv << csv_header << "\n";
    }

    std::printf("Ansor search: %s; ", args.search.empty() ? "default" : args.search.c_str());
    std::printf("Ansor trials per operator: %d; target %s; every time is the min of 5 samples x 3 rounds\n",
                args.trials, args.target.c_str());
    std::printf("%-11s %-5s", "op", "shape");
    for (const auto &v : variants) std::printf(" %13s", (v + " ms").c_str());
    for (const auto &s : args.schedulers) {
        if (s != "Ansor") std::printf(" %13s", (s.substr(0, 8) + "/Ansor").c_str());
    }
    std::printf("\n");

    std::map<std::string, std::vector<double>> speedups;  // scheduler -> t_scheduler / t_Ansor
    for (const auto &op_arg : args.ops) {
        const std::string op = op_arg.substr(0, op_arg.find(':'));
        const std::vector<std::string> shapes = op == op_arg ? args.shapes : std::vector<std::string>{op_arg.substr(op.size() + 1)};
        const auto &table = ansor_ops::find_op(op);
        for (size_t si : shape_indices(p, shapes, table.ansor_shapes.size())) {
            const auto &shape = table.ansor_shapes[si];
            if (done.count(op + "," + std::to_string(si))) {
                std::fprintf(stderr, "[bench] %s shape %zu: already in %s\n", op.c_str(), si, args.csv.c_str());
                continue;
            }
            std::vector<Variant> runs;
            for (const auto &name : variants) {
                Variant v;
                v.name = name;
                std::fprintf(stderr, "[bench] %s shape %zu (%s): %s\n", op.c_str(), si,
                             ansor_ops::generator_params(shape).c_str(), name.c_str());
                try {
                    build(v, op, shape, target, machine);
                } catch (const std::exception &e) {
                    v.failure = e.what();
                    v.runner.reset();
                }
                runs.push_back(std::move(v));
            }
            for (int round = 0; round < 3; round++) {
                for (auto &v : runs) {
                    if (!v.runner) continue;
                    try {
                        v.best_ms = std::min(v.best_ms, time_once_ms(*v.runner));
                    } catch (const std::exception &e) {
                        v.failure = e.what();
                        v.runner.reset();
                    }
                }
            }
            const Variant &root = runs[0];
            for (auto &v : runs) {
                if (v.runner && root.runner && &v != &root) {
                    // The measurer's comparison, at its default tolerance.
                    const ansor::OutputComparison c = ansor::compare_outputs(
                        *v.dag, v.runner->outputs(), root.runner->outputs(), ansor::Options{}.tolerance);
                    v.error = c.worst;
                    if (!c.ok()) {
                        v.failure = "wrong output: " + c.detail;
                        // Keep the evidence: the schedule that computed it.
                        if (!args.csv.empty()) {
                            std::string file = args.csv + "." + op + "_" + std::to_string(si) + "." + v.name + ".schedule.h";
                            std::ofstream(file) << v.schedule_source;
                            v.failure += " (schedule saved to " + file + ")";
                        }
                    }
                }
            }
            double flops = runs[0].dag ? runs[0].dag->flop_count() : 0;
            std::printf("%-11s %-5zu", op.c_str(), si);
            const Variant *ansor = nullptr;
            for (const auto &v : runs) {
                if (v.name == "Ansor") ansor = &v;
                if (v.failure.empty()) std::printf(" %13.4f", v.best_ms);
                else std::printf(" %13s", "FAILED");
            }
            for (const auto &v : runs) {
                if (v.name == "root" || v.name == "Ansor") continue;
                if (ansor && ansor->failure.empty() && v.failure.empty()) {
                    double r = v.best_ms / ansor->best_ms;
                    speedups[v.name].push_back(r);
                    std::printf(" %12.2fx", r);
                } else {
                    std::printf(" %13s", "-");
                }
            }
            std::printf("\n");
            for (const auto &v : runs) {
                if (!v.failure.empty()) std::printf("    %s failed: %s\n", v.name.c_str(), v.failure.c_str());
            }
            std::fflush(stdout);
            if (csv) {
                for (const auto &v : runs) {
                    bool ok = v.failure.empty();
                    csv << op << "," << si << ",\"" << ansor_ops::generator_params(shape) << "\"," << v.name << ","
                        << v.tune_s << "," << (ok ? v.best_ms : NAN) << ","
                        << (ok && flops > 0 ? flops / (v.best_ms * 1e6) : NAN) << ","
                        << (ok && root.failure.empty() ? root.best_ms / v.best_ms : NAN) << "," << v.error << ","
                        << (ok ? "ok" : "failed") << "\n";
                }
                csv.flush();
            }
        }
    }
    std::printf("\nGeomean speedup of Ansor (time of the other / time of Ansor; > 1: Ansor faster):\n");
    for (const auto &[name, r] : speedups) {
        std::printf("  vs %-14s %.2fx over %zu operator shapes\n", name.c_str(), geomean(r), r.size());
    }
    return 0;
}
