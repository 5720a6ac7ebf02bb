#include "dag/read_widths.h"

#include "dag/definition_analysis.h"

#include <Halide.h>

#include <algorithm>
#include <set>

namespace ansor {

using namespace Halide;
using namespace Halide::Internal;

namespace {

// Per dim of `producer`, the variables its call sites' indices use; and
// whether anything can tie one dim's bounds to another's variables.
class ReadVariables : public IRGraphVisitor {
public:
    ReadVariables(const std::string &producer, size_t dims) : producer_(producer), vars_(dims) {}

    std::vector<std::vector<std::string>> vars() const {
        std::vector<std::vector<std::string>> out;
        for (const auto &s : vars_) out.emplace_back(s.begin(), s.end());
        return out;
    }
    bool conditional() const { return conditional_; }

private:
    using IRGraphVisitor::visit;

    void visit(const Call *op) override {
        if (op->is_intrinsic(Call::if_then_else)) conditional_ = true;
        if (op->name == producer_ && (op->call_type == Call::Halide || op->call_type == Call::Image)) {
            for (size_t d = 0; d < op->args.size() && d < vars_.size(); d++) collect(op->args[d], vars_[d]);
        }
        IRGraphVisitor::visit(op);
    }
    void visit(const Select *op) override {
        conditional_ = true;
        IRGraphVisitor::visit(op);
    }
    void visit(const Let *op) override {
        conditional_ = true;
        IRGraphVisitor::visit(op);
    }

    static void collect(const Expr &e, std::set<std::string> &into) {
        struct Names : public IRGraphVisitor {
            std::set<std::string> &into;
            explicit Names(std::set<std::string> &into) : into(into) {}
            using IRGraphVisitor::visit;
            void visit(const Variable *v) override { into.insert(v->name); }
        } names(into);
        e.accept(&names);
    }

    std::string producer_;
    std::vector<std::set<std::string>> vars_;
    bool conditional_ = false;
};

std::vector<int64_t> extents_of(const std::vector<std::string> &vars, const std::map<std::string, int64_t> &extents) {
    std::vector<int64_t> out;
    out.reserve(vars.size());
    for (const std::string &v : vars) {
        auto it = extents.find(v);
        out.push_back(it == extents.end() ? -1 : it->second);
    }
    return out;
}

// Whether `e` calls a Func or an input.
bool calls_values(const Expr &e) {
    struct Finder : public IRGraphVisitor {
        bool found = false;
        using IRGraphVisitor::visit;
        void visit(const Call *op) override {
            if (op->call_type == Call::Halide || op->call_type == Call::Image) found = true;
            IRGraphVisitor::visit(op);
        }
    } finder;
    e.accept(&finder);
    return finder.found;
}

// Whether some argument of a call in `e` to one of `callees` calls a Func or an input.
bool indexes_by_values(const Expr &e, const std::set<std::string> &callees) {
    struct Finder : public IRGraphVisitor {
        const std::set<std::string> &callees;
        bool found = false;
        explicit Finder(const std::set<std::string> &callees) : callees(callees) {}
        using IRGraphVisitor::visit;
        void visit(const Call *op) override {
            if (callees.count(op->name)) {
                for (const Expr &a : op->args) found = found || calls_values(a);
            }
            IRGraphVisitor::visit(op);
        }
    } finder(callees);
    e.accept(&finder);
    return finder.found;
}

}  // namespace

const ReadWidthMemo::Relevant &ReadWidthMemo::relevant(const PipelineDAG &dag, int producer, int consumer) {
    auto found = relevant_.find({producer, consumer});
    if (found != relevant_.end()) return found->second;
    const size_t n = dag.nodes().size();
    // Funcs the consumer calls, directly or not, and Funcs that call the producer.
    std::vector<bool> below(n, false), above(n, false);
    std::vector<int> work{consumer};
    while (!work.empty()) {
        int i = work.back();
        work.pop_back();
        for (int p : dag.node(i).producers) {
            if (p >= 0 && !below[p]) work.push_back(p), below[p] = true;
        }
    }
    work = {producer};
    while (!work.empty()) {
        int i = work.back();
        work.pop_back();
        for (int c : dag.node(i).consumers) {
            if (c >= 0 && !above[c]) work.push_back(c), above[c] = true;
        }
    }
    Relevant r;
    std::set<std::string> callees{dag.node(producer).name};
    for (size_t i = 0; i < n; i++) {
        if (below[i] && above[i]) {
            r.funcs.push_back((int)i);
            callees.insert(dag.node(i).name);
        }
    }
    std::vector<int> callers = r.funcs;
    callers.push_back(consumer);
    for (int i : callers) {
        const Function &f = dag.node(i).func;
        std::vector<Definition> defs{f.definition()};
        for (const Definition &u : f.updates()) defs.push_back(u);
        for (const Definition &d : defs) {
            for (const Expr &e : d.args()) r.all = r.all || indexes_by_values(e, callees);
            for (const Expr &e : d.values()) r.all = r.all || indexes_by_values(e, callees);
        }
    }
    return relevant_.emplace(std::make_pair(producer, consumer), std::move(r)).first->second;
}

ReadWidthMemo::Reads &ReadWidthMemo::reads(const PipelineDAG &dag, const std::string &producer, size_t producer_dims,
                                           const Node &consumer, int def_stage, const std::vector<bool> &inlined) {
    std::string key = producer + "@" + consumer.name + ":" + std::to_string(def_stage) + "|";
    const std::optional<int> producer_index = dag.index_of(producer), consumer_index = dag.index_of(consumer.name);
    const Relevant *r_funcs =
        producer_index && consumer_index ? &relevant(dag, *producer_index, *consumer_index) : nullptr;
    if (!r_funcs || r_funcs->all) {
        for (bool b : inlined) key += b ? '1' : '0';
    } else {
        for (int i : r_funcs->funcs) key += (size_t)i < inlined.size() && inlined[i] ? '1' : '0';
    }
    auto found = reads_.find(key);
    if (found != reads_.end()) return found->second;

    Reads r;
    const Definition &def = def_stage == 0 ? consumer.func.definition() : consumer.func.updates()[def_stage - 1];
    ReadVariables finder(producer, producer_dims);
    auto add = [&](const Expr &e) {
        // Inlined Funcs disappear into the consumer; look through them.
        r.exprs.push_back(inline_all(dag, e, inlined));
        r.exprs.back().accept(&finder);
    };
    for (const Expr &e : def.args()) add(e);
    for (const Expr &e : def.values()) add(e);
    r.vars = finder.vars();
    r.per_dim = !finder.conditional();
    r.dims.resize(producer_dims);
    return reads_.emplace(key, std::move(r)).first->second;
}

std::vector<ReadWidthMemo::DimWidth> ReadWidthMemo::compute(const Reads &r, size_t producer_dims,
                                                            const std::string &producer,
                                                            const std::map<std::string, int64_t> &extents) const {
    Scope<Interval> scope;
    for (const auto &[var, extent] : extents) scope.push(var, Interval(0, (int)extent - 1));
    std::vector<DimWidth> dims(producer_dims);
    for (const Expr &e : r.exprs) {
        auto boxes = boxes_required(e, scope);
        auto it = boxes.find(producer);
        if (it == boxes.end()) continue;
        for (size_t d = 0; d < producer_dims && d < it->second.size(); d++) {
            // A coordinate computed from data (a sample offset) has no bound
            // here: the read is as wide as the producer's region.
            if (!it->second[d].is_bounded()) {
                dims[d].constant = false;
                continue;
            }
            Expr width = simplify(it->second[d].max - it->second[d].min + 1);
            const int64_t *w = as_const_int(width);
            if (!w) {
                dims[d].constant = false;
                continue;
            }
            dims[d].width = std::max(dims[d].width, *w);
        }
    }
    return dims;
}

ReadWidths ReadWidthMemo::widths(const PipelineDAG &dag, const std::string &producer, size_t producer_dims,
                                 const Node &consumer, int def_stage, const std::vector<bool> &inlined,
                                 const std::map<std::string, int64_t> &extents) {
    if (entries_ > kMaxEntries) {
        reads_.clear();
        entries_ = 0;
    }
    Reads &r = reads(dag, producer, producer_dims, consumer, def_stage, inlined);
    auto combine = [](const std::vector<DimWidth> &dims) {
        ReadWidths out;
        for (const DimWidth &d : dims) {
            out.widths.push_back(d.width);
            out.exact = out.exact && d.constant;
        }
        return out;
    };
    if (!r.per_dim) {
        // The variables are those of the consumer stage, so their extents in name order are the key.
        std::vector<int64_t> key;
        for (const auto &kv : extents) key.push_back(kv.second);
        auto found = r.whole.find(key);
        if (found == r.whole.end()) {
            found = r.whole.emplace(key, compute(r, producer_dims, producer, extents)).first;
            entries_ += 1;
        }
        return combine(found->second);
    }
    std::vector<DimWidth> dims(producer_dims);
    std::vector<std::vector<int64_t>> keys(producer_dims);
    bool all_found = true;
    for (size_t d = 0; d < producer_dims; d++) {
        keys[d] = extents_of(r.vars[d], extents);
        auto found = r.dims[d].find(keys[d]);
        if (found == r.dims[d].end()) {
            all_found = false;
            continue;
        }
        dims[d] = found->second;
    }
    if (!all_found) {
        // One bounds inference gives every dim; each is kept under its own key.
        dims = compute(r, producer_dims, producer, extents);
        for (size_t d = 0; d < producer_dims; d++) r.dims[d].emplace(keys[d], dims[d]);
        entries_ += producer_dims;
    }
    return combine(dims);
}

}  // namespace ansor
