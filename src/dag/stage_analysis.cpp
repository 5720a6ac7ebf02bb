// PipelineDAG::analyse_stages: each stage's loops, calls, self-reads and
// arithmetic, read from the Func's definitions.
#include "dag/pipeline_dag.h"

#include "dag/definition_analysis.h"
#include "dag/pipeline_dag_internal.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace ansor {

using namespace Halide;
using namespace Halide::Internal;

namespace {

// Counts arithmetic operations, for a GFLOP/s figure.
class CountArith : public IRGraphVisitor {
    using IRGraphVisitor::visit;
    void count(const Type &t) {
        if (t.is_float()) floats++;
        else ints++;
    }
    void visit(const Add *op) override { count(op->type); IRGraphVisitor::visit(op); }
    void visit(const Sub *op) override { count(op->type); IRGraphVisitor::visit(op); }
    void visit(const Mul *op) override { count(op->type); IRGraphVisitor::visit(op); }
    void visit(const Div *op) override { count(op->type); IRGraphVisitor::visit(op); }
    void visit(const Min *op) override { count(op->type); IRGraphVisitor::visit(op); }
    void visit(const Max *op) override { count(op->type); IRGraphVisitor::visit(op); }

public:
    int64_t floats = 0, ints = 0;
};

// Every call to a Func or input in an expression, with its arguments.
class FindCallSites : public IRGraphVisitor {
    using IRGraphVisitor::visit;
    void visit(const Call *op) override {
        IRGraphVisitor::visit(op);
        if (op->call_type == Call::Halide || op->call_type == Call::Image) {
            CallSite c;
            c.callee = op->name;
            c.callee_is_input = op->call_type == Call::Image;
            c.args = op->args;
            sites.push_back(c);
        }
    }

public:
    std::vector<CallSite> sites;
};

// Every call a definition makes, each occurrence counted (IRVisitor, unlike
// IRGraphVisitor, visits shared subexpressions once per use).
class CountCalls : public IRVisitor {
    using IRVisitor::visit;
    void visit(const Call *op) override {
        IRVisitor::visit(op);
        if (op->call_type == Call::Halide || op->call_type == Call::Image) counts[op->name]++;
    }

public:
    std::map<std::string, int64_t> counts;
};

// The widest type a definition's values compute in. A call's coordinates
// are address arithmetic, not counted, unless they read data themselves (a
// lookup table indexed by a computed value): then each lane computes its
// index in that type.
class WidestValueType : public IRGraphVisitor {
    using IRGraphVisitor::visit;
    void include(const Expr &e) override {
        bytes = std::max(bytes, e.type().bytes());
        IRGraphVisitor::include(e);
    }
    void visit(const Call *op) override {
        if (op->call_type == Call::Halide || op->call_type == Call::Image) {
            for (const Expr &arg : op->args) {
                if (reads_data(arg)) include(arg);
            }
            return;
        }
        IRGraphVisitor::visit(op);
    }

public:
    int bytes = 1;
};

// The arguments of every call a definition makes to its own Func.
class FindSelfCalls : public IRVisitor {
    using IRVisitor::visit;
    void visit(const Call *op) override {
        IRVisitor::visit(op);
        if (op->call_type == Call::Halide && op->name == func) args.push_back(op->args);
    }

public:
    explicit FindSelfCalls(std::string f) : func(std::move(f)) {}
    std::string func;
    std::vector<std::vector<Expr>> args;
};

bool is_plain_var(const Expr &e, const std::string &name) {
    const Variable *v = e.as<Variable>();
    return v && v->name == name;
}

}  // namespace

void PipelineDAG::analyse_stages() {
    for (auto &n : nodes_) {
        std::vector<Definition> defs = {n.func.definition()};
        for (const Definition &u : n.func.updates()) defs.push_back(u);
        if (n.func.outputs() > 1 && n.why_not_modelled.empty()) {
            // Tuples are scheduled at root untouched; their stages are still listed.
            n.modelled = false;
            n.why_not_modelled = "tuple-valued Func";
        }
        for (size_t s = 0; s < defs.size(); s++) {
            const Definition &def = defs[s];
            StageInfo st;
            st.index = (int)s;
            std::map<std::string, int64_t> rvar_extent;
            std::set<std::string> rvar_compile_time;
            for (const ReductionVariable &rv : def.schedule().rvars()) {
                Expr extent = with_estimates(rv.extent);
                const int64_t *e = as_const_int(extent);
                rvar_extent[rv.var] = e ? *e : 0;
                if (!e) st.modelled = false;
                if (as_const_int(simplify(rv.extent))) rvar_compile_time.insert(rv.var);
            }
            const auto &dims = def.schedule().dims();
            for (int d = (int)dims.size() - 1; d >= 0; d--) {
                if (dims[d].var == Var::outermost().name()) continue;
                StageLoop l;
                l.var = dims[d].var;
                if (dims[d].is_rvar()) {
                    l.kind = LoopKind::Reduction;
                    l.extent = rvar_extent.count(l.var) ? rvar_extent[l.var] : 0;
                    l.compile_time_extent = rvar_compile_time.count(l.var) > 0;
                } else {
                    l.kind = LoopKind::Space;
                    int arg = -1;
                    for (size_t a = 0; a < def.args().size(); a++) {
                        if (is_plain_var(def.args()[a], l.var)) arg = (int)a;
                    }
                    if (arg < 0 || n.region.size() <= (size_t)arg) {
                        st.modelled = false;
                    } else {
                        l.extent = n.region[arg].extent;
                    }
                }
                st.loops.push_back(l);
            }
            // An update that writes anywhere but its own pure-var point (a
            // scatter such as a histogram) or has an RDom predicate is left alone.
            if (s > 0) {
                for (size_t a = 0; a < def.args().size(); a++) {
                    if (!is_plain_var(def.args()[a], n.pure_args[a])) st.modelled = false;
                }
                if (!is_const_one(def.predicate()) && def.predicate().defined()) st.modelled = false;
                auto assoc = prove_associativity(n.name, def.args(), def.values());
                st.rvars_reorderable = assoc.associative() && assoc.commutative();
            }
            CountCalls counted;
            for (const Expr &e : definition_exprs(def)) e.accept(&counted);
            WidestValueType widest;
            for (const Expr &v : def.values()) {
                v.accept(&widest);
                widest.bytes = std::max(widest.bytes, v.type().bytes());
            }
            n.widest_value_bytes = std::max(n.widest_value_bytes, widest.bytes);
            for (const auto &kv : counted.counts) {
                if (kv.first == n.name) continue;
                auto callee = index_of(kv.first);
                n.call_counts[callee ? *callee : -1] += kv.second;
            }
            FindSelfCalls self(n.name);
            for (const Expr &e : definition_exprs(def)) e.accept(&self);
            for (size_t a = 0; a < def.args().size() && a < n.pure_args.size(); a++) {
                const std::string &v = n.pure_args[a];
                bool independent = is_plain_var(def.args()[a], v);
                for (const auto &call : self.args) {
                    independent = independent && a < call.size() && is_plain_var(call[a], v);
                }
                if (independent) st.independent_vars.push_back(v);
            }
            FindCallSites calls;
            for (const Expr &e : definition_exprs(def)) e.accept(&calls);
            for (auto &c : calls.sites) {
                if (c.callee == n.name) continue;
                c.is_identity = !c.callee_is_input && c.args.size() == n.pure_args.size();
                for (size_t a = 0; c.is_identity && a < c.args.size(); a++) {
                    c.is_identity = is_plain_var(c.args[a], n.pure_args[a]);
                }
                st.calls.push_back(c);
            }
            CountArith arith;
            for (const Expr &v : def.values()) v.accept(&arith);
            if (st.modelled && n.modelled) {
                double points = (double)st.space_points() * (double)st.reduction_points();
                flops_ += points * (double)arith.floats;
            }
            if (!st.modelled && n.why_not_modelled.empty()) {
                n.why_not_modelled = "stage " + std::to_string(s) + " cannot be modelled";
            }
            n.stages.push_back(std::move(st));
        }
        if (n.func.has_extern_definition()) n.modelled = false;
        for (const auto &st : n.stages) n.modelled = n.modelled && st.modelled;
    }
}

}  // namespace ansor
