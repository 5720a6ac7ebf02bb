#pragma once
// Builds a runnable copy of the pipeline (for the reference or a candidate),
// binds random inputs (input_values.h) over the region the pipeline reads
// (the DAG's bounds over the output regions; once compiled, widened to what
// Halide's bounds inference says this schedule reads), and runs it. It binds buffers
// to the pipeline's Parameters, so the measurer uses it only inside its
// children; benchmarks use it on pipelines built once per variant.
#include "measure/run_timing.h"
#include "state/state.h"

#include <Halide.h>

#include <vector>

namespace ansor {

class PipelineRunner {
public:
    // state == nullptr: the reference schedule, every Func at root.
    PipelineRunner(const PipelineDAG &dag, const State *state, const Halide::Target &target);
    // A pipeline already scheduled by someone else (another autoscheduler, a
    // hand-written schedule); `dag` must be built from its outputs. Inputs get
    // the same data as for any other runner of a pipeline with those inputs.
    PipelineRunner(const PipelineDAG &dag, Halide::Pipeline scheduled, const Halide::Target &target);
    void compile();
    void run();
    // The first run, with the allocator then set as a fresh process's is
    // after its first run (fresh_process_heap.h).
    void warm_up();
    // Times back-to-back runs the way RunGen times the built generator
    // (run_timing.h); call after warm_up().
    SampledTime time(const SamplingOptions &options);
    // Output buffers, in output order (a tuple output gives several).
    std::vector<Halide::Buffer<>> &outputs() { return outputs_; }
    // The buffer inputs bound (once compiled: over what this schedule reads), in dag.inputs() order.
    const std::vector<Halide::Buffer<>> &inputs() const { return inputs_; }
    size_t output_bytes() const;
    // The pipeline this runner compiles and runs (a deep copy for the reference).
    const Halide::Pipeline &pipeline() const { return pipeline_; }
    const PipelineDAG &dag() const { return dag_; }
    const Halide::Target &target() const { return target_; }
    // Binds this runner's inputs to the pipeline's parameters again (after
    // another runner of the same pipeline bound its own).
    void bind_own_inputs();

private:
    void make_outputs(const std::vector<Halide::Internal::Function> &outputs);
    void bind_inputs();
    void cover_what_is_read();
    const PipelineDAG &dag_;
    Halide::Target target_;
    Halide::Pipeline pipeline_;
    std::vector<Halide::Buffer<>> outputs_;
    std::vector<Halide::Buffer<>> inputs_;  // the buffer inputs, in dag.inputs() order
    std::vector<uint64_t> input_seeds_;
};

// A deep copy of the DAG's pipeline scheduled by `state` (nullptr: the
// reference, every Func at root), with embedded Buffers replaced by their
// stand-ins as every measurement runs them; the DAG's Funcs are untouched.
Halide::Pipeline scheduled_pipeline(const PipelineDAG &dag, const State *state);

// The seed of each buffer input's random values, in dag.inputs() order
// (scalars get none): the same for every runner of a pipeline with these inputs.
std::vector<uint64_t> measurement_input_seeds(const PipelineDAG &dag);

// A buffer input over `region` holding the measurement's random values
// (input_values.h) from `seed`, laid out as the input's constraints pin it.
// Values depend on coordinates alone, so any two regions agree where they overlap.
Halide::Buffer<> make_measurement_input(const PipelineDAG &dag, const InputInfo &in,
                                        const std::vector<DimRange> &region, uint64_t seed);

// How far each element of the runner's outputs moves when the runner runs
// again rounding every float operation up, then down, instead of to nearest
// (the largest of the two moves): the rounding noise each element carries,
// large where the pipeline cancels big terms into a small result or divides
// by a small one, and where a float-to-integer conversion (a LUT index)
// lands on the other side of a boundary. One dense buffer per output, in
// outputs() order, of the output's type (an integer move wider than the
// type saturates; zero for integer outputs of integer arithmetic). Run the runner once before; it
// must run on the calling thread alone (the reference does: nothing in it
// is parallel), as the rounding mode is per thread. Leaves the outputs as
// a run rounding to nearest computes them.
std::vector<Halide::Buffer<>> rounding_spread(PipelineRunner &runner);

// The outputs of `runner`'s schedule compiled with strict_float, dense, in
// outputs() order: without FMA contraction or reassociation, which LLVM and
// Halide otherwise apply where a schedule lets them (a vectorised or
// inlined expression contracts where a stored one does not). Compiles a
// Pipeline of its own, so the runner's compiled code stays cached, and
// binds the runner's inputs again when done.
std::vector<Halide::Buffer<>> strict_float_outputs(PipelineRunner &runner);

// Largest error of `got` against `want` relative to the reference's scale
// (output_check.h's float comparison, with no tolerance applied); 0 for
// identical integer data; infinite for integers that differ, for NaN
// against a number and for differing infinities.
double max_relative_error(const Halide::Buffer<> &got, const void *want);

}  // namespace ansor
