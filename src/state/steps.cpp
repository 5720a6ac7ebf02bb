#include "state/steps.h"

#include "state/clamped_reads.h"
#include "state/step_support.h"

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

std::vector<Directive> SplitStep::lower(const LoopNest &m) const {
    const ModelLoop &old = m.loop(func_, stage, loop);
    bool rvar = old.kind == LoopKind::Reduction;
    std::vector<std::string> names = piece_names();
    std::vector<Directive> out;
    std::string remaining = loop;
    int64_t inner = product_of_factors(factors);
    const ModelFunc &f = m.func(func_);
    const bool overcompute_reads_outside = overcompute_reads_past_input(m.dag(), f.dag_index, m.inlined_nodes());
    // A piece of an earlier split split again into whole tiles computes no
    // point outside that piece's range, so it needs no guard of its own;
    // Halide 14 infers wrong bounds for the other dims of a loop fused with
    // the outer half of such a doubly guarded split (reads before an input).
    const bool exact = old.extent % inner == 0;
    const bool splits_a_piece = old.is_piece();
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
        if (i == 0 && !rvar && overcompute_reads_outside && !(exact && splits_a_piece)) {
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

int widest_type_bytes(const LoopNest &m, const std::string &func) {
    const ModelFunc *f = &m.func(func);
    if (f->dag_index < 0 && m.has(f->created_from)) f = &m.func(f->created_from);
    int bytes = 1;
    if (f->dag_index >= 0) {
        for (const Halide::Type &t : m.dag().node(f->dag_index).func.output_types()) bytes = std::max(bytes, t.bytes());
    }
    return bytes;
}

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
