// The correctness check (output_check.h, input_values.h): inputs that make
// wrong programs visible, comparisons that admit float rounding and nothing
// more, NaN/Inf and unverifiable references, every output and Tuple element.
#include "measure/input_values.h"
#include "measure/measurer.h"
#include "measure/output_check.h"
#include "measure/pipeline_runner.h"
#include "model/random_cost_model.h"
#include "search/tuner.h"
#include "sketch/sketch_generator.h"
#include "measure_test_support.h"
#include "test_pipelines.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

using namespace ansor;
using namespace Halide;

namespace {

const Target cpu = ansor_test::cpu_target();

std::vector<Internal::Function> functions(const std::vector<Func> &fs) {
    std::vector<Internal::Function> out;
    for (const Func &f : fs) out.push_back(f.function());
    return out;
}

OutputRule rule_for(Type t, bool through_float = false) {
    OutputRule r;
    r.name = "out";
    r.type = t;
    r.through_float = through_float;
    return r;
}

// Histogram equalisation of an RGB image: a float colour conversion to a
// uint8 luma, its histogram and cumulative histogram, and a uint8 output
// scaled through float. `fault` breaks it: 1 drops the blue term of the
// luma, 2 counts the green term twice.
Func histogram_equalise(int w, int h, int fault = 0) {
    ImageParam in(UInt(8), 3, "rgb");
    in.dim(0).set_estimate(0, w).dim(1).set_estimate(0, h).dim(2).set_estimate(0, 3);
    Var x("x"), y("y"), c("c"), i("i");
    Expr r = cast<float>(in(x, y, 0)), g = cast<float>(in(x, y, 1)), b = cast<float>(in(x, y, 2));
    Expr luma = 0.299f * r + 0.587f * g + 0.114f * b;
    if (fault == 1) luma = 0.299f * r + 0.587f * g;
    if (fault == 2) luma = 0.299f * r + 0.587f * g + 0.587f * g + 0.114f * b;
    Func Y("luma");
    Y(x, y) = cast<uint8_t>(clamp(luma + 0.5f, 0.f, 255.f));
    Func hist("hist");
    RDom pixels(0, w, 0, h, "pixels");
    hist(i) = 0;
    hist(Y(pixels.x, pixels.y)) += 1;
    Func cdf("cdf");
    RDom bins(1, 255, "bins");
    cdf(i) = hist(i);
    cdf(bins) = cdf(bins - 1) + hist(bins);
    Func gain("gain");
    gain(x, y) = (cast<float>(cdf(Y(x, y))) * (255.f / (w * h))) / max(cast<float>(Y(x, y)), 1.f);
    Func out("equalised");
    out(x, y, c) = cast<uint8_t>(clamp(cast<float>(in(x, y, c)) * gain(x, y), 0.f, 255.f));
    out.set_estimate(x, 0, w).set_estimate(y, 0, h).set_estimate(c, 0, 3);
    return out;
}

Buffer<> run_root(const PipelineDAG &dag, const Target &target) {
    PipelineRunner runner(dag, nullptr, target);
    runner.compile();
    runner.run();
    return runner.outputs()[0];
}

}  // namespace

TEST_CASE("inputs: signed values, every type's range, overflow-safe wide integers") {
    CHECK(input_value_range(Float(32), 1).lo == -1);
    CHECK(input_value_range(Float(32), 1).hi == 1);
    CHECK(input_value_range(Int(8), 1).lo == -128);
    CHECK(input_value_range(UInt(8), 1000000).hi == 255);
    CHECK(input_value_range(UInt(16), 1).hi == 11585);
    CHECK(input_value_range(Int(16), 1).lo == -11585);
    // A sum of K products of two inputs stays inside int32.
    for (int64_t k : {1, 9, 1024, 1 << 20}) {
        InputValueRange r = input_value_range(Int(32), k);
        CHECK(r.lo == -r.hi);
        CHECK((double)k * r.hi * r.hi < std::ldexp(1.0, 31));
        CHECK(r.hi >= 1);
    }
    CHECK(input_value_range(UInt(1), 1).hi == 1);

    Buffer<float> f(1000);
    Buffer<> fb(f);
    fill_random(fb, 7, input_value_range(Float(32), 1));
    float lo = 1, hi = -1;
    for (int i = 0; i < 1000; i++) lo = std::min(lo, f(i)), hi = std::max(hi, f(i));
    CHECK(lo < -0.9f);
    CHECK(hi > 0.9f);
    CHECK(hi < 1.f);

    for (Type t : {Float(16), BFloat(16)}) {
        CAPTURE(t);
        Buffer<> h(t, {500});
        fill_random(h, 3, input_value_range(t, 1));
        const uint16_t *bits = static_cast<const uint16_t *>(h.data());
        double vlo = 1, vhi = -1;
        for (int i = 0; i < 500; i++) {
            double v = t.is_bfloat() ? (double)bfloat16_t::make_from_bits(bits[i])
                                     : (double)float16_t::make_from_bits(bits[i]);
            vlo = std::min(vlo, v);
            vhi = std::max(vhi, v);
        }
        CHECK(vlo < -0.9);
        CHECK(vhi > 0.9);
        CHECK(vhi <= 1.0);
    }
}

TEST_CASE("compare: floats by value, NaN and Inf explicitly") {
    Buffer<float> want(4), got(4);
    for (int i = 0; i < 4; i++) want(i) = got(i) = 1.f + i;
    OutputRule rule = rule_for(Float(32));
    CHECK(compare_output(got, want.data(), rule).ok());
    got(1) = 2.001f;  // 5e-4 relative
    CHECK(compare_output(got, want.data(), rule).ok());
    got(1) = 2.01f;
    CHECK_FALSE(compare_output(got, want.data(), rule).ok());
    got(1) = 2.f;

    want(2) = got(2) = NAN;
    CHECK(compare_output(got, want.data(), rule).ok());
    got(2) = 3.f;  // a number where the reference has NaN
    CHECK_FALSE(compare_output(got, want.data(), rule).ok());
    got(2) = NAN;
    got(3) = NAN;  // NaN where the reference has a number
    OutputComparison c = compare_output(got, want.data(), rule);
    CHECK_FALSE(c.ok());
    CHECK(c.detail.find("element 3") != std::string::npos);
    got(3) = want(3) = INFINITY;
    CHECK(compare_output(got, want.data(), rule).ok());
    got(3) = -INFINITY;
    CHECK_FALSE(compare_output(got, want.data(), rule).ok());

    SUBCASE("float16 and bfloat16 compared as numbers, with a tolerance of their precision") {
        for (Type t : {Float(16), BFloat(16)}) {
            CAPTURE(t);
            Buffer<> w(t, {2}), g(t, {2});
            uint16_t *wb = static_cast<uint16_t *>(w.data()), *gb = static_cast<uint16_t *>(g.data());
            auto bits = [&](double v) {
                return t.is_bfloat() ? bfloat16_t(v).to_bits() : float16_t(v).to_bits();
            };
            wb[0] = bits(1.0), wb[1] = bits(-0.5);
            gb[0] = (uint16_t)(wb[0] + 1), gb[1] = wb[1];  // one ulp: rounding
            CHECK(compare_output(g, w.data(), rule_for(t)).ok());
            gb[0] = bits(1.25);
            CHECK_FALSE(compare_output(g, w.data(), rule_for(t)).ok());
        }
    }
}

TEST_CASE("compare: a reference with no finite value is unverifiable, not a pass") {
    Buffer<float> want(3);
    want.fill(NAN);
    CHECK(unverifiable_reason(want, rule_for(Float(32))).find("no finite element") != std::string::npos);
    want(1) = INFINITY;
    CHECK_FALSE(unverifiable_reason(want, rule_for(Float(32))).empty());
    want(2) = 1.f;
    CHECK(unverifiable_reason(want, rule_for(Float(32))).empty());
    Buffer<int> ints(3);
    ints.fill(0);
    CHECK(unverifiable_reason(ints, rule_for(Int(32))).empty());
}

TEST_CASE("compare: integers exactly, 64-bit ones never through double") {
    Buffer<uint64_t> want(2), got(2);
    want(0) = got(0) = 7;
    want(1) = (uint64_t(1) << 63) + 1;
    got(1) = uint64_t(1) << 63;  // equal as doubles
    CHECK_FALSE(compare_output(got, want.data(), rule_for(UInt(64))).ok());
    CHECK(std::isinf(max_relative_error(got, want.data())));
    got(1) = want(1);
    CHECK(compare_output(got, want.data(), rule_for(UInt(64))).ok());

    Buffer<int64_t> sw(1), sg(1);
    sw(0) = std::numeric_limits<int64_t>::min();
    sg(0) = std::numeric_limits<int64_t>::max();
    OutputComparison c = compare_output(sg, sw.data(), rule_for(Int(64)));
    CHECK_FALSE(c.ok());

    Buffer<int> wi(3), gi(3);
    wi.fill(5);
    gi.fill(5);
    gi(1) = 6;
    CHECK_FALSE(compare_output(gi, wi.data(), rule_for(Int(32))).ok());
}

TEST_CASE("compare: an integer computed through float may be off by one on a few elements") {
    Buffer<uint8_t> want(100), got(100);
    for (int i = 0; i < 100; i++) want(i) = got(i) = (uint8_t)(i * 2);
    OutputRule through_float = rule_for(UInt(8), true);
    got(10)++;
    got(20)--;
    CHECK(compare_output(got, want.data(), through_float).ok());
    CHECK_FALSE(compare_output(got, want.data(), rule_for(UInt(8))).ok());
    got(30) += 2;  // more than rounding
    CHECK_FALSE(compare_output(got, want.data(), through_float).ok());
    got(30) -= 2;
    for (int i = 40; i < 50; i++) got(i)++;  // 12 of 100 elements off by one: a systematic error
    OutputComparison c = compare_output(got, want.data(), through_float);
    CHECK_FALSE(c.ok());
    CHECK(c.detail.find("more than float rounding") != std::string::npos);
}

TEST_CASE("compare: the tolerance grows with a float reduction's size, and only then") {
    OutputRule r = rule_for(Float(32));
    CHECK(float_tolerance(r) == doctest::Approx(1e-3));
    r.reduction_points = 1 << 24;
    CHECK(float_tolerance(r) > 1e-3);
    CHECK(float_tolerance(r) < 3e-3);
    CHECK(float_tolerance(rule_for(BFloat(16))) >= 2 * std::ldexp(1.0, -8));
}

TEST_CASE("rules: one per output and Tuple element; integer outputs through float are found") {
    Func heq = histogram_equalise(64, 48);
    PipelineDAG dag(functions({heq}), 2);
    std::vector<OutputRule> rules = output_rules(dag, 1e-3);
    REQUIRE(rules.size() == 1);
    CHECK(rules[0].through_float);
    CHECK(rules[0].reduction_points == 64 * 48);

    ImageParam in(Int(32), 1, "ints");
    in.dim(0).set_estimate(0, 64);
    Var x("x");
    Func pair("pair"), other("other");
    pair(x) = Tuple(in(x) * 3, cast<float>(in(x)) * 0.5f);
    other(x) = in(x) + 1;
    pair.set_estimate(x, 0, 64);
    other.set_estimate(x, 0, 64);
    PipelineDAG two(functions({pair, other}), 2);
    rules = output_rules(two, 1e-3);
    REQUIRE(rules.size() == 3);
    CHECK(rules[0].name == "pair[0]");
    CHECK(rules[1].name == "pair[1]");
    CHECK(rules[2].name == "other");
    CHECK(rules[0].through_float);  // the Func computes in float (its other element)
    CHECK_FALSE(rules[2].through_float);
}

TEST_CASE("histogram equalisation through float: correct schedules pass, a dropped or doubled term fails") {
    const int w = 160, h = 120;
    Func heq = histogram_equalise(w, h);
    PipelineDAG dag(functions({heq}), 2);
    const std::vector<OutputRule> rules = output_rules(dag, 1e-3);
    Buffer<> want = run_root(dag, cpu);

    SUBCASE("without FMA, vectorised: the same up to rounding") {
        Func plain = histogram_equalise(w, h);
        PipelineDAG plain_dag(functions({plain}), 2);
        Target no_fma = cpu.without_feature(Target::FMA).without_feature(Target::AVX512)
                            .without_feature(Target::AVX512_Skylake).without_feature(Target::AVX512_Cannonlake);
        Buffer<> got = run_root(plain_dag, no_fma);
        OutputComparison c = compare_output(got, want.data(), rules[0]);
        CHECK_MESSAGE(c.ok(), c.detail);
    }
    SUBCASE("a dropped term fails") {
        Func broken = histogram_equalise(w, h, 1);
        PipelineDAG broken_dag(functions({broken}), 2);
        OutputComparison c = compare_output(run_root(broken_dag, cpu), want.data(), rules[0]);
        CHECK_FALSE(c.ok());
    }
    SUBCASE("a duplicated term fails") {
        Func broken = histogram_equalise(w, h, 2);
        PipelineDAG broken_dag(functions({broken}), 2);
        OutputComparison c = compare_output(run_root(broken_dag, cpu), want.data(), rules[0]);
        CHECK_FALSE(c.ok());
    }
    SUBCASE("sampled schedules, measured and checked: every one passes") {
        ForkMeasurer measurer(dag, ansor_test::correctness_options());
        AnnotationOptions ao;
        ao.parallelism = 2;
        RandomAnnotator annotator(dag, cpu, ao);
        ProgramSampler sampler(generate_sketches({dag, cpu}), annotator);
        RandomCostModel model(5);
        TunerOptions to;
        to.trials = 6;
        to.seed = 5;
        Tuner tuner(sampler, annotator, ao, measurer, model, with_policy(to, SearchPolicy::Random));
        TuningOutcome out = tuner.run();
        CHECK(out.trials.size() == 6);
        for (const auto &t : out.trials) {
            CAPTURE(t.state.source());
            CHECK_MESSAGE(t.result.ok, t.result.error);
        }
    }
}

TEST_CASE("measure: Tuple outputs and several outputs are measured and checked") {
    ImageParam in(Float(32), 2, "in");
    in.dim(0).set_estimate(0, 96).dim(1).set_estimate(0, 64);
    Var x("x"), y("y");
    Func spread("spread"), sum("sum");
    spread(x, y) = Tuple(in(x, y) - in(x + 1, y), in(x, y) * 2.f);
    sum(x, y) = in(x, y) + in(x, y + 1);
    spread.set_estimate(x, 0, 95).set_estimate(y, 0, 64);
    sum.set_estimate(x, 0, 96).set_estimate(y, 0, 63);
    PipelineDAG dag(functions({spread, sum}), 2);
    ForkMeasurer measurer(dag, ansor_test::correctness_options());
    CHECK(measurer.reference().ok);
    State root(dag);
    std::vector<MeasureResult> results = measurer.measure({root});
    REQUIRE(results.size() == 1);
    CHECK_MESSAGE(results[0].ok, results[0].error);
}

TEST_CASE("measure: an all-NaN reference is reported as unverifiable") {
    ImageParam in(Float(32), 1, "in");
    in.dim(0).set_estimate(0, 64);
    Var x("x");
    Func bad("always_nan");
    bad(x) = in(x) * 0.f + NAN;
    bad.set_estimate(x, 0, 64);
    PipelineDAG dag(functions({bad}), 2);
    CHECK_THROWS_WITH(ForkMeasurer(dag, ansor_test::correctness_options()), doctest::Contains("unverifiable"));
}

TEST_CASE("compare: a float through a float-to-integer conversion may jump on a few elements, by a bounded amount") {
    ImageParam in(Float(32), 1, "levels_in");
    in.dim(0).set_estimate(0, 64);
    Var x("x");
    Func lut("lut"), out("looked_up");
    lut(x) = cast<float>(x) * 0.01f;
    out(x) = lut(clamp(cast<int>(in(x) * 8.f), 0, 7)) + in(x);
    out.set_estimate(x, 0, 64);
    PipelineDAG dag(functions({out}), 2);
    std::vector<OutputRule> rules = output_rules(dag, 1e-3);
    REQUIRE(rules.size() == 1);
    CHECK(rules[0].through_quantization);

    Buffer<float> want(200), got(200);
    for (int i = 0; i < 200; i++) want(i) = got(i) = 1.f + 0.01f * i;
    got(7) *= 1.004f;  // a level that rounded the other way
    CHECK(compare_output(got, want.data(), rules[0]).ok());
    CHECK_FALSE(compare_output(got, want.data(), rule_for(Float(32))).ok());
    got(9) *= 1.02f;  // past 10x the tolerance
    CHECK_FALSE(compare_output(got, want.data(), rules[0]).ok());
    got(9) = want(9);
    for (int i = 100; i < 120; i++) got(i) *= 1.004f;  // 21 of 200: systematic
    CHECK_FALSE(compare_output(got, want.data(), rules[0]).ok());

    // Near zero, one step of the quantised value (here a u16 level of an
    // output spanning [0, 1]: 1.5e-5) is a large error relative to the
    // element, and is measured against 5% of the output's range instead
    // (local Laplacian's and Adams2019's programs on seed 122 of the fuzz
    // campaign differed so). A term dropped there is still far past it.
    Buffer<float> small_want(200), small_got(200);
    for (int i = 0; i < 200; i++) small_want(i) = small_got(i) = 0.005f * i;
    small_got(1) += 1.f / 65535;  // 0.005 -> 0.0050153: 0.3% of the element
    small_got(0) += 1.f / 65535;  // 0 -> 1.5e-5: a step above zero
    CHECK(compare_output(small_got, small_want.data(), rules[0]).ok());
    small_got(2) += 0.01f;  // a dropped term of 0.01 at 0.01: past 10x the tolerance of 0.05 of the range
    CHECK_FALSE(compare_output(small_got, small_want.data(), rules[0]).ok());
    small_got(2) = small_want(2);
    for (int i = 100; i < 120; i++) small_got(i) += 0.002f;  // 22 of 200 past the tolerance: systematic
    CHECK_FALSE(compare_output(small_got, small_want.data(), rules[0]).ok());
}

namespace {

// The reference's single output after one run, and its rounding spread.
std::pair<std::vector<Buffer<>>, std::vector<Buffer<>>> output_and_spread(PipelineRunner &reference) {
    reference.compile();
    reference.run();
    std::vector<Buffer<>> want{reference.outputs()[0].copy()};
    std::vector<Buffer<>> spread = rounding_spread(reference);
    REQUIRE(spread.size() == 1);
    return {want, spread};
}

// Each row minus its mean, on rows that are constant: every element cancels
// to rounding noise (fuzz seed 470). `variant` 1 sums the row in two halves
// (a correct program rounding differently), 2 drops the row's first term.
Func row_minus_mean(int w, int h, int variant) {
    ImageParam in(Float(32), 2, "rows_in");
    in.dim(0).set_estimate(0, w).dim(1).set_estimate(0, h);
    Var x("x"), y("y");
    Func row("row");
    row(x, y) = in(0, y) * 3.1f + 0.7f;
    Func total("total");
    if (variant == 1) {
        RDom first(0, w / 2, "first"), second(w / 2, w - w / 2, "second");
        Func low("low"), high("high");
        low(y) = 0.f;
        low(y) += row(first, y);
        high(y) = 0.f;
        high(y) += row(second, y);
        total(y) = low(y) + high(y);
    } else {
        RDom r(variant == 2 ? 1 : 0, variant == 2 ? w - 1 : w, "r");
        total(y) = 0.f;
        total(y) += row(r, y);
    }
    Func out("centred");
    out(x, y) = row(x, y) - total(y) / (float)w;
    out.set_estimate(x, 0, w).set_estimate(y, 0, h);
    return out;
}

}  // namespace

TEST_CASE("compare: elements that cancel to rounding noise may differ by a few times the reference's own rounding spread") {
    const int w = 301, h = 40;
    Func exact = row_minus_mean(w, h, 0);
    PipelineDAG dag(functions({exact}), 2);
    PipelineRunner reference(dag, nullptr, cpu);
    const auto [want, spread] = output_and_spread(reference);
    // The run rounding to nearest is left as it was.
    CHECK(max_relative_error(reference.outputs()[0], want[0].data()) == 0);
    double widest = 0;
    for (size_t i = 0; i < (size_t)spread[0].number_of_elements(); i++) {
        widest = std::max(widest, (double)static_cast<const float *>(spread[0].data())[i]);
    }
    CHECK(widest > 0);
    CHECK(widest < 1e-4);  // noise, not the size of a term (about 1)

    auto outputs_of = [&](int variant) {
        Func f = row_minus_mean(w, h, variant);
        PipelineDAG d(functions({f}), 2);
        PipelineRunner runner(d, nullptr, cpu);
        runner.compile();
        runner.run();
        return std::vector<Buffer<>>{runner.outputs()[0].copy()};
    };
    const std::vector<Buffer<>> halves = outputs_of(1), dropped = outputs_of(2);
    // Summed in two halves the noise differs: no relative tolerance of the
    // noise admits it, the spread does.
    CHECK_FALSE(compare_outputs(dag, halves, want, 1e-3).ok());
    OutputComparison c = compare_outputs(dag, halves, want, 1e-3, spread);
    CHECK_MESSAGE(c.ok(), c.detail);
    // A dropped term moves every element by a term's share of the mean.
    CHECK_FALSE(compare_outputs(dag, dropped, want, 1e-3, spread).ok());

    // Outputs computed through round() follow the rounding mode: the spread
    // admits nothing there.
    const std::vector<OutputRule> rules = output_rules(dag, 1e-3);
    CHECK_FALSE(rules[0].rounds_by_mode);
    OutputRule rounding = rules[0];
    rounding.rounds_by_mode = true;
    CHECK_FALSE(compare_output(halves[0], want[0].data(), rounding, spread[0].data()).ok());
    ImageParam in(Float(32), 1, "round_in");
    in.dim(0).set_estimate(0, 16);
    Var x("x");
    Func rounded("rounded");
    rounded(x) = round(in(x) * 10.f);
    rounded.set_estimate(x, 0, 16);
    CHECK(output_rules(PipelineDAG(functions({rounded}), 2), 1e-3)[0].rounds_by_mode);
}

TEST_CASE("compare: an ill-conditioned reference admits as many far-off elements as its spread moves, by as much") {
    const size_t n = 1000;
    SUBCASE("floats") {
        Buffer<float> want(n), got(n), spread(n);
        want.fill(1.f);
        got.fill(1.f);
        spread.fill(0.f);
        // Ten elements whose reference moves by 0.5 under directed rounding
        // (a division by a near-zero sum); a legal reordering moves others.
        for (int i = 0; i < 10; i++) spread(i * 7) = 0.5f;
        for (int i = 0; i < 15; i++) got(500 + i) = 2.5f;  // off by 1.5 <= 4 * 0.5
        const OutputRule r = rule_for(Float(32));
        CHECK_FALSE(compare_output(got, want.data(), r).ok());
        OutputComparison c = compare_output(got, want.data(), r, spread.data());
        CHECK_MESSAGE(c.ok(), c.detail);
        got(600) = 3.5f;  // off by 2.5, beyond four times the widest spread
        CHECK_FALSE(compare_output(got, want.data(), r, spread.data()).ok());
        got(600) = 1.f;
        for (int i = 0; i < 10; i++) got(700 + i) = 2.f;  // 25 elements: more than twice the 10 the spread moves
        c = compare_output(got, want.data(), r, spread.data());
        CHECK_FALSE(c.ok());
        CHECK(c.detail.find("more than the reference's own rounding moves") != std::string::npos);
        // A reference whose spread stays within the tolerance is judged per element.
        spread.fill(1e-5f);
        CHECK_FALSE(compare_output(got, want.data(), r, spread.data()).ok());
    }
    SUBCASE("integers computed through float") {
        Buffer<uint16_t> want(n), got(n), spread(n);
        for (size_t i = 0; i < n; i++) want((int)i) = got((int)i) = (uint16_t)(1000 + i);
        spread.fill(0);
        // A LUT index that lands on the other side of a boundary: 40 levels.
        for (int i = 0; i < 5; i++) spread(i * 100) = 40;
        for (int i = 0; i < 8; i++) got(301 + i) += 133;  // <= 4 * 40, on 8 <= 2 * 5 elements
        const OutputRule through_float = rule_for(UInt(16), true);
        CHECK_FALSE(compare_output(got, want.data(), through_float).ok());
        OutputComparison c = compare_output(got, want.data(), through_float, spread.data());
        CHECK_MESSAGE(c.ok(), c.detail);
        // Integer arithmetic alone stays exact whatever a spread says.
        CHECK_FALSE(compare_output(got, want.data(), rule_for(UInt(16)), spread.data()).ok());
        got(900) += 200;  // beyond four times the widest spread
        CHECK_FALSE(compare_output(got, want.data(), through_float, spread.data()).ok());
        got(900) -= 200;
        for (int i = 0; i < 3; i++) got(950 + i) += 50;  // 11 elements: more than twice 5
        CHECK_FALSE(compare_output(got, want.data(), through_float, spread.data()).ok());
    }
}

TEST_CASE("histogram equalisation: with the reference's rounding spread, a dropped or doubled term still fails") {
    const int w = 160, h = 120;
    Func heq = histogram_equalise(w, h);
    PipelineDAG dag(functions({heq}), 2);
    PipelineRunner reference(dag, nullptr, cpu);
    const auto [want, spread] = output_and_spread(reference);
    REQUIRE(spread[0].defined());  // an integer output through float has a spread too
    for (int fault : {1, 2}) {
        CAPTURE(fault);
        Func broken = histogram_equalise(w, h, fault);
        PipelineDAG broken_dag(functions({broken}), 2);
        const std::vector<Buffer<>> got{run_root(broken_dag, cpu)};
        CHECK_FALSE(compare_outputs(dag, got, want, 1e-3, spread).ok());
    }
}
