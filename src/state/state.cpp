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

std::vector<Directive> State::lower() const {
    LoopNest m(*dag_);
    std::vector<Directive> out;
    for (const auto &s : steps_in_replay_order()) {
        for (auto &d : s->lower(m)) out.push_back(std::move(d));
        s->replay(m);
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
