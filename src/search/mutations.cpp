#include "search/mutations.h"

#include "annotate/unread_tile_loops.h"

#include "search/state_edit.h"

#include <algorithm>

namespace ansor {

namespace {

template<typename T>
const T &pick(const std::vector<T> &v, std::mt19937_64 &rng) {
    return v[std::uniform_int_distribution<size_t>(0, v.size() - 1)(rng)];
}

struct StepRef {
    size_t group, index;
};

template<typename StepType>
std::vector<StepRef> find_steps(const State &s, const std::function<bool(const StepType &)> &want) {
    std::vector<StepRef> out;
    for (size_t g = 0; g < s.groups().size(); g++) {
        const auto &steps = s.groups()[g].steps;
        for (size_t i = 0; i < steps.size(); i++) {
            auto p = steps[i]->template as<StepType>();
            if (p && want(*p)) out.push_back({g, i});
        }
    }
    return out;
}

std::vector<int64_t> prime_factors(int64_t n) {
    std::vector<int64_t> out;
    for (int64_t p = 2; p * p <= n; p++) {
        while (n % p == 0) {
            out.push_back(p);
            n /= p;
        }
    }
    if (n > 1) out.push_back(n);
    return out;
}

}  // namespace

const char *mutation_name(MutationKind k) {
    switch (k) {
    case MutationKind::TileSize: return "tile_size";
    case MutationKind::Parallel: return "parallel";
    case MutationKind::AutoUnroll: return "auto_unroll";
    case MutationKind::ComputeLocation: return "compute_location";
    }
    return "?";
}

std::optional<State> mutate_tile_size(const State &s, const AnnotationOptions &limits, std::mt19937_64 &rng) {
    auto splits = find_steps<SplitStep>(s, [](const SplitStep &sp) { return sp.filled() && !sp.factors.empty(); });
    if (splits.empty()) return std::nullopt;
    StepRef ref = pick(splits, rng);
    const FuncSteps &group = s.groups()[ref.group];
    const auto &split = *group.steps[ref.index]->as<SplitStep>();
    int64_t extent, max_inner;
    const RandomAnnotator::Anchors anchors = RandomAnnotator::anchors_of(s);
    try {
        const LoopNest before = model_before(s, group.func, ref.index);
        const ModelLoop &loop = before.loop(group.func, split.stage, split.loop);
        extent = loop.extent;
        max_inner = limits.max_inner_factor(loop.kind);
        // A consumer tile whose inner piece is split again (for vectors)
        // keeps the consumer-tile limit; one vectorised as it is stays a
        // register tile.
        if (RandomAnnotator::is_consumer_tile(split, loop.kind, anchors, before)) {
            const std::string inner_piece = split.piece_names().back();
            const bool vectorised_whole = !find_steps<AnnotateStep>(s, [&](const AnnotateStep &a) {
                                               return a.func() == group.func && a.stage == split.stage &&
                                                      a.loop == inner_piece;
                                           }).empty();
            if (!vectorised_whole) max_inner = limits.max_consumer_tile;
        }
    } catch (const InvalidState &) {
        return std::nullopt;
    }
    // Level 0 is the outer loop (its extent follows from the others).
    std::vector<int64_t> inner = split.factors;
    int64_t inner_product = 1;
    for (int64_t f : inner) inner_product *= f;
    int levels = (int)inner.size() + 1;
    auto level_value = [&](int l) { return l == 0 ? (extent + inner_product - 1) / inner_product : inner[l - 1]; };

    std::vector<int> sources;
    for (int l = 0; l < levels; l++) {
        if (level_value(l) > 1) sources.push_back(l);
    }
    if (sources.empty()) return std::nullopt;
    int from = pick(sources, rng);
    int to = std::uniform_int_distribution<int>(0, levels - 2)(rng);
    if (to >= from) to++;
    // Moving out of the outer level only works by whole divisors of the extent
    // left over; a prime factor of the outer count keeps the split exact
    // whenever it was.
    int64_t d = pick(prime_factors(level_value(from)), rng);
    if (from > 0) inner[from - 1] /= d;
    if (to > 0) inner[to - 1] *= d;
    int64_t new_product = 1;
    for (int64_t f : inner) new_product *= f;
    if (new_product > extent || inner.back() > max_inner) return std::nullopt;
    // The pieces of a loop that encloses producers not reading along it
    // keep one iteration (unread_tile_loops.h); only a stage that producers
    // are computed in is replayed to find out.
    const bool has_producers = std::any_of(anchors.begin(), anchors.end(), [&](const auto &anchor) {
        return std::get<0>(anchor) == group.func && std::get<1>(anchor) == split.stage;
    });
    if (has_producers) {
        try {
            const size_t k = pieces_repeating_producers(s.replay(), split);
            if (k > 0 && single_iterations(split.factors, extent, k) && !single_iterations(inner, extent, k)) {
                return std::nullopt;
            }
        } catch (const InvalidState &) {
            return std::nullopt;
        }
    }

    State out = s;
    out.groups()[ref.group].steps[ref.index] = std::make_shared<SplitStep>(group.func, split.stage, split.loop, inner);
    return if_valid(std::move(out));
}

std::optional<State> mutate_parallel(const State &s, std::mt19937_64 &rng) {
    auto parallels = find_steps<AnnotateStep>(s, [](const AnnotateStep &a) { return a.annotation == Annotation::Parallel; });
    if (parallels.empty()) return std::nullopt;
    StepRef ref = pick(parallels, rng);
    const FuncSteps &group = s.groups()[ref.group];
    const auto &par = *group.steps[ref.index]->as<AnnotateStep>();
    // The fuse that made the parallel loop, if any: the step right before.
    std::optional<size_t> fuse_at;
    std::vector<std::string> fused = {par.loop};
    if (ref.index > 0) {
        if (auto f = group.steps[ref.index - 1]->as<FuseStep>();
            f && f->stage == par.stage && f->fused_name() == par.loop) {
            fuse_at = ref.index - 1;
            fused = f->loops;
        }
    }
    size_t first = fuse_at.value_or(ref.index);
    LoopNest before(s.dag());
    try {
        before = model_before(s, group.func, first);
    } catch (const InvalidState &) {
        return std::nullopt;
    }
    // The leading unannotated space loops the parallel loop may cover.
    std::vector<std::string> lead;
    std::vector<int64_t> iterations;  // of the first 1, 2, ... lead loops fused
    const ModelStage &par_stage = before.stage(group.func, par.stage);
    for (const auto &l : par_stage.loops) {
        if (l.kind != LoopKind::Space || l.annotation != Annotation::None) break;
        if (lead.size() == max_fused_loops(par.stage) || repeats_a_dim(par_stage, lead, l)) break;
        lead.push_back(l.name);
        iterations.push_back((iterations.empty() ? 1 : iterations.back()) * std::max<int64_t>(1, l.extent));
    }
    if (fused.size() > lead.size() || !std::equal(fused.begin(), fused.end(), lead.begin())) return std::nullopt;
    std::vector<size_t> choices;
    // Fusing one loop fewer may not leave the threads unbalanced.
    if (fused.size() > 1 && balances_threads(iterations[fused.size() - 2], s.dag().parallelism())) {
        choices.push_back(fused.size() - 1);
    }
    if (fused.size() < lead.size()) choices.push_back(fused.size() + 1);
    if (choices.empty()) return std::nullopt;
    size_t k = pick(choices, rng);

    std::vector<StepPtr> replacement;
    std::string target = lead[0];
    if (k >= 2) {
        auto fuse = std::make_shared<FuseStep>(group.func, par.stage, std::vector<std::string>(lead.begin(), lead.begin() + k));
        target = fuse->fused_name();
        replacement.push_back(fuse);
    }
    replacement.push_back(std::make_shared<AnnotateStep>(group.func, par.stage, target, Annotation::Parallel));
    State out = s;
    auto &steps = out.groups()[ref.group].steps;
    steps.erase(steps.begin() + first, steps.begin() + ref.index + 1);
    steps.insert(steps.begin() + first, replacement.begin(), replacement.end());
    return if_valid(std::move(out));
}

std::optional<State> mutate_auto_unroll(const State &s, const RandomAnnotator &annotator, std::mt19937_64 &rng) {
    LoopNest m(s.dag());
    try {
        m = s.replay();
    } catch (const InvalidState &) {
        return std::nullopt;
    }
    struct Candidate {
        std::string func;
        int stage;
        int current;
    };
    std::vector<Candidate> stages;
    for (const auto &f : m.funcs()) {
        if (f.location.kind == LocationKind::Inline) continue;
        for (size_t st = 0; st < f.stages.size(); st++) stages.push_back({f.name, (int)st, f.stages[st].auto_unroll_max_step});
    }
    if (stages.empty()) return std::nullopt;
    Candidate c = pick(stages, rng);
    std::vector<int> others;
    for (int v : annotator.auto_unroll_choices(m, c.func, c.stage)) {
        if (v != c.current) others.push_back(v);
    }
    if (others.empty()) return std::nullopt;
    int chosen = pick(others, rng);

    State out = s;
    auto &group = out.group(c.func).steps;
    group.erase(std::remove_if(group.begin(), group.end(),
                               [&](const StepPtr &p) {
                                   auto u = p->as<AutoUnrollStep>();
                                   return u && u->stage == c.stage;
                               }),
                group.end());
    if (chosen > 0) group.push_back(std::make_shared<AutoUnrollStep>(c.func, c.stage, chosen));
    return if_valid(std::move(out));
}

std::optional<State> mutate_compute_location(const State &s, RandomAnnotator &annotator, std::mt19937_64 &rng) {
    std::vector<size_t> movable;
    for (size_t g = 0; g < s.groups().size(); g++) {
        if (has_free_location(s, s.groups()[g])) movable.push_back(g);
    }
    if (movable.empty()) return std::nullopt;
    size_t g = pick(movable, rng);
    const std::string func = s.groups()[g].func;
    State out = s;
    try {
        LoopNest m = model_before(s, func, 0);
        Location loc = annotator.random_location(m, func, rng);
        out.groups()[g].steps.clear();
        auto place = std::make_shared<ComputeLocationStep>(func, loc);
        place->replay(m);
        out.groups()[g].steps.push_back(place);
        if (loc.kind != LocationKind::Inline) {
            for (size_t st = 0; st < m.func(func).stages.size(); st++) annotator.annotate_stage(out, m, func, (int)st, rng);
        }
    } catch (const InvalidState &) {
        return std::nullopt;
    }
    if (out.key() == s.key()) return std::nullopt;
    return if_valid(std::move(out));
}

std::optional<State> Mutator::mutate(const State &s, MutationKind kind, std::mt19937_64 &rng) {
    std::optional<State> out;
    switch (kind) {
    case MutationKind::TileSize: out = mutate_tile_size(s, options_, rng); break;
    case MutationKind::Parallel: out = mutate_parallel(s, rng); break;
    case MutationKind::AutoUnroll: out = mutate_auto_unroll(s, annotator_, rng); break;
    case MutationKind::ComputeLocation: out = mutate_compute_location(s, annotator_, rng); break;
    }
    // A GPU mutant must keep to the block's limits (threads, shared memory).
    if (out && !annotator_.fits_target(*out)) return std::nullopt;
    // A new tile size or place can make a stage one whose unrolled copies
    // compile slowly (RandomAnnotator::unrolls_little).
    if (out && (kind == MutationKind::TileSize || kind == MutationKind::ComputeLocation)) {
        annotator_.limit_unroll_steps(*out, out->replay());
    }
    return out;
}

std::optional<State> Mutator::mutate(const State &s, std::mt19937_64 &rng, MutationKind *kind_out) {
    // Tile sizes matter most (TVM weights them ~90%); the rest share the remainder.
    std::discrete_distribution<int> kind({70, 10, 10, 10});
    for (int attempt = 0; attempt < 8; attempt++) {
        auto k = (MutationKind)kind(rng);
        if (auto out = mutate(s, k, rng)) {
            if (kind_out) *kind_out = k;
            return out;
        }
    }
    return std::nullopt;
}

}  // namespace ansor
