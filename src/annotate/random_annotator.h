#pragma once
// Random annotation (Ansor §4.2): turns a sketch into a complete program by
// drawing tile sizes, parallelising outer loops, vectorising inner loops,
// choosing auto-unroll steps and moving the Funcs no rule tiled.
#include "annotate/factorization.h"
#include "state/state.h"
#include "util/gpu_target.h"

#include <Halide.h>

#include <random>
#include <set>
#include <tuple>

namespace ansor {

struct AnnotationOptions {
    int parallelism = 1;
    // Largest innermost piece of a split of a space loop: it becomes a
    // register, vector or unrolled tile (Ansor's max_innermost_split_factor).
    int64_t max_innermost_factor = 64;
    // Largest inner piece of a split of a reduction loop: the cache block
    // along the reduction (GEMM's K block, between the two space levels of
    // "SRSRS"). Kept apart from the space limit so it can be widened; the
    // default stays Ansor's 64 because a wider range (1024) tuned GEMM 1024^3
    // no faster in the same trials (docs/search.md, "What we tried").
    int64_t max_reduction_factor = 64;
    // Largest inner piece of a consumer tile: a two-piece split of a space
    // loop whose outer piece producers are computed or stored at (Halide's
    // `out.tile(x, y, xo, yo, xi, yi, 256, 32); f.compute_at(out, xo)`). Its
    // inner piece is the tile the producers are recomputed for, not a
    // register tile: expert and Adams2019 schedules of image pipelines use
    // 256- to 896-wide tiles, where 64 (the register limit) recomputes a
    // stencil chain's halo for every 64 pixels.
    int64_t max_consumer_tile = 512;
    int64_t max_inner_factor(LoopKind kind) const {
        return kind == LoopKind::Reduction ? max_reduction_factor : max_innermost_factor;
    }
    std::vector<int> auto_unroll_steps = {0, 16, 64, 512};
    // Probability that the tile sizes of a stage's innermost space loop (the
    // one that gets vectorised) are drawn among those whose innermost factor
    // is a multiple of the native vector width, when the extent has any.
    // Uniform draws (0) leave most programs with a 1- or 2-wide innermost
    // tile, i.e. scalar code; see docs/search.md.
    double vector_tile_bias = 0.8;
};

class RandomAnnotator {
public:
    RandomAnnotator(const PipelineDAG &dag, const Halide::Target &target, AnnotationOptions options);
    // Throws InvalidState if the sketch cannot be completed.
    State annotate(const State &sketch, std::mt19937_64 &rng);

    // Loops that producers will be computed or stored at (func, stage, loop):
    // parallelising must not fuse them away before those producers are placed.
    using Anchors = std::set<std::tuple<std::string, int, std::string>>;
    static Anchors anchors_of(const State &state);
    // Whether `split` (of a space loop, kind given) makes a consumer tile: two
    // pieces, the outer one an anchor, or a producer anchored at one of the
    // stage's reduction loops in `m` (AnnotationOptions::max_consumer_tile).
    static bool is_consumer_tile(const SplitStep &split, LoopKind kind, const Anchors &anchors, const LoopNest &m);

    // Pieces reused by mutation later.
    void annotate_stage(State &out, LoopNest &model, const std::string &func, int stage, std::mt19937_64 &rng,
                        const Anchors &anchors = {});
    // Root, inline, or one of candidate_loops, drawn until one is legal.
    Location random_location(const LoopNest &model, const std::string &func, std::mt19937_64 &rng) const;
    // The loops `func` may be computed at: every loop of its single consumer
    // (any tile level), and every loop enclosing all of its consumers'
    // computations (the tile of a consumer they are computed in).
    std::vector<Location> candidate_loops(const LoopNest &model, const std::string &func) const;
    // A Func the model cannot represent (a scan, a scatter, a data-dependent
    // region) stays at root, but its independent pure vars still use the
    // machine: the innermost vectorised (moved inside any RVar), the leading
    // ones fused and parallel. Deterministic: no model guides a search here.
    void annotate_unmodelled_stage(State &out, LoopNest &model, const std::string &func, int stage,
                                   const Anchors &anchors);

    // The auto-unroll steps a stage of `func` may draw: the options' steps,
    // but at most max_unroll_step where unrolled copies are costly to compile.
    std::vector<int> auto_unroll_choices(const LoopNest &model, const std::string &func, int stage) const;
    // The largest auto-unroll step a stage may take: unlimited, but
    // kMaxUnrollThroughBoundary where unrolls_little, and fewer copies than
    // kMaxUnrolledCallsThroughBoundaries over the calls its body makes
    // through boundary clamps (inlined_bodies.h).
    int64_t max_unroll_step(const LoopNest &model, const std::string &func, int stage) const;
    // Whether the stage reads through a boundary condition (a `likely`
    // clamp in its definition or in a Func inlined into it), holds more than
    // kMaxCallsToUnrollFreely calls once its inlined producers are in it, or
    // vectorises a width that is not a whole number of native vectors. Unrolled copies
    // of such a body make Halide's lowering or LLVM take minutes: fuzz seed
    // 268, a constant_exterior Func with 56 rows unrolled, compiled in 88 s
    // (2.4 s without); seed 77, a 59-wide tile unrolled 512 steps, past 60 s.
    bool unrolls_little(const LoopNest &model, const std::string &func, int stage) const;
    static constexpr int kMaxUnrollThroughBoundary = 16;
    // Unrolled copies times the calls through boundary clamps in each, the
    // most a stage may take: compile time grows faster than the copies (fuzz
    // seed 209, a 5x5 stencil of an inlined, clamped upsample, 100 such calls
    // in the output's body: past 60 s unrolled 16 times, 12 s 8 times, 3 s
    // 4 times). A 5x5 stencil over a boundary Func still unrolls 16 times.
    static constexpr int64_t kMaxUnrolledCallsThroughBoundaries = 512;
    // A stage whose body holds more calls than this once its inlined
    // producers are substituted unrolls little: a 3x3 stencil of a 3x3
    // stencil (81) unrolls freely, nl_means's patch distances (294) do not.
    static constexpr int64_t kMaxCallsToUnrollFreely = 128;
    // The widest vector, in native vectors of the wider type a body widens
    // its values to, whose stage unrolls freely.
    static constexpr int64_t kMaxWidenedVectorsToUnrollFreely = 2;
    // Caps at max_unroll_step the auto-unroll steps of the stages of
    // `program` (whose loop nest is `model`) that unroll little: a
    // placement decided after a stage's step was drawn (a producer inlined
    // into it), or a new tile size, can make a stage one. annotate() and
    // the mutations apply it.
    void limit_unroll_steps(State &program, const LoopNest &model) const;

    // The GPU facts when the target has a GPU feature (then every program
    // is a GPU program: gpu_annotation.cpp), nullopt for a CPU.
    const std::optional<GpuTargetFacts> &gpu() const { return gpu_; }
    // Throws InvalidState when a GPU program breaks the target's limits or
    // leaves a Func's stage on the host (gpu_annotation.cpp).
    void check_gpu_program(const State &program, const LoopNest &model) const;
    // Whether a program (say, a mutant) keeps to the target's limits: a GPU
    // block's (check_gpu_program); on a CPU, per-step tiles that fit the
    // caches (reduction_step_tiles.h), no split by 1 that Halide would
    // bound past an input (clamped_unit_splits.h), no scan's buffer inside
    // a loop that the allocator maps afresh at each iteration
    // (root_buffers.h) and no scan's strip a few points wide
    // (scan_strip_widths.h); on both, bodies that
    // inlining keeps within what compiles (inlined_bodies.h).
    bool fits_target(const State &program) const { return misfit(program).empty(); }
    // Why `program` does not fit, empty if it does.
    std::string misfit(const State &program) const;

private:
    // Whether some Func is placed at a loop of a stage that may have a
    // reduction (misfit replays only such programs, or ones with a split by
    // 1, on a CPU).
    bool places_in_a_reduction_stage(const State &program) const;
    // Whether some Func the model cannot represent (a scan) is placed at a
    // loop: only such a program can fail check_unmodelled_buffers_inside_loops
    // or check_scan_strip_widths (misfit replays such programs too).
    bool places_an_unmodelled_func_in_a_loop(const State &program) const;
    // The GPU counterparts of annotate / annotate_stage / random_location.
    State annotate_gpu(const State &sketch, std::mt19937_64 &rng);
    void annotate_gpu_stage(State &out, LoopNest &model, const std::string &func, int stage, std::mt19937_64 &rng);
    // Block / thread binding of a stage's leading pure loops (gpu_single_thread when there are none).
    void bind_gpu_stage(State &out, LoopNest &model, const std::string &func, int stage, std::mt19937_64 &rng);
    // A Func computed at a block loop (in shared memory): its fused loops
    // covered in rounds of the block's threads.
    void bind_block_threads(State &out, LoopNest &model, const std::string &func, int stage);
    // (thread, tile) factors of one space loop of a GPU-tiled stage within
    // the block's thread and register budgets left.
    std::vector<int64_t> sample_gpu_tile(int64_t extent, int64_t threads_so_far, int64_t tile_so_far, bool last,
                                         std::mt19937_64 &rng);
    bool is_flexible(const State &sketch, const ModelFunc &f) const;
    int vector_width(const std::string &func) const;
    // Tile sizes for an unfilled split of `loop` into `pieces` inner
    // factors; a consumer tile's (is_consumer_tile) within max_consumer_tile.
    std::vector<int64_t> sample_tile(const LoopNest &m, const std::string &func, int stage, const std::string &loop,
                                     int pieces, bool consumer_tile, std::mt19937_64 &rng);

    // Per DAG node: whether `program`'s placements inline it.
    std::vector<bool> inlined_by(const State &program) const;
    // The DAG node of a model Func (an rfactor / cache-write intermediate's
    // is the Func it was made from); nullopt if there is none.
    std::optional<int> dag_node_of(const ModelFunc &f) const;
    // Whether `func`, or a Func inlined into it, is one of `boundary_nodes`.
    bool reads_through_boundary(const LoopNest &model, const std::string &func,
                                const std::vector<bool> &boundary_nodes) const;

    const PipelineDAG &dag_;
    // Per DAG node: whether its own definitions hold a `likely` (a boundary
    // condition's clamp).
    std::vector<bool> has_likely_;
    // Nodes some schedule could split by 1 under a clamp (clamped_unit_splits.h).
    std::vector<bool> read_under_clamp_;
    // Per DAG node: whether its definitions select on their own coordinates
    // (constant_exterior's bounds test).
    std::vector<bool> selects_on_coordinates_;
    // Per DAG node: whether it is read at every step of a serial reduction
    // (is_serial_reduction_operand): never inlined by random_location.
    std::vector<bool> serial_reduction_operand_;
    // Per DAG node: whether the loop-nest model cannot represent it.
    std::vector<bool> unmodelled_;
    Halide::Target target_;
    AnnotationOptions options_;
    FactorizationMemo space_factors_, reduction_factors_, consumer_tile_factors_;
    std::optional<GpuTargetFacts> gpu_;
};

}  // namespace ansor
