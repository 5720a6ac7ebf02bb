// The search's decisions for fixed seeds, as hashes: for six small
// pipelines, 150 sampled programs (their JSON keys, printed schedules,
// structure keys and features) and the 48 programs a tuning session measures
// under each search policy on a fake machine whose times come from the
// programs' keys. A change that should leave the search as it is (a
// refactoring) must leave this output as it is: the test search_trace
// compares it with search_trace.golden. A change that means to alter the
// search regenerates the golden file with
//   ./build/test/ansor_search_trace > test/integration/search_trace.golden
#include "features/program_features.h"
#include "search/tuning_session.h"
#include "test_pipelines.h"

#include <cstdio>
#include <functional>
#include <string>

using namespace ansor;

namespace {

uint64_t fnv(const std::string &s, uint64_t h = 1469598103934665603ull) {
    for (unsigned char c : s) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

class KeyTimedMeasurer : public Measurer {
public:
    std::vector<MeasureResult> measure(const std::vector<State> &states) override {
        std::vector<MeasureResult> out;
        for (const auto &s : states) {
            MeasureResult r;
            r.ok = true;
            r.min_ms = r.median_ms = 1.0 + (double)(fnv(s.key()) % 100000) / 1000.0;
            r.seconds = 0.01;
            r.runs = 1;
            out.push_back(r);
        }
        return out;
    }
};

void trace_samples(const std::string &name, const PipelineDAG &dag, const Halide::Target &target) {
    TuningSession session(dag, target, Options());
    std::mt19937_64 rng(7);
    uint64_t keys = 0, sources = 0, structures = 0, features = 0;
    int n = 0;
    FeatureExtractor extractor(dag);
    for (int i = 0; i < 150; i++) {
        std::optional<State> s = session.sampler().sample(rng);
        if (!s) continue;
        n++;
        keys = fnv(s->key(), keys);
        sources = fnv(s->source(), sources);
        structures = fnv(s->structure_key(), structures);
        std::string values;
        for (const StageFeatures &f : extractor.extract(s->replay())) {
            values += std::to_string(f.func) + ":";
            for (float v : f.values) values += std::to_string(v) + ",";
        }
        features = fnv(values, features);
    }
    std::printf("%s sample n=%d keys=%016llx source=%016llx structure=%016llx features=%016llx\n", name.c_str(), n,
                (unsigned long long)keys, (unsigned long long)sources, (unsigned long long)structures,
                (unsigned long long)features);
}

void trace_search(const std::string &name, const PipelineDAG &dag, const Halide::Target &target, SearchPolicy policy) {
    Options o;
    o.population = 128;
    o.population_given = true;
    o.generations = 2;
    o.trials = 48;
    o.seed = 3;
    o.progress = false;
    o.search = policy;
    SessionParts parts;
    parts.make_measurer = [](const PipelineDAG &, const MeasureOptions &) { return std::make_unique<KeyTimedMeasurer>(); };
    TuningSession session(dag, target, session_settings(o, dag, target), parts);
    session.tune();
    const TuningOutcome &outcome = session.outcome();
    uint64_t sequence = 0;
    for (const auto &t : outcome.trials) sequence = fnv(t.state.key(), sequence);
    std::printf("%s %s trials=%zu seq=%016llx best=%016llx\n", name.c_str(), choice_name(policy), outcome.trials.size(),
                (unsigned long long)sequence, (unsigned long long)(outcome.best ? fnv(outcome.best->key()) : 0));
}

}  // namespace

int main() {
    const Halide::Target target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41");
    const std::vector<std::pair<std::string, std::function<ansor_test::Pipe()>>> pipelines = {
        {"matmul", [] { return ansor_test::make_matmul(64); }},
        {"matmul_relu", [] { return ansor_test::make_matmul_relu(64); }},
        {"norm", [] { return ansor_test::make_norm(256); }},
        {"chain", [] { return ansor_test::make_elementwise_chain(); }},
        {"blur", [] { return ansor_test::make_blur(); }},
        {"padded_conv", [] { return ansor_test::make_padded_conv(); }},
    };
    for (const auto &[name, make] : pipelines) {
        ansor_test::Pipe p = make();
        PipelineDAG dag(p.functions(), 2);
        trace_samples(name, dag, target);
        for (SearchPolicy policy : {SearchPolicy::Evolution, SearchPolicy::Model, SearchPolicy::Random}) {
            trace_search(name, dag, target, policy);
        }
    }
    return 0;
}
