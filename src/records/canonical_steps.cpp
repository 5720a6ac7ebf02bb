#include "records/canonical_steps.h"

#include "util/errors.h"

#include <optional>

namespace ansor {

namespace {

enum class Direction { ToCanonical, ToActual };

bool starts_with(const std::string &s, const std::string &prefix) {
    return s.size() > prefix.size() && s.compare(0, prefix.size(), prefix) == 0;
}

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

// Rewrites steps from one naming into the other. Steps must come in State
// order (consumers first, a Func's steps in order), which is the order that
// every loop name is derived before it is used.
class Translator {
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

    StepPtr translate(const Step &step) {
        const std::string &src = step.func();
        const std::string dst = func(src);
        if (auto *s = dynamic_cast<const SplitStep *>(&step)) {
            auto out = std::make_shared<SplitStep>(dst, s->stage, loop(src, s->loop), s->factors);
            std::vector<std::string> from = s->piece_names(), to = out->piece_names();
            for (size_t i = 0; i < from.size(); i++) dicts_[src].add(src, from[i], to[i]);
            return out;
        }
        if (auto *s = dynamic_cast<const ReorderStep *>(&step)) {
            std::vector<std::string> order;
            for (const auto &l : s->order) order.push_back(loop(src, l));
            return std::make_shared<ReorderStep>(dst, s->stage, order);
        }
        if (auto *s = dynamic_cast<const FuseStep *>(&step)) {
            std::vector<std::string> loops;
            for (const auto &l : s->loops) loops.push_back(loop(src, l));
            auto out = std::make_shared<FuseStep>(dst, s->stage, loops);
            dicts_[src].add(src, s->fused_name(), out->fused_name());
            return out;
        }
        if (auto *s = dynamic_cast<const AnnotateStep *>(&step)) {
            return std::make_shared<AnnotateStep>(dst, s->stage, loop(src, s->loop), s->annotation);
        }
        if (auto *s = dynamic_cast<const AutoUnrollStep *>(&step)) {
            return std::make_shared<AutoUnrollStep>(dst, s->stage, s->max_step);
        }
        if (auto *s = dynamic_cast<const ComputeLocationStep *>(&step)) {
            return std::make_shared<ComputeLocationStep>(dst, location(s->location));
        }
        if (auto *s = dynamic_cast<const StoreAtStep *>(&step)) {
            return std::make_shared<StoreAtStep>(dst, location(s->location));
        }
        // CacheWriteStep is an RfactorStep: test it first.
        if (auto *s = dynamic_cast<const CacheWriteStep *>(&step)) {
            auto out = std::make_shared<CacheWriteStep>(dst);
            created(*s, {});
            return out;
        }
        if (auto *s = dynamic_cast<const RfactorStep *>(&step)) {
            std::vector<std::pair<std::string, std::string>> preserved;
            for (const auto &p : s->preserved) {
                std::string rvar = loop(src, p.first);
                // The new Var is named after its RVar by the sketch rules
                // (r_0 -> r_0_v); any other name is the search's own and kept.
                std::string var = starts_with(p.second, p.first) ? rvar + p.second.substr(p.first.size()) : p.second;
                preserved.emplace_back(rvar, var);
            }
            auto out = std::make_shared<RfactorStep>(dst, s->stage, preserved);
            created(*s, preserved);
            return out;
        }
        throw InvalidState("a '" + step.kind() + "' step cannot be stored in a tuning record");
    }

private:
    std::string func(const std::string &name) const {
        auto out = dir_ == Direction::ToCanonical ? names_.canonical_func(name) : names_.actual_func(name);
        if (!out) throw InvalidState("no Func '" + name + "' in this pipeline");
        return *out;
    }

    std::string loop(const std::string &func, const std::string &name) const {
        auto d = dicts_.find(func);
        std::optional<std::string> out;
        if (d != dicts_.end()) out = d->second.find(name);
        if (!out) throw InvalidState("Func '" + func + "' has no loop '" + name + "'");
        return *out;
    }

    Location location(const Location &l) const {
        Location out = l;
        if (l.kind == LocationKind::At) {
            out.func = func(l.func);
            out.loop = loop(l.func, l.loop);
        }
        return out;
    }

    // The intermediate an rfactor creates loops over its origin's loops and
    // the preserved RVars' new Vars.
    void created(const RfactorStep &s, const std::vector<std::pair<std::string, std::string>> &preserved) {
        const std::string intm = s.created_func();
        LoopDictionary d = dicts_[s.func()];
        for (size_t i = 0; i < preserved.size(); i++) d.add(intm, s.preserved[i].second, preserved[i].second);
        dicts_[intm] = d;
    }

    const CanonicalNames &names_;
    Direction dir_;
    std::map<std::string, LoopDictionary> dicts_;  // by Func name in the source naming
};

}  // namespace

nlohmann::json canonical_steps(const State &state, const CanonicalNames &names) {
    Translator t(names, Direction::ToCanonical);
    nlohmann::json out = nlohmann::json::array();
    for (const StepPtr &s : state.steps()) out.push_back(t.translate(*s)->to_json());
    return out;
}

State state_from_canonical_steps(const PipelineDAG &dag, const CanonicalNames &names, const nlohmann::json &steps) {
    if (!steps.is_array()) throw UserError("steps must be a JSON array, got " + steps.dump());
    Translator t(names, Direction::ToActual);
    State state(dag);
    for (const auto &j : steps) state.add(t.translate(*step_from_json(j)));
    return state;
}

}  // namespace ansor
