// ansor_network_latency: builds every task of a task file with the best
// program its tuning log holds, checks it against the all-at-root reference,
// times it, and prints per network Σ weight × latency, next to the same sum
// for the unscheduled (all-root) pipelines and for oneDNN
// (ansor_onednn_layers, in its own process) over the layers oneDNN has.
//
//   ansor_network_latency --tasks networks/resnet50.json --log resnet50.jsonl
//       [--repeats 10] [--threads 2] [--onednn-sweeps 5] [--no-onednn] [--csv layers.csv]
//
// End-to-end here is the sum of per-layer latencies, each layer run alone
// with its inputs in cache as they come: no fusion across layers, no layout
// transforms between them, no framework overhead. oneDNN's OpenMP threads
// suffer badly when another process takes a core (a barrier waits a whole
// time slice), so both libraries time their layers in rounds over all
// layers (each layer's runs spread over the whole sweep), oneDNN in several
// such sweeps in separate processes, and each layer keeps its fastest.
#include "cli.h"
#include "network/task_file.h"

#include "dag/pipeline_dag.h"
#include "measure/output_check.h"
#include "measure/pipeline_runner.h"
#include "options/options.h"
#include "records/tuning_log.h"
#include "util/errors.h"
#include "util/target.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

namespace {

using namespace ansor;

const char *const default_target = ansor::project_cpu_target();

double time_ms(ansor::PipelineRunner &r, int repeats) {
    r.run();  // warm-up
    double best = INFINITY;
    for (int i = 0; i < repeats; i++) {
        auto t0 = std::chrono::steady_clock::now();
        r.run();
        best = std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    return best;
}

struct Row {
    std::string task, status;  // status: tuned | no record | wrong output | failed
    double weight = 1;
    std::vector<std::string> networks;
    double tuned_ms = NAN, logged_ms = NAN, root_ms = NAN, onednn_ms = NAN;
};

// task -> ms from ansor_onednn_layers (NaN for n/a or failed).
std::map<std::string, double> run_onednn(const std::string &tasks, int threads, int repeats) {
    std::map<std::string, double> out;
    std::string cmd = "OMP_NUM_THREADS=" + std::to_string(threads) + " '" + ANSOR_ONEDNN_LAYERS + "' --tasks '" + tasks +
                      "' --repeats " + std::to_string(repeats) + " --rounds " + std::to_string(std::min(repeats, 10));
    FILE *p = popen(cmd.c_str(), "r");
    if (!p) throw ansor::UserError("cannot run " + cmd);
    char line[1024];
    while (std::fgets(line, sizeof line, p)) {
        std::string s(line);
        auto comma = s.rfind(',');
        if (comma == std::string::npos) continue;
        std::string v = s.substr(comma + 1);
        double ms = std::strtod(v.c_str(), nullptr);
        out[s.substr(0, comma)] = (v.rfind("n/a", 0) == 0 || v.rfind("failed", 0) == 0) ? NAN : ms;
    }
    int rc = pclose(p);
    if (rc != 0) std::fprintf(stderr, "ansor_network_latency: warning: %s exited with status %d\n", cmd.c_str(), rc);
    return out;
}

std::string ms(double x) {
    if (!std::isfinite(x)) return "-";
    char b[32];
    std::snprintf(b, sizeof b, "%.4f", x);
    return b;
}

}  // namespace

int main(int argc, char **argv) {
    std::string tasks_path, log_path, csv_path, target_name = default_target;
    int repeats = 10, threads = 2, sweeps = 5;
    bool onednn = true;
    bool no_onednn = false;
    ansor_cli::Parser p("ansor_network_latency", "A network's latency from its tuned tasks' logged programs, beside oneDNN's layers.");
    p.option("--tasks", &tasks_path, "the task file", "FILE.json").required();
    p.option("--log", &log_path, "the tuning log of the tasks", "LOG.jsonl").required();
    p.option("--repeats", &repeats, "timed runs per task, >= 1");
    p.option("--threads", &threads, "threads, >= 1");
    p.option("--onednn-sweeps", &sweeps, "sweeps of the oneDNN layers, >= 1");
    p.option("--no-onednn", &no_onednn, "times no oneDNN layers");
    p.option("--csv", &csv_path, "a CSV of the rows", "FILE");
    p.option("--target", &target_name, "the Halide target", "T");
    p.parse(argc, argv);
    onednn = !no_onednn;
    if (repeats < 1 || threads < 1 || sweeps < 1) p.fail("--repeats, --threads and --onednn-sweeps must be >= 1");
    // Halide's JIT thread pool reads this when it starts.
    setenv("HL_NUM_THREADS", std::to_string(threads).c_str(), 1);
    try {
        TaskFile file = load_task_file(tasks_path);
        Halide::Target target(target_name);
        Halide::Target run_target = ansor::measurement_target(target);
        ansor::TuningLog log(log_path);
        std::vector<Row> rows;
        // Phase 1: build, check and keep every tuned program; phase 2 times
        // them in rounds over all tasks (see ansor_onednn_layers: a task timed
        // in one burst can fall into a period where another process holds a core).
        struct Built {
            GeneratorPipeline g;
            std::unique_ptr<ansor::PipelineDAG> dag;
            std::unique_ptr<ansor::PipelineRunner> tuned;
        };
        std::vector<std::unique_ptr<Built>> built;
        for (const TaskSpec &t : file.tasks) {
            Row row;
            row.task = t.name;
            row.weight = t.weight;
            row.networks = t.networks;
            auto b = std::make_unique<Built>();
            try {
                b->g = build_generator_pipeline(t.generator, t.params, target);
                b->dag = std::make_unique<ansor::PipelineDAG>(b->g.outputs(), threads);
                ansor::PipelineRunner reference(*b->dag, nullptr, run_target);
                reference.compile();
                row.root_ms = time_ms(reference, std::max(1, repeats / 3));
                std::optional<ansor::TuningRecord> best = log.best(*b->dag, target);
                if (!best) {
                    row.status = "no record";
                } else {
                    row.logged_ms = best->min_ms;
                    b->tuned = std::make_unique<ansor::PipelineRunner>(*b->dag, &*best->state, run_target);
                    b->tuned->compile();
                    b->tuned->run();
                    // The measurer's comparison, at its default tolerance.
                    const bool ok = ansor::compare_outputs(*b->dag, b->tuned->outputs(), reference.outputs(),
                                                           ansor::Options{}.tolerance)
                                        .ok();
                    row.status = ok ? "tuned" : "wrong output";
                    if (!ok) b->tuned.reset();
                }
            } catch (const std::exception &e) {
                row.status = "failed";
                b->tuned.reset();
                std::fprintf(stderr, "ansor_network_latency: task %s: %s\n", t.name.c_str(), e.what());
            }
            std::fprintf(stderr, "[latency] %-32s %-12s logged %10s ms  root %10s ms\n", row.task.c_str(),
                         row.status.c_str(), ms(row.logged_ms).c_str(), ms(row.root_ms).c_str());
            rows.push_back(row);
            built.push_back(std::move(b));
        }
        const int rounds = std::min(repeats, 10);
        for (int r = 0; r < rounds; r++) {
            for (size_t i = 0; i < built.size(); i++) {
                if (!built[i]->tuned) continue;
                double t = time_ms(*built[i]->tuned, std::max(1, repeats / rounds));
                rows[i].tuned_ms = std::isfinite(rows[i].tuned_ms) ? std::min(rows[i].tuned_ms, t) : t;
            }
        }
        std::map<std::string, double> dnnl;
        for (int sweep = 0; onednn && sweep < sweeps; sweep++) {
            for (const auto &[task, x] : run_onednn(tasks_path, threads, repeats)) {
                auto it = dnnl.find(task);
                dnnl[task] = it == dnnl.end() ? x : std::fmin(it->second, x);  // fmin skips NaN (n/a)
            }
        }
        for (auto &r : rows) {
            auto it = dnnl.find(r.task);
            if (it != dnnl.end()) r.onednn_ms = it->second;
        }

        std::printf("%-32s %6s %-12s %12s %12s %12s\n", "task", "weight", "status", "ansor ms", "root ms", "onednn ms");
        for (const auto &r : rows) {
            std::printf("%-32s %6g %-12s %12s %12s %12s\n", r.task.c_str(), r.weight, r.status.c_str(),
                        ms(r.tuned_ms).c_str(), ms(r.root_ms).c_str(), ms(r.onednn_ms).c_str());
        }
        for (const auto &net : file.networks) {
            double ansor_sum = 0, root_sum = 0, ansor_on_dnnl = 0, dnnl_sum = 0;
            int layers = 0, untuned = 0, dnnl_layers = 0, dnnl_missing = 0;
            for (const auto &r : rows) {
                if (std::find(r.networks.begin(), r.networks.end(), net.name) == r.networks.end()) continue;
                layers += (int)r.weight;
                root_sum += r.weight * r.root_ms;
                // A task without a valid tuned program runs all at root.
                bool tuned = std::isfinite(r.tuned_ms);
                if (!tuned) untuned += (int)r.weight;
                double a = tuned ? r.tuned_ms : r.root_ms;
                ansor_sum += r.weight * a;
                if (std::isfinite(r.onednn_ms)) {
                    dnnl_sum += r.weight * r.onednn_ms;
                    ansor_on_dnnl += r.weight * a;
                    dnnl_layers += (int)r.weight;
                } else {
                    dnnl_missing += (int)r.weight;
                }
            }
            std::printf("\nnetwork %s: %d layers (sum of per-layer latencies, no cross-layer fusion)\n", net.name.c_str(), layers);
            std::printf("  ansor (tuned log)  %10.3f ms%s\n", ansor_sum,
                        untuned ? (" (" + std::to_string(untuned) + " layers without a tuned program counted at root)").c_str() : "");
            std::printf("  all at root        %10.3f ms\n", root_sum);
            if (onednn) {
                std::printf("  over the %d layers oneDNN has (%d without): ansor %.3f ms, oneDNN %.3f ms, ratio ansor/oneDNN %.2f\n",
                            dnnl_layers, dnnl_missing, ansor_on_dnnl, dnnl_sum, dnnl_sum > 0 ? ansor_on_dnnl / dnnl_sum : NAN);
            }
        }
        if (!csv_path.empty()) {
            std::ofstream csv(csv_path);
            if (!csv) throw ansor::UserError("cannot write " + csv_path);
            csv << "task,weight,status,ansor_ms,logged_ms,root_ms,onednn_ms\n";
            for (const auto &r : rows)
                csv << r.task << "," << r.weight << "," << r.status << "," << r.tuned_ms << "," << r.logged_ms << ","
                    << r.root_ms << "," << r.onednn_ms << "\n";
        }
        return 0;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "ansor_network_latency: %s\n", e.what());
        return 1;
    }
}
