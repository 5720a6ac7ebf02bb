// The footprint memo (dag/read_widths.h) gives exactly the widths Halide's
// bounds inference gives, on a first query and on every repeat, for random
// extents and random sets of inlined Funcs: affine stencils (memoised per
// dim), a constant-exterior boundary (a Select: memoised whole) and a
// lookup indexed by another Func's values (keyed by every inlined Func), and
// reads at offsets computed from the data (no bound within a tile).
#include "dag/definition_analysis.h"
#include "dag/pipeline_dag.h"
#include "dag/read_widths.h"
#include "test_pipelines.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>

using namespace ansor;
using namespace ansor_test;
using namespace Halide;
using namespace Halide::Internal;

namespace {

// Stencils, a lookup table indexed by the image, and a transpose.
Pipe make_lookup_stencils(int w = 40, int h = 24) {
    ImageParam in(UInt(8), 2, "in");
    in.dim(0).set_estimate(0, w).dim(1).set_estimate(0, h);
    Var x("x"), y("y"), i("i");
    Func edge = BoundaryConditions::repeat_edge(in);
    Func lut("lut"), mapped("mapped"), blur("blur"), flip("flip"), out("out");
    lut(i) = cast<float>(i) * 0.5f;
    mapped(x, y) = lut(cast<int>(edge(x, y)));
    blur(x, y) = mapped(x - 1, y) + mapped(x + 1, y) + mapped(x, y + 2);
    flip(x, y) = blur(y, x) + mapped(x, y);
    out(x, y) = flip(x, y) + blur(x, y / 2);
    out.set_estimate(x, 0, w).set_estimate(y, 0, w);
    return {{out}};
}

// What the memo replaces: bounds inference on each inlined expression.
ReadWidths direct(const PipelineDAG &dag, const std::string &producer, size_t dims, const Node &consumer, int stage,
                  const std::vector<bool> &inlined, const std::map<std::string, int64_t> &extents) {
    const Definition &def = stage == 0 ? consumer.func.definition() : consumer.func.updates()[stage - 1];
    std::vector<Expr> exprs = def.args();
    for (const Expr &v : def.values()) exprs.push_back(v);
    Scope<Interval> scope;
    for (const auto &[var, extent] : extents) scope.push(var, Interval(0, (int)extent - 1));
    ReadWidths out;
    out.widths.assign(dims, 0);
    for (const Expr &e : exprs) {
        auto boxes = boxes_required(inline_all(dag, e, inlined), scope);
        auto it = boxes.find(producer);
        if (it == boxes.end()) continue;
        for (size_t d = 0; d < dims && d < it->second.size(); d++) {
            if (!it->second[d].is_bounded()) {
                out.exact = false;
                continue;
            }
            const int64_t *w = as_const_int(simplify(it->second[d].max - it->second[d].min + 1));
            if (!w) {
                out.exact = false;
                continue;
            }
            out.widths[d] = std::max(out.widths[d], *w);
        }
    }
    return out;
}

// Every producer of every consumer stage, under random inlined sets and
// extents, asked twice; returns how many queries were checked.
int check_against_bounds_inference(const Pipe &p, uint64_t seed) {
    PipelineDAG dag(p.functions(), 2);
    std::mt19937_64 rng(seed);
    const std::vector<int64_t> sizes = {1, 2, 3, 4, 7, 8, 16, 33};
    int checked = 0;
    for (int round = 0; round < 12; round++) {
        std::vector<bool> inlined(dag.nodes().size());
        for (size_t i = 0; i < inlined.size(); i++) inlined[i] = !dag.node((int)i).is_output && rng() % 2;
        for (size_t c = 0; c < dag.nodes().size(); c++) {
            const Node &consumer = dag.node((int)c);
            if (inlined[c]) continue;
            std::vector<bool> into = inlined;
            into[c] = false;
            for (size_t s = 0; s < consumer.stages.size(); s++) {
                std::map<std::string, int64_t> extents;
                for (const auto &a : consumer.pure_args) extents[a] = sizes[rng() % sizes.size()];
                const Definition &def = s == 0 ? consumer.func.definition() : consumer.func.updates()[s - 1];
                for (const auto &rv : def.schedule().rvars()) extents[rv.var] = sizes[rng() % sizes.size()];
                for (size_t pi = 0; pi < dag.nodes().size(); pi++) {
                    const Node &producer = dag.node((int)pi);
                    if (pi == c || into[pi]) continue;
                    const size_t dims = producer.pure_args.size();
                    const ReadWidths want = direct(dag, producer.name, dims, consumer, (int)s, into, extents);
                    for (int ask = 0; ask < 2; ask++) {
                        const ReadWidths got =
                            dag.read_widths().widths(dag, producer.name, dims, consumer, (int)s, into, extents);
                        CAPTURE(producer.name);
                        CAPTURE(consumer.name);
                        CHECK(got.widths == want.widths);
                        CHECK(got.exact == want.exact);
                        checked++;
                    }
                }
            }
        }
    }
    return checked;
}

}  // namespace

TEST_CASE("read widths: the memo gives what bounds inference gives, first and on every repeat") {
    CHECK(check_against_bounds_inference(make_stencil_chain(64, 48, 5), 1) > 100);
    CHECK(check_against_bounds_inference(make_padded_conv(), 2) > 10);
    CHECK(check_against_bounds_inference(make_lookup_stencils(), 3) > 100);
    CHECK(check_against_bounds_inference(make_depthwise_pointwise(), 4) > 10);
    // Offsets computed from the data: unbounded within a tile.
    CHECK(check_against_bounds_inference(make_sample_offsets(), 5) > 10);
}
