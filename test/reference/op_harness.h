// Drives any operator of the suite by name: buffers of the right shapes,
// random inputs, the naive reference, and a check of a compiled pipeline
// (its AOT `<name>_argv` entry point) against the reference.
#pragma once

#include "naive_ops.h"
#include "shapes.h"  // generators/shapes.h

#include <cstdint>
#include <string>
#include <vector>

namespace ansor_ref {

// Halide extents (dimension 0 first) of every input, in the generator's
// argument order, and of the output, for generator `op` at `shape`.
struct BufferDims {
    std::vector<std::vector<int>> inputs;
    std::vector<int> output;
};
BufferDims buffer_dims(const std::string &op, const ansor_ops::Shape &shape);

// Inputs in argument order, uniform random in [-1, 1) from `seed`.
std::vector<Buf> make_inputs(const std::string &op, const ansor_ops::Shape &shape, uint32_t seed = 0);

// The output buffer, zero-filled.
Buf make_output(const std::string &op, const ansor_ops::Shape &shape);

// Fills `out` with the naive reference of `op`.
void run_reference(const std::string &op, const ansor_ops::Shape &shape,
                   const std::vector<Buf> &inputs, Buf &out);

// max_i |got_i - want_i| / max_i |want_i| (infinity on a shape mismatch or a NaN).
double max_relative_error(const Buf &got, const Buf &want);

// Same as the project's measurement check (src/measure): per element,
// |got - want| / max(|want|, 1e-3 * max |want|).
double max_elementwise_error(const Buf &got, const Buf &want);

// Signature of the `<fn>_argv` entry point that Halide's AOT compilation
// emits: args[i] is the halide_buffer_t* of argument i (inputs, then the output).
using ArgvFunction = int (*)(void **args);

struct CheckResult {
    int status = 0;             // the pipeline's return code
    double relative_error = 0;  // max_relative_error
    double elementwise_error = 0;  // max_elementwise_error
};

// Runs `fn` and the reference on the same random inputs and compares.
CheckResult check_compiled(const std::string &op, const ansor_ops::Shape &shape,
                           ArgvFunction fn, uint32_t seed = 0);

}  // namespace ansor_ref
