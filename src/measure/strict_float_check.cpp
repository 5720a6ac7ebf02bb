#include "measure/strict_float_check.h"

#include "measure/output_check.h"

#include <cstring>
#include <exception>

namespace ansor {

bool identical_outputs(const std::vector<Halide::Buffer<>> &a, const std::vector<Halide::Buffer<>> &b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); i++) {
        // Dense copies, so that strides do not matter.
        const Halide::Buffer<> x = a[i].copy(), y = b[i].copy();
        if (x.type() != y.type() || x.size_in_bytes() != y.size_in_bytes() ||
            std::memcmp(x.data(), y.data(), x.size_in_bytes()) != 0) {
            return false;
        }
    }
    return true;
}

bool strict_float_recheck_applies(const Halide::Target &target) { return !target.has_gpu_feature(); }

std::string strict_float_mismatch(PipelineRunner &candidate, double tolerance, const char *strict_reference,
                                  const char *spread) {
    std::vector<Halide::Buffer<>> got;
    try {
        got = strict_float_outputs(candidate);
    } catch (const std::exception &e) {
        return std::string("compiled with strict_float, it failed: ") + e.what();
    }
    const std::vector<OutputRule> rules = output_rules(candidate.dag(), tolerance);
    if (got.size() != rules.size()) return "compiled with strict_float, it has other outputs";
    for (size_t i = 0; i < got.size(); i++) {
        const OutputComparison c = compare_output(got[i], strict_reference, rules[i], spread);
        if (!c.ok()) return "compiled with strict_float too: " + c.detail;
        strict_reference += got[i].size_in_bytes();
        if (spread) spread += got[i].size_in_bytes();
    }
    return "";
}

std::string strict_float_mismatch(PipelineRunner &candidate, const PipelineDAG &reference_dag, double tolerance,
                                  const char *spread) {
    std::vector<char> strict_reference;
    try {
        PipelineRunner reference(reference_dag, nullptr, candidate.target());
        for (const Halide::Buffer<> &b : strict_float_outputs(reference)) {
            const char *data = static_cast<const char *>(b.data());
            strict_reference.insert(strict_reference.end(), data, data + b.size_in_bytes());
        }
    } catch (const std::exception &e) {
        candidate.bind_own_inputs();
        return std::string("the reference compiled with strict_float failed: ") + e.what();
    }
    candidate.bind_own_inputs();
    return strict_float_mismatch(candidate, tolerance, strict_reference.data(), spread);
}

}  // namespace ansor
