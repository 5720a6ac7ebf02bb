#pragma once
// Sketch derivation rules (Ansor §4.1). A rule looks at node i of a
// partial sketch and either passes, or yields successor states (S', i').
// Users add their own rules with register_sketch_rule(); they are tried
// before the built-in ones and join the same enumeration.
#include "state/state.h"

#include <Halide.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ansor {

struct SketchContext {
    const PipelineDAG &dag;
    Halide::Target target;
};

enum class RuleResult { Pass, Apply, ApplyAndSkipRest };

using SketchSuccessors = std::vector<std::pair<State, int>>;

class SketchRule {
public:
    virtual ~SketchRule() = default;
    virtual std::string name() const = 0;
    virtual RuleResult condition(const SketchContext &ctx, const State &s, int node) const = 0;
    virtual SketchSuccessors apply(const SketchContext &ctx, const State &s, int node) const = 0;
};

using SketchRulePtr = std::shared_ptr<const SketchRule>;

// Adds a user rule to every later sketch generation in this process.
void register_sketch_rule(SketchRulePtr rule);
void clear_registered_sketch_rules();
// Registered user rules first, then rules 2, 6, 5, 4, 3, 1 of Ansor's table in
// the order Ansor tries them, with the rules that compute a producer inside
// its consumer's tile or loops: multi_level_tiling_at_consumer_tile and
// tile_for_reduction_steps (before rule 3), compute_at_reduction_step
// (before rule 2), and compute_at_consumer_tile and scan_at_consumer_strip
// (before rule 1, skip); docs/search.md lists them all in order.
std::vector<SketchRulePtr> sketch_rules();
// The rules for the target: sketch_rules() for a CPU, gpu_sketch_rules()
// (gpu_sketch_rules.cpp) when the target has a GPU feature.
std::vector<SketchRulePtr> sketch_rules_for(const Halide::Target &target);
// Registered user rules, then the GPU rules: always_inline,
// gpu_cross_thread_reduction, gpu_multi_level_tiling, gpu_fuse_into_consumer_block,
// skip (docs/gpu.md).
std::vector<SketchRulePtr> gpu_sketch_rules();
// Rule 2 (always_inline) and rule 1 (skip: the node stays at root for
// annotation), shared by the CPU and GPU rule lists. On a GPU, skip's root
// Funcs become kernels of their own whose pure loops the annotator binds.
SketchRulePtr make_always_inline_rule();
SketchRulePtr make_skip_rule();
std::vector<SketchRulePtr> registered_sketch_rules();

// --- Helpers rules are written with --------------------------------------

// Multi-level tiling of one stage: `structure` is a string over {S, R}
// ("SSRSRS"); every space loop gets one piece per S, every reduction loop one
// per R. Returns the loop names of each level, outermost level first.
std::vector<std::vector<std::string>> add_multi_level_tiling(State &s, const std::string &func, int stage,
                                                             const std::string &structure);
// compute_root for a non-output Func.
void add_compute_root(State &s, int node);
// Whether node's last stage reduces with more reduction than space
// parallelism (CPU rule 6, add_rfactor; on a GPU, the cross-thread reduction).
bool needs_reduction_factoring(const PipelineDAG &dag, int node);
// Whether a stage can take multi-level tiling.
bool is_tileable(const PipelineDAG &dag, int node, int stage);
// Whether a rule already gave the Func a loop structure.
bool has_loop_structure(const State &s, const std::string &func);

}  // namespace ansor
