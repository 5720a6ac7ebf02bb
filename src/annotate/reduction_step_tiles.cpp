#include "annotate/reduction_step_tiles.h"

#include <algorithm>
#include <string>

namespace ansor {

void check_reduction_step_tiles(const LoopNest &m) {
    for (const ModelFunc &f : m.funcs()) {
        const Location &loc = f.location;
        if (loc.kind != LocationKind::At) continue;
        const ModelStage &st = m.stage(loc.func, loc.stage);
        const int k = st.find(loc.loop);
        if (k < 0 || st.loops[k].kind != LoopKind::Reduction) continue;
        int64_t points = 1;
        for (size_t j = k + 1; j < st.loops.size(); j++) {
            if (st.loops[j].kind == LoopKind::Space) points *= std::max<int64_t>(1, st.loops[j].extent);
        }
        if (points > kMaxPointsPerReductionStep) {
            throw InvalidState("'" + f.name + "' is computed at reduction loop '" + loc.loop + "' of '" + loc.func +
                               "' stage " + std::to_string(loc.stage) + ", which steps over " + std::to_string(points) +
                               " points, over " + std::to_string(kMaxPointsPerReductionStep));
        }
    }
}

}  // namespace ansor
