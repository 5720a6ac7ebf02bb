#include "annotate/scan_strip_widths.h"

#include "dag/definition_analysis.h"

#include <algorithm>
#include <string>

namespace ansor {

void check_scan_strip_widths(const LoopNest &m, const Halide::Target &target) {
    for (const ModelFunc &f : m.funcs()) {
        if (f.location.kind != LocationKind::At || f.dag_index < 0) continue;
        const Node &n = m.dag().node(f.dag_index);
        if (n.modelled || n.stages.size() < 2 || n.region.size() != f.extents.size()) continue;
        const std::vector<bool> independent = independent_dims(n);
        if (std::count(independent.begin(), independent.end(), true) == 0) continue;
        if (std::count(independent.begin(), independent.end(), false) == 0) continue;
        int64_t points = 1, whole = 1;
        for (size_t d = 0; d < independent.size() && d < f.extents.size(); d++) {
            if (!independent[d]) continue;
            points *= std::max<int64_t>(1, f.extents[d]);
            whole *= std::max<int64_t>(1, n.region[d].extent);
        }
        const int64_t lanes = std::max(1, target.natural_vector_size(n.func.output_types()[0]));
        const int64_t least = std::min(whole, kMinScanStripVectors * lanes);
        if (points < least) {
            throw InvalidState("'" + f.name + "' is computed per strip of " + std::to_string(points) +
                               " points along its independent dimensions, under " + std::to_string(least));
        }
    }
}

}  // namespace ansor
