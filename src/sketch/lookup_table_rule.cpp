// A lookup table kept as a table: a strictly inlinable Func that a consumer
// reads at data-dependent indices (a tone curve indexed by pixel values, a
// remapping function indexed by quantised levels) and that costs arithmetic
// to compute. Inlined, as always_inline would, it is recomputed at every
// lookup; computed at root it is computed once per entry and read back. The
// rule keeps the table at root beside always_inline's sketch, which still
// inlines it: where the table is barely reused, the search picks that one.
// Where every entry serves many lookups and the table itself reads data (a
// tone curve from a histogram's cumulative sum), inlining it cannot win: each
// lookup still gathers what the table reads, and adds the table's
// arithmetic (histogram_equalize's 64-bit division per pixel). Nor can it
// where the table calls a math function (camera pipe's tone curve, a pow per
// entry; local Laplacian's remap, an exp): inlined, that is tens of vector
// instructions per lookup against one read of a small table (camera pipe's
// best cold-start program ran 6% faster with its curve at root, and every
// peer, expert and tuned schedule keeps both tables at root). There the
// table is the only sketch.
#include "sketch/consumer_tile.h"

#include "dag/definition_analysis.h"

#include <map>

namespace ansor {

namespace {

using namespace Halide::Internal;

// Whether an expression calls the Func `table` at an index that reads data.
// Halide's definitions bind common subexpressions in lets, so an index may
// be a let variable: lets are substituted before the index is looked at.
class FindDataDependentLookup : public IRGraphVisitor {
    using IRGraphVisitor::visit;
    void visit(const Let *op) override {
        op->value.accept(this);
        lets_[op->name] = substitute(lets_, op->value);
        op->body.accept(this);
    }
    void visit(const Call *op) override {
        if (op->call_type == Call::Halide && op->name == table_) {
            for (const Halide::Expr &a : op->args) found = found || reads_data(substitute(lets_, a));
        }
        IRGraphVisitor::visit(op);
    }
    std::string table_;
    std::map<std::string, Halide::Expr> lets_;

public:
    explicit FindDataDependentLookup(std::string table) : table_(std::move(table)) {}
    bool found = false;
};

bool looks_up(const Definition &def, const std::string &table) {
    FindDataDependentLookup finder(table);
    for (const Halide::Expr &v : def.values()) v.accept(&finder);
    for (const Halide::Expr &a : def.args()) a.accept(&finder);
    return finder.found;
}

// Lookups `n` serves: its consumers' stages that read it at a data-dependent
// index, each lookup counted once per point of the stage's loops.
int64_t data_dependent_lookups(const PipelineDAG &dag, const Node &n) {
    int64_t lookups = 0;
    for (int c : n.consumers) {
        const Node &consumer = dag.node(c);
        for (size_t s = 0; s < consumer.stages.size(); s++) {
            const Function &f = consumer.func;
            const Definition &def = s == 0 ? f.definition() : f.updates()[s - 1];
            if (!looks_up(def, n.name)) continue;
            const StageInfo &st = consumer.stages[s];
            lookups += std::max<int64_t>(1, st.space_points()) * std::max<int64_t>(1, st.reduction_points());
        }
    }
    return lookups;
}

// A table pays where it serves several lookups per entry; past many per
// entry, a table that reads data or calls a math function is never inlined.
constexpr int64_t kLookupsPerEntry = 4;
constexpr int64_t kLookupsPerEntryOnlyTable = 64;

class KeepLookupTable : public SketchRule {
public:
    std::string name() const override { return "keep_lookup_table"; }
    RuleResult condition(const SketchContext &ctx, const State &, int i) const override {
        const Node &n = ctx.dag.node(i);
        if (n.is_output || !n.is_strict_inlinable || !does_arithmetic(n)) return RuleResult::Pass;
        const int64_t lookups = data_dependent_lookups(ctx.dag, n);
        const int64_t entries = region_points(n);
        if (lookups == 0 || lookups < kLookupsPerEntry * entries) return RuleResult::Pass;
        const bool cannot_inline = !n.call_counts.empty() || makes_math_call(ctx.dag, n);
        return cannot_inline && lookups >= kLookupsPerEntryOnlyTable * entries ? RuleResult::ApplyAndSkipRest
                                                                                : RuleResult::Apply;
    }
    SketchSuccessors apply(const SketchContext &ctx, const State &s, int i) const override {
        State next = s;
        add_compute_root(next, i);
        return {{next, i - 1}};
    }
};

}  // namespace

SketchRulePtr make_lookup_table_rule() { return std::make_shared<KeepLookupTable>(); }

}  // namespace ansor
