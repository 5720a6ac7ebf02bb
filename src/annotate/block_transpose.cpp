#include "annotate/block_transpose.h"

#include "dag/definition_analysis.h"

#include <Halide.h>

#include <algorithm>

namespace ansor {

namespace {

using namespace Halide::Internal;

// Every call's argument list in an expression (Funcs and inputs alike).
class CollectCalls : public IRVisitor {
public:
    std::vector<std::vector<Halide::Expr>> args;

private:
    using IRVisitor::visit;
    void visit(const Call *op) override {
        if (op->call_type == Call::Halide || op->call_type == Call::Image) args.push_back(op->args);
        IRVisitor::visit(op);
    }
};

// The only original dim a loop covers, or "" for a fused loop.
std::string single_origin(const ModelLoop &l) { return l.origins.size() == 1 ? l.origins[0].first : ""; }

}  // namespace

std::optional<TransposeBlock> transposing_read(const PipelineDAG &dag, const LoopNest &m, const std::string &func,
                                               int lanes) {
    if (lanes < 2) return std::nullopt;
    const ModelFunc &f = m.func(func);
    if (f.dag_index < 0 || f.stages.empty()) return std::nullopt;
    const Node &n = dag.node(f.dag_index);
    if (!n.modelled || n.func.has_extern_definition()) return std::nullopt;
    const ModelStage &st = f.stages[0];
    if (st.loops.empty() || st.loops.back().annotation != Annotation::Vectorize) return std::nullopt;
    const std::string along = single_origin(st.loops.back());
    if (along.empty()) return std::nullopt;

    CollectCalls calls;
    const std::vector<bool> inl = dag.inlined_into(f.dag_index, m.inlined_nodes());
    for (const Halide::Expr &e : n.func.definition().values()) inline_all(dag, e, inl).accept(&calls);

    // The pure variables that index a transposed read's innermost dim: the
    // vector loop's variable moves a later dim and not the innermost one.
    std::vector<std::string> across;
    for (const auto &args : calls.args) {
        if (args.size() < 2 || expr_uses_var(args[0], along)) continue;
        bool later = false;
        for (size_t d = 1; d < args.size(); d++) later = later || expr_uses_var(args[d], along);
        if (!later) continue;
        for (const std::string &v : n.pure_args) {
            if (v != along && expr_uses_var(args[0], v)) across.push_back(v);
        }
    }
    if (across.empty()) return std::nullopt;

    // The innermost loop over such a variable, nothing attached from it inward.
    for (int k = (int)st.loops.size() - 2; k >= 0; k--) {
        const ModelLoop &l = st.loops[k];
        if (m.has_attached(func, 0, l.name) || l.annotation != Annotation::None) return std::nullopt;
        const std::string origin = single_origin(l);
        if (l.kind != LoopKind::Space || std::find(across.begin(), across.end(), origin) == across.end()) continue;
        if (l.extent < lanes || l.extent % lanes != 0) return std::nullopt;
        return TransposeBlock{l.name, lanes};
    }
    return std::nullopt;
}

std::vector<StepPtr> transpose_block_steps(const LoopNest &m, const std::string &func, const TransposeBlock &block) {
    auto split = std::make_shared<SplitStep>(func, 0, block.across, std::vector<int64_t>{block.lanes});
    const std::vector<std::string> pieces = split->piece_names();
    std::vector<std::string> order;
    for (const ModelLoop &l : m.stage(func, 0).loops) order.push_back(l.name == block.across ? pieces[0] : l.name);
    order.insert(order.end() - 1, pieces[1]);
    return {split, std::make_shared<ReorderStep>(func, 0, order),
            std::make_shared<AnnotateStep>(func, 0, pieces[1], Annotation::Unroll)};
}

}  // namespace ansor
