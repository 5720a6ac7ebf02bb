#include "measure/runnability.h"

#include <dlfcn.h>

namespace ansor {

using namespace Halide;
using namespace Halide::Internal;

namespace {

std::string gigabytes(int64_t bytes) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.2f GB", (double)bytes / 1e9);
    return buf;
}

// Halide's JIT resolves an extern stage's symbol in this process (and in
// its own runtime, whose symbols start with halide_).
bool jit_can_resolve(const std::string &symbol) {
    if (symbol.rfind("halide_", 0) == 0) return true;
    return dlsym(RTLD_DEFAULT, symbol.c_str()) != nullptr;
}

bool inlinable(const Node &n) {
    return !n.is_output && !n.func.has_extern_definition() && n.func.updates().empty() && n.func.outputs() == 1;
}

}  // namespace

int64_t root_buffer_bytes(const Node &n) {
    int64_t points = 1;
    for (const DimRange &r : n.region) points *= std::max<int64_t>(1, r.extent);
    int64_t bytes = 0;
    for (const Type &t : n.func.output_types()) bytes += points * t.bytes();
    return bytes;
}

std::vector<bool> reference_inlined(const PipelineDAG &dag) {
    std::vector<bool> inlined(dag.nodes().size(), false);
    for (size_t i = 0; i < dag.nodes().size(); i++) {
        const Node &n = dag.node((int)i);
        if (inlinable(n) && root_buffer_bytes(n) > kLargestBufferBytes) inlined[i] = true;
    }
    return inlined;
}

std::vector<std::string> measurement_obstacles(const PipelineDAG &dag) {
    std::vector<std::string> why;
    for (const InputInfo &in : dag.inputs()) {
        if (in.dimensions > 0) continue;
        if (!in.scalar_estimate.defined()) {
            why.push_back("scalar Param '" + in.name + "' has no estimate (call set_estimate on it to measure)");
            continue;
        }
        Expr e = simplify(cast(in.type, in.scalar_estimate));
        if (!is_const(e)) {
            why.push_back("scalar Param '" + in.name + "' has an estimate that is not a constant");
        }
    }
    for (const Node &n : dag.nodes()) {
        if (!n.func.has_extern_definition()) continue;
        const std::string symbol = n.func.extern_function_name();
        if (!jit_can_resolve(symbol)) {
            why.push_back("extern stage '" + n.name + "' calls " + symbol +
                          ", which this process does not define, so the JIT cannot run it");
        }
    }
    const std::vector<bool> inlined = reference_inlined(dag);
    for (size_t i = 0; i < dag.nodes().size(); i++) {
        const Node &n = dag.node((int)i);
        const int64_t bytes = root_buffer_bytes(n);
        if (inlined[i] || bytes <= kLargestBufferBytes) continue;
        why.push_back("Func '" + n.name + "' needs a " + gigabytes(bytes) +
                      " buffer over its estimated region, past Halide's 2^31-byte limit, and the reference " +
                      (n.is_output ? "must produce it" : "cannot inline it"));
    }
    if (dag.largest_inlined_call_count(inlined) > PipelineDAG::kMaxCallsAfterInlining) {
        why.push_back("the reference would inline its over-large Funcs into expressions of more than " +
                      std::to_string(PipelineDAG::kMaxCallsAfterInlining) + " calls");
    }
    return why;
}

}  // namespace ansor
