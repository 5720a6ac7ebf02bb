#include "measure/output_check.h"

#include "measure/measurement_buffers.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

namespace ansor {

using namespace Halide;
using namespace Halide::Internal;

namespace {

// Whether any expression of a Func's definitions computes in floating point.
class FindFloatArithmetic : public IRGraphVisitor {
    using IRGraphVisitor::visit;
    void note(const Type &t) { found = found || t.is_float(); }
    void visit(const Add *op) override { note(op->type); IRGraphVisitor::visit(op); }
    void visit(const Sub *op) override { note(op->type); IRGraphVisitor::visit(op); }
    void visit(const Mul *op) override { note(op->type); IRGraphVisitor::visit(op); }
    void visit(const Div *op) override { note(op->type); IRGraphVisitor::visit(op); }
    void visit(const Mod *op) override { note(op->type); IRGraphVisitor::visit(op); }
    void visit(const Cast *op) override {
        note(op->type);
        note(op->value.type());
        quantizes = quantizes || (op->value.type().is_float() && !op->type.is_float());
        IRGraphVisitor::visit(op);
    }
    void visit(const Call *op) override {
        // Math intrinsics (sqrt_f32, exp_f32, ...) and float inputs.
        if (op->call_type != Call::Halide) note(op->type);
        rounds_by_mode = rounds_by_mode || op->name.rfind("round_f", 0) == 0;
        IRGraphVisitor::visit(op);
    }

public:
    bool found = false;
    bool quantizes = false;  // converts a float to an integer
    bool rounds_by_mode = false;  // calls round()
};

template<typename T>
T at(const void *p, size_t i) {
    T v;
    std::memcpy(&v, static_cast<const char *>(p) + i * sizeof(T), sizeof(T));
    return v;
}

double float_at(const Type &t, const void *p, size_t i) {
    if (t.is_bfloat()) return (double)bfloat16_t::make_from_bits(at<uint16_t>(p, i));
    if (t.bits() == 16) return (double)float16_t::make_from_bits(at<uint16_t>(p, i));
    if (t.bits() == 32) return at<float>(p, i);
    return at<double>(p, i);
}

// Signed integers widen to int64, unsigned to uint64: both exact.
int64_t int_at(const Type &t, const void *p, size_t i) {
    switch (t.bits()) {
    case 8: return at<int8_t>(p, i);
    case 16: return at<int16_t>(p, i);
    case 32: return at<int32_t>(p, i);
    default: return at<int64_t>(p, i);
    }
}

uint64_t uint_at(const Type &t, const void *p, size_t i) {
    switch (t.bits()) {
    case 1:
    case 8: return at<uint8_t>(p, i);
    case 16: return at<uint16_t>(p, i);
    case 32: return at<uint32_t>(p, i);
    default: return at<uint64_t>(p, i);
    }
}

// |a - b| without overflow, saturated to uint64.
uint64_t int_distance(const Type &t, const void *a, const void *b, size_t i) {
    if (t.is_uint() || t.bits() == 1) {
        uint64_t x = uint_at(t, a, i), y = uint_at(t, b, i);
        return x > y ? x - y : y - x;
    }
    int64_t x = int_at(t, a, i), y = int_at(t, b, i);
    return x > y ? (uint64_t)x - (uint64_t)y : (uint64_t)y - (uint64_t)x;
}

double epsilon_of(const Type &t) {
    if (t.is_bfloat()) return std::ldexp(1.0, -8);
    if (t.bits() == 16) return std::ldexp(1.0, -11);
    if (t.bits() == 32) return std::ldexp(1.0, -24);
    return std::ldexp(1.0, -53);
}

std::string number(double v) {
    std::ostringstream s;
    s << v;
    return s.str();
}

OutputComparison mismatch(const OutputRule &rule, size_t i, const std::string &what, double worst) {
    OutputComparison c;
    c.verdict = OutputComparison::Verdict::Mismatch;
    c.detail = rule.name + " element " + std::to_string(i) + ": " + what;
    c.worst = worst;
    return c;
}

// How ill-conditioned the reference is: of its elements, how many its own
// rounding spread moves past what a single element may differ by, and the
// widest move. Where some are, an element may differ by up to kSpreadFactor
// times the widest move, on at most kIllConditionedFactor times as many
// elements as the spread moves: which elements a legal reordering moves
// past a threshold is not the set that directed rounding moves, but their
// number and size are alike; a dropped term or a wrong index moves far more.
struct Sensitivity {
    size_t sensitive = 0;
    double widest = 0;
    bool any() const { return sensitive > 0; }
    bool admits(double difference) const { return any() && difference <= kSpreadFactor * widest; }
    bool admits_count(size_t elements) const { return (double)elements <= kIllConditionedFactor * (double)sensitive; }
};

// For a float output; `bound(w)` is the most an element of value w may differ by.
template<typename Bound>
Sensitivity float_sensitivity(const Type &t, const void *want, const void *spread, size_t n, const OutputRule &rule,
                              const Bound &bound) {
    Sensitivity s;
    // round() follows the rounding mode, so its spread is a whole step everywhere.
    if (!spread || rule.rounds_by_mode) return s;
    for (size_t i = 0; i < n; i++) {
        const double w = float_at(t, want, i), m = float_at(t, spread, i);
        if (!std::isfinite(w) || !std::isfinite(m)) continue;
        if (m > bound(w)) s.sensitive++;
        s.widest = std::max(s.widest, m);
    }
    return s;
}

Sensitivity integer_sensitivity(const Type &t, const void *spread, size_t n, const OutputRule &rule, uint64_t allowed_step) {
    Sensitivity s;
    if (!spread || rule.rounds_by_mode) return s;
    for (size_t i = 0; i < n; i++) {
        const uint64_t m = t.is_int() ? (uint64_t)std::max<int64_t>(0, int_at(t, spread, i)) : uint_at(t, spread, i);
        if (m > allowed_step) s.sensitive++;
        s.widest = std::max(s.widest, (double)m);
    }
    return s;
}

OutputComparison too_many_ill_conditioned(const OutputRule &rule, size_t count, size_t n, const Sensitivity &s, double worst) {
    OutputComparison m;
    m.verdict = OutputComparison::Verdict::Mismatch;
    m.worst = worst;
    m.detail = rule.name + ": " + std::to_string(count) + " of " + std::to_string(n) +
               " elements differ beyond the tolerance, more than the reference's own rounding moves (" +
               std::to_string(s.sensitive) + " elements, by up to " + number(s.widest) + ")";
    return m;
}

OutputComparison compare_floats(const Buffer<> &got, const void *want, const OutputRule &rule, const void *spread) {
    const Type t = got.type();
    const size_t n = got.number_of_elements();
    double scale = 0;
    for (size_t i = 0; i < n; i++) {
        double w = float_at(t, want, i);
        if (std::isfinite(w)) scale = std::max(scale, std::fabs(w));
    }
    const double floor = std::max(1e-3 * scale, 1e-30);
    const double tolerance = float_tolerance(rule);
    const Sensitivity sensitivity = float_sensitivity(t, want, spread, n, rule, [&](double w) {
        return tolerance * std::max(std::fabs(w), floor);
    });
    size_t outliers = 0, ill_conditioned = 0;
    OutputComparison c;
    for (size_t i = 0; i < n; i++) {
        double a = float_at(t, got.data(), i), b = float_at(t, want, i);
        if (std::isnan(a) || std::isnan(b)) {
            if (std::isnan(a) && std::isnan(b)) continue;
            return mismatch(rule, i, "got " + number(a) + " where the reference has " + number(b), INFINITY);
        }
        if (std::isinf(a) || std::isinf(b)) {
            if (a == b) continue;
            return mismatch(rule, i, "got " + number(a) + " where the reference has " + number(b), INFINITY);
        }
        // Within the reference's own rounding noise (output_check.h).
        if (spread && !rule.rounds_by_mode && std::fabs(a - b) <= kSpreadFactor * float_at(t, spread, i)) continue;
        double err = std::fabs(a - b) / std::max(std::fabs(b), floor);
        // A conversion that rounds the other way moves the value by a step
        // whose size the output's range sets, not the element's own size: a
        // jump is measured against at least kQuantizationFloor of the range.
        const double jump = std::fabs(a - b) / std::max(std::fabs(b), std::max(kQuantizationFloor * scale, floor));
        if (err > tolerance && (!rule.through_quantization || jump > kQuantizationFactor * tolerance)) {
            if (sensitivity.admits(std::fabs(a - b))) {
                ill_conditioned++;
                c.worst = std::max(c.worst, err);
                continue;
            }
            return mismatch(rule, i,
                            "got " + number(a) + ", the reference " + number(b) + " (relative error " + number(err) +
                                " > " + number(tolerance) + ")",
                            err);
        }
        if (err > tolerance) outliers++;
        c.worst = std::max(c.worst, err);
    }
    const size_t allowed = std::max<size_t>(1, (size_t)(kRoundingShare * (double)n));
    if (outliers > allowed) {
        OutputComparison m;
        m.verdict = OutputComparison::Verdict::Mismatch;
        m.worst = c.worst;
        m.detail = rule.name + ": " + std::to_string(outliers) + " of " + std::to_string(n) +
                   " elements exceed the tolerance " + number(tolerance) +
                   ", more than a float-to-integer conversion explains (" + std::to_string(allowed) + " allowed)";
        return m;
    }
    if (!sensitivity.admits_count(ill_conditioned)) return too_many_ill_conditioned(rule, ill_conditioned, n, sensitivity, c.worst);
    return c;
}

OutputComparison compare_integers(const Buffer<> &got, const void *want, const OutputRule &rule, const void *spread) {
    const Type t = got.type();
    const size_t n = got.number_of_elements();
    const uint64_t allowed_step = rule.through_float ? 1 : 0;
    const size_t allowed_steps = rule.through_float ? std::max<size_t>(1, (size_t)(kRoundingShare * (double)n)) : 0;
    // Integer arithmetic alone has no rounding to be sensitive to.
    const Sensitivity sensitivity = rule.through_float ? integer_sensitivity(t, spread, n, rule, allowed_step) : Sensitivity{};
    size_t steps = 0, ill_conditioned = 0;
    OutputComparison c;
    for (size_t i = 0; i < n; i++) {
        uint64_t d = int_distance(t, got.data(), want, i);
        if (d == 0) continue;
        if (d > allowed_step) {
            // Within the reference's own rounding noise at this element, or
            // within the output's widest when the reference is ill-conditioned.
            if (sensitivity.any() && (double)d <= kSpreadFactor * (double)uint_at(t, spread, i)) continue;
            if (sensitivity.admits((double)d)) {
                ill_conditioned++;
                c.worst = std::max(c.worst, (double)d);
                continue;
            }
            std::string what = "differs from the reference by " + std::to_string(d);
            return mismatch(rule, i, what, (double)d);
        }
        steps++;
        c.worst = 1;
    }
    if (steps > allowed_steps) {
        OutputComparison m;
        m.verdict = OutputComparison::Verdict::Mismatch;
        m.worst = 1;
        m.detail = rule.name + ": " + std::to_string(steps) + " of " + std::to_string(n) +
                   " elements differ from the reference by 1, more than float rounding explains (" +
                   std::to_string(allowed_steps) + " allowed)";
        return m;
    }
    if (!sensitivity.admits_count(ill_conditioned)) return too_many_ill_conditioned(rule, ill_conditioned, n, sensitivity, c.worst);
    return c;
}

}  // namespace

std::vector<const Node *> value_sources(const PipelineDAG &dag, int node) {
    std::vector<bool> seen(dag.nodes().size(), false);
    std::vector<int> pending{node};
    std::vector<const Node *> out;
    seen[node] = true;
    while (!pending.empty()) {
        int i = pending.back();
        pending.pop_back();
        out.push_back(&dag.node(i));
        for (int p : dag.node(i).producers) {
            if (!seen[p]) {
                seen[p] = true;
                pending.push_back(p);
            }
        }
    }
    return out;
}

std::vector<OutputRule> output_rules(const PipelineDAG &dag, double tolerance) {
    std::vector<OutputRule> rules;
    for (const Function &f : dag.outputs()) {
        const int index = *dag.index_of(f.name());
        bool uses_float = false, quantizes = false, rounds_by_mode = false;
        int64_t reduction = 1;
        for (const Node *n : value_sources(dag, index)) {
            FindFloatArithmetic finder;
            n->func.accept(&finder);
            uses_float = uses_float || finder.found;
            quantizes = quantizes || finder.quantizes;
            rounds_by_mode = rounds_by_mode || finder.rounds_by_mode;
            for (const StageInfo &s : n->stages) reduction = std::max(reduction, s.reduction_points());
        }
        const std::vector<Type> &types = f.output_types();
        for (size_t k = 0; k < types.size(); k++) {
            OutputRule r;
            r.name = types.size() > 1 ? f.name() + "[" + std::to_string(k) + "]" : f.name();
            r.type = types[k];
            r.through_float = !types[k].is_float() && uses_float;
            r.through_quantization = types[k].is_float() && quantizes;
            r.reduction_points = reduction;
            r.rounds_by_mode = rounds_by_mode;
            r.tolerance = tolerance;
            rules.push_back(r);
        }
    }
    return rules;
}

double float_tolerance(const OutputRule &rule) {
    const double eps = epsilon_of(rule.type);
    return std::max({rule.tolerance, 2 * eps, 8 * std::sqrt((double)std::max<int64_t>(1, rule.reduction_points)) * eps});
}

OutputComparison compare_output(const Buffer<> &got, const void *want, const OutputRule &rule, const void *spread) {
    if (got.type().is_float()) return compare_floats(got, want, rule, spread);
    return compare_integers(got, want, rule, spread);
}

OutputComparison compare_outputs(const PipelineDAG &dag, const std::vector<Buffer<>> &got,
                                 const std::vector<Buffer<>> &want, double tolerance,
                                 const std::vector<Buffer<>> &spread) {
    const std::vector<OutputRule> rules = output_rules(dag, tolerance);
    OutputComparison all;
    if (got.size() != want.size() || got.size() != rules.size()) {
        all.verdict = OutputComparison::Verdict::Mismatch;
        all.worst = INFINITY;
        all.detail = std::to_string(got.size()) + " outputs where the reference has " + std::to_string(want.size()) +
                     " (the pipeline has " + std::to_string(rules.size()) + ")";
        return all;
    }
    for (size_t i = 0; i < got.size(); i++) {
        const Buffer<> g = is_dense(got[i]) ? got[i] : got[i].copy();
        const Buffer<> w = is_dense(want[i]) ? want[i] : want[i].copy();
        if (g.type() != w.type() || g.number_of_elements() != w.number_of_elements()) {
            all.verdict = OutputComparison::Verdict::Mismatch;
            all.worst = INFINITY;
            all.detail = rules[i].name + ": " + std::to_string(g.number_of_elements()) +
                         " elements where the reference has " + std::to_string(w.number_of_elements()) +
                         " (or another type)";
            return all;
        }
        Buffer<> s;
        if (i < spread.size() && spread[i].defined()) s = is_dense(spread[i]) ? spread[i] : spread[i].copy();
        OutputComparison c = compare_output(g, w.data(), rules[i], s.defined() ? s.data() : nullptr);
        if (!c.ok()) return c;
        all.worst = std::max(all.worst, c.worst);
    }
    return all;
}

std::string unverifiable_reason(const Buffer<> &reference, const OutputRule &rule) {
    const Type t = reference.type();
    if (!t.is_float()) return "";
    const size_t n = reference.number_of_elements();
    size_t nan = 0;
    for (size_t i = 0; i < n; i++) {
        double v = float_at(t, reference.data(), i);
        if (std::isfinite(v)) return "";
        nan += std::isnan(v);
    }
    return "the reference output " + rule.name + " has no finite element (" + std::to_string(nan) + " NaN, " +
           std::to_string(n - nan) + " Inf of " + std::to_string(n) +
           ") on the random test inputs, so no candidate's output can be verified";
}

}  // namespace ansor
