#include "state/state.h"

#include "dag/definition_analysis.h"
#include "state/replay_memo.h"

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
    if (ReplayMemo::active()) return *replayed();
    LoopNest m(*dag_);
    for (const auto &s : steps_in_replay_order()) s->replay(m);
    return m;
}

std::shared_ptr<const LoopNest> State::replayed() const {
    if (ReplayMemo *memo = ReplayMemo::active()) return memo->replay(*dag_, steps_in_replay_order());
    LoopNest m(*dag_);
    for (const auto &s : steps_in_replay_order()) s->replay(m);
    return std::make_shared<const LoopNest>(std::move(m));
}

namespace {

// Halide 14 miscompiles a stride-2..4 vector load from a Func's buffer at an
// index that is a literal: it keeps the literal's alignment through the
// dense load it makes of the strided one with a modulus of 0, so the load
// claims 64-byte alignment at an odd address and faults (vmovdqa). Such
// literals appear where a vectorised split's ShiftInwards tail is peeled
// under a constant extent and a producer is stored per iteration of an
// outer loop of the same stage and read with a stride along the vector (a
// downsample at a row of its consumer: fuzz seed 383, Adams2019's program
// alike). GuardWithIf's tail is predicated, which Halide scalarises, so the
// broken path is never taken. Only strided reads get it: GuardWithIf there
// exposes another Halide 14 bug (a segfault in the simplifier, fuzz seed
// 499: a consumer with fused outer loops and a guarded vector tail holding
// a producer, reading a Func whose row split is shifted inwards).

class CallsTo : public Halide::Internal::IRGraphVisitor {
    using IRGraphVisitor::visit;
    void visit(const Halide::Internal::Call *op) override {
        if (op->call_type == Halide::Internal::Call::Halide && op->name == name) calls.push_back(op);
        IRGraphVisitor::visit(op);
    }

public:
    explicit CallsTo(std::string n) : name(std::move(n)) {}
    std::string name;
    std::vector<const Halide::Internal::Call *> calls;
};

// Whether stage `stage` of `consumer` (inlined Funcs substituted, as `m`
// places them) reads `producer` with a stride other than 0 or 1 along `var`.
bool reads_strided(const LoopNest &m, const ModelFunc &consumer, int stage, const ModelFunc &producer,
                   const std::string &var) {
    const PipelineDAG &dag = m.dag();
    const Halide::Internal::Function &f = dag.node(consumer.dag_index).func;
    std::vector<Halide::Expr> exprs;
    if (stage == 0) {
        exprs = f.values();
    } else {
        const Halide::Internal::Definition &d = f.updates()[stage - 1];
        exprs = d.values();
        exprs.insert(exprs.end(), d.args().begin(), d.args().end());
    }
    std::vector<bool> inlined(dag.nodes().size(), false);
    for (const ModelFunc &g : m.funcs()) {
        if (g.dag_index >= 0 && g.location.kind == LocationKind::Inline) inlined[g.dag_index] = true;
    }
    const std::string &name = dag.node(producer.dag_index).func.name();
    const Halide::Expr v = Halide::Internal::Variable::make(Halide::Int(32), var);
    bool strided = false;
    for (const Halide::Expr &e : exprs) {
        const Halide::Expr whole = inline_all(dag, e, inlined);
        CallsTo finder(name);
        whole.accept(&finder);
        for (const Halide::Internal::Call *call : finder.calls) {
            for (const Halide::Expr &arg : call->args) {
                Halide::Expr step = Halide::Internal::simplify(Halide::Internal::substitute(var, v + 1, arg) - arg);
                const int64_t *c = Halide::Internal::as_const_int(step);
                strided = strided || !c || (*c != 0 && *c != 1);
            }
        }
    }
    return strided;
}

// A second case: Halide 14 also emitted aligned vector loads at misaligned
// addresses (a segfault at run time) for a vector split of a tile piece with
// a tail of its own, shifted inwards inside the tile shifted inwards, in a
// stage with unrolled loops (camera_pipe's demosaic tiled 325 wide, split
// into vectors of 16, its rows unrolled); guarded, it ran correctly.
void guard_vector_tail(const SplitStep &split, bool splits_piece_with_own_tail, const LoopNest &final_model,
                       std::vector<Directive> &directives) {
    const ModelStage &st = final_model.stage(split.func(), split.stage);
    const int inner = st.find(split.piece_names().back());
    if (inner < 0 || st.loops[inner].annotation != Annotation::Vectorize) return;
    const ModelFunc &consumer = final_model.func(split.func());
    bool guard = false;
    if (splits_piece_with_own_tail) {
        guard = st.auto_unroll_max_step > 0;
        for (const ModelLoop &l : st.loops) guard = guard || l.annotation == Annotation::Unroll;
    }
    for (const ModelFunc &f : final_model.funcs()) {
        auto in_stage = [&](const Location &at) {
            return at.kind == LocationKind::At && at.func == split.func() && at.stage == split.stage;
        };
        if (!in_stage(f.location) && !(f.store_location && in_stage(*f.store_location))) continue;
        // Intermediates (no definition of their own in the DAG) keep the guard.
        guard = guard || consumer.dag_index < 0 || f.dag_index < 0 ||
                reads_strided(final_model, consumer, split.stage, f, st.loops[inner].origins.at(0).first);
    }
    if (!guard) return;
    for (Directive &d : directives) {
        if (d.kind == Directive::Kind::Split && d.tail == Halide::TailStrategy::ShiftInwards) {
            d.tail = Halide::TailStrategy::GuardWithIf;
        }
    }
}

}  // namespace

std::vector<Directive> State::lower() const {
    struct Lowered {
        StepPtr step;
        std::vector<Directive> directives;
        bool splits_piece_with_own_tail = false;
    };
    LoopNest m(*dag_);
    std::vector<Lowered> lowered;
    for (const auto &s : steps_in_replay_order()) {
        Lowered l{s, s->lower(m)};
        if (const auto *split = s->as<SplitStep>()) {
            const ModelLoop &loop = m.loop(split->func(), split->stage, split->loop);
            l.splits_piece_with_own_tail = loop.is_piece() && loop.extent % product_of_factors(split->factors) != 0;
        }
        lowered.push_back(std::move(l));
        s->replay(m);
    }
    // `m` is now the whole program, which the tails of splits depend on.
    std::vector<Directive> out;
    for (Lowered &l : lowered) {
        if (const auto *split = l.step->as<SplitStep>())
            guard_vector_tail(*split, l.splits_piece_with_own_tail, m, l.directives);
        for (auto &d : l.directives) out.push_back(std::move(d));
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
