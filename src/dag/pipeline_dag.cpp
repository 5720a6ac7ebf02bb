#include "dag/pipeline_dag.h"

#include "dag/definition_analysis.h"
#include "dag/pipeline_dag_internal.h"
#include "dag/read_widths.h"

#include "util/errors.h"

#include <algorithm>
#include <limits>
#include <set>
#include <sstream>
#include <stdexcept>

namespace ansor {

using namespace Halide;
using namespace Halide::Internal;

namespace {

// Replaces scalar Params and buffer-shape variables (A.min.0, A.extent.1) by
// their estimates so that bounds come out as constants.
class SubstituteEstimates : public IRMutator {
    using IRMutator::visit;
    Expr visit(const Variable *op) override {
        if (!op->param.defined()) return op;
        if (!op->param.is_buffer()) {
            Expr e = op->param.estimate();
            return e.defined() ? cast(op->type, e) : Expr(op);
        }
        const std::string &n = op->name;
        // A constant constraint (set_bounds, set_min, set_extent) wins over the estimate.
        auto pinned = [](const Expr &c) { return c.defined() && is_const(c); };
        for (int d = 0; d < op->param.dimensions(); d++) {
            if (n == op->param.name() + ".min." + std::to_string(d)) {
                Expr c = op->param.min_constraint(d);
                Expr e = pinned(c) ? c : op->param.min_constraint_estimate(d);
                if (e.defined()) return cast(op->type, e);
            }
            if (n == op->param.name() + ".extent." + std::to_string(d)) {
                Expr c = op->param.extent_constraint(d);
                Expr e = pinned(c) ? c : op->param.extent_constraint_estimate(d);
                if (e.defined()) return cast(op->type, e);
            }
        }
        return op;
    }
};

}  // namespace

Expr with_estimates(const Expr &e) {
    if (!e.defined()) return e;
    return simplify(SubstituteEstimates().mutate(e));
}

std::vector<Expr> definition_exprs(const Definition &def) {
    std::vector<Expr> exprs = def.args();
    for (const Expr &v : def.values()) exprs.push_back(v);
    if (def.predicate().defined()) exprs.push_back(def.predicate());
    return exprs;
}

namespace {

// Collects every input buffer and scalar Param a definition reads.
class FindParams : public IRGraphVisitor {
    using IRGraphVisitor::visit;
    void visit(const Call *op) override {
        IRGraphVisitor::visit(op);
        if (op->call_type == Call::Image && op->param.defined()) params[op->param.name()] = op->param;
        if (op->call_type == Call::Image && !op->param.defined() && op->image.defined()) images[op->name] = op->image;
    }
    void visit(const Variable *op) override {
        if (op->param.defined()) params[op->param.name()] = op->param;
    }

public:
    std::map<std::string, Parameter> params;
    std::map<std::string, Buffer<>> images;
};

std::string describe_dim(const std::string &what, const std::string &name, int d) {
    std::ostringstream s;
    s << what << " '" << name << "' has no estimate for dimension " << d;
    return s.str();
}

std::optional<int64_t> constant(const Expr &e) {
    if (!e.defined()) return std::nullopt;
    Expr simple = with_estimates(e);
    if (const int64_t *v = as_const_int(simple)) return *v;
    return std::nullopt;
}

std::string range_text(int64_t min, int64_t extent) {
    return "[" + std::to_string(min) + ", " + std::to_string(min + extent) + ")";
}

// One dimension of a buffer: its constraints win over its estimates, and a
// disagreement is a warning naming both. nullopt when neither gives a
// constant min and extent.
std::optional<DimRange> pinned_or_estimated(const std::string &what, int d, std::optional<int64_t> c_min,
                                            std::optional<int64_t> c_extent, std::optional<int64_t> e_min,
                                            std::optional<int64_t> e_extent, std::vector<std::string> &warnings) {
    std::optional<int64_t> min = c_min ? c_min : e_min, extent = c_extent ? c_extent : e_extent;
    if (!min || !extent) return std::nullopt;
    if ((c_min || c_extent) && e_min && e_extent && (*min != *e_min || *extent != *e_extent)) {
        warnings.push_back(what + " dimension " + std::to_string(d) + ": its constraint pins it to " +
                           range_text(*min, *extent) + ", its estimate says " + range_text(*e_min, *e_extent) +
                           "; using the constraint");
    }
    return DimRange{*min, *extent};
}

}  // namespace

bool BufferConstraints::pins_stride() const {
    for (size_t d = 0; d < stride.size(); d++) {
        // A dense innermost dimension (every ImageParam's default) is what
        // any buffer has.
        if (stride[d] && !(d == 0 && *stride[d] == 1)) return true;
    }
    return false;
}

BufferConstraints read_constraints(const Parameter &p) {
    BufferConstraints c;
    if (!p.defined() || !p.is_buffer()) return c;
    for (int d = 0; d < p.dimensions(); d++) {
        c.min.push_back(constant(p.min_constraint(d)));
        c.extent.push_back(constant(p.extent_constraint(d)));
        c.stride.push_back(constant(p.stride_constraint(d)));
    }
    c.host_alignment = p.host_alignment();
    return c;
}

bool EmbeddedBuffer::covers_region() const {
    for (size_t d = 0; d < region.size() && d < (size_t)buffer.dimensions(); d++) {
        if (region[d].min < buffer.dim((int)d).min() ||
            region[d].min + region[d].extent > (int64_t)buffer.dim((int)d).min() + buffer.dim((int)d).extent()) {
            return false;
        }
    }
    return true;
}

PipelineDAG::PipelineDAG(const std::vector<Function> &outputs, int parallelism)
    : outputs_(outputs), parallelism_(std::max(1, parallelism)), read_widths_(std::make_shared<ReadWidthMemo>()) {
    collect_nodes();
    check_estimates();
    compute_regions();
    analyse_stages();
    evaluate_predicates();
}

std::optional<int> PipelineDAG::index_of(const std::string &func_name) const {
    auto it = index_.find(func_name);
    if (it == index_.end()) return std::nullopt;
    return it->second;
}

void PipelineDAG::collect_nodes() {
    env_ = build_environment(outputs_);
    std::vector<std::string> order = topological_order(outputs_, env_);
    for (const std::string &name : order) {
        Node n;
        n.name = name;
        n.func = env_.at(name);
        n.pure_args = n.func.args();
        for (const Function &o : outputs_) n.is_output |= o.name() == name;
        index_[name] = (int)nodes_.size();
        nodes_.push_back(std::move(n));
    }
    for (size_t i = 0; i < nodes_.size(); i++) {
        for (const auto &kv : find_direct_calls(nodes_[i].func)) {
            if (kv.first == nodes_[i].name) continue;
            auto it = index_.find(kv.first);
            if (it == index_.end()) continue;
            nodes_[i].producers.push_back(it->second);
            nodes_[it->second].consumers.push_back((int)i);
        }
    }
}

void PipelineDAG::check_estimates() {
    for (const Function &o : outputs_) {
        Node &n = nodes_[index_.at(o.name())];
        const Parameter out = o.output_buffers().empty() ? Parameter() : o.output_buffers()[0];
        n.output_constraints = read_constraints(out);
        for (size_t d = 0; d < o.args().size(); d++) {
            std::optional<int64_t> e_min, e_extent;
            bool found = false;
            for (const Bound &b : o.schedule().estimates()) {
                if (b.var != o.args()[d] || !b.min.defined() || !b.extent.defined()) continue;
                found = true;
                e_min = constant(b.min);
                e_extent = constant(b.extent);
                if (!e_min || !e_extent) {
                    throw UserError("Output Func '" + o.name() + "' has a non-constant estimate for '" + o.args()[d] + "'");
                }
            }
            if (!found && out.defined()) {
                // Estimates set on the output buffer (Func::output_buffers()).
                e_min = constant(out.min_constraint_estimate((int)d));
                e_extent = constant(out.extent_constraint_estimate((int)d));
            }
            const BufferConstraints &c = n.output_constraints;
            std::optional<DimRange> r = pinned_or_estimated("Output Func '" + o.name() + "'", (int)d, c.min[d],
                                                            c.extent[d], e_min, e_extent, warnings_);
            if (!r) {
                throw UserError(describe_dim("Output Func", o.name(), (int)d) + " ('" + o.args()[d] +
                                "'); call set_estimate / set_estimates on it");
            }
            n.region.push_back(*r);
        }
    }
    std::map<std::string, Parameter> params;
    for (const auto &n : nodes_) {
        FindParams fp;
        n.func.accept(&fp);
        params.insert(fp.params.begin(), fp.params.end());
    }
    for (const auto &kv : params) {
        const Parameter &p = kv.second;
        InputInfo in;
        in.name = p.name();
        in.type = p.type();
        in.param = p;
        if (!p.is_buffer()) {
            // Without an estimate the Param can still be scheduled; it
            // cannot be measured (measure/runnability.h says so).
            in.scalar_estimate = p.estimate();
        } else {
            in.dimensions = p.dimensions();
            in.constraints = read_constraints(p);
            for (int d = 0; d < p.dimensions(); d++) {
                // as_const_int points into the Expr: keep the simplified Exprs alive.
                Expr min_e = simplify(p.min_constraint_estimate(d)), extent_e = simplify(p.extent_constraint_estimate(d));
                const int64_t *mn = as_const_int(min_e);
                const int64_t *ex = as_const_int(extent_e);
                std::optional<int64_t> e_min, e_extent;
                if (mn) e_min = *mn;
                if (ex) e_extent = *ex;
                std::optional<DimRange> r = pinned_or_estimated("Input buffer '" + p.name() + "'", d,
                                                                in.constraints.min[d], in.constraints.extent[d], e_min,
                                                                e_extent, warnings_);
                if (!r) {
                    throw UserError(describe_dim("Input buffer", p.name(), d) +
                                    "; call set_estimates on it");
                }
                in.region.push_back(*r);
            }
        }
        inputs_.push_back(in);
    }
    std::map<std::string, Buffer<>> images;
    for (const auto &n : nodes_) {
        FindParams fp;
        n.func.accept(&fp);
        images.insert(fp.images.begin(), fp.images.end());
    }
    for (const auto &kv : images) {
        EmbeddedBuffer e;
        e.name = kv.first;
        e.buffer = kv.second;
        for (int d = 0; d < kv.second.dimensions(); d++) {
            e.region.push_back({kv.second.dim(d).min(), kv.second.dim(d).extent()});
        }
        embedded_.push_back(e);
    }
}

void PipelineDAG::compute_regions() {
    // Output regions come from their estimates.
    const int64_t unset = std::numeric_limits<int64_t>::min();
    std::vector<std::vector<Interval>> required(nodes_.size());
    std::vector<bool> known(nodes_.size(), true);
    // (check_estimates set them, constraints winning over estimates.)
    (void)unset;
    std::vector<std::string> order;
    for (const auto &n : nodes_) order.push_back(n.name);
    // A Func's values bound the coordinates it supplies to others (a sample
    // offset clamped to a radius computed from Params): the bounds are taken
    // at the Params' estimates, as every region here is, or no region read at
    // such an offset would come out constant.
    FuncValueBounds value_bounds = compute_function_value_bounds(order, env_);
    for (auto &kv : value_bounds) {
        for (Expr *bound : {&kv.second.min, &kv.second.max}) {
            *bound = with_estimates(*bound);
        }
    }

    auto merge = [](std::vector<Interval> &into, const Box &box) {
        if (into.empty()) {
            for (size_t d = 0; d < box.size(); d++) into.push_back(box[d]);
            return;
        }
        for (size_t d = 0; d < box.size() && d < into.size(); d++) {
            into[d] = Interval::make_union(into[d], box[d]);
        }
    };

    // Consumers first: each node's region is known before its producers need it.
    for (int i = (int)nodes_.size() - 1; i >= 0; i--) {
        Node &n = nodes_[i];
        if (!n.is_output) {
            if (!known[i] || required[i].empty()) {
                n.modelled = false;
                if (n.why_not_modelled.empty()) n.why_not_modelled = "bounds not computable";
                known[i] = false;
            } else {
                for (auto &iv : required[i]) {
                    // as_const_int points into the Expr: keep the simplified Exprs alive.
                    Expr min = simplify(iv.min), max = simplify(iv.max);
                    const int64_t *mn = as_const_int(min);
                    const int64_t *mx = as_const_int(max);
                    if (!mn || !mx) {
                        n.modelled = false;
                        n.why_not_modelled = "data-dependent or unbounded region";
                        known[i] = false;
                        break;
                    }
                    n.region.push_back({*mn, *mx - *mn + 1});
                }
                if (!known[i]) n.region.clear();
            }
        }
        auto callees_unknown = [&]() {
            for (int p : n.producers) {
                known[p] = false;
                if (nodes_[p].why_not_modelled.empty()) {
                    nodes_[p].why_not_modelled = "a consumer's bounds are unknown";
                }
            }
        };
        if (!known[i] || n.func.has_extern_definition()) {
            if (n.func.has_extern_definition()) {
                n.modelled = false;
                n.why_not_modelled = "extern stage";
            }
            callees_unknown();
            continue;
        }
        // Stage by stage: the scope is the node's region for pure vars and
        // the RDom's bounds for reduction vars.
        std::vector<Definition> defs = {n.func.definition()};
        for (const Definition &u : n.func.updates()) defs.push_back(u);
        for (const Definition &def : defs) {
            Scope<Interval> scope;
            for (size_t d = 0; d < n.pure_args.size(); d++) {
                scope.push(n.pure_args[d], Interval(Expr((int)n.region[d].min),
                                                    Expr((int)(n.region[d].min + n.region[d].extent - 1))));
            }
            bool rvars_known = true;
            for (const ReductionVariable &rv : def.schedule().rvars()) {
                Expr mn = with_estimates(rv.min), ex = with_estimates(rv.extent);
                if (!as_const_int(mn) || !as_const_int(ex)) rvars_known = false;
                scope.push(rv.var, Interval(mn, simplify(mn + ex - 1)));
            }
            if (!rvars_known) {
                n.modelled = false;
                n.why_not_modelled = "reduction domain with non-constant bounds";
            }
            for (const Expr &e : definition_exprs(def)) {
                auto boxes = boxes_required(with_estimates(e), scope, value_bounds);
                for (const auto &kv : boxes) {
                    auto it = index_.find(kv.first);
                    if (it != index_.end()) {
                        if (it->second != i) merge(required[it->second], kv.second);
                        continue;
                    }
                    // Widen inputs to what is read, so random inputs are big
                    // enough; a dimension a constraint pins stays as pinned.
                    auto widen = [&](std::vector<DimRange> &region, const BufferConstraints *pins) {
                        for (size_t d = 0; d < region.size() && d < kv.second.size(); d++) {
                            if (pins && d < pins->min.size() && (pins->min[d] || pins->extent[d])) continue;
                            Expr min_e = simplify(kv.second[d].min), max_e = simplify(kv.second[d].max);
                            const int64_t *mn = as_const_int(min_e);
                            const int64_t *mx = as_const_int(max_e);
                            if (!mn || !mx) continue;
                            int64_t lo = std::min(region[d].min, *mn);
                            int64_t hi = std::max(region[d].min + region[d].extent - 1, *mx);
                            region[d] = {lo, hi - lo + 1};
                        }
                    };
                    for (auto &in : inputs_) {
                        if (in.name == kv.first && in.dimensions > 0) widen(in.region, &in.constraints);
                    }
                    for (auto &e : embedded_) {
                        if (e.name == kv.first) widen(e.region, nullptr);
                    }
                }
            }
        }
    }
}

void PipelineDAG::evaluate_predicates() {
    for (auto &n : nodes_) {
        if (!n.modelled) continue;
        // Strictly inlinable: one pure elementwise definition.
        n.is_strict_inlinable = !n.is_output && n.stages.size() == 1;
        for (const auto &c : n.stages[0].calls) {
            if (!c.callee_is_input && !c.is_identity) n.is_strict_inlinable = false;
        }
        for (const auto &st : n.stages) {
            if (!st.has_reduction()) continue;
            // Data reuse: some read misses a space loop, so the same value is
            // read again at every iteration of that loop. Loops of extent 1
            // (a batch of one) repeat nothing and count on neither side.
            for (const auto &c : st.calls) {
                std::set<std::string> used;
                for (const Expr &a : c.args) {
                    for (const auto &l : st.loops) {
                        if (l.kind == LoopKind::Space && l.extent > 1 && expr_uses_var(a, l.var)) used.insert(l.var);
                    }
                }
                int space_loops = 0;
                for (const auto &l : st.loops) space_loops += l.kind == LoopKind::Space && l.extent > 1;
                if ((int)used.size() < space_loops) n.has_data_reuse = true;
            }
            int64_t sp = st.space_points(), rp = st.reduction_points();
            if (sp < rp && sp <= 4 * (int64_t)parallelism_) n.has_more_reduction_parallel = true;
        }
    }
}

}  // namespace ansor
