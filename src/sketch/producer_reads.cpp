#include "sketch/producer_reads.h"

#include <cstdlib>
#include <map>

namespace ansor {

namespace {
constexpr int kMaxInlineDepth = 4;
}  // namespace

ReadSpread read_spread(const StageInfo &stage, const std::vector<std::vector<Halide::Expr>> &reads) {
    ReadSpread out;
    for (const StageLoop &l : stage.loops) {
        if (l.kind != LoopKind::Space || l.extent < 2) continue;
        bool used = false;
        for (const auto &args : reads) {
            for (const Halide::Expr &a : args) used = used || Halide::Internal::expr_uses_var(a, l.var);
        }
        (used ? out.varying : out.shared) *= l.extent;
    }
    return out;
}

std::vector<std::vector<Halide::Expr>> reads_of(const PipelineDAG &dag, int consumer, const std::string &producer,
                                                const std::function<bool(int)> &inlined) {
    std::vector<std::vector<Halide::Expr>> out;
    std::function<void(const std::vector<CallSite> &, const std::map<std::string, Halide::Expr> &, int)> walk =
        [&](const std::vector<CallSite> &calls, const std::map<std::string, Halide::Expr> &subst, int depth) {
            for (const CallSite &c : calls) {
                std::vector<Halide::Expr> args;
                for (const Halide::Expr &a : c.args) args.push_back(Halide::Internal::substitute(subst, a));
                if (c.callee == producer) {
                    out.push_back(args);
                    continue;
                }
                if (c.callee_is_input || depth >= kMaxInlineDepth) continue;
                const std::optional<int> j = dag.index_of(c.callee);
                if (!j || !inlined(*j)) continue;
                const Node &callee = dag.node(*j);
                if (callee.stages.size() != 1 || callee.pure_args.size() != args.size()) continue;
                std::map<std::string, Halide::Expr> inner;
                for (size_t k = 0; k < args.size(); k++) inner[callee.pure_args[k]] = args[k];
                walk(callee.stages[0].calls, inner, depth + 1);
            }
        };
    walk(dag.node(consumer).stages.back().calls, {}, 0);
    return out;
}

bool reads_at_coarser_scale(const PipelineDAG &dag, int consumer, const std::string &producer,
                            const std::function<bool(int)> &inlined) {
    const Node &c = dag.node(consumer);
    for (const auto &args : reads_of(dag, consumer, producer, inlined)) {
        for (const Halide::Expr &a : args) {
            for (const std::string &v : c.pure_args) {
                if (!Halide::Internal::expr_uses_var(a, v)) continue;
                Halide::Expr var = Halide::Internal::Variable::make(a.type(), v);
                Halide::Expr step = Halide::Internal::simplify(Halide::Internal::substitute(v, var + 1, a) - a);
                const int64_t *d = Halide::Internal::as_const_int(step);
                if (d && std::llabs(*d) >= 2) return true;
            }
        }
    }
    return false;
}

}  // namespace ansor
