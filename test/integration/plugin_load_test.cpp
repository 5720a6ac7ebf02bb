// Loads libansor.so the in-process way (Halide::load_plugin), schedules a
// matmul + ReLU with Pipeline::auto_schedule("Ansor", ...), and checks that
// the result is applied, printed, and computes the right numbers.
#include <Halide.h>

#include <cmath>
#include <cstdio>

using namespace Halide;

int main(int argc, char **argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s path/to/libansor.so\n", argv[0]);
        return 2;
    }
    load_plugin(argv[1]);
    const int n = 48;
    ImageParam A(Float(32), 2, "A"), B(Float(32), 2, "B");
    A.dim(0).set_estimate(0, n).dim(1).set_estimate(0, n);
    B.dim(0).set_estimate(0, n).dim(1).set_estimate(0, n);
    Var x("x"), y("y");
    RDom k(0, n, "k");
    Func C("C"), relu("relu");
    C(x, y) = 0.f;
    C(x, y) += A(k, y) * B(x, k);
    relu(x, y) = max(C(x, y) - 10.f, 0.f);
    relu.set_estimate(x, 0, n).set_estimate(y, 0, n);

    Target target(ANSOR_TARGET);
    Pipeline p(relu);
    AutoSchedulerResults r = p.auto_schedule("Ansor", target, MachineParams(2, 32 * 1024 * 1024, 40));
    std::printf("%s", r.schedule_source.c_str());
    if (r.scheduler_name != "Ansor" || r.schedule_source.find("relu") == std::string::npos) {
        std::fprintf(stderr, "FAIL: no schedule source\n");
        return 1;
    }
    Buffer<float> a(n, n), b(n, n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            a(i, j) = (float)((i * 7 + j * 3) % 11) / 5.f;
            b(i, j) = (float)((i * 5 + j) % 13) / 7.f;
        }
    A.set(a);
    B.set(b);
    Buffer<float> out = p.realize({n, n}, target);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int kk = 0; kk < n; kk++) s += a(kk, j) * b(i, kk);
            double want = std::max(s - 10.0, 0.0);
            if (std::fabs(out(i, j) - want) > 1e-3 * std::max(1.0, std::fabs(want))) {
                std::fprintf(stderr, "FAIL: out(%d,%d)=%f want %f\n", i, j, out(i, j), want);
                return 1;
            }
        }
    std::printf("PASS\n");
    return 0;
}
