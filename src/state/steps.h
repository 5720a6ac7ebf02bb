#pragma once
// Transform steps: the genes of a program. Each step kind implements, in one
// class, how it (a) replays onto the loop-nest model, (b)+(c) lowers to the
// Halide directives that are applied or printed, and (d) serialises to JSON.
// Adding a step kind means adding one class here and one line to the JSON
// registry in steps.cpp.
#include "state/directive.h"
#include "state/loop_nest.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

namespace ansor {

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

protected:
    explicit Step(std::string func) : func_(std::move(func)) {}
    virtual void fields_to_json(nlohmann::json &j) const = 0;
    std::string func_;
};

using StepPtr = std::shared_ptr<const Step>;

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
    std::string fused_name() const;
    int stage;
    std::vector<std::string> loops;

private:
    void fields_to_json(nlohmann::json &j) const override;
};

class AnnotateStep : public Step {
public:
    AnnotateStep(std::string func, int stage, std::string loop, Annotation a)
        : Step(std::move(func)), stage(stage), loop(std::move(loop)), annotation(a) {}
    std::string kind() const override;
    void replay(LoopNest &model) const override;
    std::vector<Directive> lower(const LoopNest &model) const override;
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
    static std::vector<int> loops_to_unroll(const LoopNest &m, const std::string &func, int stage, int max_step);
    int stage;
    int max_step;

private:
    void fields_to_json(nlohmann::json &j) const override;
};

// compute_root / compute_inline / compute_at.
class ComputeLocationStep : public Step {
public:
    ComputeLocationStep(std::string func, Location loc) : Step(std::move(func)), location(std::move(loc)) {}
    std::string kind() const override;
    void replay(LoopNest &model) const override;
    std::vector<Directive> lower(const LoopNest &model) const override;
    Location location;

private:
    void fields_to_json(nlohmann::json &j) const override;
};

// Allocate a Func's storage at an outer loop while computing it further in.
class StoreAtStep : public Step {
public:
    StoreAtStep(std::string func, Location loc) : Step(std::move(func)), location(std::move(loc)) {}
    std::string kind() const override { return "store_at"; }
    void replay(LoopNest &model) const override;
    std::vector<Directive> lower(const LoopNest &model) const override;
    Location location;

private:
    void fields_to_json(nlohmann::json &j) const override;
};

// rfactor: the preserved RVars become pure Vars of a new Func <func>_intm
// that does the reduction; the stage then only merges the partial results.
// With nothing preserved this is Ansor's cache write (CacheWriteStep).
class RfactorStep : public Step {
public:
    RfactorStep(std::string func, int stage, std::vector<std::pair<std::string, std::string>> preserved)
        : Step(std::move(func)), stage(stage), preserved(std::move(preserved)) {}
    std::string kind() const override { return "rfactor"; }
    void replay(LoopNest &model) const override;
    std::vector<Directive> lower(const LoopNest &model) const override;
    std::string created_func() const { return func_ + "_intm"; }
    int stage;
    std::vector<std::pair<std::string, std::string>> preserved;  // RVar loop -> new Var name

protected:
    void fields_to_json(nlohmann::json &j) const override;
};

// Ansor's cache write for a Func with one update: out.update(0).rfactor({})
// moves the accumulation into <func>_intm, which is then computed inside the
// output's tiles so partial sums stay in a small local buffer.
class CacheWriteStep : public RfactorStep {
public:
    explicit CacheWriteStep(std::string func) : RfactorStep(std::move(func), 1, {}) {}
    std::string kind() const override { return "cache_write"; }

private:
    void fields_to_json(nlohmann::json &j) const override;
};

}  // namespace ansor
