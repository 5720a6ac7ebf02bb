// Pipelines of the kinds Halide 14's test/auto_schedule programs extern,
// multi_output and param exercise, scheduled through the loaded plugin
// (Pipeline::auto_schedule("Ansor")): each must build, and those that can
// run must compute the right values. Our own programs, not Halide's.
#include <Halide.h>

#include <cstdio>
#include <string>

using namespace Halide;

extern "C" {
// out(x, y) = in(x + dx, y + dy). Exported (ENABLE_EXPORTS) for the JIT.
int ansor_plugin_test_shift(halide_buffer_t *in, int dx, int dy, halide_buffer_t *out) {
    if (in->is_bounds_query()) {
        for (int d = 0; d < 2; d++) {
            in->dim[d].min = out->dim[d].min + (d == 0 ? dx : dy);
            in->dim[d].extent = out->dim[d].extent;
        }
        return 0;
    }
    Runtime::Buffer<uint8_t> src(*in), dst(*out);
    dst.for_each_element([&](int x, int y) { dst(x, y) = src(x + dx, y + dy); });
    return 0;
}
}

namespace {

const Target target(ANSOR_TARGET);
const MachineParams machine(2, 32 * 1024 * 1024, 40);
int failures = 0;

void expect(bool ok, const std::string &what) {
    if (!ok) {
        std::fprintf(stderr, "FAIL: %s\n", what.c_str());
        failures++;
    }
}

Buffer<uint8_t> ramp(int w, int h) {
    Buffer<uint8_t> b(w, h);
    b.for_each_element([&](int x, int y) { b(x, y) = (uint8_t)(x * 3 + y * 5); });
    return b;
}

void extern_stages() {
    ImageParam input(UInt(8), 2, "input");
    input.set_estimates({{0, 100}, {0, 60}});
    Var x("x"), y("y");
    Func f0("f0"), f1("f1"), f2("f2"), g("g");
    f0(x, y) = input(x, y) * 2;
    f1.define_extern("ansor_plugin_test_shift", {f0, Expr(3), Expr(7)}, UInt(8), 2);
    f2.define_extern("ansor_plugin_test_shift", {f0, Expr(8), Expr(17)}, UInt(8), 2);
    g(x, y) = f1(x, y) + f2(x, y);
    g.set_estimates({{0, 100}, {0, 60}});
    Pipeline p(g);
    AutoSchedulerResults r = p.auto_schedule("Ansor", target, machine);
    expect(r.schedule_source.find("not measured") == std::string::npos, "extern stages resolved in-process are measured");
    Buffer<uint8_t> in = ramp(120, 90);
    input.set(in);
    Buffer<uint8_t> out = p.realize({100, 60}, target);
    expect(out(4, 5) == (uint8_t)(in(7, 12) * 2 + in(12, 22) * 2), "extern stages compute the right values");
}

void extern_stage_not_linked() {
    ImageParam input(UInt(8), 2, "input");
    input.set_estimates({{0, 40}, {0, 30}});
    Var x("x"), y("y");
    Func f0("f0"), f1("f1"), g("g");
    RDom r(0, 2, "r");
    f0(x, y) = input(x, y) * 2;
    Func summed("summed");
    summed(x, y) = sum(f0(x + r.x, y));
    f1.define_extern("ansor_linked_into_the_app_later", {summed, Expr(0), Expr(0)}, UInt(8), 2);
    g(x, y) = f1(x, y);
    g.set_estimates({{0, 40}, {0, 30}});
    Pipeline p(g);
    AutoSchedulerResults res = p.auto_schedule("Ansor", target, machine);
    expect(res.schedule_source.find("not measured") != std::string::npos &&
               res.schedule_source.find("ansor_linked_into_the_app_later") != std::string::npos,
           "an unresolvable extern stage is scheduled without measuring, and says why");
}

void embedded_input_read_past_its_estimate() {
    const int w = 300, h = 200;
    Buffer<uint16_t> input(w, h);
    input.for_each_element([&](int x, int y) { input(x, y) = (uint16_t)((x * 31 + y * 17) & 0xfff); });
    Var x("x"), y("y");
    Func f("f"), g("g"), hh("h");
    f(x, y) = input(x, y) * input(x, y);
    g(x, y) = (f(x, y) + f(x + 1, y)) / 2;
    hh(x, y) = (f(x, y) + f(x, y + 1)) / 2;
    g.set_estimate(x, 0, w).set_estimate(y, 0, h);
    hh.set_estimate(x, 0, w).set_estimate(y, 0, h);
    Pipeline p({hh, g});
    AutoSchedulerResults r = p.auto_schedule("Ansor", target, machine);
    expect(r.schedule_source.find("not measured") == std::string::npos, "multi-output with an embedded input is measured");
    Buffer<uint16_t> out1(w - 1, h - 1), out2(w - 1, h - 1);
    p.realize({out1, out2}, target);
    auto sq = [&](int a, int b) { return (uint16_t)(input(a, b) * input(a, b)); };
    expect(out2(10, 20) == (uint16_t)((uint16_t)(sq(10, 20) + sq(11, 20)) / 2), "multi-output values (g)");
    expect(out1(10, 20) == (uint16_t)((uint16_t)(sq(10, 20) + sq(10, 21)) / 2), "multi-output values (h)");
}

void scalar_params(bool estimated, bool tuple_output) {
    Param<int> offset("offset");
    if (estimated) offset.set_estimate(1);
    ImageParam input(UInt(8), 2, "input");
    input.set_estimates({{0, 200}, {0, 100}});
    Var x("x"), y("y");
    Func f("f"), out("out");
    f(x, y) = input(x, y) * 2;
    if (tuple_output) {
        out(x, y) = Tuple(f(x + offset, y), f(x - offset, y));
        for (auto &b : out.output_buffers()) b.set_estimates({{0, 200}, {0, 100}});
    } else {
        out(x, y) = f(x + offset, y) + f(x - offset, y);
        out.set_estimates({{0, 200}, {0, 100}});
    }
    Pipeline p(out);
    AutoSchedulerResults r = p.auto_schedule("Ansor", target, machine);
    const bool measured = r.schedule_source.find("not measured") == std::string::npos;
    expect(measured == estimated, std::string("a Param ") + (estimated ? "with" : "without") +
                                      " an estimate is " + (estimated ? "" : "not ") + "measured");
    if (!estimated) {
        expect(r.schedule_source.find("'offset'") != std::string::npos, "the warning names the Param");
    }
    Buffer<uint8_t> in = ramp(220, 100);
    in.set_min(-10, 0);
    input.set(in);
    offset.set(2);
    Realization got = p.realize({200, 100}, target);
    Buffer<uint8_t> first = got[0];
    const uint8_t want = tuple_output ? (uint8_t)(in(7, 3) * 2) : (uint8_t)(in(7, 3) * 2 + in(3, 3) * 2);
    expect(first(5, 3) == want, "Param pipeline values");
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s path/to/libansor.so\n", argv[0]);
        return 2;
    }
    load_plugin(argv[1]);
    extern_stages();
    extern_stage_not_linked();
    embedded_input_read_past_its_estimate();
    scalar_params(false, false);
    scalar_params(true, false);
    scalar_params(true, true);
    if (failures) return 1;
    std::printf("PASS\n");
    return 0;
}
