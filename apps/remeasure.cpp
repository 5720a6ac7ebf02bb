// Measures programs of a tuning log again, to see how far the log's times
// can be trusted: the test-retest agreement bounds what any cost model can
// reach on them (docs/cost_model.md, "What we tried").
//
//   ansor_remeasure LOG --op gmm:0 [--programs 40] [--seed 0] [--timeout 30] [--out NEW_LOG]
//
// Picks up to --programs distinct successful programs of the operator's
// pipeline from LOG at random (seeded), measures each once more exactly as
// the search does (forked child, warm-up, repeats, output check), and
// prints, over the programs measured fine both times:
//   pairwise_agreement  share of pairs with different old times that the
//                       new times order the same way;
//   the same for pairs whose old times differ by at least 10% and 25%;
//   the median and 90th percentile of |log2(new / old)|.
// --out appends the new measurements to another log (never to LOG).
#include "cli.h"
#include "dag/pipeline_dag.h"
#include "records/pipeline_key.h"
#include "records/tuning_log.h"
#include "search/tuning_session.h"
#include "suite_pipelines.h"
#include "util/errors.h"
#include "util/target.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace {

const char *const default_target = ansor::project_cpu_target();
constexpr int kParallelism = 2;  // the benchmarks' MachineParams

struct Args {
    std::string log, op, out;
    int programs = 40;
    uint64_t seed = 0;
    double timeout_s = 30;  // the search's default
};

// The command line, filling a (its members hold the defaults).
ansor_cli::Parser command_line(Args &a) {
    ansor_cli::Parser p("ansor_remeasure", "Programs of a tuning log measured again: how far its times can be trusted.");
    p.positional("LOG", &a.log, "the tuning log read");
    p.option("--op", &a.op, "the suite operator and shape whose programs are measured", "OP:SHAPE").required();
    p.option("--programs", &a.programs, "distinct programs measured, at least 2");
    p.option("--seed", &a.seed, "the seed of the random pick");
    p.option("--timeout", &a.timeout_s, "seconds a measurement may take", "S");
    p.option("--out", &a.out, "a log the new measurements are appended to", "NEW_LOG");
    return p;
}

struct Pair {
    double old_ms, new_ms;
};

// Share of pairs whose old times differ by at least `min_ratio` that the new
// times order the same way; nullopt without such a pair.
std::optional<double> agreement(const std::vector<Pair> &v, double min_ratio) {
    size_t pairs = 0, same = 0;
    for (size_t i = 0; i < v.size(); i++) {
        for (size_t j = 0; j < i; j++) {
            const double a = v[i].old_ms, b = v[j].old_ms;
            if (a == b || std::max(a, b) / std::min(a, b) < min_ratio) continue;
            pairs++;
            same += (a < b) == (v[i].new_ms < v[j].new_ms);
        }
    }
    if (!pairs) return std::nullopt;
    return (double)same / (double)pairs;
}

double quantile(std::vector<double> v, double q) {
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, (size_t)(q * (double)(v.size() - 1) + 0.5))];
}

void print_agreement(const char *label, const std::optional<double> &v) {
    if (v) std::printf("  %s %.3f\n", label, *v);
    else std::printf("  %s n/a\n", label);
}

}  // namespace

int main(int argc, char **argv) {
    Args args;
    ansor_cli::Parser p = command_line(args);
    p.parse(argc, argv);
    if (args.programs < 2) p.fail("--programs must be at least 2");
    if (!(args.timeout_s > 0)) p.fail("--timeout must be positive");
    if (!args.out.empty() && args.out == args.log) p.fail("--out must not be the log being read");
    try {
        const Halide::Target target(default_target);
        const ansor_ops::OpShapes *op;
        size_t shape_index;
        try {
            std::tie(op, shape_index) = ansor_apps::parse_op_shape(args.op);
        } catch (const std::exception &e) {
            p.fail(std::string("--op: ") + e.what());
        }
        ansor_apps::SuitePipeline built = ansor_apps::build_suite_pipeline(op->name, op->ansor_shapes[shape_index], target);
        ansor::PipelineDAG dag(built.outputs(), kParallelism);
        const ansor::PipelineKey key = ansor::make_pipeline_key(dag);

        // One record per distinct program: its fastest successful time.
        std::map<std::string, ansor::TuningRecord> programs;
        for (ansor::TuningRecord &r : ansor::TuningLog(args.log).load(dag, key, target, ansor::RecordScope::any_conditions)) {
            if (!r.ok || !r.state) continue;
            const std::string steps = r.steps.dump();
            auto it = programs.find(steps);
            if (it == programs.end() || r.min_ms < it->second.min_ms) programs[steps] = std::move(r);
        }
        std::vector<const ansor::TuningRecord *> picked;
        for (const auto &kv : programs) picked.push_back(&kv.second);
        std::mt19937_64 rng(args.seed);
        std::shuffle(picked.begin(), picked.end(), rng);
        if ((int)picked.size() > args.programs) picked.resize((size_t)args.programs);
        if (picked.size() < 2) {
            std::fprintf(stderr, "%s holds %zu successful programs of %s (%s); 2 or more are needed\n", args.log.c_str(),
                         programs.size(), args.op.c_str(), key.hash.c_str());
            return 1;
        }

        // The search's measurement settings, with this tool's timeout; the
        // session measures outside any search and logs nothing itself.
        ansor::SessionSettings settings = ansor::session_settings(ansor::Options(), dag, target);
        settings.measure.timeout_s = args.timeout_s;
        ansor::TuningSession session(dag, target, settings);
        std::optional<ansor::TuningLog> out;
        if (!args.out.empty()) out.emplace(args.out);

        std::vector<Pair> both;
        size_t failed_now = 0;
        for (size_t i = 0; i < picked.size(); i++) {
            const ansor::TuningRecord &r = *picked[i];
            ansor::MeasureResult m = session.measure({*r.state})[0];
            if (out) out->append(key, target, *r.state, m);
            std::fprintf(stderr, "[remeasure] %zu/%zu  old %.4f ms  new %s  (%.1f s)\n", i + 1, picked.size(), r.min_ms,
                         m.ok ? std::to_string(m.min_ms).c_str() : m.error.c_str(), m.seconds);
            if (!m.ok) {
                failed_now++;
                continue;
            }
            both.push_back({r.min_ms, m.min_ms});
        }
        std::vector<double> drift;
        for (const Pair &p : both) drift.push_back(std::fabs(std::log2(p.new_ms / p.old_ms)));
        std::printf("%s (%s): %zu programs measured again, %zu failed this time\n", args.op.c_str(), key.hash.c_str(),
                    picked.size(), failed_now);
        if (both.size() < 2) return 1;
        print_agreement("pairwise_agreement", agreement(both, 1.0));
        print_agreement("pairwise_agreement (old times >= 1.10x apart)", agreement(both, 1.10));
        print_agreement("pairwise_agreement (old times >= 1.25x apart)", agreement(both, 1.25));
        std::printf("  |log2(new/old)|: median %.3f, 90th percentile %.3f (0.138 = 10%%)\n", quantile(drift, 0.5),
                    quantile(drift, 0.9));
    } catch (const ansor::UserError &e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
    return 0;
}
