#pragma once
// The loop-nest model the search works on: for every Func its compute
// location and, for every stage, its loops outermost first with extents and
// annotations. It is an abstraction with its own operations (split, fuse,
// reorder, annotate, relocate, add an intermediate): steps replay by calling
// them, and only loop_nest.cpp edits the vectors. A step kind owns its
// names and Halide legality checks; LoopNest owns how the loops change.
// Features, the annotator and the search read it through const accessors.
// Nothing here touches Halide's lowering.
#include "dag/pipeline_dag.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ansor {

// GpuBlock / GpuThread: the loop is bound to the GPU's block / thread
// indices (Halide's gpu_blocks / gpu_threads).
enum class Annotation { None, Parallel, Vectorize, Unroll, GpuBlock, GpuThread };

// Thrown by replay when a step does not fit the state (a loop that no longer
// exists, an illegal location). The search drops such a state.
class InvalidState : public std::runtime_error {
public:
    explicit InvalidState(const std::string &what) : std::runtime_error(what) {}
};

// The product of split factors, each at least 1 (0 is a sketch's factor
// still to be drawn): the extent a split's inner pieces cover.
int64_t product_of_factors(const std::vector<int64_t> &factors);

struct ModelLoop {
    std::string name;
    LoopKind kind = LoopKind::Space;
    int64_t extent = 1;
    Annotation annotation = Annotation::None;
    // Extent is a compile-time constant in Halide (an inner split piece or a
    // constant RDom), so the loop can be unrolled.
    bool constant_extent = false;
    // The original dims this loop covers and how much of each.
    std::vector<std::pair<std::string, int64_t>> origins;
    // Made by a split whose factor does not divide the extent (here or in an
    // enclosing piece of the same dim): the pieces cover more than the dim.
    // `guarded_tail` when the tail is guarded rather than shifted inwards
    // (SplitStep::lower shifts only a pure stage's tail, and only where the
    // extent holds a whole tile): a Func computed inside such a loop is then
    // computed over the rounded-up range, guards or not.
    bool tail = false;
    bool guarded_tail = false;
    // For a fused loop: the loops it replaced, outermost first.
    std::vector<std::string> fused_from;

    // A piece of a split (or a fusion) rather than a dim of the Func.
    bool is_piece() const { return !(origins.size() == 1 && origins[0].first == name); }
};

struct ModelStage {
    std::vector<ModelLoop> loops;  // outermost first
    int auto_unroll_max_step = 0;
    // Runs on the GPU as one thread of one block (Halide's gpu_single_thread):
    // for a stage with no pure loop that may be bound to blocks or threads.
    bool gpu_single_thread = false;

    int find(const std::string &loop) const;
    // The position of `loop`, or of the fused loop that replaced it.
    int find_including_fused(const std::string &loop) const;
};

enum class LocationKind { Root, Inline, At };

struct Location {
    LocationKind kind = LocationKind::Root;
    std::string func;  // for At: the consumer
    int stage = 0;
    std::string loop;
    bool operator==(const Location &o) const {
        return kind == o.kind && func == o.func && stage == o.stage && loop == o.loop;
    }
};

// The name of the intermediate Func that rfactor / cache write creates from
// `func` (the one place this naming lives).
std::string intermediate_name(const std::string &func);
// The Func an intermediate named `name` was created from, judged by the name
// alone (for names outside a model: tuning records, predictions); nullopt for
// any other name. Code holding a model asks ModelFunc::created_from instead.
std::optional<std::string> intermediate_origin(const std::string &name);

struct ModelFunc {
    std::string name;
    int dag_index = -1;           // -1 for Funcs created by rfactor / cache write
    std::string created_from;     // the Func an rfactor intermediate came from
    std::vector<std::string> pure_args;
    std::vector<int64_t> extents;  // per pure arg, at the current location
    Location location;
    // Set by store_at: the loop the buffer lives at (outside `location`),
    // the folded buffer's extents per pure arg (the window one iteration of
    // `location` needs), and how many iterations of `location` share one
    // allocation. Without store_at the buffer is `extents`, allocated per
    // iteration of `location`.
    std::optional<Location> store_location;
    std::vector<int64_t> storage_extents;
    int64_t iterations_per_allocation = 1;
    // Where the buffer lives (Halide's store_in); Auto lets Halide choose.
    Halide::MemoryType memory_type = Halide::MemoryType::Auto;
    // Loops of each stage before any step, extents at root; pure-var loops
    // take their extent from `extents` when the Func moves.
    std::vector<std::vector<StageLoop>> base_stages;
    std::vector<ModelStage> stages;
};

// Halide 14 recurses without end in partition_loops (a segfault at compile
// time) on an update whose five or more GuardWithIf tile loops are fused,
// when two consumers read the Func: docs/known_issues/halide14_fused_update_recursion.cpp.
// Four fused loops compile. The annotator and the mutations fuse no more
// in an update; a program from a log that does still replays as it was.
constexpr size_t kMaxFusedUpdateLoops = 4;
inline size_t max_fused_loops(int stage) { return stage > 0 ? kMaxFusedUpdateLoops : SIZE_MAX; }

// Whether `loop` covers a dim one of the stage's loops named in `fused`
// already covers (two pieces of one split). Halide 14 infers the wrong region
// of that dim inside a loop fused from both (a Func computed there read an
// input beyond its bounds), so the annotator and the mutations fuse no such
// pair; a program from a log that does still replays as it was.
bool repeats_a_dim(const ModelStage &stage, const std::vector<std::string> &fused, const ModelLoop &loop);

// Whether a parallel loop of `iterations` keeps `threads` threads busy: at
// least one task each, and the last wave of tasks at least 90% full (3 tasks
// on 2 threads leave one idle a third of the time). Eight tasks per thread
// or more balance whatever their count.
inline bool balances_threads(int64_t iterations, int threads) {
    if (threads <= 1) return iterations >= 2;
    if (iterations >= 8 * (int64_t)threads) return true;
    const int64_t waves = (iterations + threads - 1) / threads;
    return iterations >= threads && 10 * iterations >= 9 * waves * threads;
}

class LoopNest {
public:
    explicit LoopNest(const PipelineDAG &dag);

    // ---- Reading -----------------------------------------------------------
    const PipelineDAG &dag() const { return *dag_; }
    // Consumers first; an intermediate right after the Func it came from.
    const std::vector<ModelFunc> &funcs() const { return funcs_; }
    bool has(const std::string &func) const;
    const ModelFunc &func(const std::string &name) const;
    const ModelStage &stage(const std::string &func, int stage) const;
    const ModelLoop &loop(const std::string &func, int stage, const std::string &loop) const;
    // The intermediate created from `func` by rfactor / cache write, or null.
    const ModelFunc *intermediate_of(const std::string &func) const;

    // ---- Operations steps replay through -----------------------------------
    // Each throws InvalidState, before changing anything, when the operation
    // does not fit the loop nest (a loop that is not there, loops that are
    // not adjacent). Halide's other rules (what may be vectorized, who may
    // be computed where) are the steps' to check.

    // Splits `loop` into inner_factors.size()+1 loops called `names`
    // (outermost first). The outer loop covers the rest of the extent; a
    // factor below 1 counts as 1 (still to be filled in by annotation).
    void split(const std::string &func, int stage, const std::string &loop, const std::vector<int64_t> &inner_factors,
               const std::vector<std::string> &names);
    // Fuses adjacent loops (outermost first) of one kind into one called `fused`.
    void fuse(const std::string &func, int stage, const std::vector<std::string> &outer_to_inner,
              const std::string &fused);
    // Puts every loop of the stage in this order. Refuses to swap the RVars
    // of an update whose RVars Halide cannot reorder (no associativity proof).
    void reorder(const std::string &func, int stage, const std::vector<std::string> &outer_to_inner);
    // Marks a loop parallel, vectorized or unrolled.
    void annotate(const std::string &func, int stage, const std::string &loop, Annotation a);
    // Records the auto_unroll_max_step pragma of a stage.
    void set_auto_unroll(const std::string &func, int stage, int max_step);
    // Marks a stage to run as one GPU thread (gpu_single_thread).
    void set_gpu_single_thread(const std::string &func, int stage);
    // Records the memory type of a Func's buffer (store_in).
    void set_memory_type(const std::string &func, Halide::MemoryType type);
    // Moves a Func to a compute location and rebuilds the loops of its
    // stages: pure-var extents become the footprint needed per iteration of
    // the location. Legality (who may compute where) is the caller's to check.
    void relocate(const std::string &func, const Location &loc);
    // rfactor of the last update (`stage`) of a pipeline Func: a new Func,
    // intermediate_name(func), created_from `func`, does the reduction over
    // the origin's pure Vars plus each preserved RVar as a new pure Var
    // (preserved: RVar loop -> Var name); the factored stage then loops over
    // its pure Vars and the preserved RVars only. The intermediate is placed
    // right after its origin and inlined (Halide's default for a new Func)
    // until relocated. With nothing preserved this is Ansor's cache write.
    // Stores a Func computed at a loop at `store`, a loop that encloses its
    // compute location (Halide's store_at): along the loops in between the
    // computed window slides, so each iteration computes only its share of
    // what the store loop needs (the pure-var extents shrink), and the
    // buffer is folded to one iteration's window (storage_extents).
    // Legality (serial loops in between) is the caller's to check.
    void store_at(const std::string &func, const Location &store);
    const ModelFunc &add_intermediate(const std::string &func, int stage,
                                      const std::vector<std::pair<std::string, std::string>> &preserved);

    // ---- Queries -----------------------------------------------------------
    // How much of each of the consumer's dims one iteration of an At
    // location covers (the product of the loops inside it), and whether that
    // is a compile-time constant in Halide (every such loop has a constant
    // extent). Dims the inner loops do not touch are absent (extent 1).
    struct InnerExtent {
        int64_t extent = 1;
        bool constant = true;
    };
    std::map<std::string, InnerExtent> inner_extents(const Location &loc) const;

    // Whether some Func is computed at this loop (its code sits in the body).
    bool has_attached(const std::string &func, int stage, const std::string &loop) const;

    // Funcs currently inlined, indexed like the DAG's nodes.
    std::vector<bool> inlined_nodes() const;

    // Whether the At location `loc` encloses the computation of `func`:
    // `func` is computed at that loop or one inside it, directly or inside a
    // Func computed there (Halide then lets any producer whose uses are all
    // so enclosed be computed at `loc`).
    bool encloses(const Location &loc, const std::string &func) const;
    // The loops that enclose the computation of `func`, innermost Func last:
    // for `func` at g's loop L, g's loops of that stage down to L, then those
    // enclosing g, and so on up to a Func at root.
    std::vector<Location> enclosing_loops(const std::string &func) const;

private:
    ModelFunc &mutable_func(const std::string &name);
    ModelStage &mutable_stage(const std::string &func, int stage);
    // Whether Halide may permute the RVars of this stage.
    bool rvars_reorderable(const std::string &func, int stage) const;
    // The region of `producer` one iteration of `loc` needs: what the
    // location's consumer reads (direct_footprint), widened by what the
    // producer's other consumers computed inside the location read.
    std::vector<int64_t> footprint(const ModelFunc &producer, const Location &loc) const;
    std::vector<int64_t> direct_footprint(const ModelFunc &producer, const Location &loc,
                                          const std::map<std::string, InnerExtent> &inner) const;
    // What `consumer`, computing `consumer_extents` of its pure dims, reads of `producer`.
    std::vector<int64_t> footprint_through(const ModelFunc &producer, const ModelFunc &consumer,
                                           const std::vector<int64_t> &consumer_extents) const;
    static int64_t reduction_extent(const StageInfo &stage, const std::string &rvar);
    // A stage's loops before any step: `base` with pure-var extents from f.extents.
    static ModelStage build_stage(const ModelFunc &f, const std::vector<StageLoop> &base);
    void rebuild_stages(ModelFunc &f);

    const PipelineDAG *dag_;
    std::vector<ModelFunc> funcs_;
};

}  // namespace ansor
