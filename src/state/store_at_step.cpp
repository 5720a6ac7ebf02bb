// The store_at step: a Func's buffer at an outer loop of its consumer while
// it is computed at an inner one (sliding window, folded storage).
#include "state/steps.h"

namespace ansor {

namespace {

// Halide refuses a buffer shared by the iterations of a parallel loop it is
// computed in (a race), and one shared across the lanes of a vectorized
// loop: every loop inside the store loop, down to the compute loop, must be
// serial.
void check_serial_between(const LoopNest &m, const std::string &func, const Location &store) {
    const std::vector<Location> enclosing = m.enclosing_loops(func);
    bool inside = false;
    for (const Location &l : enclosing) {
        if (inside) {
            const ModelLoop &loop = m.loop(l.func, l.stage, l.loop);
            if (loop.annotation == Annotation::Parallel || loop.annotation == Annotation::Vectorize) {
                throw InvalidState("store_at of '" + func + "' outside " +
                                   (loop.annotation == Annotation::Parallel ? "parallel" : "vectorized") + " loop '" +
                                   l.loop + "' it is computed in");
            }
        }
        if (l == store) inside = true;
        if (l == m.func(func).location) break;
    }
}

}  // namespace

void StoreAtStep::replay(LoopNest &m) const {
    if (store.kind != LocationKind::At) throw InvalidState("store_at of '" + func_ + "' needs a loop");
    check_serial_between(m, func_, store);
    m.store_at(func_, store);  // checks that `store` encloses the compute loop
}

std::vector<Directive> StoreAtStep::lower(const LoopNest &m) const {
    Directive d;
    d.kind = Directive::Kind::StoreAt;
    d.func = func_;
    d.at_func = store.func;
    d.at_stage = store.stage;
    d.at_loop = {store.loop, m.loop(store.func, store.stage, store.loop).kind == LoopKind::Reduction};
    return {d};
}

StepPtr StoreAtStep::renamed(Renamer &r) const { return std::make_shared<StoreAtStep>(r.func(func_), r.location(store)); }

// Which Funcs slide along a consumer's loops (not which loops).
std::string StoreAtStep::structure_key() const { return kind() + " " + func_ + " " + store.func + ";"; }

void StoreAtStep::fields_to_json(nlohmann::json &j) const {
    j["at"] = store.func;
    j["stage"] = store.stage;
    j["loop"] = store.loop;
}

}  // namespace ansor
