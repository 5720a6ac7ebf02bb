// ansor_graph_optimize: TASO's cost-based backtracking search over a
// network graph with verified substitutions (docs/taso.md, "Joint search").
//
//   ansor_graph_optimize --graph G.json --substitutions S.json [--log L.jsonl] [--cost-cache C.json]
//                        [--alpha 1.05] [--noise 0.01] [--budget 100] [--threads 2] [--target T]
//                        [--out G2.json] [--tasks-out T.json] [--default-cost-ms X] [--no-check] [--layouts]
//
// --layouts makes each node's data layout part of the search
// (layout_moves.h: convolutions and elementwise nodes in NHWC or NCHW).
// Kernel costs: the log's best time for the kernel's pipeline key, else the
// kernel measured once with the reference schedule (cached in --cost-cache),
// or with --default-cost-ms, X ms for every kernel without a record (no
// measuring: the search then minimises the number of kernel calls).
// Prints the substitutions that fired (with the nodes they matched) and the
// cost before and after; writes the optimised graph and its task file.
// Unless --no-check, the optimised graph's outputs are compared with the
// input graph's on the reference before anything is written.
// Exit status: 0 on success, 1 when anything fails, 2 for a usage error.
#include "cli.h"
#include "graph_edit.h"
#include "graph_json.h"
#include "graph_search.h"
#include "kernel_cost_tiers.h"
#include "output_check.h"
#include "reference_ops.h"
#include "task_listing.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>

using namespace ansor_graph;

namespace {

std::string describe_cost(const GraphCost &c) {
    std::string s = std::to_string(c.calls) + " kernel calls:";
    for (const auto &[source, n] : c.calls_by_source) s += " " + source + " " + std::to_string(n);
    if (c.load_calls) s += "; " + std::to_string(c.load_calls) + " on weights only, made once at load";
    return s;
}

}  // namespace

int main(int argc, char **argv) {
    std::string graph_path, subs_path, log_path, cache_path, out_path, tasks_path;
    SearchOptions search;
    search.verbose = true;  // improvements and graphs that could not be costed, on stderr
    KernelCostOptions cost_options;
    bool check = true;
    double default_cost_ms = -1;  // < 0: measure
    bool no_check = false;
    ansor_cli::Parser p("ansor_graph_optimize", "Searches graph substitutions (and layouts) for the cheapest network graph.");
    p.option("--graph", &graph_path, "the network graph", "G.json").required();
    p.option("--substitutions", &subs_path, "the substitutions (ansor_taso_substitutions)", "S.json").required();
    p.option("--log", &log_path, "a tuning log whose best times are kernel costs", "L.jsonl");
    p.option("--cost-cache", &cache_path, "a cache of measured kernel costs", "C.json");
    p.option("--alpha", &search.alpha, "graphs up to alpha x the best cost are explored, 1..100");
    p.option("--noise", &search.noise, "costs within this fraction are a tie, [0, 0.5)");
    p.option("--budget", &search.budget, "graphs expanded at most, >= 0");
    p.option("--threads", &cost_options.threads, "threads, >= 1");
    p.option("--target", &cost_options.target, "the Halide target", "T");
    p.option("--out", &out_path, "the optimised graph written", "G2.json");
    p.option("--tasks-out", &tasks_path, "its task file written", "T.json");
    p.option("--default-cost-ms", &default_cost_ms, "every kernel's cost instead of measuring (default: measure)", "X");
    p.option("--no-check", &no_check, "skips comparing the optimised graph's outputs with the input graph's");
    p.option("--layouts", &search.layouts, "also searches layout moves");
    p.parse(argc, argv);
    check = !no_check;
    if (!(search.alpha >= 1.0) || search.alpha > 100) p.fail("--alpha needs a number from 1 to 100");
    if (!(search.noise >= 0.0) || search.noise >= 0.5) p.fail("--noise needs a fraction in [0, 0.5)");
    if (p.given("--default-cost-ms") && (!(default_cost_ms > 0) || default_cost_ms > 1e6))
        p.fail("--default-cost-ms needs a positive number of milliseconds");
    if (search.budget < 0 || search.budget > 1000000) p.fail("--budget needs a non-negative integer");
    if (cost_options.threads < 1 || cost_options.threads > 1000000) p.fail("--threads needs a positive integer");
    setenv("HL_NUM_THREADS", std::to_string(cost_options.threads).c_str(), 1);
    try {
        // Fail on an unwritable output before the search.
        for (const std::string &p : {out_path, tasks_path}) {
            if (p.empty()) continue;
            std::ofstream probe(p, std::ios::app);
            if (!probe) throw GraphError(p + ": cannot write");
        }
        const Graph g = load_graph(graph_path);
        RuleSetStats stats;
        const std::vector<SubstitutionRule> rules = make_rules(taso::load_substitutions(subs_path), &stats);
        std::printf("substitutions: %d in %s; %d rules (both directions); directions not used: %d with a scalar, "
                    "%d other\n",
                    stats.substitutions, subs_path.c_str(), stats.rules, stats.skipped_scalar, stats.skipped_other);

        std::unique_ptr<LogKernelCosts> logged;
        if (!log_path.empty()) logged = std::make_unique<LogKernelCosts>(log_path, cost_options);
        MeasuredKernelCosts measured(cache_path, cost_options);
        ConstantKernelCosts constant(default_cost_ms);
        CostChain chain;
        std::unique_ptr<EpilogueSiblingCosts> siblings;
        if (logged) {
            siblings = std::make_unique<EpilogueSiblingCosts>(*logged);
            chain.add(logged.get());
            chain.add(siblings.get());
        }
        chain.add(default_cost_ms > 0 ? static_cast<KernelCostProvider *>(&constant) : &measured);

        const GraphCost before = graph_cost(g, chain);
        std::printf("cost before: %.4f ms (%s)\n", before.ms, describe_cost(before).c_str());
        std::fflush(stdout);
        SearchResult r = search_graph(g, rules, [&](const Graph &x) { return graph_cost(x, chain); }, search);
        const GraphCost after = graph_cost(r.best, chain);
        std::printf("search: alpha %.3f, noise %.3f, budget %d%s: expanded %d, new graphs %d, duplicates %d, pruned %d, failed %d, "
                    "kernels measured %d\n",
                    search.alpha, search.noise, search.budget, search.layouts ? ", layouts" : "", r.expanded, r.generated, r.duplicates, r.pruned, r.failed,
                    measured.measured());
        std::printf("%s: %zu\n", search.layouts ? "substitutions and layout moves that fired" : "substitutions that fired",
                    r.steps.size());
        for (const auto &s : r.steps) std::printf("  %s\n", s.c_str());
        std::printf("cost after: %.4f ms (%s)\n", after.ms, describe_cost(after).c_str());

        if (check) {
            TensorMap a = declared_values(g, 0), b = declared_values(r.best, 0);
            run_reference(g, a);
            run_reference(r.best, b);
            for (const auto &o : g.outputs) {
                TensorCheck c = check_tensor(o, b.at(o), a.at(o));
                if (!c.ok()) throw GraphError("the optimised graph's output '" + o + "' differs on the reference (error " +
                                              std::to_string(c.error) + ")");
            }
            std::printf("check: the optimised graph's outputs match the input graph's on the reference\n");
        }
        if (!out_path.empty()) {
            save_graph(r.best, out_path);
            std::printf("wrote %s\n", out_path.c_str());
        }
        if (!tasks_path.empty()) {
            std::ofstream out(tasks_path);
            out << task_file_of(r.best).dump(2) << "\n";
            if (!out) throw GraphError(tasks_path + ": write failed");
            std::printf("wrote %s\n", tasks_path.c_str());
        }
    } catch (const std::exception &e) {
        std::fprintf(stderr, "ansor_graph_optimize: %s\n", e.what());
        return 1;
    }
    return 0;
}
