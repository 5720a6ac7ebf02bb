#pragma once
// The loop-nest model the search works on: for every Func its compute
// location and, for every stage, its loops outermost first with extents and
// annotations. Steps replay onto it; features (later) and the annotator read
// it. Nothing here touches Halide's lowering.
#include "dag/pipeline_dag.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ansor {

enum class Annotation { None, Parallel, Vectorize, Unroll };

// Thrown by replay when a step does not fit the state (a loop that no longer
// exists, an illegal location). The search drops such a state.
class InvalidState : public std::runtime_error {
public:
    explicit InvalidState(const std::string &what) : std::runtime_error(what) {}
};

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
};

struct ModelStage {
    std::vector<ModelLoop> loops;  // outermost first
    int auto_unroll_max_step = 0;

    int find(const std::string &loop) const;
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
    // Loops of each stage before any step, extents at root; pure-var loops
    // take their extent from `extents` when the Func moves.
    std::vector<std::vector<StageLoop>> base_stages;
    std::vector<ModelStage> stages;
};

class LoopNest {
public:
    explicit LoopNest(const PipelineDAG &dag);

    const PipelineDAG &dag() const { return *dag_; }
    const std::vector<ModelFunc> &funcs() const { return funcs_; }
    bool has(const std::string &func) const;
    const ModelFunc &func(const std::string &name) const;
    ModelFunc &func(const std::string &name);
    ModelStage &stage(const std::string &func, int stage);
    const ModelStage &stage(const std::string &func, int stage) const;
    const ModelLoop &loop(const std::string &func, int stage, const std::string &loop) const;
    // The intermediate created from `func` by rfactor / cache write, or null.
    const ModelFunc *intermediate_of(const std::string &func) const;

    // Adds a Func created by rfactor right after the Func it came from.
    ModelFunc &add_created(ModelFunc f);

    // Rebuilds the loops of a Func's stages for a new location: pure-var
    // extents become the footprint needed per iteration of the location.
    void relocate(const std::string &func, const Location &loc);

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

private:
    std::vector<int64_t> footprint(const ModelFunc &producer, const Location &loc) const;
    void rebuild_stages(ModelFunc &f);

    const PipelineDAG *dag_;
    std::vector<ModelFunc> funcs_;
    // Footprints are pure functions of (producer, consumer, inner extents,
    // inlined set); states share one memo so replay stays cheap.
    std::shared_ptr<std::map<std::string, std::vector<int64_t>>> footprint_memo_;
};

}  // namespace ansor
