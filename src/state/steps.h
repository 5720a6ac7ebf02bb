#pragma once
// Transform steps: the genes of a program. A step kind is one class that owns
// everything the rest of the library needs to know about that kind:
//   (a) replay: its edit of the loop-nest model, made through LoopNest's
//       operations (split, fuse, reorder, annotate, relocate, add an
//       intermediate) after checking that Halide would accept it;
//   (b) lower: the Halide directives it stands for, applied or printed;
//   (c) to_json: its fields in the program's JSON (step_from_json reads them);
//   (d) renamed: the same step under other Func and loop names (the
//       name-independent form a tuning record stores), telling the Renamer
//       which loop and Func names it derives;
//   (e) origin: whether a sketch rule or the annotator writes it;
//   (f) structure_key: its part of the program's structure, if any;
//   (g) placement: the compute location it sets, for location steps.
// Adding a step kind means adding one class here and one line to the JSON
// registry in steps.cpp; search, records and the annotator ask these
// virtuals instead of testing for kinds.
#include "state/directive.h"
#include "state/loop_nest.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ansor {

class Step;
using StepPtr = std::shared_ptr<const Step>;

// Who writes a step into a program. Sketch: a sketch rule, fixing the
// program's structure (multi-level tiling, reorders, compute locations,
// rfactor / cache write). Annotation: the annotator filling a sketch in (a
// one-factor vector split, parallel / vectorize / unroll, the fuse that makes
// a parallel loop, auto-unroll). Evolution may redraw a Func's location only
// while everything after its location step is annotation.
enum class StepOrigin { Sketch, Annotation };

// Maps Func and loop names from one naming to another. Steps are renamed in
// State order (consumers first, a Func's steps in order), and a step that
// derives names (split pieces, a fused loop, an rfactor intermediate and its
// Vars) reports them, so every name is known before a later step uses it.
class Renamer {
public:
    virtual ~Renamer() = default;
    // The new name of a Func; throws InvalidState for an unknown one.
    virtual std::string func(const std::string &name) const = 0;
    // The new name of a loop of `func` (both in the old naming); throws
    // InvalidState for an unknown one.
    virtual std::string loop(const std::string &func, const std::string &name) const = 0;
    // A step derived loop `from` of `func` (old naming), called `to` in the new naming.
    virtual void derive_loop(const std::string &func, const std::string &from, const std::string &to) = 0;
    // A step created Func `created` from `origin` (old naming): it has the
    // origin's loops plus `new_vars` (old name -> new name).
    virtual void derive_func(const std::string &origin, const std::string &created,
                             const std::vector<std::pair<std::string, std::string>> &new_vars) = 0;
    // A location with its consumer and loop renamed.
    Location location(const Location &l) const;
};

class Step {
public:
    virtual ~Step() = default;
    virtual std::string kind() const = 0;
    // The Func whose schedule this step changes (its "node" for crossover).
    const std::string &func() const { return func_; }
    // Replay onto the model; throws InvalidState when the step does not fit.
    virtual void replay(LoopNest &model) const = 0;
    // The Halide calls this step stands for, given the model before it.
    virtual std::vector<Directive> lower(const LoopNest &model) const = 0;
    // A deferred step replays and lowers after every other step, seeing the
    // final loop nest (auto-unroll must know which loops hold producers).
    virtual bool deferred() const { return false; }
    nlohmann::json to_json() const;
    // The same step in another naming (see Renamer).
    virtual StepPtr renamed(Renamer &names) const = 0;
    virtual StepOrigin origin() const = 0;
    // This step's part of State::structure_key; empty when it leaves the
    // structure alone (tiling, loop order, annotations).
    virtual std::string structure_key() const { return ""; }
    // The compute location a location step sets; null for other steps.
    virtual const Location *placement() const { return nullptr; }
    // The storage location a store_at step sets; null for other steps.
    virtual const Location *storage() const { return nullptr; }
    // This step as kind T, or null: for code that edits one kind's fields
    // (mutating a split's factors), not for deciding what a kind means.
    template<typename T>
    const T *as() const {
        return dynamic_cast<const T *>(this);
    }

protected:
    explicit Step(std::string func) : func_(std::move(func)) {}
    virtual void fields_to_json(nlohmann::json &j) const = 0;
    std::string func_;
};

// Parses a step written by Step::to_json; throws UserError naming what is wrong.
StepPtr step_from_json(const nlohmann::json &j);

// Splits a loop into factors.size()+1 loops named <loop>_0 (outermost) ..
// <loop>_n. A factor of 0 is still to be filled in by annotation.
class SplitStep : public Step {
public:
    SplitStep(std::string func, int stage, std::string loop, std::vector<int64_t> inner_factors)
        : Step(std::move(func)), stage(stage), loop(std::move(loop)), factors(std::move(inner_factors)) {}
    std::string kind() const override { return "split"; }
    void replay(LoopNest &model) const override;
    std::vector<Directive> lower(const LoopNest &model) const override;
    StepPtr renamed(Renamer &names) const override;
    StepOrigin origin() const override;  // a one-factor split is the annotator's vector split
    std::vector<std::string> piece_names() const;
    bool filled() const;
    int stage;
    std::string loop;
    std::vector<int64_t> factors;

private:
    void fields_to_json(nlohmann::json &j) const override;
};

class ReorderStep : public Step {
public:
    ReorderStep(std::string func, int stage, std::vector<std::string> outer_to_inner)
        : Step(std::move(func)), stage(stage), order(std::move(outer_to_inner)) {}
    std::string kind() const override { return "reorder"; }
    void replay(LoopNest &model) const override;
    std::vector<Directive> lower(const LoopNest &model) const override;
    StepPtr renamed(Renamer &names) const override;
    StepOrigin origin() const override { return StepOrigin::Sketch; }
    int stage;
    std::vector<std::string> order;

private:
    void fields_to_json(nlohmann::json &j) const override;
};

// Fuses consecutive loops (outermost first) into one named fused_name().
class FuseStep : public Step {
public:
    FuseStep(std::string func, int stage, std::vector<std::string> outer_to_inner)
        : Step(std::move(func)), stage(stage), loops(std::move(outer_to_inner)) {}
    std::string kind() const override { return "fuse"; }
    void replay(LoopNest &model) const override;
    std::vector<Directive> lower(const LoopNest &model) const override;
    StepPtr renamed(Renamer &names) const override;
    StepOrigin origin() const override { return StepOrigin::Annotation; }
    std::string fused_name() const;
    int stage;
    std::vector<std::string> loops;

private:
    void fields_to_json(nlohmann::json &j) const override;
};

// Whether vectorising `width` lanes of `element_bytes`-byte values hits
// Halide 14's broken 1-lane predicated slices (steps.cpp); such a loop stays scalar.
bool vector_width_breaks_codegen(int64_t width, int element_bytes);
// The widest element of a Func's values (an intermediate's: its origin's).
int widest_type_bytes(const LoopNest &m, const std::string &func);

class AnnotateStep : public Step {
public:
    AnnotateStep(std::string func, int stage, std::string loop, Annotation a)
        : Step(std::move(func)), stage(stage), loop(std::move(loop)), annotation(a) {}
    std::string kind() const override;
    void replay(LoopNest &model) const override;
    std::vector<Directive> lower(const LoopNest &model) const override;
    StepPtr renamed(Renamer &names) const override;
    StepOrigin origin() const override { return StepOrigin::Annotation; }
    int stage;
    std::string loop;
    Annotation annotation;

private:
    void fields_to_json(nlohmann::json &j) const override;
};

// Ansor's auto_unroll_max_step pragma: unroll the innermost constant-extent
// loops while their extents multiply to at most max_step.
class AutoUnrollStep : public Step {
public:
    AutoUnrollStep(std::string func, int stage, int max_step)
        : Step(std::move(func)), stage(stage), max_step(max_step) {}
    std::string kind() const override { return "auto_unroll"; }
    bool deferred() const override { return true; }
    void replay(LoopNest &model) const override;
    std::vector<Directive> lower(const LoopNest &model) const override;
    StepPtr renamed(Renamer &names) const override;
    StepOrigin origin() const override { return StepOrigin::Annotation; }
    int stage;
    int max_step;

private:
    static std::vector<int> loops_to_unroll(const LoopNest &m, const std::string &func, int stage, int max_step);
    void fields_to_json(nlohmann::json &j) const override;
};

// compute_root / compute_inline / compute_at.
class ComputeLocationStep : public Step {
public:
    ComputeLocationStep(std::string func, Location loc) : Step(std::move(func)), location(std::move(loc)) {}
    std::string kind() const override;
    void replay(LoopNest &model) const override;
    std::vector<Directive> lower(const LoopNest &model) const override;
    StepPtr renamed(Renamer &names) const override;
    StepOrigin origin() const override { return StepOrigin::Sketch; }
    std::string structure_key() const override;
    const Location *placement() const override { return &location; }
    Location location;

private:
    void fields_to_json(nlohmann::json &j) const override;
};

// rfactor: the preserved RVars become pure Vars of a new Func,
// intermediate_name(func), that does the reduction; the stage then only merges the partial results.
// With nothing preserved this is Ansor's cache write (CacheWriteStep).
class RfactorStep : public Step {
public:
    RfactorStep(std::string func, int stage, std::vector<std::pair<std::string, std::string>> preserved)
        : Step(std::move(func)), stage(stage), preserved(std::move(preserved)) {}
    std::string kind() const override { return "rfactor"; }
    void replay(LoopNest &model) const override;
    std::vector<Directive> lower(const LoopNest &model) const override;
    StepPtr renamed(Renamer &names) const override;
    StepOrigin origin() const override { return StepOrigin::Sketch; }
    std::string structure_key() const override;
    std::string created_func() const { return intermediate_name(func_); }
    int stage;
    std::vector<std::pair<std::string, std::string>> preserved;  // RVar loop -> new Var name

protected:
    // Tells the Renamer about the intermediate and its Vars.
    void derive_intermediate(Renamer &names, const std::vector<std::pair<std::string, std::string>> &renamed_preserved) const;
    void fields_to_json(nlohmann::json &j) const override;
};

// Ansor's cache write for a Func with one update: out.update(0).rfactor({})
// moves the accumulation into intermediate_name(func), which is then computed inside the
// output's tiles so partial sums stay in a small local buffer.
class CacheWriteStep : public RfactorStep {
public:
    explicit CacheWriteStep(std::string func) : RfactorStep(std::move(func), 1, {}) {}
    std::string kind() const override { return "cache_write"; }
    StepPtr renamed(Renamer &names) const override;

private:
    void fields_to_json(nlohmann::json &j) const override;
};

// store_at an outer loop of a Func computed at an inner one (Halide's
// f.store_at(g, outer).compute_at(g, inner)): the buffer lives across the
// iterations of the loops in between, which stay serial, so Halide slides
// the computed window along them (each iteration computes only what the
// previous ones did not) and folds the storage to the window (a line
// buffer). Follows the Func's compute_at step; replay checks that the store
// loop encloses the compute loop and that no loop in between is parallel or
// vectorized.
class StoreAtStep : public Step {
public:
    StoreAtStep(std::string func, Location store) : Step(std::move(func)), store(std::move(store)) {}
    std::string kind() const override { return "store_at"; }
    void replay(LoopNest &model) const override;
    std::vector<Directive> lower(const LoopNest &model) const override;
    StepPtr renamed(Renamer &names) const override;
    StepOrigin origin() const override { return StepOrigin::Sketch; }
    std::string structure_key() const override;
    const Location *storage() const override { return &store; }
    Location store;

private:
    void fields_to_json(nlohmann::json &j) const override;
};

// Ansor's cache read: `func` (a Func that reads pipeline inputs only, such
// as an input's wrapper Func) staged for one consumer through a Halide wrapper, func.in(consumer),
// computed at `location` (a loop enclosing the consumer's computation, or
// one of its own loops) with the wrapper's storage in `storage_order`
// (indices of func's pure args, innermost first; empty: Halide's order). The wrapper copies the region the
// consumer reads inside the loop into a compact buffer: GEMM's packed B
// panel, reused across the tile's rows. Deferred: it checks and lowers
// against the final loop nest (after the annotator's fuses), and leaves the
// model's loops alone (the copy is not a statement of the features).
class CacheReadStep : public Step {
public:
    CacheReadStep(std::string func, std::string consumer, Location location, std::vector<int> storage_order)
        : Step(std::move(func)), consumer(std::move(consumer)), location(std::move(location)),
          storage_order(std::move(storage_order)) {}
    std::string kind() const override { return "cache_read"; }
    bool deferred() const override { return true; }
    void replay(LoopNest &model) const override;
    std::vector<Directive> lower(const LoopNest &model) const override;
    StepPtr renamed(Renamer &names) const override;
    StepOrigin origin() const override { return StepOrigin::Sketch; }
    std::string structure_key() const override;
    // The wrapper's buffer lives at `location`: the annotator keeps the loop.
    const Location *storage() const override { return &location; }
    std::string consumer;
    Location location;
    std::vector<int> storage_order;

private:
    void fields_to_json(nlohmann::json &j) const override;
};

// ---- GPU steps (gpu_steps.cpp) ---------------------------------------------
// Binding loops to GPU blocks and threads is an AnnotateStep with
// Annotation::GpuBlock / GpuThread (kinds "gpu_blocks" / "gpu_threads";
// replay checks Halide's rules: at most three of each per stage, blocks
// outside threads, a constant thread extent).

// Halide's Stage::gpu_single_thread(): the stage runs on the GPU as one
// thread of one block. For a stage with no pure loop that may be bound (the
// update of a reduction to a scalar, a scan over its only dimension).
class GpuSingleThreadStep : public Step {
public:
    GpuSingleThreadStep(std::string func, int stage) : Step(std::move(func)), stage(stage) {}
    std::string kind() const override { return "gpu_single_thread"; }
    void replay(LoopNest &model) const override;
    std::vector<Directive> lower(const LoopNest &model) const override;
    StepPtr renamed(Renamer &names) const override;
    StepOrigin origin() const override { return StepOrigin::Annotation; }
    int stage;

private:
    void fields_to_json(nlohmann::json &j) const override;
};

// Halide's Func::store_in(memory): where the Func's buffer lives (GPU shared
// memory, registers, the stack, the heap). Register, Stack and GPUShared
// need a Func computed at a loop.
class StoreInStep : public Step {
public:
    StoreInStep(std::string func, Halide::MemoryType memory) : Step(std::move(func)), memory(memory) {}
    std::string kind() const override { return "store_in"; }
    void replay(LoopNest &model) const override;
    std::vector<Directive> lower(const LoopNest &model) const override;
    StepPtr renamed(Renamer &names) const override;
    StepOrigin origin() const override { return StepOrigin::Sketch; }
    std::string structure_key() const override;
    Halide::MemoryType memory;

private:
    void fields_to_json(nlohmann::json &j) const override;
};
// The JSON names of memory types ("auto", "heap", "stack", "register",
// "gpu_shared"); an unknown name is a UserError.
std::string memory_type_name(Halide::MemoryType t);
Halide::MemoryType memory_type_from_name(const std::string &name);

// Ansor's shared-memory cache read on a GPU: `func` (a Func that reads
// pipeline inputs only, such as an input's wrapper) staged for `consumer`
// (a pipeline Func or an rfactor / cache-write intermediate) through a
// Halide wrapper, func.in(consumer), computed at `location` (a gpu_blocks
// loop enclosing the consumer's computation) and stored in GPU shared
// memory; the wrapper's loops are fused and split by the block's thread
// count (the extent of the location stage's gpu_threads loop), the inner
// piece bound to gpu_threads, so the block's threads load the tile together.
// Deferred: it checks and lowers against the final loop nest; the wrapper is
// not a model Func.
class GpuCacheReadStep : public Step {
public:
    GpuCacheReadStep(std::string func, std::string consumer, Location location)
        : Step(std::move(func)), consumer(std::move(consumer)), location(std::move(location)) {}
    std::string kind() const override { return "gpu_cache_read"; }
    bool deferred() const override { return true; }
    void replay(LoopNest &model) const override;
    std::vector<Directive> lower(const LoopNest &model) const override;
    StepPtr renamed(Renamer &names) const override;
    StepOrigin origin() const override { return StepOrigin::Sketch; }
    std::string structure_key() const override;
    const Location *storage() const override { return &location; }
    // The threads of the block that loads the tile; throws InvalidState when
    // the location's stage binds no gpu_threads loop.
    int64_t block_threads(const LoopNest &model) const;
    std::string consumer;
    Location location;

private:
    void fields_to_json(nlohmann::json &j) const override;
};

}  // namespace ansor
