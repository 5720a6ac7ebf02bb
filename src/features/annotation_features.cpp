#include "features/detail/feature_writers.h"

#include <algorithm>

namespace ansor {
namespace features {
namespace detail {

namespace {

// The position one-hot of an annotated model loop, starting at virtual
// loop v of the nest.
int position(const LoopNest &m, const StatementNest &N, int v) {
    const NestLoop &L = N.loops[v];
    const std::vector<StageLoop> &base = m.funcs()[L.func].base_stages[L.stage];
    bool space = false, reduce = false;
    int first_base = -1;
    for (int u = v; u < (int)N.loops.size(); u++) {
        const NestLoop &U = N.loops[u];
        if (u > v && U.first) break;
        if (U.base < 0) return kPosMixed;
        if (first_base < 0) first_base = U.base;
        (base[U.base].kind == LoopKind::Space ? space : reduce) = true;
    }
    if (first_base < 0 || (space && reduce)) return kPosMixed;
    LoopKind kind = base[first_base].kind;
    int rank = 0, count = 0;
    for (int i = 0; i < (int)base.size(); i++) {
        if (base[i].kind != kind) continue;
        if (i < first_base) rank++;
        count++;
    }
    bool sp = kind == LoopKind::Space;
    if (rank == count - 1) return sp ? kPosInnerSpatial : kPosInnerReduce;
    if (rank == 0) return sp ? kPosOuterSpatial : kPosOuterReduce;
    return sp ? kPosMiddleSpatial : kPosMiddleReduce;
}

// One annotation group: the model loops annotated with `kind`.
void write_annotation_group(const LoopNest &m, const StatementNest &N, Annotation kind, float *G) {
    const auto &funcs = m.funcs();
    int num = 0, innermost = -1;
    double prod = 1, len = 0;
    for (int v = 0; v < (int)N.loops.size(); v++) {
        const NestLoop &L = N.loops[v];
        if (!L.first) continue;
        const ModelLoop &ml = funcs[L.func].stages[L.stage].loops[L.loop];
        if (ml.annotation != kind) continue;
        num++;
        prod *= (double)std::max<int64_t>(1, ml.extent);
        len = (double)std::max<int64_t>(1, ml.extent);
        innermost = v;
    }
    G[kAnnNum] = (float)num;
    G[kAnnProd] = num ? slog(prod) : 0.f;
    G[kAnnLen] = slog(len);
    G[innermost < 0 ? kPosNone : position(m, N, innermost)] = 1.f;
}

// The GPU columns: is_gpu, blockIdx_{x,y,z}_len, threadIdx_{x,y,z}_len,
// vthread_len. Halide numbers bound loops from the innermost (x) outwards.
// vthread_len is the statement's register tile: the product of the unrolled
// space loops inside its innermost thread loop (the vthread and inner pieces
// of GPU multi-level tiling). All zero for a CPU program.
void write_gpu_features(const LoopNest &m, const StatementNest &N, float *G) {
    const auto &funcs = m.funcs();
    std::vector<double> blocks, threads;  // outermost first
    double tile = 1;
    bool gpu = false, inside_thread = false;
    int last_stage_func = -1, last_stage = -1;
    for (const NestLoop &L : N.loops) {
        if (L.func != last_stage_func || L.stage != last_stage) {
            gpu = gpu || funcs[L.func].stages[L.stage].gpu_single_thread;
            last_stage_func = L.func;
            last_stage = L.stage;
        }
        if (!L.first) continue;
        const ModelLoop &ml = funcs[L.func].stages[L.stage].loops[L.loop];
        const double extent = (double)std::max<int64_t>(1, ml.extent);
        if (ml.annotation == Annotation::GpuBlock) blocks.push_back(extent);
        if (ml.annotation == Annotation::GpuThread) {
            threads.push_back(extent);
            inside_thread = true;
            tile = 1;
        }
        if (inside_thread && ml.annotation == Annotation::Unroll && ml.kind == LoopKind::Space) tile *= extent;
    }
    gpu = gpu || !blocks.empty() || !threads.empty();
    if (!gpu) return;
    G[0] = 1.f;
    for (size_t k = 0; k < 3 && k < blocks.size(); k++) G[1 + k] = slog(blocks[blocks.size() - 1 - k]);
    for (size_t k = 0; k < 3 && k < threads.size(); k++) G[4 + k] = slog(threads[threads.size() - 1 - k]);
    G[7] = inside_thread ? slog(tile) : 0.f;
}

}  // namespace

void write_annotation_features(const LoopNest &m, const StatementNest &N, float *F) {
    write_annotation_group(m, N, Annotation::Vectorize, F + kVecBegin);
    write_annotation_group(m, N, Annotation::Unroll, F + kUnrollBegin);
    write_annotation_group(m, N, Annotation::Parallel, F + kParallelBegin);
    write_gpu_features(m, N, F + kGpuBegin);
}

}  // namespace detail
}  // namespace features
}  // namespace ansor
