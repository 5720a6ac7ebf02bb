#include "search/gpu_choice.h"

#include <algorithm>

namespace ansor {

GpuVerifiedChoice verify_gpu_candidates(GpuMeasurer &verifier, const std::vector<State> &ranked, size_t batch) {
    GpuVerifiedChoice choice;
    batch = std::max<size_t>(1, batch);
    for (size_t begin = 0; begin < ranked.size(); begin += batch) {
        const size_t end = std::min(ranked.size(), begin + batch);
        std::vector<State> group(ranked.begin() + (std::ptrdiff_t)begin, ranked.begin() + (std::ptrdiff_t)end);
        std::vector<MeasureResult> results = verifier.measure(group);
        for (size_t i = 0; i < results.size(); i++) {
            const MeasureResult &r = results[i];
            // not_run: built and within the limits by ptxas, but no device ran it.
            if (r.ok || r.not_run) {
                choice.state = group[i];
                choice.rank = begin + i;
                choice.correctness_checked = r.ok;
                choice.device = r.device;
                return choice;
            }
            choice.rejected.push_back("rank " + std::to_string(begin + i) + ": " + r.error);
            choice.rejected_programs.push_back(group[i]);
        }
    }
    return choice;
}

}  // namespace ansor
