// A tuning run whose candidates never end: loads libansor.so and schedules
// a pipeline with an extern stage that computes in the first process that
// runs it (the reference) and, in every later one (the candidates), forks a
// process and then waits forever, as both do. kill_tuner_test kills this
// tuner with kill -9 and checks that none of those processes survives it;
// with a short HL_ANSOR_TIMEOUT every candidate times out, and the build
// fails, or with HL_ANSOR_ALLOW_ROOT_FALLBACK=1 falls back to root.
//
//   ansor_hanging_tuner path/to/libansor.so
#include <Halide.h>

#include <atomic>
#include <cstdio>
#include <sys/mman.h>
#include <unistd.h>

namespace {

// Shared by the tuner and every process it forks.
std::atomic<pid_t> *reference_pid = nullptr;

}  // namespace

extern "C" int ansor_hang_after_reference(halide_buffer_t *in, halide_buffer_t *out) {
    if (in->is_bounds_query()) {
        in->dim[0].min = out->dim[0].min;
        in->dim[0].extent = out->dim[0].extent;
        return 0;
    }
    pid_t none = 0;
    reference_pid->compare_exchange_strong(none, getpid());
    if (*reference_pid != getpid()) {
        fork();
        for (;;) pause();
    }
    const float *src = reinterpret_cast<const float *>(in->host);
    float *dst = reinterpret_cast<float *>(out->host);
    for (int i = 0; i < out->dim[0].extent; i++) dst[i] = src[out->dim[0].min + i - in->dim[0].min];
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s path/to/libansor.so\n", argv[0]);
        return 2;
    }
    void *shared = mmap(nullptr, sizeof(std::atomic<pid_t>), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shared == MAP_FAILED) return 2;
    reference_pid = new (shared) std::atomic<pid_t>(0);

    using namespace Halide;
    load_plugin(argv[1]);
    ImageParam in(Float(32), 1, "in");
    in.dim(0).set_estimate(0, 256);
    Var x("x");
    Func pre("pre"), ext("hanging"), out("out");
    pre(x) = in(x) * 2.f;
    ext.define_extern("ansor_hang_after_reference", {pre}, Float(32), 1);
    out(x) = ext(x) + 1.f;
    out.set_estimate(x, 0, 256);
    Target target(ANSOR_TARGET);
    Pipeline(out).auto_schedule("Ansor", target, MachineParams(2, 32 * 1024 * 1024, 40));
    std::fprintf(stderr, "scheduled\n");
    return 0;
}
