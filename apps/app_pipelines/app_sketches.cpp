// What the search space holds for each app: the DAG's view of every Func
// (the predicates the sketch rules test), the sketches generate_sketches()
// derives, and where random annotation places each Func over many sampled
// programs (the compute locations the first rounds draw from).
//
//   ansor_app_sketches [--apps harris,nl_means] [--samples 1000] [--source 1] [--seed 1]
//
// --source 1 also prints each sketch's steps as schedule source (unfilled
// tile sizes show as 0). Sampling uses the annotator's defaults with
// parallelism 2 and draws a sketch uniformly for each program, as the
// search's sampler does; nothing is compiled or run. Halide gives a Func a
// `$n` suffix when its name is already taken in the process (several apps
// in one run).
#include "annotate/random_annotator.h"
#include "annotate/root_buffers.h"
#include "cli.h"
#include "app_pipelines.h"
#include "dag/pipeline_dag.h"
#include "search/program_sampler.h"
#include "sketch/sketch_generator.h"
#include "util/target.h"

#include <Halide.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace Halide;

namespace {

const char *const kTarget = ansor::project_cpu_target();
const int kParallelism = 2;

struct Options {
    std::vector<std::string> apps;
    int samples = 1000;
    bool source = false;
    uint64_t seed = 1;
};

// The sketch rules' predicates for one Func, as short flags.
std::string flags_of(const ansor::Node &n) {
    std::string f;
    if (n.is_output) f += " output";
    if (!n.modelled) f += " unmodelled(" + n.why_not_modelled + ")";
    if (n.is_strict_inlinable) f += " inlinable";
    if (n.has_data_reuse) f += " data-reuse";
    if (n.has_more_reduction_parallel) f += " rfactor-able";
    if (n.stages.size() > 1) f += " updates=" + std::to_string(n.stages.size() - 1);
    return f;
}

void print_dag(const ansor::PipelineDAG &dag) {
    std::printf("  Funcs, producers first: name [stages] flags, MB of its buffer at root -> consumers\n");
    const ansor::LoopNest all_at_root = ansor::State(dag).replay();
    for (const auto &n : dag.nodes()) {
        std::string consumers;
        for (int c : n.consumers) consumers += " " + dag.node(c).name;
        const double megabytes = (double)ansor::root_buffer_bytes(all_at_root, n.name) / (1 << 20);
        std::printf("    %-22s [%zu]%s, %.1f MB ->%s\n", n.name.c_str(), n.stages.size(), flags_of(n).c_str(),
                    megabytes, consumers.empty() ? " (none)" : consumers.c_str());
    }
}

std::string location_text(const ansor::Location &loc) {
    switch (loc.kind) {
    case ansor::LocationKind::Root: return "root";
    case ansor::LocationKind::Inline: return "inline";
    default: return "at " + loc.func + "." + std::to_string(loc.stage) + ":" + loc.loop;
    }
}

// The share of sampled programs per structure (the most common first) and
// the shares that slide a producer's window along a consumer loop (store_at)
// and that stage an operand in a wrapper (cache_read).
void print_structure_shares(const std::map<std::string, int> &structures, int programs, int sliding,
                            int cache_reads) {
    std::vector<std::pair<int, std::string>> by_count;
    for (const auto &kv : structures) by_count.push_back({kv.second, kv.first});
    std::sort(by_count.rbegin(), by_count.rend());
    std::printf("  programs with a sliding window (store_at): %.1f%%, with a cache read: %.1f%%\n",
                100.0 * sliding / programs, 100.0 * cache_reads / programs);
    std::printf("  share of programs per structure (the %zu most common):\n", std::min<size_t>(by_count.size(), 6));
    for (size_t k = 0; k < by_count.size() && k < 6; k++) {
        std::printf("    %5.1f%%  %s\n", 100.0 * by_count[k].first / programs, by_count[k].second.c_str());
    }
}

// Samples programs as the search's first round does and tallies, per Func,
// where it was computed, and how many distinct structures came out.
void print_samples(const ansor::PipelineDAG &dag, const std::vector<ansor::State> &sketches, const Options &opt) {
    ansor::AnnotationOptions ao;
    ao.parallelism = kParallelism;
    ansor::RandomAnnotator annotator(dag, Target(kTarget), ao);
    // The search's sampler: a draw that does not fit (a location the
    // footprint rules out, a per-step tile over the bound) is drawn again.
    ansor::ProgramSampler sampler(sketches, annotator);
    std::mt19937_64 rng(opt.seed);
    std::map<std::string, std::map<std::string, int>> where;  // Func -> location -> count
    std::map<std::string, int> structures;  // structure key -> programs
    int ok = 0, failed = 0, sliding = 0, cache_reads = 0;
    for (int i = 0; i < opt.samples; i++) {
        const std::optional<ansor::State> s = sampler.sample(rng);
        if (!s) {
            failed++;
            continue;
        }
        const ansor::LoopNest m = s->replay();
        const std::string key = s->structure_key();
        structures[key]++;
        sliding += key.find("store_at ") != std::string::npos;
        cache_reads += key.find("cache_read ") != std::string::npos;
        for (const auto &f : m.funcs()) where[f.name][location_text(f.location)]++;
        ok++;
    }
    std::printf("  %d sampled programs (%d draws failed): %zu distinct structures\n", ok, failed, structures.size());
    if (ok == 0) return;
    print_structure_shares(structures, ok, sliding, cache_reads);
    std::printf("  where each Func is computed (share of programs; \"at F.s:loop\" = inside loop of F's stage s):\n");
    for (const auto &n : dag.nodes()) {
        for (const std::string &name : {n.name, ansor::intermediate_name(n.name)}) {
            auto it = where.find(name);
            if (it == where.end()) continue;
            std::vector<std::pair<int, std::string>> shares;
            for (const auto &kv : it->second) shares.push_back({kv.second, kv.first});
            std::sort(shares.rbegin(), shares.rend());
            std::printf("    %-22s", name.c_str());
            const size_t shown = std::min<size_t>(shares.size(), 4);
            for (size_t k = 0; k < shown; k++) {
                std::printf(" %s %.0f%%%s", shares[k].second.c_str(), 100.0 * shares[k].first / ok,
                            k + 1 < shown ? "," : "");
            }
            if (shares.size() > shown) std::printf(" (+%zu more places)", shares.size() - shown);
            std::printf("\n");
        }
    }
}

void print_app(const std::string &name, const Options &opt) {
    const Target target(kTarget);
    ansor_apps::AppPipeline app = ansor_apps::build_app_pipeline(name, false, target);
    std::vector<Internal::Function> outputs;
    for (const Func &f : app.pipeline.outputs()) outputs.push_back(f.function());
    ansor::PipelineDAG dag(outputs, kParallelism);
    std::vector<ansor::State> sketches = ansor::generate_sketches({dag, target});
    std::printf("== %s: %zu Funcs, %zu sketches\n", name.c_str(), dag.nodes().size(), sketches.size());
    print_dag(dag);
    for (size_t i = 0; i < sketches.size(); i++) {
        std::printf("  sketch %zu structure: %s\n", i, sketches[i].structure_key().c_str());
        if (opt.source) std::printf("%s", sketches[i].source().c_str());
    }
    if (opt.samples > 0 && !sketches.empty()) print_samples(dag, sketches, opt);
    std::printf("\n");
}

Options parse(int argc, char **argv) {
    Options opt;
    for (const auto &a : ansor_apps::app_list()) opt.apps.push_back(a.name);
    std::string source;
    ansor_cli::Parser p("ansor_app_sketches", "The sketches of app pipelines and programs sampled from them.");
    p.option("--apps", &opt.apps, "the apps", "a,b");
    p.option("--samples", &opt.samples, "programs sampled per app, >= 0");
    p.option("--source", &source, "1: prints the sampled programs' source", "1");
    p.option("--seed", &opt.seed, "the sampling seed", "S");
    p.parse(argc, argv);
    opt.source = source == "1";
    if (opt.samples < 0) p.fail("--samples must be >= 0");
    return opt;
}

}  // namespace

int main(int argc, char **argv) {
    Options opt = parse(argc, argv);
    for (const std::string &name : opt.apps) {
        try {
            print_app(name, opt);
        } catch (const std::exception &e) {
            std::fprintf(stderr, "%s: %s\n", name.c_str(), e.what());
            return 1;
        }
    }
    return 0;
}
