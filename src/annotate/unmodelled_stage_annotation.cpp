// The annotation of a stage the loop-nest model does not tile (a scan, an
// update the sketch rules leave alone): its innermost space loop vectorized,
// its leading loops parallel when it is at root.
#include "annotate/random_annotator.h"

#include <set>

namespace ansor {

void RandomAnnotator::annotate_unmodelled_stage(State &out, LoopNest &m, const std::string &func, int stage,
                                                const Anchors &anchors) {
    const ModelFunc &f = m.func(func);
    // At root or at a consumer's loop (scan_at_consumer_strip); inside a
    // consumer's loop the Func is only vectorised.
    if (f.dag_index < 0 || f.location.kind == LocationKind::Inline) return;
    const bool at_root = f.location.kind == LocationKind::Root;
    const Node &node = dag_.node(f.dag_index);
    if (node.func.has_extern_definition() || stage >= (int)node.stages.size()) return;
    const StageInfo &info = node.stages[stage];
    std::set<std::string> independent(info.independent_vars.begin(), info.independent_vars.end());
    auto usable = [&](const ModelLoop &l) {
        return l.kind == LoopKind::Space && l.annotation == Annotation::None && l.extent > 0 &&
               independent.count(l.name) && !anchors.count({func, stage, l.name}) && !m.has_attached(func, stage, l.name);
    };
    auto add = [&](StepPtr step) {
        step->replay(m);
        out.add(std::move(step));
    };
    // Vectorise the innermost space loop: split off a native-width piece and
    // move it inside any RVar (a scan then advances a whole vector per step).
    const ModelStage &st = m.stage(func, stage);
    const ModelLoop *inner = nullptr;
    for (const auto &l : st.loops) {
        if (l.kind == LoopKind::Space) inner = &l;
    }
    const int width = vector_width(func);
    if (inner && usable(*inner) && width > 1 && inner->extent >= width) {
        auto split = std::make_shared<SplitStep>(func, stage, inner->name, std::vector<int64_t>{width});
        const std::vector<std::string> pieces = split->piece_names();
        add(split);
        for (const auto &p : pieces) independent.insert(p);
        // A scan over a strip of its consumer runs the strip's vectors side
        // by side inside the serial loop: one vector's chain of dependent
        // steps alone would leave the FMA units waiting. At root the vectors
        // stay outside, the loop the threads share.
        const ModelStage &split_stage = m.stage(func, stage);
        bool has_rvar = false;
        for (const auto &l : split_stage.loops) has_rvar = has_rvar || l.kind == LoopKind::Reduction;
        const bool interleave = has_rvar && !at_root;
        std::vector<std::string> order;
        for (const auto &l : split_stage.loops) {
            if (l.name != pieces.back() && !(interleave && l.name == pieces[0])) order.push_back(l.name);
        }
        if (interleave) order.push_back(pieces[0]);
        order.push_back(pieces.back());
        std::vector<std::string> current;
        for (const auto &l : split_stage.loops) current.push_back(l.name);
        if (current != order) add(std::make_shared<ReorderStep>(func, stage, order));
        add(std::make_shared<AnnotateStep>(func, stage, pieces.back(), Annotation::Vectorize));
    }
    // Parallelise the leading usable loops, fused until there are enough
    // iterations to balance the threads (a few per thread).
    if (!at_root) return;
    std::vector<std::string> lead;
    int64_t prod = 1;
    const ModelStage &root_stage = m.stage(func, stage);
    for (const auto &l : root_stage.loops) {
        if (!usable(l) || prod >= 8 * (int64_t)options_.parallelism || lead.size() == max_fused_loops(stage) ||
            repeats_a_dim(root_stage, lead, l))
            break;
        lead.push_back(l.name);
        prod *= l.extent;
    }
    if (lead.empty() || prod < 2) return;
    std::string target = lead[0];
    if (lead.size() >= 2) {
        auto fuse = std::make_shared<FuseStep>(func, stage, lead);
        target = fuse->fused_name();
        add(fuse);
    }
    add(std::make_shared<AnnotateStep>(func, stage, target, Annotation::Parallel));
}

}  // namespace ansor
