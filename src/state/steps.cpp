#include "state/steps.h"

#include "util/errors.h"

#include <algorithm>
#include <functional>
#include <optional>

namespace ansor {

using nlohmann::json;

namespace {

const char *annotation_name(Annotation a) {
    switch (a) {
    case Annotation::Parallel: return "parallel";
    case Annotation::Vectorize: return "vectorize";
    case Annotation::Unroll: return "unroll";
    case Annotation::GpuBlock: return "gpu_blocks";
    case Annotation::GpuThread: return "gpu_threads";
    default: return "none";
    }
}

LoopRef ref(const LoopNest &m, const std::string &func, int stage, const std::string &loop) {
    return {loop, m.loop(func, stage, loop).kind == LoopKind::Reduction};
}

int64_t product(const std::vector<int64_t> &v) {
    int64_t p = 1;
    for (int64_t f : v) p *= std::max<int64_t>(1, f);
    return p;
}

json location_json(const Location &l) {
    json j;
    j["at"] = l.func;
    j["stage"] = l.stage;
    j["loop"] = l.loop;
    return j;
}

}  // namespace

Location Renamer::location(const Location &l) const {
    Location out = l;
    if (l.kind == LocationKind::At) {
        out.func = func(l.func);
        out.loop = loop(l.func, l.loop);
    }
    return out;
}

json Step::to_json() const {
    json j;
    j["kind"] = kind();
    j["func"] = func_;
    fields_to_json(j);
    return j;
}

void check_gpu_binding(const LoopNest &m, const std::string &func, int stage, int at, Annotation a);

// ---- split ---------------------------------------------------------------

std::vector<std::string> SplitStep::piece_names() const {
    std::vector<std::string> names;
    for (size_t i = 0; i <= factors.size(); i++) names.push_back(loop + "_" + std::to_string(i));
    return names;
}

bool SplitStep::filled() const {
    return std::all_of(factors.begin(), factors.end(), [](int64_t f) { return f > 0; });
}

void SplitStep::replay(LoopNest &m) const { m.split(func_, stage, loop, factors, piece_names()); }

namespace {

// An index expression bounded by a clamp (max/min, perhaps inside likely()),
// as boundary conditions write them.
bool is_clamped(const Halide::Expr &e) {
    using namespace Halide::Internal;
    if (const Call *c = e.as<Call>()) {
        if (c->is_intrinsic(Call::likely) || c->is_intrinsic(Call::likely_if_innermost)) return is_clamped(c->args[0]);
    }
    return e.as<Max>() || e.as<Min>();
}

// Whether node `node`'s region reaches a pipeline input unclamped: it reads an
// input, or a Func that does, with an index no clamp bounds. Computing such a
// Func over more than its region reads outside the input buffer.
bool reads_input_unclamped(const PipelineDAG &dag, int node) {
    if (node < 0) return false;
    // Depth-first over unclamped calls, each node once (pyramids share producers).
    std::vector<bool> seen(dag.nodes().size(), false);
    std::vector<int> todo = {node};
    seen[node] = true;
    while (!todo.empty()) {
        const int n = todo.back();
        todo.pop_back();
        for (const StageInfo &st : dag.node(n).stages) {
            for (const CallSite &c : st.calls) {
                if (!c.args.empty() && std::all_of(c.args.begin(), c.args.end(), is_clamped)) continue;
                if (c.callee_is_input) return true;
                std::optional<int> callee = dag.index_of(c.callee);
                if (callee && !seen[*callee]) {
                    seen[*callee] = true;
                    todo.push_back(*callee);
                }
            }
        }
    }
    return false;
}

// Whether some consumer reads node `node` through a clamp (a boundary
// condition): near the clamped border, its region inside one of the
// consumer's tiles is narrower than the tile.
bool read_through_clamp(const PipelineDAG &dag, int node) {
    if (node < 0) return false;
    const std::string &name = dag.node(node).name;
    for (const Node &consumer : dag.nodes()) {
        for (const StageInfo &st : consumer.stages) {
            for (const CallSite &c : st.calls) {
                if (c.callee == name && !c.args.empty() && std::all_of(c.args.begin(), c.args.end(), is_clamped)) {
                    return true;
                }
            }
        }
    }
    return false;
}

}  // namespace

std::vector<Directive> SplitStep::lower(const LoopNest &m) const {
    const ModelLoop &old = m.loop(func_, stage, loop);
    bool rvar = old.kind == LoopKind::Reduction;
    std::vector<std::string> names = piece_names();
    std::vector<Directive> out;
    std::string remaining = loop;
    int64_t inner = product(factors);
    const ModelFunc &f = m.func(func_);
    const bool overcompute_reads_outside = read_through_clamp(m.dag(), f.dag_index) &&
                                           reads_input_unclamped(m.dag(), f.dag_index);
    for (size_t i = 0; i < factors.size(); i++) {
        Directive d;
        d.kind = Directive::Kind::Split;
        d.func = func_;
        d.stage = stage;
        bool last = i + 1 == factors.size();
        std::string rest = last ? names.back() : loop + "_r" + std::to_string(i + 1);
        d.loops = {{remaining, rvar}, {names[i], rvar}, {rest, rvar}};
        d.factor = inner;
        // Only the outermost split can have a tail: the rest split exact products.
        if (i == 0 && !rvar && overcompute_reads_outside) {
            // ShiftInwards (what Auto picks for a pure var) computes a whole
            // tile even where the Func's region is narrower than one, as it
            // is near a border its consumer clamps (a boundary condition):
            // the extra points read outside an input buffer unless a clamp
            // bounds the reads on the way to it (a runtime error; camera_pipe's
            // Bayer planes). GuardWithIf computes the region only.
            d.tail = Halide::TailStrategy::GuardWithIf;
        } else if (i == 0 && old.extent % inner != 0) {
            bool pure_stage = stage == 0 && !rvar;
            d.tail = (pure_stage && old.extent >= inner) ? Halide::TailStrategy::ShiftInwards
                                                         : Halide::TailStrategy::GuardWithIf;
        } else if (stage > 0 && !rvar) {
            // Auto would pick RoundUp for an update's pure var, which fails on
            // outputs whose real size is not a multiple of the factor.
            d.tail = Halide::TailStrategy::GuardWithIf;
        }
        out.push_back(d);
        inner /= std::max<int64_t>(1, factors[i]);
        remaining = rest;
    }
    return out;
}

StepPtr SplitStep::renamed(Renamer &r) const {
    auto out = std::make_shared<SplitStep>(r.func(func_), stage, r.loop(func_, loop), factors);
    std::vector<std::string> from = piece_names(), to = out->piece_names();
    for (size_t i = 0; i < from.size(); i++) r.derive_loop(func_, from[i], to[i]);
    return out;
}

StepOrigin SplitStep::origin() const { return factors.size() == 1 ? StepOrigin::Annotation : StepOrigin::Sketch; }

void SplitStep::fields_to_json(json &j) const {
    j["stage"] = stage;
    j["loop"] = loop;
    j["factors"] = factors;
}

// ---- reorder -------------------------------------------------------------

void ReorderStep::replay(LoopNest &m) const { m.reorder(func_, stage, order); }

std::vector<Directive> ReorderStep::lower(const LoopNest &m) const {
    Directive d;
    d.kind = Directive::Kind::Reorder;
    d.func = func_;
    d.stage = stage;
    for (const auto &n : order) d.loops.push_back(ref(m, func_, stage, n));
    return {d};
}

StepPtr ReorderStep::renamed(Renamer &r) const {
    std::vector<std::string> renamed_order;
    for (const auto &l : order) renamed_order.push_back(r.loop(func_, l));
    return std::make_shared<ReorderStep>(r.func(func_), stage, renamed_order);
}

void ReorderStep::fields_to_json(json &j) const {
    j["stage"] = stage;
    j["order"] = order;
}

// ---- fuse ----------------------------------------------------------------

std::string FuseStep::fused_name() const {
    std::string n;
    for (const auto &l : loops) n += l + "_";
    return n + "f";
}

void FuseStep::replay(LoopNest &m) const { m.fuse(func_, stage, loops, fused_name()); }

std::vector<Directive> FuseStep::lower(const LoopNest &m) const {
    std::vector<Directive> out;
    bool rvar = m.loop(func_, stage, loops[0]).kind == LoopKind::Reduction;
    std::string outer = loops[0];
    for (size_t i = 1; i < loops.size(); i++) {
        Directive d;
        d.kind = Directive::Kind::Fuse;
        d.func = func_;
        d.stage = stage;
        std::string fused = i + 1 == loops.size() ? fused_name() : fused_name() + std::to_string(i);
        d.loops = {{outer, rvar}, {loops[i], rvar}, {fused, rvar}};
        out.push_back(d);
        outer = fused;
    }
    return out;
}

StepPtr FuseStep::renamed(Renamer &r) const {
    const std::string dst = r.func(func_);
    std::vector<std::string> renamed_loops;
    for (const auto &l : loops) renamed_loops.push_back(r.loop(func_, l));
    auto out = std::make_shared<FuseStep>(dst, stage, renamed_loops);
    r.derive_loop(func_, fused_name(), out->fused_name());
    return out;
}

void FuseStep::fields_to_json(json &j) const {
    j["stage"] = stage;
    j["loops"] = loops;
}

// ---- parallel / vectorize / unroll ---------------------------------------

std::string AnnotateStep::kind() const { return annotation_name(annotation); }

void AnnotateStep::replay(LoopNest &m) const {
    const ModelStage &s = m.stage(func_, stage);
    int at = s.find(loop);
    if (at < 0) throw InvalidState(kind() + ": no loop '" + loop + "' in '" + func_ + "'");
    const ModelLoop &l = s.loops[at];
    if (annotation != Annotation::Unroll && l.kind == LoopKind::Reduction) {
        throw InvalidState(kind() + " of reduction loop '" + loop + "' would race");
    }
    if (annotation == Annotation::Unroll && !l.constant_extent) {
        throw InvalidState("unroll of '" + loop + "' whose extent is not a constant");
    }
    if (annotation == Annotation::Vectorize && !l.constant_extent) {
        throw InvalidState("vectorize of '" + loop + "' whose extent is not a constant");
    }
    if (annotation == Annotation::GpuBlock || annotation == Annotation::GpuThread) check_gpu_binding(m, func_, stage, at, annotation);
    if (annotation == Annotation::Parallel || annotation == Annotation::Vectorize) {
        // Host-side annotations do not mix with a stage that runs on the GPU.
        bool gpu = s.gpu_single_thread;
        for (const ModelLoop &other : s.loops) {
            gpu = gpu || other.annotation == Annotation::GpuBlock || other.annotation == Annotation::GpuThread;
        }
        if (gpu) throw InvalidState(kind() + " of '" + loop + "' in '" + func_ + "', a stage bound to the GPU");
    }
    m.annotate(func_, stage, loop, annotation);
}

namespace {

// The widest element of a Func's values (an intermediate's: its origin's).
int widest_type_bytes(const LoopNest &m, const std::string &func) {
    const ModelFunc *f = &m.func(func);
    if (f->dag_index < 0 && m.has(f->created_from)) f = &m.func(f->created_from);
    int bytes = 1;
    if (f->dag_index >= 0) {
        for (const Halide::Type &t : m.dag().node(f->dag_index).func.output_types()) bytes = std::max(bytes, t.bytes());
    }
    return bytes;
}

}  // namespace

// Halide 14 cuts a vector into native-width slices for predicated loads and
// stores (a GuardWithIf tail, a cache-write tile): a width one more than a
// multiple of the native width leaves a 1-lane slice, which it passes to
// LLVM's masked load/store intrinsics with mismatched types (an LLVM
// verifier error and an internal error for 17, 33 or 65 lanes). The
// smallest native width of any x86 vector unit (16 bytes) divides the
// larger ones, so a width that is 1 mod 16 bytes' worth of lanes is never
// vectorised: the loop stays scalar.
bool vector_width_breaks_codegen(int64_t width, int element_bytes) {
    const int64_t lanes = std::max<int64_t>(1, 16 / std::max(1, element_bytes));
    return lanes > 1 && width > lanes && width % lanes == 1;
}

// Halide's rules for binding loops to GPU blocks and threads: at most three
// of each per stage, every block loop outside every thread loop, a thread
// loop's extent a constant (the block size), and no loop of the stage already
// parallel or vectorized (host-side annotations).
void check_gpu_binding(const LoopNest &m, const std::string &func, int stage, int at, Annotation a) {
    const ModelStage &s = m.stage(func, stage);
    const ModelLoop &l = s.loops[at];
    const char *what = a == Annotation::GpuBlock ? "gpu_blocks" : "gpu_threads";
    if (l.annotation != Annotation::None) throw InvalidState(std::string(what) + ": loop '" + l.name + "' is already annotated");
    if (s.gpu_single_thread) throw InvalidState(std::string(what) + ": '" + func + "' runs as a single GPU thread");
    if (a == Annotation::GpuThread && !l.constant_extent) {
        throw InvalidState("gpu_threads of '" + l.name + "' whose extent is not a constant");
    }
    int same = 0;
    for (int i = 0; i < (int)s.loops.size(); i++) {
        const Annotation other = s.loops[i].annotation;
        if (other == Annotation::Parallel || other == Annotation::Vectorize) {
            throw InvalidState(std::string(what) + " in '" + func + "', which has a parallel or vectorized loop");
        }
        same += other == a;
        if (a == Annotation::GpuBlock && other == Annotation::GpuThread && i < at) {
            throw InvalidState("gpu_blocks of '" + l.name + "' inside a gpu_threads loop");
        }
        if (a == Annotation::GpuThread && other == Annotation::GpuBlock && i > at) {
            throw InvalidState("gpu_threads of '" + l.name + "' outside a gpu_blocks loop");
        }
    }
    if (same >= 3) throw InvalidState(std::string("more than three ") + what + " loops in '" + func + "'");
}

std::vector<Directive> AnnotateStep::lower(const LoopNest &m) const {
    if (annotation == Annotation::Vectorize) {
        const ModelLoop &l = m.loop(func_, stage, loop);
        if (l.constant_extent && vector_width_breaks_codegen(l.extent, widest_type_bytes(m, func_))) return {};
    }
    Directive d;
    d.kind = annotation == Annotation::Parallel    ? Directive::Kind::Parallel
             : annotation == Annotation::Vectorize ? Directive::Kind::Vectorize
             : annotation == Annotation::GpuBlock  ? Directive::Kind::GpuBlocks
             : annotation == Annotation::GpuThread ? Directive::Kind::GpuThreads
                                                   : Directive::Kind::Unroll;
    d.func = func_;
    d.stage = stage;
    d.loops = {ref(m, func_, stage, loop)};
    return {d};
}

StepPtr AnnotateStep::renamed(Renamer &r) const {
    return std::make_shared<AnnotateStep>(r.func(func_), stage, r.loop(func_, loop), annotation);
}

void AnnotateStep::fields_to_json(json &j) const {
    j["stage"] = stage;
    j["loop"] = loop;
}

// ---- auto unroll ---------------------------------------------------------

std::vector<int> AutoUnrollStep::loops_to_unroll(const LoopNest &m, const std::string &func, int stage,
                                                 int max_step) {
    const ModelStage &s = m.stage(func, stage);
    std::vector<int> out;
    int64_t prod = 1;
    for (int i = (int)s.loops.size() - 1; i >= 0; i--) {
        const ModelLoop &l = s.loops[i];
        if (l.annotation == Annotation::Vectorize) continue;
        if (l.annotation != Annotation::None || !l.constant_extent) break;
        // Unrolling a loop that holds a computed-at producer would copy the
        // producer's whole loop nest per iteration (and blow up LLVM).
        if (m.has_attached(func, stage, l.name)) break;
        if (l.extent <= 1) continue;
        if (prod * l.extent > max_step) break;
        prod *= l.extent;
        out.push_back(i);
    }
    return out;
}

void AutoUnrollStep::replay(LoopNest &m) const {
    std::vector<std::string> names;
    const ModelStage &s = m.stage(func_, stage);
    for (int i : loops_to_unroll(m, func_, stage, max_step)) names.push_back(s.loops[i].name);
    m.set_auto_unroll(func_, stage, max_step);
    for (const std::string &n : names) m.annotate(func_, stage, n, Annotation::Unroll);
}

std::vector<Directive> AutoUnrollStep::lower(const LoopNest &m) const {
    const ModelStage &s = m.stage(func_, stage);
    std::vector<Directive> out;
    for (int i : loops_to_unroll(m, func_, stage, max_step)) {
        Directive d;
        d.kind = Directive::Kind::Unroll;
        d.func = func_;
        d.stage = stage;
        d.loops = {{s.loops[i].name, s.loops[i].kind == LoopKind::Reduction}};
        out.push_back(d);
    }
    return out;
}

StepPtr AutoUnrollStep::renamed(Renamer &r) const {
    return std::make_shared<AutoUnrollStep>(r.func(func_), stage, max_step);
}

void AutoUnrollStep::fields_to_json(json &j) const {
    j["stage"] = stage;
    j["max_step"] = max_step;
}

// ---- compute location ----------------------------------------------------

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
void check_no_input_overread(const LoopNest &m, const std::string &func, const ModelStage &cs, int at,
                             const std::string &consumer) {
    const ModelFunc &f = m.func(func);
    const int node = f.dag_index >= 0 ? f.dag_index : m.func(f.created_from).dag_index;
    if (!reads_input_unclamped(m.dag(), node)) return;
    const ModelFunc &c = m.func(consumer);
    const int consumer_node = c.dag_index >= 0 ? c.dag_index : m.func(c.created_from).dag_index;
    const bool consumer_guards_all = read_through_clamp(m.dag(), c.dag_index) &&
                                     reads_input_unclamped(m.dag(), consumer_node);
    for (int i = 0; i <= at; i++) {
        const ModelLoop &l = cs.loops[i];
        if (l.guarded_tail || (consumer_guards_all && l.tail)) {
            throw InvalidState("'" + func + "' reads an input unclamped and would be computed past the input inside '" +
                               consumer + "' loop '" + l.name + "' (a split with a tail)");
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

Location location_from_json(const json &j, LocationKind kind) {
    Location l;
    l.kind = kind;
    if (kind == LocationKind::At) {
        l.func = j.at("at").get<std::string>();
        l.stage = j.at("stage").get<int>();
        l.loop = j.at("loop").get<std::string>();
    }
    return l;
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
// loads and stores every accumulator on each iteration: 2.6x slower on GEMM).
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

// ---- rfactor / cache write -----------------------------------------------

void RfactorStep::replay(LoopNest &m) const { m.add_intermediate(func_, stage, preserved); }

std::vector<Directive> RfactorStep::lower(const LoopNest &m) const {
    Directive d;
    d.kind = Directive::Kind::Rfactor;
    d.func = func_;
    d.stage = stage;
    d.at_func = created_func();
    for (const auto &p : preserved) d.preserved.push_back({ref(m, func_, stage, p.first), p.second});
    return {d};
}

StepPtr RfactorStep::renamed(Renamer &r) const {
    const std::string dst = r.func(func_);
    std::vector<std::pair<std::string, std::string>> renamed_preserved;
    for (const auto &p : preserved) {
        std::string rvar = r.loop(func_, p.first);
        // The new Var is named after its RVar by the sketch rules
        // (r_0 -> r_0_v); any other name is the search's own and kept.
        bool derived = p.second.size() > p.first.size() && p.second.compare(0, p.first.size(), p.first) == 0;
        std::string var = derived ? rvar + p.second.substr(p.first.size()) : p.second;
        renamed_preserved.emplace_back(rvar, var);
    }
    auto out = std::make_shared<RfactorStep>(dst, stage, renamed_preserved);
    derive_intermediate(r, renamed_preserved);
    return out;
}

// The intermediate loops over its origin's loops and the preserved RVars' new Vars.
void RfactorStep::derive_intermediate(Renamer &r,
                                      const std::vector<std::pair<std::string, std::string>> &renamed_preserved) const {
    std::vector<std::pair<std::string, std::string>> new_vars;
    for (size_t i = 0; i < renamed_preserved.size(); i++) new_vars.emplace_back(preserved[i].second, renamed_preserved[i].second);
    r.derive_func(func_, created_func(), new_vars);
}

// Cache-written or rfactored (not which RVars).
std::string RfactorStep::structure_key() const { return kind() + " " + func_ + ";"; }

void RfactorStep::fields_to_json(json &j) const {
    j["stage"] = stage;
    json p = json::array();
    for (const auto &kv : preserved) p.push_back({kv.first, kv.second});
    j["preserved"] = p;
}

StepPtr CacheWriteStep::renamed(Renamer &r) const {
    auto out = std::make_shared<CacheWriteStep>(r.func(func_));
    derive_intermediate(r, {});
    return out;
}

void CacheWriteStep::fields_to_json(json &) const {}

// ---- JSON registry -------------------------------------------------------

StepPtr step_from_json(const json &j) {
    try {
        std::string kind = j.at("kind").get<std::string>();
        std::string func = j.at("func").get<std::string>();
        auto stage = [&]() { return j.at("stage").get<int>(); };
        auto loop = [&]() { return j.at("loop").get<std::string>(); };
        if (kind == "split") return std::make_shared<SplitStep>(func, stage(), loop(), j.at("factors").get<std::vector<int64_t>>());
        if (kind == "reorder") return std::make_shared<ReorderStep>(func, stage(), j.at("order").get<std::vector<std::string>>());
        if (kind == "fuse") return std::make_shared<FuseStep>(func, stage(), j.at("loops").get<std::vector<std::string>>());
        if (kind == "parallel") return std::make_shared<AnnotateStep>(func, stage(), loop(), Annotation::Parallel);
        if (kind == "vectorize") return std::make_shared<AnnotateStep>(func, stage(), loop(), Annotation::Vectorize);
        if (kind == "unroll") return std::make_shared<AnnotateStep>(func, stage(), loop(), Annotation::Unroll);
        if (kind == "gpu_blocks") return std::make_shared<AnnotateStep>(func, stage(), loop(), Annotation::GpuBlock);
        if (kind == "gpu_threads") return std::make_shared<AnnotateStep>(func, stage(), loop(), Annotation::GpuThread);
        if (kind == "gpu_single_thread") return std::make_shared<GpuSingleThreadStep>(func, stage());
        if (kind == "store_in") return std::make_shared<StoreInStep>(func, memory_type_from_name(j.at("memory").get<std::string>()));
        if (kind == "gpu_cache_read") {
            return std::make_shared<GpuCacheReadStep>(func, j.at("consumer").get<std::string>(),
                                                      location_from_json(j, LocationKind::At));
        }
        if (kind == "auto_unroll") return std::make_shared<AutoUnrollStep>(func, stage(), j.at("max_step").get<int>());
        if (kind == "compute_root") return std::make_shared<ComputeLocationStep>(func, location_from_json(j, LocationKind::Root));
        if (kind == "compute_inline") return std::make_shared<ComputeLocationStep>(func, location_from_json(j, LocationKind::Inline));
        if (kind == "compute_at") return std::make_shared<ComputeLocationStep>(func, location_from_json(j, LocationKind::At));
        if (kind == "cache_write") return std::make_shared<CacheWriteStep>(func);
        if (kind == "cache_read") {
            return std::make_shared<CacheReadStep>(func, j.at("consumer").get<std::string>(),
                                                   location_from_json(j, LocationKind::At),
                                                   j.at("storage").get<std::vector<int>>());
        }
        if (kind == "store_at") return std::make_shared<StoreAtStep>(func, location_from_json(j, LocationKind::At));
        if (kind == "rfactor") {
            std::vector<std::pair<std::string, std::string>> p;
            for (const auto &e : j.at("preserved")) p.emplace_back(e.at(0).get<std::string>(), e.at(1).get<std::string>());
            return std::make_shared<RfactorStep>(func, stage(), p);
        }
        throw UserError("unknown step kind '" + kind + "' in " + j.dump());
    } catch (const json::exception &e) {
        throw UserError("malformed step " + j.dump() + ": " + e.what());
    }
}

}  // namespace ansor
