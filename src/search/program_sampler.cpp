#include "search/program_sampler.h"

namespace ansor {

std::optional<State> ProgramSampler::sample(std::mt19937_64 &rng) const {
    if (sketches_.empty()) return std::nullopt;
    std::uniform_int_distribution<size_t> pick(0, sketches_.size() - 1);
    // Some pipelines leave few legal draws (guarded tails refused under
    // consumers that read inputs unclamped): keep drawing.
    for (int attempt = 0; attempt < 512; attempt++) {
        try {
            const size_t index = pick(rng);
            State s = annotator_.annotate(sketches_[index], rng);
            s.replay();
            s.set_sketch((int)index);
            return s;
        } catch (const InvalidState &) {
            // Some draws do not fit (a location the footprint rules out); draw again.
        }
    }
    return std::nullopt;
}

}  // namespace ansor
