// The compute location step: inline, at root, or at a consumer's loop, and
// the bounds and alignment Halide needs for a Func computed inside a tile.
#include "state/clamped_reads.h"
#include "state/step_support.h"
#include "state/steps.h"

#include "util/errors.h"

#include <algorithm>
#include <functional>
#include <optional>

namespace ansor {

using nlohmann::json;

std::string ComputeLocationStep::kind() const {
    switch (location.kind) {
    case LocationKind::Inline: return "compute_inline";
    case LocationKind::At: return "compute_at";
    default: return "compute_root";
    }
}

namespace {

// Checks that `func` may live at `loc`: Halide needs every use of it inside
// that loop: the location's Func (only its using stage) or consumers computed
// inside that loop.
// A Func computed inside a consumer's loop is computed over the range the
// loop's split covers, tail included: a guarded tail (GuardWithIf) guards the
// consumer's points, not its producers' bounds. A producer that reads a
// pipeline input unclamped would read past the input's end there (Halide's
// "Input buffer ... is accessed at N, which is beyond the max"). A shifted
// tail stays inside the extent, unless SplitStep::lower guards the
// consumer's own tails because it over-reads too.
// And Halide 14 bounds a producer computed at a loop of a consumer T over
// T's loops inside that loop. Where T is itself computed inside its own
// consumer and read there through a clamp, T's extent along such a loop is
// the difference of two clamps of that consumer's loop variable, and bounds
// inference takes the largest start plus the largest extent: the producer
// asks for up to twice the input (fuzz seed 187: [0, 372) of [0, 187)). At
// T's innermost loops, or those of a constant extent (a split's inner
// piece), nothing varies.
void check_no_input_overread(const LoopNest &m, const std::string &func, const ModelStage &cs, int at,
                             const std::string &consumer) {
    const ModelFunc &f = m.func(func);
    const int node = f.dag_index >= 0 ? f.dag_index : m.func(f.created_from).dag_index;
    if (!reads_input_unclamped(m.dag(), node)) return;
    const ModelFunc &c = m.func(consumer);
    const int consumer_node = c.dag_index >= 0 ? c.dag_index : m.func(c.created_from).dag_index;
    const bool clamped = read_through_clamp(m.dag(), c.dag_index, m.inlined_nodes());
    const bool consumer_guards_all = clamped && reads_input_unclamped(m.dag(), consumer_node);
    for (int i = 0; i <= at; i++) {
        const ModelLoop &l = cs.loops[i];
        if (l.guarded_tail || (consumer_guards_all && l.tail)) {
            throw InvalidState("'" + func + "' reads an input unclamped and would be computed past the input inside '" +
                               consumer + "' loop '" + l.name + "' (a split with a tail)");
        }
    }
    if (!clamped || c.dag_index < 0 || c.location.kind != LocationKind::At) return;
    for (size_t i = at + 1; i < cs.loops.size(); i++) {
        const ModelLoop &l = cs.loops[i];
        if (l.kind == LoopKind::Space && !l.constant_extent) {
            throw InvalidState("'" + func + "' inside '" + consumer + "' loop '" + cs.loops[at].name +
                               "' would be bounded over loop '" + l.name +
                               "', whose extent a clamp sets: Halide would ask for its inputs past their end");
        }
    }
}

void check_location(const LoopNest &m, const std::string &func, const Location &loc) {
    const ModelFunc &f = m.func(func);
    if (loc.kind == LocationKind::Root) return;
    if (f.dag_index >= 0 && m.dag().node(f.dag_index).is_output) {
        throw InvalidState("output '" + func + "' must be computed at root");
    }
    if (loc.kind == LocationKind::Inline) {
        if (f.dag_index < 0 || f.stages.size() != 1) throw InvalidState("'" + func + "' has updates and cannot be inlined");
        std::vector<bool> inlined = m.inlined_nodes();
        inlined[f.dag_index] = true;
        if (m.dag().largest_inlined_call_count(inlined) > PipelineDAG::kMaxCallsAfterInlining) {
            throw InvalidState("inlining '" + func + "' would leave an expression with over " +
                               std::to_string(PipelineDAG::kMaxCallsAfterInlining) + " calls");
        }
        return;
    }
    const ModelFunc &c = m.func(loc.func);
    if (c.location.kind == LocationKind::Inline) throw InvalidState("cannot compute inside inlined '" + loc.func + "'");
    // Halide 14 matches compute_at sites without a stage index, which
    // means the consumer's last stage.
    if (loc.stage + 1 != (int)c.stages.size()) {
        throw InvalidState("compute_at must name the last stage of '" + loc.func + "'");
    }
    const ModelStage &cs = m.stage(loc.func, loc.stage);
    int at = cs.find(loc.loop);
    if (at < 0) throw InvalidState("compute_at: no loop '" + loc.loop + "' in '" + loc.func + "'");
    for (int i = 0; i <= at; i++) {
        if (cs.loops[i].annotation == Annotation::Vectorize) {
            throw InvalidState("compute_at inside a vectorized loop of '" + loc.func + "'");
        }
    }
    check_no_input_overread(m, func, cs, at, loc.func);
    if (f.dag_index < 0) return;  // an intermediate lives inside its origin; footprint checks that
    const PipelineDAG &dag = m.dag();
    auto consumers = dag.effective_consumers(f.dag_index, m.inlined_nodes());
    const ModelFunc &owner = c.dag_index >= 0 ? c : m.func(c.created_from);
    // Every use must sit inside the location: in the location's own Func, or
    // in a consumer computed at that loop or inside it (a chain of producers
    // at one consumer tile).
    bool read_by_owner = false;
    for (int consumer : consumers) {
        if (consumer == owner.dag_index) {
            read_by_owner = true;
        } else if (!m.encloses(loc, dag.node(consumer).name)) {
            throw InvalidState("'" + func + "' has uses outside '" + loc.func + "'");
        }
    }
    if (consumers.empty()) throw InvalidState("'" + func + "' has no consumer to be computed in");
    if (read_by_owner && c.dag_index >= 0) {
        // Only the using stage may hold it: no other stage may call it,
        // directly or through inlined Funcs.
        const Node &cn = dag.node(c.dag_index);
        const std::vector<bool> inlined = m.inlined_nodes();
        std::function<bool(int)> reaches = [&](int node) {
            if (node == f.dag_index) return true;
            if (!inlined[node]) return false;
            for (int p : dag.node(node).producers) {
                if (reaches(p)) return true;
            }
            return false;
        };
        for (size_t s = 0; s < cn.stages.size(); s++) {
            if ((int)s == loc.stage) continue;
            for (const auto &call : cn.stages[s].calls) {
                auto idx = dag.index_of(call.callee);
                if (idx && reaches(*idx)) {
                    throw InvalidState("'" + func + "' is also used by stage " + std::to_string(s) + " of '" + loc.func + "'");
                }
            }
        }
    }
}

Directive location_directive(const LoopNest &m, const std::string &func, const Location &loc) {
    Directive d;
    d.func = func;
    if (loc.kind == LocationKind::Root) {
        d.kind = Directive::Kind::ComputeRoot;
    } else if (loc.kind == LocationKind::Inline) {
        d.kind = Directive::Kind::ComputeInline;
    } else {
        d.kind = Directive::Kind::ComputeAt;
        d.at_func = loc.func;
        d.at_stage = loc.stage;
        d.at_loop = ref(m, loc.func, loc.stage, loc.loop);
    }
    return d;
}

}  // namespace

void ComputeLocationStep::replay(LoopNest &m) const {
    check_location(m, func_, location);
    m.relocate(func_, location);
}

// A cache-write intermediate (rfactor with no preserved RVar) has the same
// pure vars as the output it came from and is read pointwise inside its
// tiles; an rfactor with preserved RVars adds dims the output's loops do not
// name.
static bool is_cache_write_intermediate(const LoopNest &m, const std::string &func) {
    if (!m.has(func)) return false;
    const ModelFunc &f = m.func(func);
    return f.dag_index < 0 && m.has(f.created_from) && f.pure_args == m.func(f.created_from).pure_args;
}

// A cache-write intermediate computed inside its output's tiles holds one
// tile. Halide sizes its buffer from the tile's bounds, which are symbolic
// when the output's splits guard their tails, and a symbolic row stride keeps
// LLVM from holding the accumulators in registers (the reduction loop then
// loads and stores every accumulator on each iteration, as GEMM showed).
// Bounding the storage by the tile's constant extent fixes the stride. Only
// dims the location's inner loops cover with constant extents are bounded,
// so the schedule stays valid for any output size.
// Not inside a GPU kernel: Halide checks bound_storage with an assertion
// that, unproven, would call the host runtime from device code (CUDA
// refuses it; OpenCL drops it).
static bool inside_gpu_kernel(const LoopNest &m, const Location &loc) {
    const ModelStage &s = m.stage(loc.func, loc.stage);
    const int at = s.find(loc.loop);
    for (int i = 0; i <= at; i++) {
        if (s.loops[i].annotation == Annotation::GpuBlock || s.loops[i].annotation == Annotation::GpuThread) return true;
    }
    return s.gpu_single_thread;
}

static std::vector<Directive> tile_storage_bounds(const LoopNest &m, const std::string &func, const Location &loc) {
    std::vector<Directive> out;
    if (loc.kind != LocationKind::At || !is_cache_write_intermediate(m, func)) return out;
    if (inside_gpu_kernel(m, loc)) return out;
    if (m.func(func).created_from != loc.func) return out;
    const auto inner = m.inner_extents(loc);
    for (const std::string &arg : m.func(func).pure_args) {
        auto it = inner.find(arg);
        LoopNest::InnerExtent e = it == inner.end() ? LoopNest::InnerExtent{} : it->second;
        if (!e.constant) continue;
        Directive d;
        d.kind = Directive::Kind::BoundStorage;
        d.func = func;
        d.loops = {{arg, false}};
        d.factor = e.extent;
        out.push_back(d);
    }
    return out;
}

// A Func computed inside a consumer's loop gets a buffer per iteration whose
// rows Halide 14 sizes exactly (33 floats for a 2x downsample of a 16-wide
// vector tile). Its vectorised consumers' loads from such a buffer can then
// carry an alignment the address does not have: Halide emits aligned 64-byte
// loads at odd row offsets, which fault on AVX-512 (a segfault in the
// candidate). Padding the innermost dim of the storage to 64 bytes makes every
// row start where the alignment analysis assumes. Cache-write intermediates
// keep their bounded tile storage (tile_storage_bounds) and are read pointwise.
static std::vector<Directive> row_alignment(const LoopNest &m, const std::string &func, const Location &loc) {
    std::vector<Directive> out;
    if (loc.kind != LocationKind::At || is_cache_write_intermediate(m, func)) return out;
    const ModelFunc &f = m.func(func);
    if (f.pure_args.empty() || f.dag_index < 0) return out;
    // Elements per 64 bytes of the narrowest type: every Tuple element's rows are then 64-byte multiples.
    int bytes = 8;
    for (const Halide::Type &t : m.dag().node(f.dag_index).func.output_types()) bytes = std::min(bytes, std::max(1, t.bytes()));
    Directive d;
    d.kind = Directive::Kind::AlignStorage;
    d.func = func;
    d.loops = {{f.pure_args[0], false}};
    d.factor = 64 / bytes;
    out.push_back(d);
    return out;
}

std::vector<Directive> ComputeLocationStep::lower(const LoopNest &m) const {
    std::vector<Directive> out = {location_directive(m, func_, location)};
    for (Directive &d : tile_storage_bounds(m, func_, location)) out.push_back(std::move(d));
    for (Directive &d : row_alignment(m, func_, location)) out.push_back(std::move(d));
    return out;
}

StepPtr ComputeLocationStep::renamed(Renamer &r) const {
    return std::make_shared<ComputeLocationStep>(r.func(func_), r.location(location));
}

// Which Funcs are inlined, at root or inside which consumer; not the loop.
std::string ComputeLocationStep::structure_key() const {
    std::string out = kind() + " " + func_;
    if (location.kind == LocationKind::At) out += " " + location.func;
    return out + ";";
}

void ComputeLocationStep::fields_to_json(json &j) const {
    if (location.kind == LocationKind::At) j.update(location_json(location));
}

}  // namespace ansor
