// Situations that Halide's own autoscheduler tests cover, written anew for
// Ansor: each pipeline is scheduled through the plugin (libansor.so loaded
// with Halide::load_plugin, Pipeline::auto_schedule("Ansor")) at a small
// budget (the ctest's HL_ANSOR_* environment), run, and compared with the
// same pipeline with every Func at root.
#define DOCTEST_CONFIG_IMPLEMENT
#include "scheduled_check.h"

#include <doctest/doctest.h>

#include <Halide.h>

using namespace Halide;

namespace {

const char *plugin_path = nullptr;

Var x("x"), y("y"), c("c");

ImageParam image_2d(const char *name, Type t, int w, int h) {
    ImageParam in(t, 2, name);
    in.dim(0).set_estimate(0, w);
    in.dim(1).set_estimate(0, h);
    return in;
}

Func with_estimates(Func f, std::vector<int> extents) {
    for (size_t d = 0; d < extents.size(); d++) f.set_estimate(f.args()[d], 0, extents[d]);
    return f;
}

void check(const ansor_fuzz::PipelineBuilder &build) {
    const ansor_fuzz::Reference reference = ansor_fuzz::reference_outputs(build, get_host_target(), 2);
    const std::string error = ansor_fuzz::check_scheduled(build, "Ansor", get_host_target(), 2, 1e-3, reference);
    CHECK_MESSAGE(error.empty(), error);
}

}  // namespace

TEST_CASE("data-dependent access: a lookup table read through the input's values") {
    check([] {
        ImageParam in = image_2d("in", UInt(8), 320, 240);
        Func lut("lut"), out("out");
        lut(x) = sqrt(cast<float>(x)) * 0.5f;
        out(x, y) = lut(in(x, y)) + lut(in(x, y) / 2);
        return std::vector<Func>{with_estimates(out, {320, 240})};
    });
}

TEST_CASE("a scan: a Fibonacci-like recurrence along one dim") {
    check([] {
        ImageParam in = image_2d("in", Float(32), 64, 200);
        Func fib("fib"), out("out");
        RDom r(2, 62);
        fib(x, y) = in(x, y);
        fib(r, y) = 0.5f * fib(r - 1, y) + 0.25f * fib(r - 2, y);
        out(x, y) = fib(x, y) * 2.0f;
        return std::vector<Func>{with_estimates(out, {64, 200})};
    });
}

TEST_CASE("a histogram, then each pixel's bin count") {
    check([] {
        ImageParam in = image_2d("in", UInt(8), 300, 200);
        Func hist("hist"), out("out");
        RDom r(0, 300, 0, 200);
        hist(x) = 0;
        hist(clamp(cast<int>(in(r.x, r.y)) / 4, 0, 63)) += 1;
        out(x, y) = hist(clamp(cast<int>(in(x, y)) / 4, 0, 63));
        return std::vector<Func>{with_estimates(out, {300, 200})};
    });
}

TEST_CASE("a large window: a 15x15 box sum") {
    check([] {
        ImageParam in = image_2d("in", Float(32), 270, 190);
        Func box("box"), out("out");
        RDom r(0, 15, 0, 15);
        box(x, y) = sum(in(x + r.x, y + r.y));
        out(x, y) = box(x, y) / 225.0f;
        return std::vector<Func>{with_estimates(out, {256, 176})};
    });
}

TEST_CASE("overlapping stencils sharing producers") {
    check([] {
        ImageParam in = image_2d("in", Float(32), 260, 260);
        Func a("a"), b("b"), d("d"), out("out");
        a(x, y) = in(x, y) + in(x + 1, y) + in(x + 2, y);
        b(x, y) = a(x, y) + a(x, y + 1) + a(x, y + 2);
        d(x, y) = a(x + 1, y + 1) - b(x, y);
        out(x, y) = b(x, y) * d(x, y) + a(x, y + 3);
        return std::vector<Func>{with_estimates(out, {256, 255})};
    });
}

TEST_CASE("reorder only: a change of storage order") {
    check([] {
        ImageParam in(Float(32), 3, "in");
        in.dim(0).set_estimate(0, 3);
        in.dim(1).set_estimate(0, 200);
        in.dim(2).set_estimate(0, 150);
        Func out("out");
        out(x, y, c) = in(c, x, y);
        return std::vector<Func>{with_estimates(out, {200, 150, 3})};
    });
}

TEST_CASE("small pure updates") {
    check([] {
        ImageParam in = image_2d("in", Float(32), 128, 96);
        Func f("f"), out("out");
        f(x, y) = in(x, y);
        f(x, y) = f(x, y) * 2.0f;
        f(x, y) = f(x, y) + 1.0f;
        out(x, y) = f(x, y) + f(x, y) * f(x, y);
        return std::vector<Func>{with_estimates(out, {128, 96})};
    });
}

TEST_CASE("tile or inline: a pointwise Func read by a separable stencil") {
    check([] {
        ImageParam in = image_2d("in", Float(32), 516, 516);
        Func p("p"), bx("bx"), by("by");
        p(x, y) = exp(in(x, y) * 0.1f);
        bx(x, y) = p(x, y) + p(x + 1, y) + p(x + 2, y) + p(x + 3, y) + p(x + 4, y);
        by(x, y) = bx(x, y) + bx(x, y + 1) + bx(x, y + 2) + bx(x, y + 3) + bx(x, y + 4);
        return std::vector<Func>{with_estimates(by, {512, 512})};
    });
}

TEST_CASE("an unused Func: called only under a condition that never holds") {
    check([] {
        ImageParam in = image_2d("in", Float(32), 200, 100);
        Func unused("unused"), used("used"), out("out");
        unused(x, y) = in(x, y) * 3.0f + 1.0f;
        used(x, y) = in(x, y) - 1.0f;
        out(x, y) = select(x < -1000, unused(x, y), used(x, y));
        return std::vector<Func>{with_estimates(out, {200, 100})};
    });
}

TEST_CASE("an update whose pure var should be vectorised") {
    check([] {
        ImageParam in = image_2d("in", Float(32), 500, 40);
        Func acc("acc"), out("out");
        RDom r(0, 32);
        acc(x, y) = 0.0f;
        acc(x, y) += in(x, y + r) * 0.03125f;
        out(x, y) = acc(x, y);
        return std::vector<Func>{with_estimates(out, {500, 8})};
    });
}

int main(int argc, char **argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: ansor_auto_schedule_situations libansor.so [doctest options]\n");
        return 2;
    }
    plugin_path = argv[1];
    Halide::load_plugin(plugin_path);
    doctest::Context context;
    context.applyCommandLine(argc - 1, argv + 1);
    return context.run();
}
