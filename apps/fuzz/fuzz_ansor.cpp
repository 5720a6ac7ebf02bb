#include "fuzz_ansor.h"

#include "annotate/random_annotator.h"
#include "dag/pipeline_dag.h"
#include "measure/measurer.h"
#include "records/canonical_steps.h"
#include "records/pipeline_key.h"
#include "search/session_settings.h"
#include "search/tuning_session.h"
#include "util/errors.h"

#include <cstdio>
#include <fstream>

namespace ansor_fuzz {

namespace {

ansor::SessionSettings fuzz_settings(const AnsorCheck &check, const random_pipeline::RandomPipelineSpec &spec,
                                     const ansor::PipelineDAG &dag) {
    ansor::Options o = check.options;
    o.trials = check.programs;
    o.measures_per_round = check.programs;
    o.model = "none";
    o.pretrain.clear();
    o.log.clear();
    // Correctness, not speed: one timed run is enough.
    o.repeats = 1;
    o.measure_seconds = 0;
    // A search seed per pipeline seed, so a seed's programs do not depend on the run's other seeds.
    o.seed = (o.seed + spec.seed * 0x9E3779B97F4A7C15ull) & 0x7fffffff;
    ansor::SessionSettings s = ansor::session_settings(o, dag, check.target);
    s.resume_from_log = false;
    s.progress = false;
    return s;
}

// A failing program as a --replay line, so that it can be measured again alone.
void dump_program(const AnsorCheck &check, const random_pipeline::RandomPipelineSpec &spec, const ansor::State &state,
                  const ansor::PipelineDAG &dag, const std::string &error) {
    if (check.dump.empty()) return;
    nlohmann::json j;
    j["seed"] = spec.seed;
    j["stages"] = spec.stages;
    j["max_size"] = spec.max_size;
    j["error"] = error.substr(0, 300);
    j["steps"] = ansor::canonical_steps(state, ansor::CanonicalNames(dag));
    std::ofstream(check.dump, std::ios::app) << j.dump() << "\n";
}

Finding finding_of(const AnsorCheck &check, uint64_t seed, const ansor::State &state,
                   const ansor::MeasureResult &r) {
    Finding f;
    f.scheduler = "Ansor";
    f.seed = seed;
    f.outcome = r.ok ? Outcome::Ok : classify_error(r.error);
    f.detail = r.error;
    if (!r.ok && check.verbose) {
        std::fprintf(stderr, "[fuzz] seed %llu: %s\n%s\n", (unsigned long long)seed, r.error.substr(0, 2000).c_str(),
                     state.source().c_str());
    }
    return f;
}

Finding session_error(uint64_t seed, const std::exception &e) {
    Finding f;
    f.scheduler = "Ansor";
    f.seed = seed;
    f.outcome = Outcome::InternalError;
    f.detail = std::string("the search failed: ") + e.what();
    return f;
}

}  // namespace

std::vector<Finding> check_ansor(const AnsorCheck &check, const random_pipeline::RandomPipelineSpec &spec) {
    std::vector<Finding> findings;
    try {
        random_pipeline::RandomPipeline p = random_pipeline::build_random_pipeline(spec);
        ansor::PipelineDAG dag(p.output_functions(), check.parallelism);
        ansor::TuningSession session(dag, check.target, fuzz_settings(check, spec, dag));
        session.tune(check.programs);
        for (const ansor::TrialRecord &t : session.outcome().trials) {
            findings.push_back(finding_of(check, spec.seed, t.state, t.result));
            if (!t.result.ok) dump_program(check, spec, t.state, dag, t.result.error);
        }
    } catch (const std::exception &e) {
        findings.push_back(session_error(spec.seed, e));
    }
    return findings;
}

std::vector<Finding> replay_programs(const AnsorCheck &check, const random_pipeline::RandomPipelineSpec &spec,
                                     const std::vector<nlohmann::json> &steps, bool refuse_undrawable) {
    std::vector<Finding> findings;
    try {
        random_pipeline::RandomPipeline p = random_pipeline::build_random_pipeline(spec);
        ansor::PipelineDAG dag(p.output_functions(), check.parallelism);
        const ansor::CanonicalNames names(dag);
        const ansor::SessionSettings settings = fuzz_settings(check, spec, dag);
        const ansor::RandomAnnotator annotator(dag, check.target, settings.annotation);
        std::vector<ansor::State> states;
        for (const nlohmann::json &s : steps) {
            ansor::State state = ansor::state_from_canonical_steps(dag, names, s);
            try {
                state.replay();
            } catch (const ansor::InvalidState &e) {
                // The search no longer builds this program: a fixed bug's program.
                findings.push_back(Finding{"Ansor", spec.seed, Outcome::Refused, e.what()});
                continue;
            }
            const std::string misfit = refuse_undrawable ? annotator.misfit(state) : "";
            if (!misfit.empty()) {
                // Nor does it draw one that breaks the annotator's rules.
                findings.push_back(Finding{"Ansor", spec.seed, Outcome::Refused, "not drawn: " + misfit});
                continue;
            }
            states.push_back(std::move(state));
        }
        if (states.empty()) return findings;
        ansor::ForkMeasurer measurer(dag, settings.measure);
        const std::vector<ansor::MeasureResult> results = measurer.measure(states);
        for (size_t i = 0; i < states.size(); i++) findings.push_back(finding_of(check, spec.seed, states[i], results[i]));
    } catch (const std::exception &e) {
        findings.push_back(session_error(spec.seed, e));
    }
    return findings;
}

}  // namespace ansor_fuzz
