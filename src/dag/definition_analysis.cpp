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

}  // namespace

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
