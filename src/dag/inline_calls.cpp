#include "dag/inline_calls.h"

#include <map>
#include <string>

namespace ansor {

using namespace Halide;
using namespace Halide::Internal;

namespace {

class CallInliner : public IRMutator {
public:
    explicit CallInliner(const Function &f) : func_(f) {}

private:
    using IRMutator::visit;

    Expr visit(const Call *op) override {
        if (op->call_type != Call::Halide || op->name != func_.name()) return IRMutator::visit(op);
        std::vector<Expr> args;
        for (const Expr &a : op->args) args.push_back(mutate(a));
        const std::vector<std::string> names = func_.args();
        std::map<std::string, Expr> replacements;
        for (size_t i = 0; i < names.size() && i < args.size(); i++) replacements[names[i]] = args[i];
        // The map form substitutes simultaneously, so an argument that names
        // one of f's own variables is not substituted twice.
        return substitute(replacements, func_.values()[op->value_index]);
    }

    Function func_;
};

}  // namespace

Expr inline_calls(const Expr &e, const Function &f) {
    return CallInliner(f).mutate(e);
}

}  // namespace ansor
