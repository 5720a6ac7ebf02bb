#include "records/canonical_names.h"

#include "state/loop_nest.h"

#include <functional>
#include <set>

namespace ansor {

using namespace Halide;
using namespace Halide::Internal;

namespace {

// The Funcs a Func calls, in the order the calls first appear. (A graph
// visitor sees shared subexpressions once; first appearances keep their order.)
class CalleesInOrder : public IRGraphVisitor {
    using IRGraphVisitor::visit;
    void visit(const Call *op) override {
        IRGraphVisitor::visit(op);
        if (op->call_type == Call::Halide && seen.insert(op->name).second) order.push_back(op->name);
    }

public:
    std::set<std::string> seen;
    std::vector<std::string> order;
};

std::vector<std::string> callees_in_order(const Function &f) {
    CalleesInOrder v;
    for (const Definition &def : all_definitions(f)) {
        for (const Expr &e : definition_parts(def)) e.accept(&v);
    }
    if (f.has_extern_definition()) {
        for (const ExternFuncArgument &a : f.extern_arguments()) {
            if (a.is_func()) {
                std::string name = Function(a.func).name();
                if (v.seen.insert(name).second) v.order.push_back(name);
            } else if (a.is_expr()) {
                a.expr.accept(&v);
            }
        }
    }
    return v.order;
}

std::map<std::string, std::string> canonical_loops(const Function &f) {
    std::map<std::string, std::string> names;
    int pure = 0, reduction = 0;
    for (const std::string &a : f.args()) names.emplace(a, "v" + std::to_string(pure++));
    for (const Definition &def : all_definitions(f)) {
        for (const ReductionVariable &rv : def.schedule().rvars()) {
            if (!names.count(rv.var)) names.emplace(rv.var, "r" + std::to_string(reduction++));
        }
        // dims() lists innermost first; walk it outermost first like the loop model.
        const auto &dims = def.schedule().dims();
        for (auto it = dims.rbegin(); it != dims.rend(); ++it) {
            if (it->var == Var::outermost().name() || names.count(it->var)) continue;
            names.emplace(it->var, (it->is_rvar() ? "r" + std::to_string(reduction++) : "v" + std::to_string(pure++)));
        }
    }
    return names;
}

}  // namespace

std::vector<Definition> all_definitions(const Function &f) {
    std::vector<Definition> out;
    std::function<void(const Definition &)> add = [&](const Definition &d) {
        out.push_back(d);
        for (const Specialization &s : d.specializations()) add(s.definition);
    };
    if (f.has_pure_definition()) add(f.definition());
    for (const Definition &u : f.updates()) add(u);
    return out;
}

std::vector<Expr> definition_parts(const Definition &def) {
    std::vector<Expr> parts = def.args();
    for (const Expr &v : def.values()) parts.push_back(v);
    if (def.predicate().defined()) parts.push_back(def.predicate());
    for (const ReductionVariable &rv : def.schedule().rvars()) {
        parts.push_back(rv.min);
        parts.push_back(rv.extent);
    }
    return parts;
}

CanonicalNames::CanonicalNames(const PipelineDAG &dag) {
    std::set<std::string> visited;
    // Post-order: every producer is numbered before its consumers.
    std::function<void(const std::string &)> walk = [&](const std::string &name) {
        if (!visited.insert(name).second) return;
        auto it = dag.env().find(name);
        if (it == dag.env().end()) return;
        for (const std::string &callee : callees_in_order(it->second)) walk(callee);
        if (dag.index_of(name)) funcs_.push_back(name);
    };
    for (const Function &o : dag.outputs()) walk(o.name());
    // Every DAG node is reachable from an output; this only guards against a
    // call the walk above does not see (the DAG's order then decides).
    for (const Node &n : dag.nodes()) {
        if (!visited.count(n.name)) {
            visited.insert(n.name);
            funcs_.push_back(n.name);
        }
    }
    for (size_t i = 0; i < funcs_.size(); i++) {
        ids_[funcs_[i]] = (int)i;
        loops_[funcs_[i]] = canonical_loops(dag.env().at(funcs_[i]));
    }
}

std::optional<int> CanonicalNames::func_id(const std::string &name) const {
    auto it = ids_.find(name);
    if (it == ids_.end()) return std::nullopt;
    return it->second;
}

std::optional<std::string> CanonicalNames::canonical_func(const std::string &name) const {
    if (auto id = func_id(name)) return "f" + std::to_string(*id);
    if (auto from = intermediate_origin(name)) {
        auto origin = canonical_func(*from);
        if (origin) return intermediate_name(*origin);
    }
    return std::nullopt;
}

std::optional<std::string> CanonicalNames::actual_func(const std::string &canonical) const {
    if (auto from = intermediate_origin(canonical)) {
        auto origin = actual_func(*from);
        if (origin) return intermediate_name(*origin);
        return std::nullopt;
    }
    if (canonical.size() < 2 || canonical[0] != 'f') return std::nullopt;
    const std::string digits = canonical.substr(1);
    if (digits.find_first_not_of("0123456789") != std::string::npos || (digits.size() > 1 && digits[0] == '0')) {
        return std::nullopt;
    }
    if (digits.size() > 9) return std::nullopt;
    size_t id = std::stoul(digits);
    if (id >= funcs_.size()) return std::nullopt;
    return funcs_[id];
}

const std::map<std::string, std::string> &CanonicalNames::loop_names(const std::string &func) const {
    static const std::map<std::string, std::string> none;
    auto it = loops_.find(func);
    return it == loops_.end() ? none : it->second;
}

}  // namespace ansor
