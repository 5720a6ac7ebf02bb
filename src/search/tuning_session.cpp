#include "search/tuning_session.h"

#include "model/gpu_launch_model.h"
#include "model/make_cost_model.h"
#include "model/model_file.h"
#include "measure/gpu_verifier.h"
#include "measure/make_measurer.h"
#include "search/evolutionary_search.h"
#include "search/gpu_choice.h"
#include "search/idle_threads.h"
#include "sketch/sketch_generator.h"
#include "util/errors.h"
#include "util/gpu_target.h"
#include "util/target.h"

#include <algorithm>
#include <set>
#include <chrono>
#include <cstdio>
#include <sstream>

namespace ansor {

namespace {

// How many finalists the zero-shot judge chooses among: the first round's
// size in ansor_corpus --model, where the rule was judged on measured picks.
constexpr int kZeroShotFinalists = 8;

// The longest a zero-shot finalist may take to compile before the next one
// is taken (HL_ANSOR_TIMEOUT, if lower): the user's build compiles the
// chosen one again.
constexpr double kZeroShotCompileLimit_s = 20;
// When every finalist failed and some only for time, the judge's best of
// those is tried once more with this many times the limit.
constexpr double kZeroShotSecondTryFactor = 3;

std::string ordinal(int n) {
    const int tens = n % 100;
    const char *suffix = (tens >= 11 && tens <= 13) ? "th" : n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
    return std::to_string(n) + suffix;
}

void print_progress(const TuningProgress &p, double flops) {
    std::fprintf(stderr, "[ansor] trial %d/%d (round %d)  failures %d  best ", p.trials_done, p.trials_total, p.round,
                 p.failures);
    if (p.best_ms > 0) {
        std::fprintf(stderr, "%.4f ms", p.best_ms);
        if (flops > 0) std::fprintf(stderr, " (%.1f GFLOP/s)", flops / (p.best_ms * 1e6));
    } else {
        std::fprintf(stderr, "-");
    }
    std::fprintf(stderr, "  elapsed %.0f s  left ~%.0f s\n", p.elapsed_s, p.left_s);
}

// Every Func at root: always legal, and what the reference computes.
State all_at_root(const PipelineDAG &dag) {
    State root(dag);
    for (size_t i = 0; i < dag.nodes().size(); i++) add_compute_root(root, (int)i);
    return root;
}

// Why a tuning run has nothing to apply: how many candidates it measured
// and the first few distinct errors.
std::string no_success_message(const TuningOutcome &outcome) {
    if (outcome.trials.empty()) return "the search measured no candidate, so there is no measured schedule to apply";
    std::ostringstream m;
    m << "none of the " << outcome.trials.size() << " measured candidates ran correctly";
    std::vector<std::string> shown;
    for (const TrialRecord &t : outcome.trials) {
        if (shown.size() == 3) break;
        if (std::find(shown.begin(), shown.end(), t.result.error) == shown.end()) shown.push_back(t.result.error);
    }
    m << "; the first errors:";
    for (size_t i = 0; i < shown.size(); i++) m << "\n  " << (i + 1) << ". " << shown[i];
    return m.str();
}

}  // namespace

TuningSession::TuningSession(const PipelineDAG &dag, const Halide::Target &target, const Options &options)
    : TuningSession(dag, target, session_settings(options, dag, target)) {}

TuningSession::TuningSession(const PipelineDAG &dag, const Halide::Target &target, SessionSettings settings,
                             SessionParts parts)
    : dag_(dag), target_(target), settings_(std::move(settings)), parts_(std::move(parts)) {
    // CPU, CUDA or OpenCL; any other device API is a UserError naming it.
    gpu_ = gpu_target_facts(target).has_value();
    // A Func the loop-nest model cannot see is scheduled without it (at root,
    // unannotated): name each, so a slow schedule can be traced to it.
    if (settings_.verbose) {
        for (const Node &n : dag_.nodes()) {
            if (!n.modelled) std::fprintf(stderr, "[ansor] not modelled: %s (%s)\n", n.name.c_str(), n.why_not_modelled.c_str());
        }
    }
    sketches_ = generate_sketches({dag_, target_});
    if (settings_.max_sketches > 0 && sketches_.size() > settings_.max_sketches) {
        sketches_.erase(sketches_.begin() + (std::ptrdiff_t)settings_.max_sketches, sketches_.end());
    }
    if (settings_.verbose) {
        for (size_t k = 0; k < sketches_.size(); k++) {
            std::fprintf(stderr, "[ansor] sketch %zu: %s\n", k, sketches_[k].structure_key().c_str());
        }
    }
    annotator_ = std::make_unique<RandomAnnotator>(dag_, target_, settings_.annotation);
    gpu_verifier_ = std::make_unique<GpuVerifier>(dag_, settings_.measure);
    sampler_ = std::make_unique<ProgramSampler>(sketches_, *annotator_);
    if (!settings_.log.empty()) {
        log_.emplace(settings_.log);
        if (settings_.resume_from_log) {
            MeasureConditions ours = conditions_of_this_build(target_, settings_.measure.threads);
            if (!settings_.measure_host.empty()) ours.host = settings_.measure_host;
            history_ = log_->load(dag_, key(), ours);
            logged_trials_ = (int64_t)history_.size();
            if (settings_.progress) {
                std::fprintf(stderr, "[ansor] log %s: %zu records for pipeline %s on this target, host and %d thread(s)\n",
                             settings_.log.c_str(), history_.size(), key().hash.c_str(), settings_.measure.threads);
            }
        }
    }
}

TuningSession::~TuningSession() = default;

const PipelineKey &TuningSession::key() const {
    if (!key_) key_ = make_pipeline_key(dag_);
    return *key_;
}

Measurer &TuningSession::measurer() {
    if (measurer_) return *measurer_;
    MeasurerSources sources;
    sources.supplied = parts_.make_measurer;
    sources.gpu_verifier = gpu_verifier_.get();
    sources.progress = settings_.progress;
    MadeMeasurer made = make_measurer(dag_, settings_.measure, sources);
    measurer_ = std::move(made.measurer);
    reference_ms_ = made.reference_ms;
    return *measurer_;
}

std::vector<MeasureResult> TuningSession::measure(const std::vector<State> &states) {
    return measurer().measure(states);
}

std::optional<double> TuningSession::reference_ms() const { return reference_ms_; }

void TuningSession::print_start() const {
    std::fprintf(stderr, "[ansor] %zu Funcs, %zu sketches", dag_.nodes().size(), sketches_.size());
    if (reference_ms_) std::fprintf(stderr, ", reference (all at root) %.4f ms", *reference_ms_);
    std::fprintf(stderr, "; measuring %d programs (%s search", settings_.tuner.trials, choice_name(settings_.tuner.policy));
    if (settings_.tuner.policy == SearchPolicy::Evolution) {
        std::fprintf(stderr, ", population %d", settings_.tuner.evolution.population);
    }
    std::fprintf(stderr, ")\n");
}

CostModel &TuningSession::model() {
    if (model_) return *model_;
    if (parts_.make_model) {
        model_ = parts_.make_model(dag_);
        return *model_;
    }
    std::shared_ptr<const PackSumXGBoost> prior;
    if (settings_.cost_model == CostModelKind::XGBoost && !settings_.model_file.empty()) {
        LoadedModel file = load_model_file(settings_.model_file);
        prior = file.trees;
        if (settings_.progress) {
            std::fprintf(stderr, "[ansor] cost model starts from %s (%zu programs of %zu pipelines)\n",
                         settings_.model_file.c_str(), file.info.programs, file.info.pipelines);
        }
    }
    model_ = make_cost_model(settings_.cost_model, dag_, settings_.tuner.seed, settings_.model_objective, prior);
    if (!settings_.pretrain.empty()) {
        std::shared_ptr<const PretrainingSet> set = parts_.pretraining;
        if (!set) set = std::make_shared<PretrainingSet>(read_pretraining_set(settings_.pretrain));
        PretrainingSummary s = model_->pretrain(*set, {key().hash}, target_.to_string(), settings_.pretrain);
        if (settings_.progress) {
            std::fprintf(stderr, "[ansor] cost model pretrained on %zu programs of %zu other pipelines from %s\n",
                         s.programs, s.pipelines, settings_.pretrain.c_str());
        }
    }
    return *model_;
}

void TuningSession::start_tuner() {
    measurer();
    if (settings_.progress) print_start();
    model();
    tuner_ = std::make_unique<Tuner>(*sampler_, *annotator_, settings_.annotation, *measurer_, *model_, settings_.tuner);
    std::vector<TrialRecord> earlier;
    for (const auto &r : history_) {
        MeasureResult m;
        m.ok = r.ok;
        m.error = r.error;
        m.min_ms = r.min_ms;
        m.median_ms = r.median_ms;
        m.seconds = r.seconds;
        earlier.push_back({*r.state, m});
    }
    tuner_->add_history(earlier);
    // Tuning is never worse than measuring nothing: with nothing of the
    // pipeline measured yet, the first round measures the program a
    // zero-shot build would apply (its finalists come from their own
    // evolution, which the tuner's first round does not repeat exactly).
    if (history_.empty() && !gpu_ && settings_.tuner.policy == SearchPolicy::Evolution) {
        SessionChoice::How how;
        std::optional<State> zero_shot = zero_shot_choice(how);
        if (zero_shot && how.finalist >= 0) pending_suggestions_.insert(pending_suggestions_.begin(), *zero_shot);
    }
    tuner_->on_measured = [this](const TrialRecord &t) { record(t); };
    if (settings_.progress) {
        const double flops = dag_.flop_count();
        tuner_->on_progress = [flops](const TuningProgress &p) { print_progress(p, flops); };
    }
}

void TuningSession::record(const TrialRecord &t) {
    if (log_) {
        RecordMeta meta;
        meta.trial = logged_trials_;
        meta.seed = settings_.tuner.seed;
        meta.threads = settings_.measure.threads;
        try {
            log_->append(key(), target_, t.state, t.result, meta);
        } catch (const InvalidState &e) {
            std::fprintf(stderr, "[ansor] warning: could not record trial %lld in %s: %s\n", (long long)logged_trials_,
                         settings_.log.c_str(), e.what());
        }
    }
    logged_trials_++;
    if (on_measured) on_measured(t);
}

int TuningSession::tune(int trials) {
    if (!tuner_ && !not_measured_because_.empty()) return 0;
    if (!tuner_) {
        try {
            start_tuner();
        } catch (const MeasurementUnavailable &e) {
            // The build goes on: the schedule comes from the cost model alone.
            not_measured_because_ = e.what();
            std::fprintf(stderr, "[ansor] warning: cannot measure this pipeline: %s; scheduling without measuring\n",
                         e.what());
            return 0;
        }
    }
    if (!pending_suggestions_.empty()) {
        tuner_->suggest(std::move(pending_suggestions_));
        pending_suggestions_.clear();
    }
    const size_t before = tuner_->outcome().trials.size();
    tuner_->run_more(trials);
    const TuningOutcome &outcome = tuner_->outcome();
    if (settings_.verbose) {
        for (size_t i = before; i < outcome.trials.size(); i++) {
            const TrialRecord &t = outcome.trials[i];
            std::fprintf(stderr, "[ansor] %s %.4f ms %s\n%s", t.result.ok ? "ok" : "FAILED", t.result.min_ms,
                         t.result.error.c_str(), t.state.source().c_str());
        }
    }
    return (int)(outcome.trials.size() - before);
}

void TuningSession::suggest(std::vector<State> states) {
    if (tuner_) {
        tuner_->suggest(std::move(states));
        return;
    }
    for (auto &s : states) pending_suggestions_.push_back(std::move(s));
}

const TuningOutcome &TuningSession::outcome() const {
    static const TuningOutcome none;
    return tuner_ ? tuner_->outcome() : none;
}

std::vector<size_t> TuningSession::judged_order(const std::vector<State> &finalists, SessionChoice::How &how) {
    std::vector<size_t> order(finalists.size());
    for (size_t i = 0; i < order.size(); i++) order[i] = i;
    if (settings_.judge_model_file.empty() || finalists.size() == 1) return order;
    // The judge only chooses among programs the cost model found: a model
    // that ranks unseen pipelines' programs better but is never evolved
    // against cannot lead the search into its own blind spots
    // (docs/cost_model.md, "The judge").
    LoadedModel judge_file = load_model_file(settings_.judge_model_file);
    std::unique_ptr<CostModel> judge = make_cost_model(CostModelKind::XGBoost, dag_, settings_.tuner.seed,
                                                       settings_.model_objective, judge_file.trees);
    const std::vector<double> scores = judge->predict(finalists);
    // Ties keep the cost model's order.
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return scores[a] > scores[b]; });
    how.judged_by = settings_.judge_model_file;
    return order;
}

std::optional<size_t> TuningSession::first_that_compiles(const std::vector<State> &programs,
                                                         const std::vector<size_t> &order, double timeout_s,
                                                         const std::function<bool(size_t, const CompileCheck &)> &accept) {
    // One at a time, in order: the preferred program's compile gets the
    // machine to itself. Two compiles at once on a machine whose cores share
    // their execution units each ran past the limit a lone one kept to.
    for (const size_t i : order) {
        const CompileCheck check = parts_.check_compile
                                       ? parts_.check_compile(programs[i], timeout_s)
                                       : check_compiles(dag_, programs[i], target_, timeout_s,
                                                        settings_.measure.memory_limit_bytes);
        if (accept(i, check)) return i;
    }
    return std::nullopt;
}

std::optional<State> TuningSession::zero_shot_choice(SessionChoice::How &how) {
    std::vector<State> finalists = zero_shot_finalists();
    if (finalists.empty()) return std::nullopt;
    std::vector<size_t> order = judged_order(finalists, how);
    how.finalists = (int)finalists.size();
    // Finalists that leave threads idle on the bulk of the work are tried
    // last (idle_threads.h); those the judge preferred to the one chosen
    // are noted in the schedule.
    std::vector<std::pair<size_t, std::string>> idle_before_busy;
    if (!gpu_) {
        std::vector<size_t> busy, idle;
        for (const size_t i : order) {
            const std::string why = idle_threads(finalists[i].replay(), settings_.annotation.parallelism);
            if (why.empty()) {
                busy.push_back(i);
            } else {
                idle.push_back(i);
                if (busy.empty()) idle_before_busy.emplace_back(i, why);
            }
        }
        if (busy.empty()) idle_before_busy.clear();
        busy.insert(busy.end(), idle.begin(), idle.end());
        order = busy;
    }
    for (const auto &[i, why] : idle_before_busy) {
        how.passed_over.push_back("finalist " + std::to_string(i + 1) + ": " + why);
    }
    // A finalist's compile is checked before it is chosen: the user's build
    // compiles it again, so a slow one would make the build slow, and one
    // Halide rejects would break it.
    const double limit_s = std::min(settings_.measure.timeout_s, kZeroShotCompileLimit_s);
    std::optional<size_t> first_slow;  // the judge's best finalist stopped at the limit
    auto accept = [&](size_t i, const CompileCheck &check) {
        const std::string label = "finalist " + std::to_string(i + 1) + ": ";
        if (check.ok) {
            how.finalist = (int)i;
            // A second try that succeeds takes back its first one's note.
            how.skipped.erase(std::remove_if(how.skipped.begin(), how.skipped.end(),
                                             [&](const std::string &note) { return note.rfind(label, 0) == 0; }),
                              how.skipped.end());
            if (settings_.progress) {
                std::fprintf(stderr, "[ansor] zero-shot program: finalist %zu of %zu (1: the cost model's best)%s, compiled in %.1f s\n",
                             i + 1, finalists.size(),
                             how.judged_by.empty() ? "" : (", chosen by the judge model " + how.judged_by).c_str(),
                             check.seconds);
            }
            return true;
        }
        if (check.timed_out && !first_slow) first_slow = i;
        std::string why = check.error;
        std::replace(why.begin(), why.end(), '\n', ' ');
        how.skipped.push_back(label + why);
        std::fprintf(stderr, "[ansor] zero-shot: skipping the cost model's %s finalist: %s\n", ordinal((int)i + 1).c_str(),
                     why.c_str());
        return false;
    };
    if (const std::optional<size_t> i = first_that_compiles(finalists, order, limit_s, accept)) return finalists[*i];
    // Every finalist failed, some only for time (a slow or busy machine):
    // the judge's best of those gets a longer limit before the build falls
    // back to a program far slower than any finalist.
    if (first_slow) {
        const size_t i = *first_slow;
        first_slow.reset();
        if (first_that_compiles(finalists, {i}, kZeroShotSecondTryFactor * limit_s, accept)) return finalists[i];
    }
    std::fprintf(stderr, "[ansor] warning: zero-shot: none of the %zu finalists compiled in time; computing every "
                         "Func at root instead\n",
                 finalists.size());
    how.finalist = -1;
    return all_at_root(dag_);
}

std::vector<State> TuningSession::zero_shot_finalists() {
    if (settings_.cost_model != CostModelKind::XGBoost) return {};
    if (settings_.model_file.empty() && settings_.pretrain.empty() && !parts_.make_model) return {};
    CostModel &ranker = model();
    if (!ranker.can_rank()) return {};
    // The first round's selection (Tuner::pick_candidates): every sketch
    // uncovered, so each finalist is the best of its sketch, and the first
    // round's cap on one structure.
    Selection selection;
    selection.structure_share = settings_.tuner.evolution.first_round_structure_share;
    for (int i = 0; i < (int)sketches_.size(); i++) selection.uncovered_sketches.insert(i);
    selection.coverage_slots = kZeroShotFinalists;
    return evolve_under(ranker, kZeroShotFinalists, &selection);
}

std::vector<State> TuningSession::evolve_under(CostModel &ranker, int count, const Selection *selection) {
    auto start = std::chrono::steady_clock::now();
    EvolutionOptions evolution = settings_.tuner.evolution;
    if (settings_.progress) {
        std::fprintf(stderr, "[ansor] zero-shot: evolving %d programs for %d generations under the %s model\n",
                     evolution.population, evolution.generations, ranker.name().c_str());
    }
    EvolutionarySearch search(*sampler_, *annotator_, settings_.annotation, ranker, evolution);
    std::mt19937_64 rng(settings_.tuner.seed);
    std::vector<State> best = selection ? search.search({}, count, {}, rng, *selection) : search.search({}, count, {}, rng);
    if (settings_.progress) {
        std::fprintf(stderr, "[ansor] zero-shot: ranked in %.1f s\n",
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    return best;
}

namespace {

// The first `leading` programs of `ranked`, then the best-ranked program of
// each structure (State::structure_key) not yet among them, at most `limit`.
std::vector<State> structurally_diverse(const std::vector<State> &ranked, size_t leading, size_t limit) {
    std::vector<State> chosen;
    std::set<std::string> structures;
    for (size_t i = 0; i < ranked.size() && i < leading; i++) {
        chosen.push_back(ranked[i]);
        structures.insert(ranked[i].structure_key());
    }
    for (size_t i = leading; i < ranked.size() && chosen.size() < limit; i++) {
        if (structures.insert(ranked[i].structure_key()).second) chosen.push_back(ranked[i]);
    }
    return chosen;
}

}  // namespace

std::optional<State> TuningSession::verified_gpu_choice(SessionChoice::How &how) {
    // Candidates verified in order: few enough that verifying costs seconds
    // (each is built, and run on PoCL), and from every structure the model
    // ranks highly, so that one sketch whose programs Halide cannot run
    // here (or at all) does not leave the build without a program.
    // Ranked by the launch model, not the learned one: the shipped model
    // was trained on CPU measurements and cannot tell a well-occupied GPU
    // kernel from a starved one (docs/gpu.md, "Ranking without a GPU").
    constexpr int kCandidates = 8;
    GpuLaunchModel launch(dag_, *gpu_target_facts(target_), settings_.annotation.parallelism);
    std::vector<State> ranked = structurally_diverse(evolve_under(launch, 8 * kCandidates), kCandidates / 2, kCandidates);
    if (ranked.empty()) return std::nullopt;
    how.zero_shot = true;
    how.ranked_by = launch.name();
    GpuMeasurer *verifier = gpu_verifier_->get();
    if (!verifier) {
        how.gpu_verification = "unverified: " + gpu_verifier_->why_unavailable();
        std::fprintf(stderr, "[ansor] warning: the GPU program cannot be verified here (%s); applying it unverified\n",
                     gpu_verifier_->why_unavailable().c_str());
        return ranked[0];
    }
    const size_t batch = (size_t)std::max(1, settings_.measure.builders);
    GpuVerifiedChoice v = verify_gpu_candidates(*verifier, ranked, batch);
    for (size_t i = 0; i < v.rejected.size(); i++) {
        std::fprintf(stderr, "[ansor] GPU candidate rejected, %s\n", v.rejected[i].c_str());
        if (settings_.verbose) std::fprintf(stderr, "%s", v.rejected_programs[i].source().c_str());
    }
    if (!v.state) {
        std::string first = v.rejected.empty() ? "" : ": " + v.rejected[0];
        throw UserError("none of the " + std::to_string(ranked.size()) + " GPU programs passed verification" + first);
    }
    const bool cuda = target_.has_feature(Halide::Target::CUDA);
    how.gpu_verification = std::string("rank ") + std::to_string(v.rank) + " of the model's candidates; " +
                           (cuda ? "ptxas within the GPU's limits; " : "") +
                           (v.correctness_checked ? "outputs correct on " + v.device +
                                                        (cuda ? " (the same schedule built for OpenCL)" : "")
                                                  : std::string("outputs not checked: no OpenCL device here"));
    if (settings_.progress) std::fprintf(stderr, "[ansor] GPU program verified: %s\n", how.gpu_verification.c_str());
    return v.state;
}

SessionChoice TuningSession::choose() {
    std::optional<State> chosen;
    SessionChoice::How how;
    if (tuner_) {
        const TuningOutcome &outcome = tuner_->outcome();
        how.trials = (int)outcome.trials.size();
        how.failures = outcome.failures;
        if (outcome.best) {
            chosen = outcome.best;
            how.measured = true;
            how.best_ms = outcome.best_result.min_ms;
        } else if (!settings_.allow_root_fallback) {
            throw UserError(no_success_message(outcome) +
                            "\nSet HL_ANSOR_ALLOW_ROOT_FALLBACK=1 to build with every Func computed at root instead");
        } else {
            std::fprintf(stderr, "[ansor] warning: %s\n[ansor] falling back to computing every Func at root "
                                 "(HL_ANSOR_ALLOW_ROOT_FALLBACK)\n",
                         no_success_message(outcome).c_str());
        }
    } else if (log_ && (not_measured_because_.empty() || best_record(history_))) {
        // No budget: the log's best program, the same one every time.
        std::optional<TuningRecord> best = best_record(history_);
        if (!best) {
            throw UserError("HL_ANSOR_TRIALS=0 with HL_ANSOR_LOG=" + settings_.log + ", but the log holds no successful " +
                            "measurement of this pipeline (key " + key().hash + ") on target " + target_.to_string() +
                            " with " + std::to_string(settings_.measure.threads) +
                            " thread(s) on this host (records measured under other conditions are never applied); "
                            "tune it first with HL_ANSOR_TRIALS > 0");
        }
        chosen = best->state;
        how.measured = true;
        how.from_log = true;
        how.best_ms = best->min_ms;
    } else if (gpu_) {
        chosen = verified_gpu_choice(how);
    } else if ((chosen = zero_shot_choice(how))) {
        how.zero_shot = true;
    } else {
        std::mt19937_64 rng(settings_.tuner.seed);
        chosen = sampler_->sample(rng);
        std::fprintf(stderr, "[ansor] HL_ANSOR_TRIALS=0 with no tuning log (HL_ANSOR_LOG) and no cost model that can "
                             "rank (HL_ANSOR_MODEL, HL_ANSOR_PRETRAIN): applying %s, unmeasured\n",
                     chosen ? ("one random program (seed " + std::to_string(settings_.tuner.seed) + ")").c_str()
                            : "every Func at root (no program could be sampled)");
    }
    how.not_measured_because = not_measured_because_;
    SessionChoice c{chosen ? *chosen : all_at_root(dag_), how, ""};
    std::ostringstream src;
    src << "// Ansor: ";
    if (how.from_log) {
        src << "best record of " << settings_.log << ", " << how.best_ms << " ms";
    } else if (how.zero_shot) {
        if (!how.ranked_by.empty()) {
            src << "zero-shot: the program the " << how.ranked_by << " model ranks best, nothing measured";
        } else if (how.finalist < 0) {
            src << "zero-shot: none of the cost model's " << how.finalists
                << " finalists compiled in time, so every Func is computed at root, nothing measured";
        } else if (!how.judged_by.empty()) {
            src << "zero-shot: of the cost model's best programs of its " << how.finalists
                << " best sketches, the one the judge model " << how.judged_by << " scores best"
                << (how.skipped.empty() ? "" : " of those that compiled") << " (the cost model's "
                << ordinal(how.finalist + 1) << "), nothing measured";
            if (!settings_.model_file.empty()) src << " (model " << settings_.model_file << ")";
        } else {
            src << "zero-shot: the program the cost model ranks best"
                << (how.skipped.empty() ? "" : " of those that compiled") << ", nothing measured";
            if (!settings_.model_file.empty()) src << " (model " << settings_.model_file << ")";
        }
        for (const std::string &note : how.passed_over) src << "\n// passed over " << note;
        for (const std::string &skipped : how.skipped) src << "\n// skipped " << skipped;
    } else if (how.measured) {
        src << "best of " << how.trials << " measured programs";
        if (!history_.empty()) src << " and " << history_.size() << " from " << settings_.log;
        src << ", " << how.best_ms << " ms";
    } else {
        src << "unmeasured schedule";
    }
    if (!how.not_measured_because.empty()) src << " (not measured: " << how.not_measured_because << ")";
    if (!how.gpu_verification.empty()) src << "\n// GPU program verified: " << how.gpu_verification;
    src << "\n" << c.state.source();
    c.source = src.str();
    return c;
}

}  // namespace ansor
