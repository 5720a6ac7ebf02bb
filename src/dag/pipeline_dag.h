#pragma once
// PipelineDAG: the analysable model of a Halide pipeline that every other
// module works from. Nodes are Funcs in topological order (producers first),
// each with its stages (pure definition, then updates), the loops of every
// stage classified space/reduction with their extents at root level (from
// the output estimates propagated backwards), the calls every stage makes,
// and the predicates the sketch rules ask about.
#include <Halide.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ansor {

class ReadWidthMemo;

enum class LoopKind { Space, Reduction };

struct DimRange {
    int64_t min = 0;
    int64_t extent = 0;
};

// One loop of a stage as Halide orders it before any scheduling.
struct StageLoop {
    std::string var;  // the Var or RVar name Halide knows it by
    LoopKind kind = LoopKind::Space;
    int64_t extent = 0;  // a reduction's: with Params at their estimates
    // A reduction loop whose extent is a constant in the code Halide
    // compiles; an extent that reads a Param (e.g. a runtime patch size) is
    // known only through its estimate, and such a loop cannot be unrolled
    // or vectorized whole.
    bool compile_time_extent = false;
};

struct CallSite {
    std::string callee;        // Func or input buffer name
    bool callee_is_input = false;
    std::vector<Halide::Expr> args;
    // True when every argument is a pure var of the caller plus a constant
    // (the identity access of elementwise and stencil-free code).
    bool is_identity = false;
};

struct StageInfo {
    int index = 0;                // 0 = pure definition, k = update k-1
    std::vector<StageLoop> loops;  // outermost first
    std::vector<CallSite> calls;
    bool modelled = true;          // loops have constant extents, no scatter
    bool rvars_reorderable = false;  // associative and commutative update
    // Pure vars whose iterations touch disjoint points of the Func: every
    // pure var of a pure definition; in an update, a pure var written at its
    // own position and read back only at that position. Parallelising or
    // vectorising these is legal even in a stage the model cannot represent
    // (a scan such as s(x, r) = s(x, r - 1) + ...).
    std::vector<std::string> independent_vars;
    int64_t space_points() const;
    int64_t reduction_points() const;
    bool has_reduction() const;
};

// What a buffer's constraints (set_bounds, set_min, set_extent, set_stride,
// set_host_alignment on an ImageParam or an output buffer) pin, dimension
// by dimension; unset where the constraint is absent or not a constant.
struct BufferConstraints {
    std::vector<std::optional<int64_t>> min, extent, stride;
    int host_alignment = 0;
    // Whether a stride other than a dense innermost dimension is pinned.
    bool pins_stride() const;
};

// The constant constraints of a buffer Parameter (dimensions() entries).
BufferConstraints read_constraints(const Halide::Internal::Parameter &p);

struct Node {
    std::string name;
    Halide::Internal::Function func;
    bool is_output = false;
    std::vector<StageInfo> stages;
    std::vector<DimRange> region;  // required region at root, per pure dim
    // An output's buffer constraints (those of its first buffer for a Tuple);
    // region already follows its min and extent constraints.
    BufferConstraints output_constraints;
    std::vector<std::string> pure_args;
    std::vector<int> producers;  // node indices this node calls
    std::vector<int> consumers;  // node indices that call this node
    bool modelled = true;
    std::string why_not_modelled;

    // Static predicates of Ansor's sketch rules, evaluated on the unscheduled pipeline.
    bool is_strict_inlinable = false;
    bool has_data_reuse = false;
    bool has_more_reduction_parallel = false;

    // Calls this Func's definitions make, every occurrence counted, by
    // callee (a Func's node index, or -1 for inputs): what inlining a callee
    // multiplies.
    std::map<int, int64_t> call_counts;
    // The widest type (bytes) any value of this Func's definitions is
    // computed in, outputs included: a uint8 Func may compute in uint32,
    // and a vector of it is then four times as many native vectors.
    // Coordinates of calls are not counted: they become addresses.
    int widest_value_bytes = 1;
};

struct InputInfo {
    std::string name;
    Halide::Type type;
    int dimensions = 0;               // 0 for a scalar Param
    // Estimates widened to what the pipeline reads (bounds inference over
    // the output regions); a dimension the buffer's constraints pin is the
    // constraint exactly.
    std::vector<DimRange> region;
    BufferConstraints constraints;
    // For scalar Params: the estimate, undefined if it has none. A Param
    // without a constant estimate cannot be bound for measurement.
    Halide::Expr scalar_estimate;
    Halide::Internal::Parameter param;
};

// A Buffer compiled into the pipeline (Func f(x) = buffer(x)): its data is
// fixed, but the measurement may need a larger one (region: what is read).
struct EmbeddedBuffer {
    std::string name;
    Halide::Buffer<> buffer;
    std::vector<DimRange> region;
    // Whether `buffer` holds all of `region`.
    bool covers_region() const;
};

class PipelineDAG {
public:
    // Throws UserError for a pipeline without the estimates the analysis needs.
    PipelineDAG(const std::vector<Halide::Internal::Function> &outputs, int parallelism);

    const std::vector<Node> &nodes() const { return nodes_; }
    const Node &node(int i) const { return nodes_[i]; }
    std::optional<int> index_of(const std::string &func_name) const;
    const std::vector<InputInfo> &inputs() const { return inputs_; }
    const std::vector<EmbeddedBuffer> &embedded_buffers() const { return embedded_; }
    // Constraints that disagree with estimates (the constraint wins), each
    // naming both; the plugin prints them.
    const std::vector<std::string> &warnings() const { return warnings_; }
    const std::vector<Halide::Internal::Function> &outputs() const { return outputs_; }
    const std::map<std::string, Halide::Internal::Function> &env() const { return env_; }
    // Bounds inference on what a consumer reads of a producer, memoised for
    // every program of this pipeline (read_widths.h): replaying a program's
    // loop nest asks it for every footprint.
    ReadWidthMemo &read_widths() const { return *read_widths_; }
    int parallelism() const { return parallelism_; }

    // Total floating point / integer arithmetic operations of one run, for
    // reporting GFLOP/s. Zero where unknown.
    double flop_count() const { return flops_; }

    // HasFusibleConsumer for node i given the set of inlined nodes: the
    // index of the single consumer that i's tiles can be fused into.
    std::optional<int> fusible_consumer(int i, const std::vector<bool> &inlined) const;
    // Consumers of i once inlined nodes are replaced by their own consumers.
    std::vector<int> effective_consumers(int i, const std::vector<bool> &inlined) const;
    // With the Funcs of `inlined` inlined, the most calls (to Funcs computed
    // somewhere and to inputs) any remaining Func's expressions hold. Each
    // inlined stencil multiplies it (twelve chained 3x3 stencils inlined are
    // 9^12 calls): what keeps the search from inlining its way into
    // expressions nothing can compile or analyse.
    int64_t largest_inlined_call_count(const std::vector<bool> &inlined) const;
    // The calls node i's expressions hold with the Funcs of `inlined`
    // substituted: how large its body is once inlined producers are in it.
    int64_t inlined_call_count(int i, const std::vector<bool> &inlined) const;
    // The inlined Funcs whose definitions end up inside node i's: its
    // inlined producers, theirs, and so on. What i's expressions look like
    // after inlining depends on these alone, so caches key on them rather
    // than on the whole program's inlining (which differs in nearly every
    // candidate of a large pipeline).
    std::vector<bool> inlined_into(int i, const std::vector<bool> &inlined) const;
    // The widest type (bytes) node i computes in once the Funcs of `inlined`
    // are substituted into it.
    int inlined_widest_value_bytes(int i, const std::vector<bool> &inlined) const;
    // The most calls inlining may leave in one expression: a 3x3 stencil
    // inlined into another holds 81, two levels (or a 5x5 of a 3x3) stay
    // below. Past it, Halide's compile time and the model's footprint and
    // feature analysis (which substitute inlined Funcs too) grow out of hand.
    static constexpr int64_t kMaxCallsAfterInlining = 512;
    // The most the search inlines on its own (the sketch rules, the
    // annotator's and the mutations' placements): a program past it stays
    // legal, from a log or a user's steps, but the search does not propose it. Non-local means' patch distances
    // inlined into its weighted sum hold 294 input reads per window step;
    // that program compiles for minutes and runs far slower than with the
    // patch at root, and a model that has seen nothing like it may still
    // rank it first.
    static constexpr int64_t kMaxCallsInlinedBySearch = 256;

private:
    // Node i's calls with its inlined producers substituted (saturated),
    // memoised per node in `memo` (-1: not yet known).
    int64_t calls_of(int i, const std::vector<bool> &inlined, std::vector<int64_t> &memo) const;
    void collect_nodes();
    void check_estimates();
    void compute_regions();
    void analyse_stages();
    void evaluate_predicates();

    std::vector<Halide::Internal::Function> outputs_;
    std::map<std::string, Halide::Internal::Function> env_;
    std::vector<Node> nodes_;
    std::map<std::string, int> index_;
    std::vector<InputInfo> inputs_;
    std::vector<EmbeddedBuffer> embedded_;
    std::vector<std::string> warnings_;
    int parallelism_;
    std::shared_ptr<ReadWidthMemo> read_widths_;
    double flops_ = 0;
};

}  // namespace ansor
