// FeatureExtractor: per program, index its Funcs, then for every statement
// assemble its loop nest, analyse its buffer accesses and write each
// feature group.
#include "features/program_features.h"

#include "features/detail/access_analysis.h"
#include "features/detail/feature_writers.h"
#include "features/detail/program_index.h"
#include "features/detail/statement_nest.h"
#include "features/detail/template_cache.h"

#include <algorithm>
#include <stdexcept>

namespace ansor {

using namespace features::detail;

namespace {

// kWorkPoints / the larger of the outputs' and the input buffers' points
// (feature_writers.h).
double work_scale_of(const PipelineDAG &dag) {
    auto points = [](const std::vector<DimRange> &region) {
        double p = 1;
        for (const DimRange &r : region) p *= (double)std::max<int64_t>(1, r.extent);
        return p;
    };
    double outputs = 0, inputs = 0;
    for (const Node &n : dag.nodes()) {
        if (n.is_output) outputs += points(n.region);
    }
    for (const InputInfo &in : dag.inputs()) {
        if (in.dimensions > 0) inputs += points(in.region);
    }
    return kWorkPoints / std::max({1.0, outputs, inputs});
}

}  // namespace

struct FeatureExtractor::Impl {
    const PipelineDAG &dag;
    // Kept between programs: the pure analysis, and scratch memory.
    TemplateCache templates;
    ProgramIndex index;
    NestAssembler nests;
    AccessAnalysis access;
    std::vector<int> buffer_order;
    const double work_scale;

    Impl(const PipelineDAG &d, int line)
        : dag(d), templates(d), nests(templates), access((double)std::max(1, line)), work_scale(work_scale_of(d)) {}

    void extract(const LoopNest &m, std::vector<StageFeatures> &out);
    void compute(const LoopNest &m, int fi, int s, StageFeatures &out);
};

void FeatureExtractor::Impl::extract(const LoopNest &m, std::vector<StageFeatures> &out) {
    if (&m.dag() != &dag) throw std::invalid_argument("FeatureExtractor: the loop nest belongs to another PipelineDAG");
    index.build(m);
    nests.begin_program(index);
    const auto &funcs = m.funcs();
    const int nf = (int)funcs.size();
    size_t count = 0;
    for (int fi = 0; fi < nf; fi++) {
        if (index.has_statements(m, fi)) count += funcs[fi].stages.size();
    }
    out.resize(count);
    size_t k = 0;
    for (int fi = 0; fi < nf; fi++) {
        if (!index.has_statements(m, fi)) continue;
        for (int s = 0; s < (int)funcs[fi].stages.size(); s++) compute(m, fi, s, out[k++]);
    }
}

void FeatureExtractor::Impl::compute(const LoopNest &m, int fi, int s, StageFeatures &out) {
    out.func = fi;
    out.stage = s;
    float *F = out.values.data();
    std::fill(out.values.begin(), out.values.end(), 0.f);

    const ModelFunc &f = m.funcs()[fi];
    const StatementNest &N = nests.nest(m, fi, s);
    const DefinitionTemplate &t = *N.t;
    const IterationCounts c = count_iterations(m, N);
    access.analyse(m, N, index, templates.images(), c.iters);

    write_arithmetic_features(t, c.iters, work_scale, F);
    write_annotation_features(m, N, F);
    write_buffer_features(access.buffers(), buffer_order, work_scale, F);
    write_allocation_features(f, t, c, work_scale, F);
    write_loop_summary_features(f.stages[s], c, work_scale, F);
    write_intensity_curve_features(access.level_ops_log(), access.level_intensity(), F);
}

FeatureExtractor::FeatureExtractor(const PipelineDAG &dag, int cache_line_bytes)
    : impl_(std::make_unique<Impl>(dag, cache_line_bytes)) {}

FeatureExtractor::~FeatureExtractor() = default;

void FeatureExtractor::extract(const LoopNest &model, std::vector<StageFeatures> &out) { impl_->extract(model, out); }

std::vector<StageFeatures> FeatureExtractor::extract(const LoopNest &model) {
    std::vector<StageFeatures> out;
    impl_->extract(model, out);
    return out;
}

const PipelineDAG &FeatureExtractor::dag() const { return impl_->dag; }

std::vector<StageFeatures> extract_features(const LoopNest &model) {
    FeatureExtractor x(model.dag());
    return x.extract(model);
}

}  // namespace ansor
