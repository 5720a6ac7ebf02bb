#pragma once
// Whether a program compiles for its target within a time limit, before it
// is applied to a user's build: a deep copy of the pipeline scheduled by it
// is lowered and compiled to an object file (LLVM's code generation
// included) in a sandboxed child (sandbox.h), so that a schedule Halide
// rejects, one that crashes the compiler, or one whose compile runs away is
// found without touching the build, and so is one whose lowered code reads
// an input beyond the pipeline's region (lowered_input_reads.h). The target
// need not be one this machine runs: nothing is executed.
#include "state/state.h"

#include <Halide.h>

#include <cstdint>
#include <memory>
#include <string>

namespace ansor {

struct CompileCheck {
    bool ok = false;
    bool timed_out = false;  // stopped at the time limit: it might compile given longer
    std::string error;  // why not: Halide's error, the crash, or the time limit
    double seconds = 0;
};

// A compile check running in a child of its own from construction, so that
// several can run at once (one per core); wait() collects its verdict, and
// destroying it first stops the child (and removes its scratch directory).
class CompileCheckRun {
public:
    CompileCheckRun(const PipelineDAG &dag, const State &state, const Halide::Target &target, double timeout_s,
                    uint64_t memory_limit_bytes);
    ~CompileCheckRun();
    CompileCheckRun(const CompileCheckRun &) = delete;
    CompileCheckRun &operator=(const CompileCheckRun &) = delete;

    // Blocks until the child ends or its time limit (counted from the start) passes.
    CompileCheck wait();

private:
    struct Child;
    std::unique_ptr<Child> child_;
};

CompileCheck check_compiles(const PipelineDAG &dag, const State &state, const Halide::Target &target,
                            double timeout_s, uint64_t memory_limit_bytes);

}  // namespace ansor
