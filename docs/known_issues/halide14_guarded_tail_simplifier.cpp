// Halide 14 compile-time bug found by our fuzzer (seed 499): a consumer
// whose columns are split with GuardWithIf and vectorised, its outer loops
// fused, holding a producer at its column tile, and reading a Func whose
// row split is shifted inwards and whose columns are split with
// GuardWithIf and vectorised. The simplifier segfaults (simplify_let) while
// lowering. ShiftInwards for the consumer's split makes it compile (as do,
// in the fuzzer's program, no fuse, no split of the producer, or
// GuardWithIf for the row split). The search gives a vectorised split
// GuardWithIf only where its stage reads a producer it holds at a stride
// (the alignment bug of halide14_strided_load_alignment.cpp needs that),
// not here.
// Build: g++ -std=c++17 halide14_guarded_tail_simplifier.cpp -I/usr/include/halide14 -lHalide14
// Run: ./a.out (segfault), ./a.out shift (ok)
#include <Halide.h>
#include <cstdio>
#include <cstring>
using namespace Halide;
int main(int argc, char **argv) {
    const bool shift = argc > 1 && std::strcmp(argv[1], "shift") == 0;
    ImageParam A(Float(32), 3, "A");
    Var x("x"), y("y"), c("c");
    Func edge("edge"), stencil("stencil"), scaled("scaled"), pair("pair"), out("out");
    edge(x, y, c) = A(clamp(likely(x), 0, 400), clamp(likely(y), 0, 117), clamp(likely(c), 0, 7));
    stencil(x, y, c) = (3.f * edge(x - 3, y, c) + 2.f * edge(x + 1, y, c) + 4.f * edge(x + 3, y, c)) / 17.f;
    scaled(x, y, c) = stencil(x, y, c) - A(x, y, c);
    pair(x, y, c) = scaled(x, y, c) + stencil(x, y, c);
    out(x, y, c) = pair(clamp(x, 0, 400), clamp(y, 0, 117), clamp(c, 0, 7)) * 2.f;

    Var x_0, x_1, y_0, y_1, f;
    pair.compute_root()
        .split(x, x_0, x_1, 16, shift ? TailStrategy::ShiftInwards : TailStrategy::GuardWithIf)
        .vectorize(x_1)
        .fuse(y, c, f);
    scaled.compute_at(pair, x_0).split(x, x_0, x_1, 16, TailStrategy::Auto);
    stencil.compute_root()
        .split(y, y_0, y_1, 10, TailStrategy::ShiftInwards)
        .split(x, x_0, x_1, 4, TailStrategy::GuardWithIf)
        .vectorize(x_1);
    edge.compute_root();

    Buffer<float> a(401, 118, 8);
    a.fill(1.f);
    A.set(a);
    Target t("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41");
    Buffer<float> o = out.realize({401, 118, 8}, t);
    std::printf("ok %f\n", o(0, 0, 0));
    return 0;
}
