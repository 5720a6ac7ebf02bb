#include "measure/lowered_input_reads.h"

#include <map>
#include <vector>

namespace ansor {

using namespace Halide;
using namespace Halide::Internal;

namespace {

std::string interval(int64_t min, int64_t extent) {
    return "[" + std::to_string(min) + ", " + std::to_string(min + extent - 1) + "]";
}

std::string dim_var(const std::string &buffer, const char *field, size_t d) {
    return buffer + "." + field + "." + std::to_string(d);
}

// The values the lowered code's free variables take for the pipeline's
// estimates: the output buffers' regions, the inputs' regions and the
// scalar parameters' estimates.
std::map<std::string, Expr> estimated_free_variables(const PipelineDAG &dag) {
    std::map<std::string, Expr> at;
    for (const Node &n : dag.nodes()) {
        if (!n.is_output) continue;
        for (const Parameter &buffer : n.func.output_buffers()) {
            for (size_t d = 0; d < n.region.size(); d++) {
                at[dim_var(buffer.name(), "min", d)] = Expr((int32_t)n.region[d].min);
                at[dim_var(buffer.name(), "extent", d)] = Expr((int32_t)n.region[d].extent);
            }
        }
    }
    for (const InputInfo &in : dag.inputs()) {
        if (in.dimensions == 0) {
            if (in.scalar_estimate.defined()) at[in.name] = in.scalar_estimate;
            continue;
        }
        for (size_t d = 0; d < in.region.size(); d++) {
            at[dim_var(in.name, "min", d)] = Expr((int32_t)in.region[d].min);
            at[dim_var(in.name, "extent", d)] = Expr((int32_t)in.region[d].extent);
        }
    }
    return at;
}

// Follows the lets the function binds before its loops, keeping those that
// are numbers for the estimates, and reads each input's bounds check: an
// assertion that fails with halide_error_access_out_of_bounds("Input buffer
// NAME", dim, required min, required max, ...).
class RequiredRegions : public IRVisitor {
public:
    explicit RequiredRegions(std::map<std::string, Expr> known) : known_(std::move(known)) {}
    // input name -> dim -> the widest [min, max] any check requires
    std::map<std::string, std::map<int, std::pair<int64_t, int64_t>>> required;

private:
    using IRVisitor::visit;
    Expr evaluate(const Expr &e) const { return simplify(remove_promises(remove_likelies(substitute(known_, e)))); }
    void visit(const LetStmt *op) override {
        const Expr value = evaluate(op->value);
        if (as_const_int(value)) known_[op->name] = value;
        op->body.accept(this);
    }
    void visit(const AssertStmt *op) override {
        const Call *error = op->message.as<Call>();
        const std::string prefix = "Input buffer ";
        if (!error || error->name != "halide_error_access_out_of_bounds" || error->args.size() < 4) return;
        const StringImm *buffer = error->args[0].as<StringImm>();
        const int64_t *dim = as_const_int(error->args[1]);
        if (!buffer || !dim || buffer->value.rfind(prefix, 0) != 0) return;
        const Expr min_value = evaluate(error->args[2]), max_value = evaluate(error->args[3]);
        const int64_t *min = as_const_int(min_value), *max = as_const_int(max_value);
        if (!min || !max) return;
        auto [it, fresh] = required[buffer->value.substr(prefix.size())].try_emplace((int)*dim, *min, *max);
        if (!fresh) it->second = {std::min(it->second.first, *min), std::max(it->second.second, *max)};
    }
    // The checks come before any production; nothing inside a loop or a
    // producer is needed.
    void visit(const For *) override {}
    void visit(const ProducerConsumer *) override {}

    std::map<std::string, Expr> known_;
};

}  // namespace

std::string InputOverRead::describe() const {
    return "reads input " + input + " over " + interval(min, extent) + " in dimension " + std::to_string(dim) +
           ", beyond the " + interval(allowed_min, allowed_extent) +
           " the pipeline needs: it would fail on inputs of the pipeline's sizes";
}

std::optional<InputOverRead> read_beyond(const InputInfo &in, int dim, int64_t min, int64_t extent,
                                         int64_t allowed_min, int64_t allowed_extent) {
    const bool pinned = dim < (int)in.constraints.min.size() && (in.constraints.min[dim] || in.constraints.extent[dim]);
    if (pinned || extent <= 0) return std::nullopt;
    if (min >= allowed_min && min + extent <= allowed_min + allowed_extent) return std::nullopt;
    return InputOverRead{in.name, dim, min, extent, allowed_min, allowed_extent};
}

std::optional<InputOverRead> find_input_over_read(const Module &module, const std::string &function,
                                                  const PipelineDAG &dag) {
    RequiredRegions checks(estimated_free_variables(dag));
    for (const LoweredFunc &f : module.functions()) {
        if (f.name == function) f.body.accept(&checks);
    }
    for (const InputInfo &in : dag.inputs()) {
        const auto reads = checks.required.find(in.name);
        if (reads == checks.required.end()) continue;
        for (const auto &[d, range] : reads->second) {
            if (d < 0 || d >= (int)in.region.size()) continue;
            const DimRange &allowed = in.region[d];
            if (auto over = read_beyond(in, d, range.first, range.second - range.first + 1, allowed.min, allowed.extent)) {
                return over;
            }
        }
    }
    return std::nullopt;
}

}  // namespace ansor
