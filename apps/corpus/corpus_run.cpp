#include "corpus_run.h"

#include "corpus_pipelines.h"
#include "model/model_file.h"
#include "records/canonical_steps.h"
#include "records/pipeline_key.h"
#include "util/errors.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>
#include <set>

namespace ansor_corpus {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::string duration(double s) {
    char buf[32];
    if (s < 60) std::snprintf(buf, sizeof(buf), "%.0fs", s);
    else if (s < 3600) std::snprintf(buf, sizeof(buf), "%dm%02ds", (int)s / 60, (int)s % 60);
    else std::snprintf(buf, sizeof(buf), "%dh%02dm", (int)s / 3600, (int)s / 60 % 60);
    return buf;
}

// An entry's identity in the file: the spec and the target it was measured on.
std::string entry_id(const PipelineSpec &spec, const std::string &target) { return spec.id() + " @" + target; }

CorpusProgram program_of(const ansor::TrialRecord &t, const ansor::CanonicalNames &names) {
    CorpusProgram p;
    p.steps = ansor::canonical_steps(t.state, names);
    p.ok = t.result.ok;
    p.error = t.result.error;
    p.min_ms = t.result.min_ms;
    p.median_ms = t.result.median_ms;
    p.seconds = t.result.seconds;
    return p;
}

// Tunes one pipeline; nullopt if a stop was requested before it finished.
// A pipeline that cannot be built, analysed or measured gives an entry with its error.
std::optional<CorpusEntry> tune_one(const CorpusRunOptions &run, const PipelineSpec &spec) {
    const auto start = Clock::now();
    CorpusEntry e;
    e.spec = spec;
    e.target = run.target.to_string();
    e.parallelism = run.parallelism;
    e.model = run.model;
    try {
        std::unique_ptr<BuiltPipeline> built = build_pipeline(spec, run.target);
        ansor::PipelineDAG dag(built->outputs(), run.parallelism);
        const ansor::PipelineKey key = ansor::make_pipeline_key(dag);
        e.key = key.hash;
        e.funcs = (int)dag.nodes().size();
        ansor::TuningSession session(dag, run.target, corpus_settings(run, spec, dag), run.parts);
        // Round by round, so that a stop request is seen between rounds.
        for (int left = run.programs; left > 0;) {
            if (run.stop_requested && run.stop_requested()) return std::nullopt;
            const int measured = session.tune(std::min(left, run.per_round));
            if (measured == 0) break;  // the space ran dry
            left -= measured;
        }
        for (const ansor::TrialRecord &t : session.outcome().trials) e.programs.push_back(program_of(t, key.names));
    } catch (const std::exception &err) {
        // UserError, Halide's CompileError / RuntimeError, InvalidState: the
        // entry records why, so a resumed run does not try it again.
        e.programs.clear();
        e.error = err.what();
    }
    e.seconds = seconds_since(start);
    return e;
}

void print_entry(const CorpusEntry &e, const CorpusRunStats &s, size_t pending, double elapsed) {
    size_t ok = 0;
    double best = 0;
    for (const CorpusProgram &p : e.programs) {
        if (!p.ok) continue;
        ok++;
        best = best == 0 ? p.min_ms : std::min(best, p.min_ms);
    }
    std::fprintf(stderr, "[corpus] %s (%d Funcs): ", e.spec.id().c_str(), e.funcs);
    if (!e.error.empty()) std::fprintf(stderr, "FAILED: %.200s", e.error.c_str());
    else std::fprintf(stderr, "%zu programs, %zu ok, best %.4g ms", e.programs.size(), ok, best);
    const double eta = s.done ? elapsed / s.done * (double)(pending - s.done) : 0;
    std::fprintf(stderr, ", %.0f s\n[corpus] pipelines %zu/%zu, programs %zu (%.0f%% ok) this run, elapsed %s, ETA %s\n",
                 e.seconds, s.already + s.done, s.total, s.programs, s.programs ? 100.0 * s.ok / s.programs : 0.0,
                 duration(elapsed).c_str(), duration(eta).c_str());
}

}  // namespace

ansor::SessionSettings corpus_settings(const CorpusRunOptions &run, const PipelineSpec &spec,
                                       const ansor::PipelineDAG &dag) {
    ansor::Options o = run.options;
    o.trials = run.programs;
    o.measures_per_round = run.per_round;
    if (!o.population_given) o.population = run.population;
    // The corpus depends on no pretraining set or log, and on a model file
    // only where the run names one.
    o.model = run.model.empty() ? "none" : run.model;
    o.pretrain.clear();
    o.log.clear();
    // Each pipeline's search seed from its spec, so a pipeline's programs do
    // not depend on which other pipelines a run holds (31 bits: XGBoost
    // takes the seed as a signed integer).
    o.seed = (o.seed + std::stoull(ansor::fnv1a_hex(spec.id()).substr(0, 8), nullptr, 16)) & 0x7fffffff;
    ansor::SessionSettings s = ansor::session_settings(o, dag, run.target);
    s.resume_from_log = false;
    s.progress = false;
    return s;
}

CorpusRunStats run_corpus(const CorpusRunOptions &run) {
    if (run.programs < 1 || run.per_round < 1 || run.population < 1) {
        throw ansor::UserError("corpus: programs, per_round and population must be at least 1");
    }
    // A model file that cannot be used is refused before anything is
    // measured, not recorded as every pipeline's error.
    if (!run.model.empty()) ansor::load_model_file(run.model);
    const auto start = Clock::now();
    CorpusRunStats stats;
    stats.total = run.specs.size();
    const CorpusContents existing = read_corpus(run.out);
    if (existing.cut_short() && run.progress) {
        std::fprintf(stderr, "[corpus] %s: an unfinished last entry (%zu bytes) will be replaced\n", run.out.c_str(),
                     existing.file_bytes - existing.valid_bytes);
    }
    std::set<std::string> complete;
    for (const CorpusEntry &e : existing.entries) complete.insert(entry_id(e.spec, e.target));
    std::vector<PipelineSpec> pending;
    for (const PipelineSpec &spec : run.specs) {
        if (!complete.count(entry_id(spec, run.target.to_string()))) pending.push_back(spec);
    }
    stats.already = stats.total - pending.size();
    if (run.progress) {
        std::fprintf(stderr, "[corpus] %s: %zu of %zu pipelines already complete; %zu to go, %d programs each\n",
                     run.out.c_str(), stats.already, stats.total, pending.size(), run.programs);
    }
    for (const PipelineSpec &spec : pending) {
        const bool out_of_time = run.minutes > 0 && seconds_since(start) > run.minutes * 60;
        if (out_of_time || (run.stop_requested && run.stop_requested())) {
            stats.stopped = true;
            break;
        }
        std::optional<CorpusEntry> e = tune_one(run, spec);
        if (!e) {
            stats.stopped = true;
            break;
        }
        append_entry(run.out, *e);
        stats.done++;
        stats.failed_pipelines += !e->error.empty();
        stats.programs += e->programs.size();
        for (const CorpusProgram &p : e->programs) stats.ok += p.ok;
        if (run.progress) print_entry(*e, stats, pending.size(), seconds_since(start));
    }
    stats.seconds = seconds_since(start);
    return stats;
}

}  // namespace ansor_corpus
