#pragma once
// Random pipelines shaped like real ones, for cost-model training corpora and
// for fuzzing the autoscheduler: a seed draws input sizes and a chain of
// stages (pointwise arithmetic, casts, stencils, resampling, transposes,
// reductions, histograms, scans, lookups, tuple-valued and updated Funcs)
// ending in two outputs of fixed type and rank.
//
// Every pipeline is built by build_random_pipeline_on(), from the generator
// `random_pipeline` (random_pipeline_generator.cpp) as from
// build_random_pipeline() below, so the two never differ. The same
// (seed, stages, max_size, min_size) gives the same Funcs, names included, in any
// process; no draw can fail.
#include <Halide.h>

#include <cstdint>
#include <string>
#include <vector>

namespace random_pipeline {

// The kinds of stage the builder draws (one per drawn stage).
enum class StageKind {
    Pointwise,      // add/mul/min/max/select and unary maps of one or two values
    Cast,           // type conversion, saturating where it narrows
    Stencil,        // 2-D stencil (3x3, 5x1, 1x5, ...), usually over a boundary condition
    Downsample,     // x2 down with a small filter
    Upsample,       // x2 up, nearest or linear
    Transpose,      // a permutation of dimensions
    RowSum,         // RDom over dim 0 (normalise by the row's sum or mean)
    ColumnSum,      // RDom over dim 1
    ChannelReduce,  // sum or max over the channels of a 3-D value
    Matmul,         // contraction over a shared dim
    Argmax,         // tuple-valued (index, value) reduction
    Histogram,      // data-dependent scatter into bins
    Scan,           // s(x, r) = s(x, r - 1) + ... along one dim
    Lookup,         // a table read through data-dependent, clamped indices
    TupleValued,    // a pointwise Func with a Tuple value
    Update,         // a Func with pure and RDom update definitions
    Expand,         // 2-D to 3-D (per-channel gains)
    Count
};
const char *kind_name(StageKind kind);

// What one drawn stage made.
struct StageRecord {
    StageKind kind;
    std::string func;         // the Func the stage adds to the pool
    std::string description;  // a line saying what it computes
    bool has_update = false;  // some Func of the stage has an update definition
    bool tuple_valued = false;
    bool boundary = false;    // reads a producer through a boundary condition
};

// The fixed signature: inputs and outputs of the generator.
//   input_a, input_b: float32, 3-D (x, y, c); input_c: uint8, 2-D (x, y).
//   output: float32, 3-D; output2: float32, 2-D.
constexpr int kInputs = 3;
Halide::Type input_type(int i);
int input_dimensions(int i);
const char *input_name(int i);

struct RandomPipelineSpec {
    uint64_t seed = 0;
    int stages = 12;      // drawn stages, 1..64 (the outputs' conversions come on top)
    int max_size = 1024;  // largest extent of any input dimension, 16..8192
    int min_size = 16;    // smallest extent drawn for an input's x or y, 16..max_size
};

// How much larger than at max_size 1024 values may grow: 1 up to max_size
// 1024 (so those pipelines never change), max_size / 1024 above it, at most 4.
int64_t size_scale(const RandomPipelineSpec &spec);

// Extents (min 0) of each input, drawn from the spec alone: callers declare
// their inputs' estimates from these before building.
std::vector<std::vector<int>> random_input_extents(const RandomPipelineSpec &spec);

struct RandomPipelineFuncs {
    std::vector<Halide::Func> outputs;  // output (3-D f32), output2 (2-D f32), estimates set
    std::vector<std::vector<int>> output_extents;
    std::vector<bool> input_used;       // per input
    std::vector<StageRecord> stages;
};

// Builds the pipeline over `inputs` (kInputs Funcs of input_type/
// input_dimensions, e.g. ImageParams or a generator's Inputs, whose extents
// are random_input_extents(spec)). Throws std::invalid_argument for a spec
// out of range.
RandomPipelineFuncs build_random_pipeline_on(const RandomPipelineSpec &spec, const std::vector<Halide::Func> &inputs);

// The in-process build: ImageParams named input_a, input_b, input_c with
// estimates, and the pipeline over them.
struct RandomPipeline {
    std::vector<Halide::ImageParam> inputs;
    RandomPipelineFuncs funcs;
    const std::vector<Halide::Func> &outputs() const { return funcs.outputs; }
    std::vector<Halide::Internal::Function> output_functions() const;
    // One line per stage: kind, Func, what it computes.
    std::string summary() const;
};
RandomPipeline build_random_pipeline(uint64_t seed, int stages, int max_size = 1024);
RandomPipeline build_random_pipeline(const RandomPipelineSpec &spec);

// Every Func reachable from `outputs` computed at root: the unscheduled
// reference (Halide's default inlines everything, and chained stencils
// inlined grow exponentially).
void compute_all_at_root(const std::vector<Halide::Func> &outputs);

// Every Func reachable from `outputs`, sorted by name, with its pure and
// update definitions printed: equal strings mean equal pipelines. Halide's
// let names t<n> (numbered process-wide) are renumbered by first appearance.
std::string describe_definitions(const std::vector<Halide::Func> &outputs);
// `text` with every let name t<n> renumbered t0, t1, ... by first appearance.
std::string renumber_lets(const std::string &text);

}  // namespace random_pipeline
