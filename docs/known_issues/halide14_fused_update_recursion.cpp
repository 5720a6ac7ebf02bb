// Halide 14 compile-time bug found by our fuzzer (seed 246): a batched matrix
// product read by two consumers, its update tiled with GuardWithIf splits and
// its outer tile loops fused. With five or more loops fused, partition_loops
// recurses until the stack runs out (a segfault while compiling); four
// compile and run. The same schedule on the pure stage compiles. The search
// fuses at most four loops of an update (kMaxFusedUpdateLoops).
// Build: g++ -std=c++17 halide14_fused_update_recursion.cpp -I/usr/include/halide14 -lHalide14
// Run: ./a.out 5 (segfault), ./a.out 4 (ok)
#include <Halide.h>
#include <cstdlib>
#include <cstdio>
using namespace Halide;
using namespace Halide::ConciseCasts;
int main(int argc, char **argv) {
    const int fused_loops = argc > 1 ? std::atoi(argv[1]) : 5;
    ImageParam A(Float(32), 3, "A"), B(Float(32), 3, "B");
    Var x("x"), y("y"), c("c");
    RDom k(0, 21, "k");
    Func mm("mm");
    mm(x, y, c) = 0.f;
    mm(x, y, c) += A(k, y, c) * B(x, k, c);
    // Two consumers: a channel max and a 5x5 box of a clamped cast.
    Func channel_max("channel_max");
    channel_max(x, y) = max(max(mm(x, y, 0), mm(x, y, 1)), max(mm(x, y, 2), mm(x, y, 3)));
    Func edge("edge");
    edge(x, y, c) = u16(clamp(mm(clamp(x, 0, 110), clamp(y, 0, 20), clamp(c, 0, 3)) * 65535.f, 0.f, 65535.f));
    RDom taps(0, 5, 0, 5, "taps");
    Func box("box");
    box(x, y, c) = u32(0);
    box(x, y, c) += u32(edge(x + taps.x - 2, y + taps.y - 2, c));

    Var c_0, c_r1, c_1, c_r2, c_2, c_3, y_0, y_r1, y_1, y_r2, y_2, y_3, x_0, x_r1, x_1, x_r2, x_2, x_3;
    Var f1, f2, f3, f4, f5;
    RVar k0("k0"), k1("k1");
    const TailStrategy g = TailStrategy::GuardWithIf;
    mm.compute_root();
    Stage u = mm.update(0);
    u.split(c, c_0, c_r1, 4, g).split(c_r1, c_1, c_r2, 4, g).split(c_r2, c_2, c_3, 1, g);
    u.split(y, y_0, y_r1, 21, g).split(y_r1, y_1, y_r2, 3, g).split(y_r2, y_2, y_3, 3, g);
    u.split(x, x_0, x_r1, 111, g).split(x_r1, x_1, x_r2, 37, g).split(x_r2, x_2, x_3, 1, g);
    u.split(k.x, k0, k1, 3);
    u.reorder(x_3, y_3, c_3, k1, x_2, y_2, c_2, k0, x_1, y_1, c_1, x_0, y_0, c_0);
    // Outermost first: c_0, y_0, x_0, c_1, y_1, x_1.
    if (fused_loops >= 2) u.fuse(y_0, c_0, f1);
    if (fused_loops >= 3) u.fuse(x_0, f1, f2);
    if (fused_loops >= 4) u.fuse(c_1, f2, f3);
    if (fused_loops >= 5) u.fuse(y_1, f3, f4);
    if (fused_loops >= 6) u.fuse(x_1, f4, f5);

    Buffer<float> a(21, 21, 4), b(111, 21, 4);
    a.fill(1.f);
    b.fill(1.f);
    A.set(a);
    B.set(b);
    Target t("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41");
    Realization r = Pipeline({box, channel_max}).realize({111, 21, 4}, t);
    Buffer<float> m = r[1];
    std::printf("ok %f\n", m(110, 20));
    return 0;
}
