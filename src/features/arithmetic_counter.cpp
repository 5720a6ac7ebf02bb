#include "features/detail/arithmetic_counter.h"

#include "features/detail/definition_template.h"
#include "features/detail/ir_helpers.h"

namespace ansor {
namespace features {
namespace detail {

using namespace Halide;
using namespace Halide::Internal;

namespace {

// One visitor for all the expressions of a definition, so that what they
// share is visited once.
class OpCounter : public IRGraphVisitor {
public:
    std::array<double, kArith> n{};
    std::vector<const Call *> calls;

private:
    using IRGraphVisitor::visit;

    void bump(const Type &t, int f, int i) {
        if (t.is_bool()) n[BoolOp]++;
        else n[t.is_float() ? f : i]++;
    }
    template<typename T>
    void add_like(const T *op) {
        const Mul *ma = op->a.template as<Mul>(), *mb = op->b.template as<Mul>();
        const Mul *m = mb ? mb : ma;
        if (m && !op->type.is_bool()) {
            // a*b + c is one multiply-add.
            n[op->type.is_float() ? FMad : IMad]++;
            include(m == mb ? op->a : op->b);
            include(m->a);
            include(m->b);
        } else {
            bump(op->type, FAddSub, IAddSub);
            IRGraphVisitor::visit(op);
        }
    }
    void visit(const Add *op) override { add_like(op); }
    void visit(const Sub *op) override { add_like(op); }
    void visit(const Mul *op) override { bump(op->type, FMul, IMul); IRGraphVisitor::visit(op); }
    void visit(const Div *op) override { bump(op->type, FDivMod, IDivMod); IRGraphVisitor::visit(op); }
    void visit(const Mod *op) override { bump(op->type, FDivMod, IDivMod); IRGraphVisitor::visit(op); }
    void visit(const Min *op) override { bump(op->type, FCmp, ICmp); IRGraphVisitor::visit(op); }
    void visit(const Max *op) override { bump(op->type, FCmp, ICmp); IRGraphVisitor::visit(op); }
    void visit(const EQ *op) override { bump(op->a.type(), FCmp, ICmp); IRGraphVisitor::visit(op); }
    void visit(const NE *op) override { bump(op->a.type(), FCmp, ICmp); IRGraphVisitor::visit(op); }
    void visit(const LT *op) override { bump(op->a.type(), FCmp, ICmp); IRGraphVisitor::visit(op); }
    void visit(const LE *op) override { bump(op->a.type(), FCmp, ICmp); IRGraphVisitor::visit(op); }
    void visit(const GT *op) override { bump(op->a.type(), FCmp, ICmp); IRGraphVisitor::visit(op); }
    void visit(const GE *op) override { bump(op->a.type(), FCmp, ICmp); IRGraphVisitor::visit(op); }
    void visit(const And *op) override { n[BoolOp]++; IRGraphVisitor::visit(op); }
    void visit(const Or *op) override { n[BoolOp]++; IRGraphVisitor::visit(op); }
    void visit(const Not *op) override { n[BoolOp]++; IRGraphVisitor::visit(op); }
    void visit(const Select *op) override { n[SelectOp]++; IRGraphVisitor::visit(op); }
    void visit(const Call *op) override {
        if (op->call_type == Call::Halide || op->call_type == Call::Image) {
            calls.push_back(op);
        } else if (op->is_intrinsic(Call::if_then_else)) {
            n[SelectOp]++;
        } else if (is_transparent_intrinsic(op)) {
            // Hints and reinterpretations cost nothing.
        } else if (op->call_type == Call::PureExtern || op->call_type == Call::Extern ||
                   op->call_type == Call::ExternCPlusPlus) {
            bump(op->type, FMath, IMath);
        } else {
            bump(op->type, FOther, IOther);
        }
        IRGraphVisitor::visit(op);
    }
};

}  // namespace

DefinitionOps count_operations(const std::vector<Expr> &values, const std::vector<Expr> &args, const Expr &predicate) {
    OpCounter oc;
    for (const Expr &v : values) v.accept(&oc);
    for (const Expr &a : args) a.accept(&oc);
    if (predicate.defined() && !is_const_one(predicate)) predicate.accept(&oc);
    DefinitionOps out;
    out.counts = oc.n;
    out.calls = std::move(oc.calls);
    return out;
}

}  // namespace detail
}  // namespace features
}  // namespace ansor
