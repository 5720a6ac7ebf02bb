// ansor_network_run: runs a whole network graph (docs/graph.md) as one
// program of Halide pipelines, checks its outputs against the plain-loop
// reference and times whole-network runs.
//
//   ansor_network_run --graph FILE.json [--log LOG.jsonl] [--repeats N] [--threads T] [--seed S]
//                     [--tolerance E] [--no-check] [--check-all] [--target T]
//   ansor_network_run --graph FILE.json --list-tasks     (the task file, on stdout)
//
// Exit status: 0 when every output is within tolerance, 1 when one is not
// or anything fails, 2 for a usage error.
#include "cli.h"
#include "graph_json.h"
#include "halide_executor.h"
#include "output_check.h"
#include "reference_ops.h"
#include "task_listing.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

using namespace ansor_graph;

int main(int argc, char **argv) {
    std::string graph_path;
    ExecutorOptions options;
    int repeats = 10;
    uint64_t seed = 0;
    double tolerance = kDefaultTolerance;
    bool list_tasks = false, check = true, check_all = false;
    bool no_check = false;
    ansor_cli::Parser p("ansor_network_run", "Runs a network graph, checks its outputs against the reference and times it.");
    p.option("--graph", &graph_path, "the network graph", "FILE.json").required();
    p.option("--log", &options.log_path, "a tuning log whose best schedules the kernels use", "LOG.jsonl");
    p.option("--repeats", &repeats, "timed runs, >= 1");
    p.option("--threads", &options.threads, "threads, >= 1", "T");
    p.option("--seed", &seed, "the seed of the inputs and weights", "S");
    p.option("--tolerance", &tolerance, "the largest relative error of an output", "E");
    p.option("--no-check", &no_check, "skips the check against the reference");
    p.option("--check-all", &check_all, "checks every node's output, not only the graph's");
    p.option("--target", &options.target, "the Halide target", "T");
    p.option("--list-tasks", &list_tasks, "prints the task file of the graph's kernels and exits");
    p.parse(argc, argv);
    check = !no_check;
    if (repeats < 1 || repeats > 1000000) p.fail("--repeats needs a positive integer");
    if (options.threads < 1 || options.threads > 1000000) p.fail("--threads needs a positive integer");
    // Halide's JIT thread pool reads this when it starts.
    setenv("HL_NUM_THREADS", std::to_string(options.threads).c_str(), 1);
    try {
        Graph g = load_graph(graph_path);
        if (list_tasks) {
            std::printf("%s\n", task_file_of(g).dump(1).c_str());
            return 0;
        }
        std::printf("graph %s: %zu nodes, %zu inputs, %zu weights\n", g.name.c_str(), g.nodes.size(), g.inputs.size(),
                    g.weights.size());
        GraphExecutor exec(g, options);
        int from_log = 0;
        for (const auto &k : exec.kernels()) from_log += k.source == "log";
        std::printf("%zu kernel calls per run, %zu distinct kernels compiled (%d from the log, %zu default schedule)\n",
                    exec.call_count(), exec.kernels().size(), from_log, exec.kernels().size() - from_log);
        if (exec.load_call_count())
            std::printf("%zu calls on weights only (derived kernels), made once when the weights are bound\n",
                        exec.load_call_count());
        std::printf("  %-8s %5s  %-60s %s\n", "schedule", "calls", "kernel", "nodes");
        for (const auto &k : exec.kernels()) {
            std::string nodes;
            for (size_t i = 0; i < k.nodes.size() && i < 3; i++) nodes += (i ? ", " : "") + k.nodes[i];
            if (k.nodes.size() > 3) nodes += ", ... (" + std::to_string(k.nodes.size()) + " nodes)";
            if (k.load_calls) nodes += " [" + std::to_string(k.load_calls) + " on weights, at load]";
            std::printf("  %-8s %5d  %-60s %s\n", k.source.c_str(), k.calls, k.key.c_str(), nodes.c_str());
        }
        const TensorMap declared = declared_values(g, seed);
        exec.bind(declared);
        exec.run();  // also the warm-up
        bool ok = true;
        if (check) {
            TensorMap ref = declared;
            run_reference(g, ref);
            // --check-all: every tensor a node writes, in node order (where an error starts).
            std::vector<std::string> checked = g.outputs;
            if (check_all) {
                checked.clear();
                for (const Node &n : g.nodes) checked.insert(checked.end(), n.outputs.begin(), n.outputs.end());
            }
            for (const auto &name : checked) {
                TensorCheck c = check_tensor(name, exec.tensors().at(name), ref.at(name));
                std::printf("check: %s '%s' %s max error %.3g relative to scale %.3g: %s (tolerance %g)\n",
                            check_all ? "tensor" : "output", name.c_str(), shape_string(g.tensor(name).shape).c_str(), c.error, c.scale,
                            c.ok(tolerance) ? "ok" : "WRONG", tolerance);
                ok = ok && c.ok(tolerance);
            }
        } else {
            std::printf("check: skipped (--no-check)\n");
        }
        std::vector<double> ms;
        for (int r = 0; r < repeats; r++) {
            auto t0 = std::chrono::steady_clock::now();
            exec.run();
            ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        }
        std::sort(ms.begin(), ms.end());
        std::printf("end-to-end latency: best %.3f ms, median %.3f ms over %d whole-network runs after 1 warm-up (%d threads)\n",
                    ms.front(), ms[ms.size() / 2], repeats, options.threads);
        return ok ? 0 : 1;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "ansor_network_run: %s\n", e.what());
        return 1;
    }
}
