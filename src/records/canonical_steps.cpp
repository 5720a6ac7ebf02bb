#include "records/canonical_steps.h"

#include "util/errors.h"

#include <optional>

namespace ansor {

namespace {

enum class Direction { ToCanonical, ToActual };

// One Func's loop names: a one-to-one map from the naming steps are read in
// to the naming they are written in, grown as steps derive new loops.
class LoopDictionary {
public:
    void add(const std::string &func, const std::string &from, const std::string &to) {
        auto f = forward_.find(from);
        auto b = backward_.find(to);
        if ((f != forward_.end() && f->second != to) || (b != backward_.end() && b->second != from)) {
            throw InvalidState("loop names of '" + func + "' do not map one to one ('" + from + "' -> '" + to + "')");
        }
        forward_[from] = to;
        backward_[to] = from;
    }
    std::optional<std::string> find(const std::string &from) const {
        auto it = forward_.find(from);
        if (it == forward_.end()) return std::nullopt;
        return it->second;
    }

private:
    std::map<std::string, std::string> forward_, backward_;
};

// Renames steps from one naming into the other. Steps must come in State
// order (consumers first, a Func's steps in order), which is the order that
// every loop name is derived before it is used.
class Translator : public Renamer {
public:
    Translator(const CanonicalNames &names, Direction dir) : names_(names), dir_(dir) {
        for (const std::string &actual : names.funcs()) {
            const std::string canonical = *names.canonical_func(actual);
            const std::string &from = dir == Direction::ToCanonical ? actual : canonical;
            LoopDictionary &d = dicts_[from];
            for (const auto &kv : names.loop_names(actual)) {
                if (dir == Direction::ToCanonical) d.add(from, kv.first, kv.second);
                else d.add(from, kv.second, kv.first);
            }
        }
    }

    std::string func(const std::string &name) const override {
        auto out = dir_ == Direction::ToCanonical ? names_.canonical_func(name) : names_.actual_func(name);
        if (!out) throw InvalidState("no Func '" + name + "' in this pipeline");
        return *out;
    }

    std::string loop(const std::string &func, const std::string &name) const override {
        auto d = dicts_.find(func);
        std::optional<std::string> out;
        if (d != dicts_.end()) out = d->second.find(name);
        if (!out) throw InvalidState("Func '" + func + "' has no loop '" + name + "'");
        return *out;
    }

    void derive_loop(const std::string &func, const std::string &from, const std::string &to) override {
        dicts_[func].add(func, from, to);
    }

    void derive_func(const std::string &origin, const std::string &created,
                     const std::vector<std::pair<std::string, std::string>> &new_vars) override {
        LoopDictionary d = dicts_[origin];
        for (const auto &v : new_vars) d.add(created, v.first, v.second);
        dicts_[created] = d;
    }

private:
    const CanonicalNames &names_;
    Direction dir_;
    std::map<std::string, LoopDictionary> dicts_;  // by Func name in the source naming
};

}  // namespace

nlohmann::json canonical_steps(const State &state, const CanonicalNames &names) {
    Translator t(names, Direction::ToCanonical);
    nlohmann::json out = nlohmann::json::array();
    for (const StepPtr &s : state.steps()) out.push_back(s->renamed(t)->to_json());
    return out;
}

State state_from_canonical_steps(const PipelineDAG &dag, const CanonicalNames &names, const nlohmann::json &steps) {
    if (!steps.is_array()) throw UserError("steps must be a JSON array, got " + steps.dump());
    Translator t(names, Direction::ToActual);
    State state(dag);
    for (const auto &j : steps) state.add(step_from_json(j)->renamed(t));
    return state;
}

}  // namespace ansor
