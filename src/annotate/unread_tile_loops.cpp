#include "annotate/unread_tile_loops.h"

#include "sketch/producer_reads.h"

#include <algorithm>

namespace ansor {

size_t pieces_repeating_producers(const LoopNest &m, const SplitStep &split) {
    const ModelFunc &consumer = m.func(split.func());
    if (consumer.dag_index < 0) return 0;
    const Node &node = m.dag().node(consumer.dag_index);
    if (split.stage + 1 != (int)node.stages.size()) return 0;  // reads_of reads the last stage
    if (std::find(node.pure_args.begin(), node.pure_args.end(), split.loop) == node.pure_args.end()) return 0;
    const ModelStage &stage = m.stage(split.func(), split.stage);
    const PipelineDAG &dag = m.dag();
    auto will_inline = [&](int j) { return dag.node(j).is_strict_inlinable; };
    // The innermost compute location of the producers in this stage.
    int innermost = -1;
    for (const ModelFunc &producer : m.funcs()) {
        const Location &at = producer.location;
        if (at.kind != LocationKind::At || at.func != split.func() || at.stage != split.stage) continue;
        const auto reads = reads_of(dag, consumer.dag_index, producer.name, will_inline);
        if (reads.empty()) return 0;
        for (const auto &args : reads) {
            for (const Halide::Expr &a : args) {
                if (Halide::Internal::expr_uses_var(a, split.loop)) return 0;
            }
        }
        innermost = std::max(innermost, stage.find_including_fused(at.loop));
    }
    if (innermost < 0) return 0;
    size_t enclosing = 0;
    const std::vector<std::string> pieces = split.piece_names();
    while (enclosing < pieces.size()) {
        const int at = stage.find_including_fused(pieces[enclosing]);
        if (at < 0 || at > innermost) break;
        enclosing++;
    }
    return enclosing;
}

namespace {

// Iterations of each piece, outermost first.
std::vector<int64_t> piece_extents(const std::vector<int64_t> &factors, int64_t extent) {
    int64_t inner = 1;
    for (int64_t f : factors) inner *= std::max<int64_t>(1, f);
    std::vector<int64_t> out{(extent + inner - 1) / inner};
    out.insert(out.end(), factors.begin(), factors.end());
    return out;
}

}  // namespace

bool single_iterations(const std::vector<int64_t> &factors, int64_t extent, size_t pieces) {
    const std::vector<int64_t> extents = piece_extents(factors, extent);
    for (size_t i = 0; i < pieces && i < extents.size(); i++) {
        if (extents[i] > 1) return false;
    }
    return true;
}

std::vector<int64_t> with_single_iterations(const std::vector<int64_t> &factors, int64_t extent, size_t pieces) {
    // The piece that takes the iterations: the first one not enclosing.
    if (pieces == 0 || pieces > factors.size() || extent <= 0) return factors;
    int64_t rest = 1;
    for (size_t i = pieces; i < factors.size(); i++) rest *= std::max<int64_t>(1, factors[i]);
    if (extent % rest != 0) return factors;
    std::vector<int64_t> out = factors;
    for (size_t i = 0; i + 1 < pieces; i++) out[i] = 1;
    out[pieces - 1] = extent / rest;
    return out;
}

}  // namespace ansor
