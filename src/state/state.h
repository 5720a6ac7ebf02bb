#pragma once
// A State is a complete (or, for a sketch, partially filled) program: the
// transform steps of every Func, grouped per Func and replayed consumers
// first. Evolution mutates steps, crossover swaps a Func's whole group, and
// the same steps drive the loop-nest model, the Halide schedule, the printed
// source and the tuning record.
#include "state/steps.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

namespace ansor {

struct FuncSteps {
    std::string func;
    std::vector<StepPtr> steps;
};

class State {
public:
    explicit State(const PipelineDAG &dag) : dag_(&dag) {}

    const PipelineDAG &dag() const { return *dag_; }
    // Appends a step to its Func's group.
    void add(StepPtr step);
    const std::vector<FuncSteps> &groups() const { return groups_; }
    std::vector<FuncSteps> &groups() { return groups_; }
    const FuncSteps *group(const std::string &func) const;
    FuncSteps &group(const std::string &func);
    std::vector<StepPtr> steps() const;

    // The loop-nest model after every step. Throws InvalidState.
    LoopNest replay() const;
    // The same, shared: remembered while a ReplayMemo is active
    // (replay_memo.h), so a caller that only reads it copies nothing.
    std::shared_ptr<const LoopNest> replayed() const;
    // The Halide calls the whole state stands for, in order.
    std::vector<Directive> lower() const;
    // Applies the schedule to the Funcs of env (a pipeline or a deep copy of it).
    void apply(const std::map<std::string, Halide::Internal::Function> &env) const;
    // The body of a schedule header, for AutoSchedulerResults::schedule_source.
    std::string source() const;

    nlohmann::json to_json() const;
    static State from_json(const PipelineDAG &dag, const nlohmann::json &j);
    // Canonical text of the steps: equal keys mean the same program.
    std::string key() const { return to_json().dump(); }
    // The program's structure: which Funcs are inlined, computed at root or
    // at which consumer, cache-written or rfactored; not tile sizes, loop
    // order, the loop a Func is computed at, or annotations. Fillings of one
    // sketch share a structure, but several sketches may too (they differ
    // in those loops: see sketch()); the search keeps several structures in
    // each measured batch (see EvolutionOptions).
    std::string structure_key() const;

    // The index of the sketch this program was drawn from (ProgramSampler)
    // or, through mutations and crossovers of programs of one sketch,
    // descends from; -1 when unknown (a program loaded from a log, a
    // crossover of two sketches). Bookkeeping for the search's sketch
    // coverage: not part of the key, the JSON or the schedule.
    int sketch() const { return sketch_; }
    void set_sketch(int index) { sketch_ = index; }

private:
    // steps(), with deferred steps (auto-unroll) moved to the end.
    std::vector<StepPtr> steps_in_replay_order() const;
    int rank(const std::string &func) const;
    const PipelineDAG *dag_;
    std::vector<FuncSteps> groups_;
    int sketch_ = -1;
};

}  // namespace ansor
