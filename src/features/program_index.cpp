#include "features/detail/program_index.h"

namespace ansor {
namespace features {
namespace detail {

void ProgramIndex::build(const LoopNest &m) {
    index_funcs(m);
    index_locations(m);
}

void ProgramIndex::index_funcs(const LoopNest &m) {
    const PipelineDAG &dag = m.dag();
    const auto &funcs = m.funcs();
    const int nf = (int)funcs.size();
    const int nn = (int)dag.nodes().size();
    node_func.assign(nn, -1);
    intm_func.assign(nn, -1);
    origin.assign(nf, -1);
    stmt_off.resize(nf + 1);
    inlined.assign(nn, false);
    int total = 0;
    for (int fi = 0; fi < nf; fi++) {
        const ModelFunc &f = funcs[fi];
        if (f.dag_index >= 0) {
            origin[fi] = f.dag_index;
            node_func[f.dag_index] = fi;
            inlined[f.dag_index] = f.location.kind == LocationKind::Inline;
        } else {
            auto idx = dag.index_of(f.created_from);
            origin[fi] = idx ? *idx : -1;
            if (idx) intm_func[*idx] = fi;
        }
        stmt_off[fi] = total;
        total += (int)f.stages.size();
    }
    stmt_off[nf] = total;
}

void ProgramIndex::index_locations(const LoopNest &m) {
    const auto &funcs = m.funcs();
    const int nf = (int)funcs.size();
    at_func.assign(nf, -1);
    at_stage.assign(nf, 0);
    at_loop.assign(nf, -1);
    for (int fi = 0; fi < nf; fi++) {
        const Location &loc = funcs[fi].location;
        if (loc.kind != LocationKind::At) continue;
        for (int c = 0; c < nf; c++) {
            if (funcs[c].name != loc.func) continue;
            if (loc.stage >= 0 && loc.stage < (int)funcs[c].stages.size()) {
                at_func[fi] = c;
                at_stage[fi] = loc.stage;
                at_loop[fi] = funcs[c].stages[loc.stage].find(loc.loop);
            }
            break;
        }
    }
}

}  // namespace detail
}  // namespace features
}  // namespace ansor
