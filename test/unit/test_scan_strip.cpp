// The sketch rule scan_at_consumer_strip: a Func whose updates scan one
// dimension computed per strip of its consumer along another (iir_blur's
// passes). Structure, the model's footprint, annotation, and programs that
// compute what the all-at-root reference computes.
#include "annotate/random_annotator.h"
#include "measure_test_support.h"
#include "sketch_test_support.h"
#include "search/program_sampler.h"
#include "annotate/scan_strip_widths.h"
#include "sketch/sketch_generator.h"
#include "test_pipelines.h"

#include <doctest/doctest.h>

using namespace ansor;

namespace {

using namespace Halide;

// s(x, y): a recursive filter down every column (serial in y, independent in
// x); the consumer reads it straight (`transpose` false) or transposed.
ansor_test::Pipe make_column_scan(int w, int h, bool transpose) {
    ImageParam in(Float(32), 2, "in");
    in.dim(0).set_estimate(0, w).dim(1).set_estimate(0, h);
    Var x("x"), y("y");
    Func s("scan"), out("out");
    RDom r(1, h - 1, "r");
    s(x, y) = in(x, y);
    s(x, r) = 0.75f * s(x, r - 1) + 0.25f * s(x, r);
    if (transpose) {
        out(x, y) = s(y, x) * 2.f;
        out.set_estimate(x, 0, h).set_estimate(y, 0, w);
    } else {
        out(x, y) = s(x, y) + 1.f;
        out.set_estimate(x, 0, w).set_estimate(y, 0, h);
    }
    return {{out}};
}

// hist(v): a scatter over the input's values, read by a lookup.
ansor_test::Pipe make_histogram_lookup(int w, int h) {
    ImageParam in(UInt(8), 2, "in");
    in.dim(0).set_estimate(0, w).dim(1).set_estimate(0, h);
    Var x("x"), y("y"), v("v");
    Func hist("hist"), out("out");
    RDom r(0, w, 0, h, "r");
    hist(v) = 0;
    hist(in(r.x, r.y)) += 1;
    out(x, y) = hist(in(x, y));
    out.set_estimate(x, 0, w).set_estimate(y, 0, h);
    return {{out}};
}

Halide::Target cpu() { return ansor_test::cpu_target(); }


bool per_strip(const State &s, const std::string &scan) {
    auto l = ansor_test::placement_of(s, scan);
    return l && l->kind == LocationKind::At;
}

std::vector<State> strip_sketches(const PipelineDAG &dag, const std::string &scan) {
    std::vector<State> out;
    for (const State &s : generate_sketches({dag, cpu()})) {
        if (per_strip(s, scan)) out.push_back(s);
    }
    return out;
}

}  // namespace

TEST_CASE("scan strip: a column scan is computed per strip of its consumer's independent loop, beside root") {
    for (bool transpose : {false, true}) {
        CAPTURE(transpose);
        ansor_test::Pipe p = make_column_scan(64, 48, transpose);
        PipelineDAG dag(p.functions(), 2);
        const std::string scan = ansor_test::resolve(dag, "scan"), out = ansor_test::resolve(dag, "out");
        REQUIRE_FALSE(dag.node(*dag.index_of(scan)).modelled);
        const auto sketches = generate_sketches({dag, cpu()});
        CHECK(sketches.size() == 2);  // per strip, and at root
        const auto strips = strip_sketches(dag, scan);
        REQUIRE(strips.size() == 1);
        // The consumer loop that reads the scan's independent x: out's x when
        // read straight, out's y when transposed. Its strips go outermost.
        const std::string along = transpose ? "y" : "x";
        const Location at = *ansor_test::placement_of(strips[0], scan);
        CHECK(at.func == out);
        CHECK(at.loop == along + "_0");
        const LoopNest m = strips[0].replay();
        CHECK(m.stage(out, 0).loops.front().name == along + "_0");
        // The model computes the whole serial dim per strip, as Halide does.
        const ModelFunc &f = m.func(scan);
        REQUIRE(f.extents.size() == 2);
        CHECK(f.extents[1] == 48);
    }
}

TEST_CASE("scan strip: no strip sketch where the consumer reads only along the scan or at data-dependent places") {
    // A scatter has no independent dim: nothing to cut into strips.
    ansor_test::Pipe hist = make_histogram_lookup(32, 16);
    PipelineDAG hist_dag(hist.functions(), 2);
    CHECK(strip_sketches(hist_dag, ansor_test::resolve(hist_dag, "hist")).empty());

    // A 1-D scan: its only dim is the serial one.
    ImageParam in(Float(32), 1, "in");
    in.dim(0).set_estimate(0, 100);
    Var x("x");
    Func s("scan1"), out("out1");
    RDom r(1, 99, "r");
    s(x) = in(x);
    s(r) = s(r - 1) + s(r);
    out(x) = s(x) * 2.f;
    out.set_estimate(x, 0, 100);
    PipelineDAG dag({out.function()}, 2);
    CHECK(strip_sketches(dag, ansor_test::resolve(dag, "scan1")).empty());
}

TEST_CASE("scan strip: the scan is vectorised across its strip and not parallel; the strips are") {
    ansor_test::Pipe p = make_column_scan(128, 48, true);
    PipelineDAG dag(p.functions(), 2);
    const std::string scan = ansor_test::resolve(dag, "scan"), out = ansor_test::resolve(dag, "out");
    const auto strips = strip_sketches(dag, scan);
    REQUIRE(strips.size() == 1);
    AnnotationOptions ao;
    ao.parallelism = 2;
    ao.max_consumer_tile = 64;  // strips narrower than the 128-column image: several of them
    RandomAnnotator annotator(dag, cpu(), ao);
    ProgramSampler sampler(strips, annotator);
    std::mt19937_64 rng(5);
    int vectorised = 0, interleaved = 0;
    const int64_t lanes = cpu().natural_vector_size(Float(32));
    for (int i = 0; i < 16; i++) {
        const std::optional<State> program = sampler.sample(rng);
        REQUIRE(program);
        const LoopNest m = program->replay();
        // No strip narrower than a vector (scan_strip_widths.h).
        CHECK(m.func(scan).extents[0] >= lanes);
        const ModelFunc &f = m.func(scan);
        for (const ModelStage &st : f.stages) {
            for (const ModelLoop &l : st.loops) CHECK(l.annotation != Annotation::Parallel);
            vectorised += !st.loops.empty() && st.loops.back().annotation == Annotation::Vectorize;
        }
        // The update's vectors of the strip run side by side inside the
        // serial loop.
        const ModelStage &update = f.stages[1];
        if (f.extents[0] >= 32) {
            REQUIRE(update.loops.size() == 3);
            CHECK(update.loops[0].kind == LoopKind::Reduction);
            CHECK(update.loops[1].name == "x_0");
            CHECK(update.loops[2].annotation == Annotation::Vectorize);
            interleaved++;
        }
        CHECK(m.stage(out, 0).loops.front().annotation == Annotation::Parallel);
    }
    CHECK(vectorised > 0);
    CHECK(interleaved > 0);
}

TEST_CASE("scan strip: programs of the strip sketches compute what the reference computes") {
    for (bool transpose : {false, true}) {
        CAPTURE(transpose);
        ansor_test::Pipe p = make_column_scan(100, 37, transpose);
        PipelineDAG dag(p.functions(), 2);
        const auto strips = strip_sketches(dag, ansor_test::resolve(dag, "scan"));
        REQUIRE(strips.size() == 1);
        ansor_test::expect_all_correct(dag, ansor_test::sample_programs(dag, strips, cpu(), 4, 3));
    }
}

namespace {

// iir_blur's shape at a small size: a column scan, a transpose, a column
// scan of the transpose, and the output transposed back, over c channels.
ansor_test::Pipe make_two_pass_scan(int w, int h, int channels) {
    ImageParam in(Float(32), 3, "in");
    in.dim(0).set_estimate(0, w).dim(1).set_estimate(0, h).dim(2).set_estimate(0, channels);
    Var x("x"), y("y"), c("c");
    Func cols("cols"), transposed("transposed"), rows("rows"), out("out");
    RDom down(1, h - 1, "down"), across(1, w - 1, "across");
    cols(x, y, c) = in(x, y, c);
    cols(x, down, c) = 0.75f * cols(x, down - 1, c) + 0.25f * cols(x, down, c);
    transposed(x, y, c) = cols(y, x, c);
    rows(x, y, c) = transposed(x, y, c);
    rows(x, across, c) = 0.75f * rows(x, across - 1, c) + 0.25f * rows(x, across, c);
    out(x, y, c) = rows(y, x, c);
    out.set_estimate(x, 0, w).set_estimate(y, 0, h).set_estimate(c, 0, channels);
    return {{out}};
}

// The sketch that processes one channel at a time: the output's channel loop
// outermost, the second scan per strip inside it, the transpose at the
// channel loop, and the first scan per strip of the transpose.
std::vector<State> per_channel_sketches(const PipelineDAG &dag) {
    const std::string out = ansor_test::resolve(dag, "out"), transposed = ansor_test::resolve(dag, "transposed");
    std::vector<State> found;
    for (const State &s : generate_sketches({dag, cpu()})) {
        auto t = ansor_test::placement_of(s, transposed);
        if (!t || t->kind != LocationKind::At || t->func != out || t->loop != "c") continue;
        found.push_back(s);
    }
    return found;
}

}  // namespace

TEST_CASE("scan strip: one channel at a time, the scan's producer at the channel loop outside the strips") {
    ansor_test::Pipe p = make_two_pass_scan(96, 40, 3);
    PipelineDAG dag(p.functions(), 2);
    const std::string out = ansor_test::resolve(dag, "out"), rows = ansor_test::resolve(dag, "rows"),
                      cols = ansor_test::resolve(dag, "cols"), transposed = ansor_test::resolve(dag, "transposed");
    // Two: the first scan per strip of the transpose, or at root.
    std::vector<State> sketches;
    int at_root = 0;
    for (const State &s : per_channel_sketches(dag)) {
        auto c = ansor_test::placement_of(s, cols);
        if (c && c->kind == LocationKind::At) sketches.push_back(s);
        else at_root++;
    }
    REQUIRE(sketches.size() == 1);
    CHECK(at_root == 1);
    const State &s = sketches[0];
    const LoopNest m = s.replay();
    // The output's loops: the channel, then the strips the second scan is
    // computed per.
    const ModelStage &o = m.stage(out, 0);
    REQUIRE(o.loops.size() >= 2);
    CHECK(o.loops[0].name == "c");
    CHECK(o.loops[1].name == "y_0");
    CHECK(ansor_test::placement_of(s, rows)->loop == "y_0");
    // The first scan per strip of the transpose, which covers one channel
    // and the whole of the scan's serial dimension.
    const Location at = *ansor_test::placement_of(s, cols);
    CHECK(at.kind == LocationKind::At);
    CHECK(at.func == transposed);
    CHECK(at.loop == "y_0");
    const ModelFunc &t = m.func(transposed);
    REQUIRE(t.extents.size() == 3);
    CHECK(t.extents[0] == 40);
    CHECK(t.extents[2] == 1);
    const ModelFunc &f = m.func(cols);
    REQUIRE(f.extents.size() == 3);
    CHECK(f.extents[1] == 40);
    CHECK(f.extents[2] == 1);

    ansor_test::expect_all_correct(dag, ansor_test::sample_programs(dag, sketches, cpu(), 4, 11));
}

TEST_CASE("scan strip: no scan per strip of a consumer that covers only part of the scan's serial dimension") {
    // With the transpose computed per strip of the output, each strip of it
    // would scan the whole first pass again: no such sketch.
    ansor_test::Pipe p = make_two_pass_scan(96, 40, 3);
    PipelineDAG dag(p.functions(), 2);
    const std::string out = ansor_test::resolve(dag, "out"), cols = ansor_test::resolve(dag, "cols"),
                      transposed = ansor_test::resolve(dag, "transposed");
    int transposed_per_strip = 0;
    for (const State &s : generate_sketches({dag, cpu()})) {
        auto t = ansor_test::placement_of(s, transposed);
        if (!t || t->kind != LocationKind::At || t->loop != "y_0") continue;
        transposed_per_strip++;
        auto c = ansor_test::placement_of(s, cols);
        CHECK((!c || c->kind != LocationKind::At));
    }
    CHECK(transposed_per_strip > 0);
}

TEST_CASE("scan strip: no channel-outer sketch without a small independent loop") {
    ansor_test::Pipe p = make_two_pass_scan(96, 40, 1);
    PipelineDAG dag(p.functions(), 2);
    CHECK(per_channel_sketches(dag).empty());
}

namespace {

// A vertical log-scan (logs(x, y, c, t): the maximum of 2^t rows from y)
// read at a level a lookup table chooses, by a Func the output's horizontal
// maximum reads: the scan's consumer is computed inside the output, not at
// root, and reads the scan at a data-dependent level.
ansor_test::Pipe make_scan_read_through_a_chain(int w, int h, int channels) {
    ImageParam in(Float(32), 3, "in");
    in.dim(0).set_estimate(0, w).dim(1).set_estimate(0, h).dim(2).set_estimate(0, channels);
    Var x("x"), y("y"), c("c"), t("t");
    Func clamped = BoundaryConditions::repeat_edge(in);
    Func logs("logs"), level("level"), pick("pick"), out("out");
    const int levels = 3;
    logs(x, y, c, t) = clamped(x, y, c);
    RDom r(0, h, 1, levels - 1, "r");
    logs(x, r.x, c, r.y) = max(logs(x, r.x, c, r.y - 1), logs(x, r.x + clamp(1 << (r.y - 1), 1, 4), c, r.y - 1));
    level(t) = t / 2;
    pick(x, y, c, t) = logs(x, y, c, clamp(level(t), 0, levels - 1));
    RDom k(0, 5, "k");
    out(x, y, c) = maximum(pick(x + k - 2, y, c, k));
    out.set_estimate(x, 0, w).set_estimate(y, 0, h).set_estimate(c, 0, channels);
    return {{out}};
}

}  // namespace

TEST_CASE("scan strip: a scan whose consumer is computed inside the output is computed per strip of the output") {
    ansor_test::Pipe p = make_scan_read_through_a_chain(96, 40, 3);
    PipelineDAG dag(p.functions(), 2);
    const std::string logs = ansor_test::resolve(dag, "logs"), out = ansor_test::resolve(dag, "out"),
                      pick = ansor_test::resolve(dag, "pick");
    REQUIRE_FALSE(dag.node(*dag.index_of(logs)).modelled);
    std::vector<State> strips;
    int per_channel = 0;
    for (const State &s : generate_sketches({dag, cpu()})) {
        auto at = ansor_test::placement_of(s, logs);
        if (!at || at->kind != LocationKind::At) continue;
        // At the output, never at the consumer that reads it at a
        // data-dependent level.
        CHECK(at->func == out);
        const LoopNest m = s.replay();
        // The scan's consumer is computed inside the strip.
        const std::vector<Location> around = m.enclosing_loops(pick);
        REQUIRE_FALSE(around.empty());
        CHECK(around.back().func == out);
        bool inside = false;
        for (const Location &l : around) inside = inside || (l.func == out && l.loop == at->loop);
        CHECK(inside);
        // The strips split the output's x, outermost; the scan is computed
        // per strip, or per channel just inside it.
        const ModelStage &o = m.stage(out, 0);
        REQUIRE(o.loops.size() >= 2);
        REQUIRE(o.loops[0].origins.size() == 1);
        CHECK(o.loops[0].origins[0].first == "x");
        const int k = o.find(at->loop);
        CHECK((k == 0 || (k == 1 && o.loops[1].origins[0].first == "c")));
        per_channel += k == 1;
        CHECK(m.func(logs).extents[1] >= 40);
        strips.push_back(s);
    }
    REQUIRE_FALSE(strips.empty());
    CHECK(per_channel > 0);
    CHECK(per_channel < (int)strips.size());
    ansor_test::expect_all_correct(dag, ansor_test::sample_programs(dag, strips, cpu(), 4, 7));
}

TEST_CASE("scan strip: no sketch keeps at root a scan whose buffer there is mapped afresh on every run") {
    // 96 x 40 x 3: a root sketch beside the strips. 1536 x 2560 x 3 at three
    // levels, 141 MiB at root: only the strips, each a fraction of that.
    for (const bool large : {false, true}) {
        CAPTURE(large);
        ansor_test::Pipe p = large ? make_scan_read_through_a_chain(1536, 2560, 3) : make_scan_read_through_a_chain(96, 40, 3);
        PipelineDAG dag(p.functions(), 2);
        const std::string logs = ansor_test::resolve(dag, "logs");
        int at_root = 0, inside = 0;
        for (const State &s : generate_sketches({dag, cpu()})) {
            auto at = ansor_test::placement_of(s, logs);
            (at && at->kind == LocationKind::At ? inside : at_root)++;
        }
        CHECK(inside > 0);
        CHECK((at_root == 0) == large);
    }
}
