#include "features/detail/statement_nest.h"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <string>

namespace ansor {
namespace features {
namespace detail {

namespace {

// Maps a base variable of an rfactor intermediate's update (a split
// piece such as r_1, or a preserved piece r_0_v) to the definition's
// slots, with the step of the slot per step of the variable.
void resolve(const DefinitionTemplate &t, const std::vector<StageLoop> &base, const std::string &name, double mult,
             int depth, std::vector<std::pair<int, double>> &out) {
    int exact = t.slot_of(name);
    if (exact >= 0) out.emplace_back(exact, mult);
    if (depth > 4) return;
    std::string n = name;
    if (n.size() > 2 && n.compare(n.size() - 2, 2, "_v") == 0) n.resize(n.size() - 2);
    size_t us = n.rfind('_');
    if (us == std::string::npos || us + 1 >= n.size()) return;
    for (size_t i = us + 1; i < n.size(); i++) {
        if (n[i] < '0' || n[i] > '9') return;
    }
    int piece = std::atoi(n.c_str() + us + 1);
    std::string stem = n.substr(0, us);
    // Inner pieces of the same split step the stem by their extents.
    double inner = 1;
    for (const StageLoop &b : base) {
        if (b.var.size() <= stem.size() + 1 || b.var.compare(0, stem.size(), stem) != 0 || b.var[stem.size()] != '_') {
            continue;
        }
        int j = std::atoi(b.var.c_str() + stem.size() + 1);
        if (j > piece) inner *= (double)std::max<int64_t>(1, b.extent);
    }
    if (exact < 0 || n != name) resolve(t, base, stem, mult * inner, depth + 1, out);
}

}  // namespace

IterationCounts count_iterations(const LoopNest &m, const StatementNest &N) {
    const auto &funcs = m.funcs();
    IterationCounts c;
    for (int v = 0; v < (int)N.loops.size(); v++) {
        const NestLoop &L = N.loops[v];
        if (!L.first) continue;
        const ModelLoop &ml = funcs[L.func].stages[L.stage].loops[L.loop];
        double e = (double)std::max<int64_t>(1, ml.extent);
        c.iters *= e;
        if (v < N.chain) c.chain_iters *= e;
        c.real_loops++;
    }
    return c;
}

void NestAssembler::begin_program(const ProgramIndex &index) {
    index_ = &index;
    gen_ = gen_ == std::numeric_limits<int>::max() ? 1 : gen_ + 1;
    const int total = index.total_statements();
    if ((int)nests_.size() < total) nests_.resize(total);
}

StatementNest &NestAssembler::nest(const LoopNest &m, int fi, int s) {
    StatementNest &N = nests_[index_->stmt_off[fi] + s];
    if (N.gen == gen_ || N.gen == -gen_) return N;  // built, or being built (a cycle: no chain)
    N.gen = -gen_;
    N.t = templates_.lookup(m, fi, s, *index_);
    N.loops.clear();
    N.coef.clear();
    inherit_enclosing_loops(m, fi, N);
    N.chain = (int)N.loops.size();
    append_own_loops(m, fi, s, N);
    N.coef.resize(N.loops.size() * N.t->nslots(), 0.0);
    set_own_steps(m, fi, s, N);
    N.gen = gen_;
    return N;
}

// Loops of the Funcs this one is computed in, with their steps carried
// into this definition's variables through the consumer's access to this
// Func.
void NestAssembler::inherit_enclosing_loops(const LoopNest &m, int fi, StatementNest &N) {
    const ProgramIndex &ix = *index_;
    if (ix.at_func[fi] < 0 || ix.at_loop[fi] < 0) return;
    StatementNest &C = nest(m, ix.at_func[fi], ix.at_stage[fi]);
    int p = -1;
    for (int v = (int)C.loops.size() - 1; v >= 0; v--) {
        const NestLoop &L = C.loops[v];
        if (L.func == ix.at_func[fi] && L.stage == ix.at_stage[fi] && L.loop == ix.at_loop[fi]) {
            p = v;
            break;
        }
    }
    if (p < 0 || C.gen != gen_) return;
    const DefinitionTemplate &t = *N.t;
    const int ns = t.nslots();
    BufKind kind = m.funcs()[fi].dag_index >= 0 ? BufKind::Func : BufKind::Intm;
    const TemplateAccess *J = nullptr;
    int jdims = 0;
    for (const TemplateBuffer &b : C.t->buffers) {
        if (b.kind == kind && b.index == ix.origin[fi] && !b.accesses.empty()) {
            J = &C.t->accesses[b.accesses[0]];
            jdims = b.dims;
            break;
        }
    }
    const int cns = C.t->nslots();
    N.loops.assign(C.loops.begin(), C.loops.begin() + p + 1);
    N.coef.assign((size_t)(p + 1) * ns, 0.0);
    if (!J) return;
    int dims = std::min<int>(jdims, (int)t.pure_slot.size());
    for (int v = 0; v <= p; v++) {
        const double *crow = &C.coef[(size_t)v * cns];
        for (int d = 0; d < dims; d++) {
            int j = t.pure_slot[d];
            if (j < 0) continue;
            const double *row = &J->form[(size_t)d * (1 + cns)];
            double sum = 0;
            for (int i = 0; i < cns; i++) sum += row[1 + i] * crow[i];
            N.coef[(size_t)v * ns + j] += sum;
        }
    }
}

// Own loops; a fused loop walks each of its origins in turn.
void NestAssembler::append_own_loops(const LoopNest &m, int fi, int s, StatementNest &N) const {
    const ModelFunc &f = m.funcs()[fi];
    const ModelStage &st = f.stages[s];
    const std::vector<StageLoop> &base = f.base_stages[s];
    auto find_base = [&](const std::string &name) {
        for (size_t i = 0; i < base.size(); i++) {
            if (base[i].var == name) return (int)i;
        }
        return -1;
    };
    for (int l = 0; l < (int)st.loops.size(); l++) {
        const ModelLoop &L = st.loops[l];
        NestLoop v;
        v.func = fi;
        v.stage = s;
        v.loop = l;
        if (L.origins.size() <= 1) {
            v.extent = (double)std::max<int64_t>(1, L.extent);
            v.base = L.origins.empty() ? -1 : find_base(L.origins[0].first);
            N.loops.push_back(v);
        } else {
            for (size_t k = 0; k < L.origins.size(); k++) {
                v.extent = (double)std::max<int64_t>(1, L.origins[k].second);
                v.base = find_base(L.origins[k].first);
                v.first = k == 0;
                N.loops.push_back(v);
            }
        }
    }
}

// The steps of the own loops: inner loops of a base variable first, each
// outer one stepping by the extents of those inside it.
void NestAssembler::set_own_steps(const LoopNest &m, int fi, int s, StatementNest &N) {
    const ModelFunc &f = m.funcs()[fi];
    const std::vector<StageLoop> &base = f.base_stages[s];
    const DefinitionTemplate &t = *N.t;
    const int ns = t.nslots();
    // Which slots a base variable steps: itself, except in an rfactor
    // intermediate's update whose variables are split pieces.
    bool identity = true;
    if (f.dag_index < 0 && s == 1) {
        identity = false;
        if (resolution_.size() < base.size()) resolution_.resize(base.size());
        for (size_t b = 0; b < base.size(); b++) {
            resolution_[b].clear();
            resolve(t, base, base[b].var, 1.0, 0, resolution_[b]);
        }
    }
    run_mult_.assign(base.size(), 1.0);
    for (int v = (int)N.loops.size() - 1; v >= N.chain; v--) {
        const NestLoop &L = N.loops[v];
        if (L.base < 0) continue;
        double step = run_mult_[L.base];
        if (identity) {
            if (L.base < ns) N.coef[(size_t)v * ns + L.base] += step;
        } else {
            for (const auto &r : resolution_[L.base]) N.coef[(size_t)v * ns + r.first] += step * r.second;
        }
        run_mult_[L.base] *= L.extent;
    }
}

}  // namespace detail
}  // namespace features
}  // namespace ansor
