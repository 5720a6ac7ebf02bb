#pragma once
// A Directive is one Halide scheduling call (split, reorder, compute_at, ...).
// Steps lower themselves to directives; the directives are then either
// applied to real Halide Funcs or printed as C++. Because both consumers read
// the same directive list, the applied and printed schedules cannot differ.
#include <Halide.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace ansor {

struct LoopRef {
    std::string name;
    bool is_rvar = false;
};

struct Directive {
    enum class Kind {
        Split, Reorder, Fuse, Parallel, Vectorize, Unroll,
        ComputeRoot, ComputeInline, ComputeAt, Rfactor, BoundStorage, StoreAt, CacheRead, AlignStorage,
        GpuBlocks, GpuThreads, GpuSingleThread, StoreIn, GpuCacheRead
    };
    Kind kind;
    std::string func;
    int stage = 0;
    std::vector<LoopRef> loops;  // Split: old, outer, inner; Reorder: outermost first; Fuse: outer, inner, fused;
                                 // BoundStorage, AlignStorage: the pure Var
    int64_t factor = 0;          // Split: the factor; BoundStorage: the storage extent; AlignStorage: the alignment
    Halide::TailStrategy tail = Halide::TailStrategy::Auto;
    // ComputeAt, StoreAt: where; Rfactor: the new Func's name.
    std::string at_func;
    int at_stage = 0;
    LoopRef at_loop;
    std::vector<std::pair<LoopRef, std::string>> preserved;  // Rfactor: RVar -> new Var
    // CacheRead: `func` is wrapped for this consumer (func.in(consumer)), the
    // wrapper computed at at_func's at_loop with storage order `loops`
    // (innermost first).
    // GpuCacheRead: the same wrapper in GPU shared memory, its pure Vars
    // (`loops`, innermost first) fused, split by `factor` (the block's
    // threads) and the inner piece bound to gpu_threads: a cooperative load.
    std::string wrapped_in;
    // StoreIn: the memory type.
    Halide::MemoryType memory = Halide::MemoryType::Auto;
};

// The C++ spelling of a memory type (MemoryType::GPUShared).
const char *memory_type_source(Halide::MemoryType t);
// The names the cooperative load of a GpuCacheRead gives the wrapper's
// loops: the k-th fuse result, the outer (serial) and inner (thread) pieces.
std::string gpu_cache_read_fused_name(int k);
extern const char *const kGpuCacheReadOuter;
extern const char *const kGpuCacheReadThreads;

// Applies directives to the Funcs of one (deep-copied) pipeline.
class HalideApplier {
public:
    explicit HalideApplier(const std::map<std::string, Halide::Internal::Function> &env);
    void apply(const Directive &d);

private:
    Halide::Func &func(const std::string &name);
    Halide::Stage stage(const std::string &name, int stage);
    std::map<std::string, Halide::Func> funcs_;
};

// Prints directives as the body of a Halide schedule header
// (AutoSchedulerResults::schedule_source).
class SchedulePrinter {
public:
    // `order` is the pipeline's topological order, as Pipeline::get_func uses.
    explicit SchedulePrinter(const std::vector<std::string> &order);
    void print(const Directive &d);
    std::string source() const;

private:
    std::string func_id(const std::string &name);
    std::string loop_id(const LoopRef &l);
    std::string stage_expr(const std::string &func, int stage);
    std::string identifier(const std::string &halide_name, const std::string &suffix);

    std::map<std::string, size_t> order_;
    std::map<std::string, std::string> func_ids_, var_ids_;
    std::map<std::string, bool> used_ids_;
    std::vector<std::string> func_decls_, var_decls_, body_;
};

}  // namespace ansor
