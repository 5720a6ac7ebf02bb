#include "dag/definition_analysis.h"

#include "dag/inline_calls.h"

#include <algorithm>

namespace ansor {

using namespace Halide::Internal;

Halide::Expr inline_all(const PipelineDAG &dag, Halide::Expr e, const std::vector<bool> &inlined) {
    if (!e.defined()) return e;
    for (size_t pass = 0; pass <= inlined.size(); pass++) {
        bool changed = false;
        for (size_t k = 0; k < inlined.size(); k++) {
            if (!inlined[k]) continue;
            Halide::Expr before = e;
            e = inline_calls(e, dag.node((int)k).func);
            changed |= !before.same_as(e);
        }
        if (!changed) break;
    }
    return e;
}

namespace {

class FindDataRead : public IRGraphVisitor {
    using IRGraphVisitor::visit;
    void visit(const Call *op) override {
        found = found || op->call_type == Call::Halide || op->call_type == Call::Image;
        IRGraphVisitor::visit(op);
    }

public:
    bool found = false;
};

class CountArithmetic : public IRVisitor {
    using IRVisitor::visit;
    template<typename T>
    void count(const T *op, int64_t weight = 1) {
        cost += weight;
        IRVisitor::visit(op);
    }
    void visit(const Add *op) override { count(op); }
    void visit(const Sub *op) override { count(op); }
    void visit(const Mul *op) override { count(op); }
    void visit(const Div *op) override { count(op, kCostlyOperationWeight); }
    void visit(const Mod *op) override { count(op, kCostlyOperationWeight); }
    void visit(const Min *op) override { count(op); }
    void visit(const Max *op) override { count(op); }
    void visit(const EQ *op) override { count(op); }
    void visit(const NE *op) override { count(op); }
    void visit(const LT *op) override { count(op); }
    void visit(const LE *op) override { count(op); }
    void visit(const GT *op) override { count(op); }
    void visit(const GE *op) override { count(op); }
    void visit(const Select *op) override { count(op); }
    void visit(const Call *op) override {
        const bool math = op->call_type == Call::PureExtern || op->call_type == Call::Extern ||
                          op->call_type == Call::ExternCPlusPlus;
        if (math) cost += kCostlyOperationWeight;
        IRVisitor::visit(op);
    }

public:
    int64_t cost = 0;
};

}  // namespace

int64_t arithmetic_cost(const Halide::Expr &e) {
    CountArithmetic counter;
    if (e.defined()) e.accept(&counter);
    return counter.cost;
}

bool reads_data(const Halide::Expr &e) {
    FindDataRead finder;
    e.accept(&finder);
    return finder.found;
}

bool does_arithmetic(const Node &n) {
    for (const Halide::Expr &v : n.func.definition().values()) {
        // A bare read of a Func or an input copies it; a math call (exp, pow)
        // computes.
        const Call *call = v.as<Call>();
        const bool copy = call && (call->call_type == Call::Halide || call->call_type == Call::Image);
        if (!copy && !v.as<Variable>() && !is_const(v)) return true;
    }
    return false;
}

namespace {

bool definition_calls(const Definition &def, const std::string &callee) {
    class Find : public IRVisitor {
        using IRVisitor::visit;
        void visit(const Call *op) override {
            found = found || (op->call_type == Call::Halide && op->name == callee_);
            IRVisitor::visit(op);
        }
        const std::string &callee_;

    public:
        explicit Find(const std::string &callee) : callee_(callee) {}
        bool found = false;
    } finder(callee);
    for (const Halide::Expr &v : def.values()) v.accept(&finder);
    for (const Halide::Expr &a : def.args()) a.accept(&finder);
    return finder.found;
}

bool is_serial_reduction(const StageInfo &st) {
    if (!st.has_reduction()) return false;
    for (const StageLoop &l : st.loops) {
        if (l.kind == LoopKind::Space) return false;
    }
    return true;
}

}  // namespace

int64_t value_cost(const PipelineDAG &dag, const Node &n) {
    std::vector<bool> will_inline(dag.nodes().size());
    for (size_t j = 0; j < will_inline.size(); j++) will_inline[j] = dag.node((int)j).is_strict_inlinable;
    int64_t cost = 0;
    for (const Halide::Expr &v : n.func.definition().values()) cost += arithmetic_cost(inline_all(dag, v, will_inline));
    return cost;
}

bool makes_math_call(const PipelineDAG &dag, const Node &n) {
    class FindMathCall : public IRGraphVisitor {
        using IRGraphVisitor::visit;
        void visit(const Call *op) override {
            found = found || op->call_type == Call::PureExtern || op->call_type == Call::Extern ||
                    op->call_type == Call::ExternCPlusPlus;
            IRGraphVisitor::visit(op);
        }

    public:
        bool found = false;
    } finder;
    std::vector<bool> will_inline(dag.nodes().size());
    for (size_t j = 0; j < will_inline.size(); j++) will_inline[j] = dag.node((int)j).is_strict_inlinable;
    for (const Halide::Expr &v : n.func.definition().values()) inline_all(dag, v, will_inline).accept(&finder);
    return finder.found;
}

int64_t region_points(const Node &n) {
    int64_t points = 1;
    for (const DimRange &r : n.region) points *= std::max<int64_t>(1, r.extent);
    return points;
}

bool is_serial_reduction_operand(const PipelineDAG &dag, int i) {
    const Node &n = dag.node(i);
    const int64_t points = region_points(n);
    for (int c : n.consumers) {
        const Node &consumer = dag.node(c);
        if (consumer.func.has_extern_definition()) continue;
        for (size_t s = 1; s < consumer.stages.size() && s <= consumer.func.updates().size(); s++) {
            const StageInfo &st = consumer.stages[s];
            if (is_serial_reduction(st) && st.reduction_points() >= points &&
                definition_calls(consumer.func.updates()[s - 1], n.name)) {
                return true;
            }
        }
    }
    return false;
}

std::vector<bool> independent_dims(const Node &n) {
    std::vector<bool> out(n.pure_args.size(), true);
    for (const StageInfo &st : n.stages) {
        const auto &v = st.independent_vars;
        for (size_t d = 0; d < out.size(); d++) {
            out[d] = out[d] && std::find(v.begin(), v.end(), n.pure_args[d]) != v.end();
        }
    }
    return out;
}

}  // namespace ansor
