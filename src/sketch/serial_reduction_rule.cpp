// An operand of a serial reduction computed ahead of it: a strictly
// inlinable Func that does arithmetic and that an update with no pure loop
// reads at its reduction points (a histogram's scatter,
// `hist(luma(r.x, r.y)) += 1`). Such an update runs as one scalar loop on one
// thread: Halide can neither vectorise nor parallelise it. Inlined, as
// always_inline would, the operand is computed inside that loop, a scalar at
// a time; computed at root it is computed vectorised and in parallel, and
// the loop only reads it back, as Adams2019 and the expert schedule do.
// Root is then the only sketch. A Func the sketches keep at root and the
// annotator places (RandomAnnotator::random_location) is not inlined there
// either.
#include "sketch/consumer_tile.h"

#include "dag/definition_analysis.h"

namespace ansor {

namespace {

class OperandOfSerialReduction : public SketchRule {
public:
    std::string name() const override { return "operand_of_serial_reduction"; }
    RuleResult condition(const SketchContext &ctx, const State &, int i) const override {
        const Node &n = ctx.dag.node(i);
        if (n.is_output || !n.modelled || !n.is_strict_inlinable || !does_arithmetic(n)) return RuleResult::Pass;
        return is_serial_reduction_operand(ctx.dag, i) ? RuleResult::ApplyAndSkipRest : RuleResult::Pass;
    }
    SketchSuccessors apply(const SketchContext &, const State &s, int i) const override {
        State next = s;
        add_compute_root(next, i);
        return {{next, i - 1}};
    }
};

}  // namespace

SketchRulePtr make_serial_reduction_rule() { return std::make_shared<OperandOfSerialReduction>(); }

}  // namespace ansor
