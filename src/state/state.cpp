#include "state/state.h"

#include "util/errors.h"

namespace ansor {

int State::rank(const std::string &func) const {
    // Consumers before producers; an rfactor intermediate right after its origin.
    auto idx = dag_->index_of(func);
    if (idx) return ((int)dag_->nodes().size() - *idx) * 2;
    if (auto from = intermediate_origin(func)) {
        auto origin = dag_->index_of(*from);
        if (origin) return ((int)dag_->nodes().size() - *origin) * 2 + 1;
    }
    throw InvalidState("step for unknown Func '" + func + "'");
}

void State::add(StepPtr step) { group(step->func()).steps.push_back(std::move(step)); }

const FuncSteps *State::group(const std::string &func) const {
    for (const auto &g : groups_) {
        if (g.func == func) return &g;
    }
    return nullptr;
}

FuncSteps &State::group(const std::string &func) {
    for (auto &g : groups_) {
        if (g.func == func) return g;
    }
    int r = rank(func);
    auto it = groups_.begin();
    while (it != groups_.end() && rank(it->func) < r) ++it;
    return *groups_.insert(it, FuncSteps{func, {}});
}

std::vector<StepPtr> State::steps() const {
    std::vector<StepPtr> out;
    for (const auto &g : groups_) out.insert(out.end(), g.steps.begin(), g.steps.end());
    return out;
}

std::vector<StepPtr> State::steps_in_replay_order() const {
    std::vector<StepPtr> out, deferred;
    for (const auto &s : steps()) (s->deferred() ? deferred : out).push_back(s);
    out.insert(out.end(), deferred.begin(), deferred.end());
    return out;
}

LoopNest State::replay() const {
    LoopNest m(*dag_);
    for (const auto &s : steps_in_replay_order()) s->replay(m);
    return m;
}

namespace {

// Halide 14 miscompiles a stride-2..4 vector load from a Func's buffer at an
// index that is a literal: it keeps the literal's alignment through the
// dense load it makes of the strided one with a modulus of 0, so the load
// claims 64-byte alignment at an odd address and faults (vmovdqa). Such
// literals appear where a vectorised split's ShiftInwards tail is peeled
// under a constant extent and a producer is stored per iteration of an
// outer loop of the same stage (a downsample at a row of its consumer:
// fuzz seed 383, Adams2019's program alike). GuardWithIf's tail is
// predicated, which Halide scalarises, so the broken path is never taken.
void guard_vector_tail(const SplitStep &split, const LoopNest &final_model, std::vector<Directive> &directives) {
    const ModelStage &st = final_model.stage(split.func(), split.stage);
    const int inner = st.find(split.piece_names().back());
    if (inner < 0 || st.loops[inner].annotation != Annotation::Vectorize) return;
    bool holds_producer = false;
    for (const ModelFunc &f : final_model.funcs()) {
        auto in_stage = [&](const Location &at) {
            return at.kind == LocationKind::At && at.func == split.func() && at.stage == split.stage;
        };
        holds_producer = holds_producer || in_stage(f.location) || (f.store_location && in_stage(*f.store_location));
    }
    if (!holds_producer) return;
    for (Directive &d : directives) {
        if (d.kind == Directive::Kind::Split && d.tail == Halide::TailStrategy::ShiftInwards) {
            d.tail = Halide::TailStrategy::GuardWithIf;
        }
    }
}

}  // namespace

std::vector<Directive> State::lower() const {
    LoopNest m(*dag_);
    std::vector<std::pair<StepPtr, std::vector<Directive>>> lowered;
    for (const auto &s : steps_in_replay_order()) {
        lowered.emplace_back(s, s->lower(m));
        s->replay(m);
    }
    // `m` is now the whole program, which the tails of splits depend on.
    std::vector<Directive> out;
    for (auto &[step, directives] : lowered) {
        if (const auto *split = step->as<SplitStep>()) guard_vector_tail(*split, m, directives);
        for (auto &d : directives) out.push_back(std::move(d));
    }
    return out;
}

void State::apply(const std::map<std::string, Halide::Internal::Function> &env) const {
    HalideApplier applier(env);
    for (const auto &d : lower()) applier.apply(d);
}

std::string State::source() const {
    std::vector<std::string> order;
    for (const auto &n : dag_->nodes()) order.push_back(n.name);
    SchedulePrinter printer(order);
    for (const auto &d : lower()) printer.print(d);
    return printer.source();
}

nlohmann::json State::to_json() const {
    nlohmann::json steps = nlohmann::json::array();
    for (const auto &s : this->steps()) steps.push_back(s->to_json());
    return steps;
}

std::string State::structure_key() const {
    std::string out;
    for (const auto &s : steps()) out += s->structure_key();
    return out;
}

State State::from_json(const PipelineDAG &dag, const nlohmann::json &j) {
    if (!j.is_array()) throw UserError("a schedule must be a JSON array of steps, got " + j.dump());
    State s(dag);
    for (const auto &e : j) s.add(step_from_json(e));
    return s;
}

}  // namespace ansor
