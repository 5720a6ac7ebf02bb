// Random annotation of GPU programs (docs/gpu.md): tile sizes within the
// block's thread and register budgets, every stage at root bound to blocks
// and threads (or run as a single thread), the register tiles unrolled, and
// the target's limits checked.
#include "annotate/random_annotator.h"

#include <algorithm>
#include <map>

namespace ansor {

namespace {

bool is_bound(const ModelStage &s) {
    if (s.gpu_single_thread) return true;
    for (const ModelLoop &l : s.loops) {
        if (l.annotation == Annotation::GpuBlock || l.annotation == Annotation::GpuThread) return true;
    }
    return false;
}

int64_t bound_threads(const ModelStage &s) {
    int64_t threads = 1;
    for (const ModelLoop &l : s.loops) {
        if (l.annotation == Annotation::GpuThread) threads *= std::max<int64_t>(1, l.extent);
    }
    return threads;
}

// Whether `func` is computed inside a GPU thread loop / block loop of a Func it is computed in.
struct GpuContext {
    bool in_block = false, in_thread = false;
};

GpuContext gpu_context(const LoopNest &m, const std::string &func) {
    GpuContext c;
    for (const Location &loc : m.enclosing_loops(func)) {
        const Annotation a = m.loop(loc.func, loc.stage, loc.loop).annotation;
        c.in_block = c.in_block || a == Annotation::GpuBlock;
        c.in_thread = c.in_thread || a == Annotation::GpuThread;
    }
    return c;
}

int64_t product(const std::vector<int64_t> &v) {
    int64_t p = 1;
    for (int64_t e : v) p *= std::max<int64_t>(1, e);
    return p;
}

int element_bytes(const LoopNest &m, const ModelFunc &f) {
    const ModelFunc &origin = f.dag_index >= 0 ? f : m.func(f.created_from);
    int bytes = 1;
    if (origin.dag_index >= 0) {
        for (const Halide::Type &t : m.dag().node(origin.dag_index).func.output_types()) bytes = std::max(bytes, t.bytes());
    }
    return bytes;
}

template<typename T>
const T &pick(const std::vector<T> &v, std::mt19937_64 &rng) {
    return v[std::uniform_int_distribution<size_t>(0, v.size() - 1)(rng)];
}

}  // namespace

std::vector<int64_t> RandomAnnotator::sample_gpu_tile(int64_t extent, int64_t threads_so_far, int64_t tile_so_far,
                                                      bool last, std::mt19937_64 &rng) {
    const GpuTargetFacts &g = *gpu_;
    // Mostly tiles that divide the extent: a tail is refused where the
    // accumulator reads an input unclamped (ComputeLocationStep), and the
    // warp-sized tiles of an extent with few divisors all have one.
    const int64_t e = std::max<int64_t>(1, extent);
    const bool exact_only = std::bernoulli_distribution(0.75)(rng);
    std::vector<std::vector<int64_t>> fits, warp_multiples, full_warps;
    for (int pass = exact_only ? 0 : 1; pass < 2 && fits.empty(); pass++) {
        for (const auto &f : space_factors_.factorizations(e, 2)) {
            const int64_t threads = threads_so_far * f[0];
            if (threads > g.max_threads_per_block || tile_so_far * f[1] > g.max_register_tile) continue;
            if (pass == 0 && e % (f[0] * f[1]) != 0) continue;
            fits.push_back(f);
            if (threads % g.warp_size == 0) warp_multiples.push_back(f);
            if (threads >= g.warp_size) full_warps.push_back(f);
        }
    }
    if (fits.empty()) return {1, 1};
    // The last loop decides the block's size: prefer whole warps.
    if (last && !warp_multiples.empty()) return pick(warp_multiples, rng);
    if (last && !full_warps.empty()) return pick(full_warps, rng);
    return pick(fits, rng);
}

State RandomAnnotator::annotate_gpu(const State &sketch, std::mt19937_64 &rng) {
    State out(dag_);
    LoopNest m(dag_);
    for (size_t i = 0; i < m.funcs().size(); i++) {
        const std::string func = m.funcs()[i].name;
        const FuncSteps *g = sketch.group(func);
        // Stages the sketch binds to threads: their open splits are the
        // (thread, tile) splits of GPU multi-level tiling, drawn together.
        std::map<int, int> open_tile_splits;
        bool factored = false;
        if (g) {
            for (const StepPtr &step : g->steps) {
                const auto *a = step->as<AnnotateStep>();
                if (a && a->annotation == Annotation::GpuThread) open_tile_splits[a->stage] = 0;
                factored = factored || step->kind() == "rfactor";
            }
            for (const StepPtr &step : g->steps) {
                const auto *split = step->as<SplitStep>();
                if (split && !split->filled() && open_tile_splits.count(split->stage)) open_tile_splits[split->stage]++;
            }
        }
        std::map<int, std::pair<int64_t, int64_t>> used;  // stage -> (threads, tile) drawn so far
        if (g) {
            for (const StepPtr &step : g->steps) {
                StepPtr s = step;
                const auto *split = step->as<SplitStep>();
                if (split && !split->filled()) {
                    const ModelLoop &l = m.loop(func, split->stage, split->loop);
                    std::vector<int64_t> factors;
                    if (open_tile_splits.count(split->stage) && split->factors.size() <= 2) {
                        // (thread, tile), or (thread) for the "SS" tiling of a consumer block.
                        auto &u = used.emplace(split->stage, std::make_pair(int64_t(1), int64_t(1))).first->second;
                        const bool last = --open_tile_splits[split->stage] == 0;
                        factors = sample_gpu_tile(l.extent, u.first, u.second, last, rng);
                        if (split->factors.size() == 1) factors = {factors[0]};
                        u.first *= factors[0];
                        if (factors.size() == 2) u.second *= factors[1];
                    } else if (factored && l.kind == LoopKind::Reduction && split->factors.size() == 1) {
                        // The piece rfactor turns into the threads of the partial sums.
                        std::vector<int64_t> threads;
                        for (int64_t t = gpu_->warp_size; t <= gpu_->max_threads_per_block && t <= l.extent; t *= 2) {
                            threads.push_back(t);
                        }
                        factors = {threads.empty() ? std::max<int64_t>(1, l.extent) : pick(threads, rng)};
                    } else {
                        factors = sample_tile(m, func, split->stage, split->loop, (int)split->factors.size(), false, rng);
                    }
                    s = std::make_shared<SplitStep>(func, split->stage, split->loop, factors);
                }
                s->replay(m);
                out.add(s);
            }
        }
        const ModelFunc &f = m.func(func);
        if (f.location.kind == LocationKind::Inline) continue;
        for (size_t st = 0; st < f.stages.size(); st++) annotate_gpu_stage(out, m, func, (int)st, rng);
    }
    limit_unroll_steps(out, m);
    // Deferred steps (auto-unroll, shared-memory cache reads) see the final nest.
    check_gpu_program(out, out.replay());
    return out;
}

void RandomAnnotator::annotate_gpu_stage(State &out, LoopNest &m, const std::string &func, int stage,
                                         std::mt19937_64 &rng) {
    auto add = [&](StepPtr s) {
        s->replay(m);
        out.add(std::move(s));
    };
    const ModelFunc &f = m.func(func);
    if (f.dag_index >= 0 && dag_.node(f.dag_index).func.has_extern_definition()) return;
    const GpuContext context = gpu_context(m, func);
    if (context.in_thread) {
        // Computed per thread (the accumulator of a tile): unroll its tile loops.
        std::vector<std::string> tile;
        for (const ModelLoop &l : m.stage(func, stage).loops) {
            if (l.kind == LoopKind::Space && l.constant_extent && l.extent > 1 && l.annotation == Annotation::None) {
                tile.push_back(l.name);
            }
        }
        for (const std::string &loop : tile) add(std::make_shared<AnnotateStep>(func, stage, loop, Annotation::Unroll));
    } else if (context.in_block) {
        bind_block_threads(out, m, func, stage);
    } else if (is_bound(m.stage(func, stage))) {
        // Bound by the sketch: unroll the register tile inside the thread loop.
        std::vector<std::string> tile;
        bool inside = false;
        for (const ModelLoop &l : m.stage(func, stage).loops) {
            if (inside && l.kind == LoopKind::Space && l.constant_extent && l.extent > 1 &&
                l.annotation == Annotation::None && !m.has_attached(func, stage, l.name)) {
                tile.push_back(l.name);
            }
            inside = inside || l.annotation == Annotation::GpuThread;
        }
        for (const std::string &loop : tile) add(std::make_shared<AnnotateStep>(func, stage, loop, Annotation::Unroll));
    } else {
        bind_gpu_stage(out, m, func, stage, rng);
    }
    // Small steps only where unrolled copies are costly to lower (unrolls_little).
    const int unroll = pick(auto_unroll_choices(m, func, stage), rng);
    if (unroll > 0) add(std::make_shared<AutoUnrollStep>(func, stage, unroll));
}

void RandomAnnotator::bind_gpu_stage(State &out, LoopNest &m, const std::string &func, int stage,
                                     std::mt19937_64 &rng) {
    auto add = [&](StepPtr s) {
        s->replay(m);
        out.add(std::move(s));
    };
    const ModelFunc &f = m.func(func);
    const ModelFunc &origin = f.dag_index >= 0 ? f : m.func(f.created_from);
    const bool modelled = origin.dag_index >= 0 && dag_.node(origin.dag_index).modelled;
    // Pure loops Halide lets run in parallel: every space loop of a modelled
    // stage; in a stage the model cannot describe (a scan, a scatter), the
    // pure vars written at their own position only.
    std::vector<std::string> independent;
    if (!modelled && f.dag_index >= 0 && stage < (int)dag_.node(f.dag_index).stages.size()) {
        independent = dag_.node(f.dag_index).stages[stage].independent_vars;
    }
    auto usable = [&](const ModelLoop &l) {
        if (l.kind != LoopKind::Space || l.annotation != Annotation::None) return false;
        return modelled || std::find(independent.begin(), independent.end(), l.name) != independent.end();
    };
    // The first run of adjacent usable loops (loops outside it stay host loops).
    std::vector<std::string> run;
    int64_t extent = 1;
    bool known = true;
    for (const ModelLoop &l : m.stage(func, stage).loops) {
        if (usable(l)) {
            run.push_back(l.name);
            known = known && l.extent > 0;
            extent *= std::max<int64_t>(1, l.extent);
        } else if (!run.empty()) {
            break;
        }
    }
    if (run.empty()) {
        add(std::make_shared<GpuSingleThreadStep>(func, stage));
        return;
    }
    // A reduction loop outside the run (the outer RVar of a cross-thread
    // reduction's intermediate) would stay on the host and launch the kernel
    // once per iteration: it moves inside, so each thread walks it.
    {
        const ModelStage &st = m.stage(func, stage);
        std::vector<std::string> outer_space, outer_reduction, rest;
        bool before_run = true;
        for (const ModelLoop &l : st.loops) {
            const bool in_run = std::find(run.begin(), run.end(), l.name) != run.end();
            before_run = before_run && !in_run;
            if (in_run) continue;
            if (!before_run) rest.push_back(l.name);
            else (l.kind == LoopKind::Reduction ? outer_reduction : outer_space).push_back(l.name);
        }
        if (!outer_reduction.empty()) {
            std::vector<std::string> order = outer_space;
            order.insert(order.end(), run.begin(), run.end());
            order.insert(order.end(), outer_reduction.begin(), outer_reduction.end());
            order.insert(order.end(), rest.begin(), rest.end());
            add(std::make_shared<ReorderStep>(func, stage, order));
        }
    }
    std::string loop = run[0];
    if (run.size() > 1) {
        auto fuse = std::make_shared<FuseStep>(func, stage, run);
        loop = fuse->fused_name();
        add(fuse);
    }
    // Threads per block: whole warps up to the target's limit and the
    // extent (rounded up to a warp); the whole extent when under one warp.
    const GpuTargetFacts &g = *gpu_;
    std::vector<int64_t> sizes;
    for (int64_t t = g.warp_size; t <= g.max_threads_per_block; t *= 2) {
        if (!known || t < extent + g.warp_size) sizes.push_back(t);
    }
    const int64_t threads = (known && extent < g.warp_size) ? extent : pick(sizes, rng);
    auto split = std::make_shared<SplitStep>(func, stage, loop, std::vector<int64_t>{threads});
    const std::vector<std::string> pieces = split->piece_names();
    add(split);
    add(std::make_shared<AnnotateStep>(func, stage, pieces[0], Annotation::GpuBlock));
    add(std::make_shared<AnnotateStep>(func, stage, pieces[1], Annotation::GpuThread));
}

void RandomAnnotator::bind_block_threads(State &out, LoopNest &m, const std::string &func, int stage) {
    auto add = [&](StepPtr s) {
        s->replay(m);
        out.add(std::move(s));
    };
    // The block's size: the thread loop of the Func it is computed in.
    const Location &at = m.func(func).location;
    int64_t threads = 1;
    for (const ModelLoop &l : m.stage(at.func, at.stage).loops) {
        if (l.annotation == Annotation::GpuThread) threads *= std::max<int64_t>(1, l.extent);
    }
    std::vector<std::string> space;
    for (const ModelLoop &l : m.stage(func, stage).loops) {
        if (l.kind == LoopKind::Space) space.push_back(l.name);
    }
    const ModelStage &st = m.stage(func, stage);
    if (space.empty() || (int)space.size() != (int)st.loops.size()) {
        throw InvalidState("'" + func + "' in a GPU block needs pure loops only to share among the block's threads");
    }
    std::string loop = space[0];
    if (space.size() > 1) {
        auto fuse = std::make_shared<FuseStep>(func, stage, space);
        loop = fuse->fused_name();
        add(fuse);
    }
    // Cover the tile in rounds of the block's threads: the outer piece stays
    // a serial loop inside the block, the inner one is the threads.
    auto split = std::make_shared<SplitStep>(func, stage, loop, std::vector<int64_t>{threads});
    const std::string inner = split->piece_names()[1];
    add(split);
    add(std::make_shared<AnnotateStep>(func, stage, inner, Annotation::GpuThread));
}

void RandomAnnotator::check_gpu_program(const State &program, const LoopNest &m) const {
    if (!gpu_) return;
    const GpuTargetFacts &g = *gpu_;
    // Shared memory per block loop: Funcs stored there, then the tiles the
    // cache reads stage there.
    std::map<std::string, int64_t> shared_bytes;
    for (const ModelFunc &f : m.funcs()) {
        if (f.location.kind == LocationKind::Inline) continue;
        if (f.dag_index >= 0 && dag_.node(f.dag_index).func.has_extern_definition()) continue;
        const GpuContext context = gpu_context(m, f.name);
        for (size_t s = 0; s < f.stages.size(); s++) {
            const ModelStage &st = f.stages[s];
            if (bound_threads(st) > g.max_threads_per_block) {
                throw InvalidState("'" + f.name + "' stage " + std::to_string(s) + " has " +
                                   std::to_string(bound_threads(st)) + " threads per block, over the target's " +
                                   std::to_string(g.max_threads_per_block));
            }
            if (!context.in_thread && !is_bound(st)) {
                throw InvalidState("'" + f.name + "' stage " + std::to_string(s) + " would run on the host");
            }
        }
        if (f.memory_type == Halide::MemoryType::GPUShared && f.location.kind == LocationKind::At) {
            shared_bytes[f.location.func + "." + f.location.loop] += product(f.extents) * element_bytes(m, f);
        }
        if (context.in_thread && product(f.extents) > g.max_register_tile) {
            throw InvalidState("'" + f.name + "' holds " + std::to_string(product(f.extents)) +
                               " values per thread, over the register tile bound " + std::to_string(g.max_register_tile));
        }
    }
    std::map<std::string, int64_t> &shared = shared_bytes;
    for (const auto &kv : shared) {
        if (kv.second > g.max_shared_bytes_per_block) {
            throw InvalidState("the shared-memory Funcs at '" + kv.first + "' take " + std::to_string(kv.second) +
                               " bytes, over the target's " + std::to_string(g.max_shared_bytes_per_block));
        }
    }
    for (const StepPtr &step : program.steps()) {
        const auto *read = step->as<GpuCacheReadStep>();
        if (!read) continue;
        LoopNest probe = m;
        probe.relocate(read->func(), read->location);
        const ModelFunc &operand = probe.func(read->func());
        const std::string at = read->location.func + "." + read->location.loop;
        shared[at] += product(operand.extents) * element_bytes(probe, operand);
        if (shared[at] > g.max_shared_bytes_per_block) {
            throw InvalidState("the shared-memory tiles at '" + at + "' take " + std::to_string(shared[at]) +
                               " bytes, over the target's " + std::to_string(g.max_shared_bytes_per_block));
        }
    }
}

}  // namespace ansor
