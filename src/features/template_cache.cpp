#include "features/detail/template_cache.h"

#include <algorithm>

namespace ansor {
namespace features {
namespace detail {

TemplateCache::TemplateCache(const PipelineDAG &dag) : dag_(dag), images_(dag), variants_(dag.nodes().size()) {}

TemplateCache::NameSource TemplateCache::name_source(const ModelFunc &f, int s, int node,
                                                     const ProgramIndex &index) const {
    NameSource src;
    if (f.dag_index >= 0) {
        bool merge = index.intm_func[node] >= 0 && s + 1 == (int)f.stages.size() && s > 0;
        src.role = merge ? Role::Merge : Role::Regular;
        if (src.role == Role::Merge) src.loops = &f.base_stages[s];
    } else {
        src.role = s == 0 ? Role::IntmInit : Role::IntmUpdate;
        if (src.role == Role::IntmInit) src.loops = &f.base_stages[0];
        src.extra_from = (int)dag_.node(node).pure_args.size();
    }
    return src;
}

bool TemplateCache::same_names(const ModelFunc &f, const NameSource &src, const std::vector<std::string> &names) {
    if (src.role == Role::IntmUpdate) {
        if ((int)f.pure_args.size() - src.extra_from != (int)names.size()) return false;
        for (size_t i = 0; i < names.size(); i++) {
            if (names[i] != f.pure_args[src.extra_from + i]) return false;
        }
        return true;
    }
    if (!src.loops) return names.empty();
    if (src.loops->size() != names.size()) return false;
    for (size_t i = 0; i < names.size(); i++) {
        if (names[i] != (*src.loops)[i].var) return false;
    }
    return true;
}

const DefinitionTemplate *TemplateCache::lookup(const LoopNest &m, int fi, int s, const ProgramIndex &index) {
    const ModelFunc &f = m.funcs()[fi];
    const int node = index.origin[fi];
    const NameSource src = name_source(f, s, node, index);
    // Keyed on the inlining that reaches this node only (see
    // PipelineDAG::inlined_into): the program's whole inlining differs
    // in nearly every candidate of a large pipeline.
    std::vector<bool> reaching = dag_.inlined_into(node, index.inlined);
    for (const Variant &v : variants_[node]) {
        if (v.role == src.role && v.stage == s && v.reaching == reaching && same_names(f, src, v.names)) {
            return v.t.get();
        }
    }
    Variant v;
    v.role = src.role;
    v.stage = s;
    v.reaching = std::move(reaching);
    if (src.role == Role::IntmUpdate) {
        v.names.assign(f.pure_args.begin() + std::min<size_t>(src.extra_from, f.pure_args.size()), f.pure_args.end());
    } else if (src.loops) {
        for (const auto &l : *src.loops) v.names.push_back(l.var);
    }
    v.t = build(f, s, node, src, v.names, index);
    variants_[node].push_back(std::move(v));
    return variants_[node].back().t.get();
}

std::unique_ptr<DefinitionTemplate> TemplateCache::build(const ModelFunc &f, int s, int node, const NameSource &src,
                                                         const std::vector<std::string> &names,
                                                         const ProgramIndex &index) {
    const BuildContext ctx{dag_, images_, index.inlined};
    switch (src.role) {
    case Role::Regular: return build_definition(ctx, node, s, BufKind::Func, {});
    case Role::Merge: return build_merge(dag_, node, f.base_stages[s]);
    case Role::IntmInit: return build_intm_init(dag_, node, f);
    case Role::IntmUpdate:
        return build_definition(ctx, node, (int)dag_.node(node).stages.size() - 1, BufKind::Intm, names);
    }
    return nullptr;
}

}  // namespace detail
}  // namespace features
}  // namespace ansor
