// Halide 14 codegen bug found by the fuzzer (seed 383; Adams2019's program
// for the same pipeline faults too): a stride-2..4 vector load from a Func's
// buffer at a literal index is turned into a dense load of lanes*stride
// elements from index - (index mod stride), and its alignment is recomputed
// with modulus 0 (x mod 0 = 0 in Halide), so the load claims full alignment
// at an odd address: LLVM emits vmovdqa, which faults.
// Literal indices appear where a vectorised split's ShiftInwards tail is
// peeled under a constant extent and the producer is stored per row.
//   g++ -std=c++17 -I/usr/include/halide14 halide14_strided_load_alignment.cpp -lHalide14 -lpthread -ldl
//   ./a.out 175 16 0   segfaults (ShiftInwards)
//   ./a.out 175 16 1   runs (GuardWithIf, what the search now emits here)
//   FIX=1 ./a.out 175 16 0   runs (a lowering pass restating the alignment)
// Arguments: output width, vector width, tail (0 ShiftInwards, 1 GuardWithIf,
// 2 the all-root reference).
// Halide 14: segfault from a stride-2 vector load with a constant index (ShiftInwards tail).
#include "Halide.h"
#include <cstdio>
#include <cstdlib>
using namespace Halide;
using namespace Halide::Internal;
// Optional workaround (FIX=1): restate the alignment (0, c) of constant-index vector loads as (1024, c mod 1024).
struct FixConstAlign : IRMutator {
    using IRMutator::visit;
    Expr visit(const Load *op) override {
        Expr e = IRMutator::visit(op);
        const Load *l = e.as<Load>();
        if (l && l->type.is_vector() && l->alignment.modulus == 0)
            return Load::make(l->type, l->name, l->index, l->image, l->param, l->predicate,
                              ModulusRemainder(1024, ((l->alignment.remainder % 1024) + 1024) % 1024));
        return e;
    }
};
int main(int argc, char **argv) {
    const int OW = argc > 1 ? atoi(argv[1]) : 175, V = argc > 2 ? atoi(argv[2]) : 16;
    const int tail = argc > 3 ? atoi(argv[3]) : 0;  // 0 ShiftInwards, 1 GuardWithIf, 2 reference (all root)
    Buffer<uint8_t> in(2 * OW, 4);
    for (int y = 0; y < 4; y++) for (int x = 0; x < 2 * OW; x++) in(x, y) = (x * 7 + y * 13) & 255;
    Var x("x"), y("y"), xo("xo"), xi("xi");
    Func edge = BoundaryConditions::repeat_edge(in), down("down");
    down(x, y) = cast<uint8_t>((cast<uint16_t>(edge(2 * x + 1, y)) + 2 * edge(2 * x, y) + edge(2 * x - 1, y)) / 4);
    down.bound(x, 0, OW);  // constant extent: loop partitioning peels the ShiftInwards tail
    if (tail == 2) edge.compute_root();
    else {
        down.split(x, xo, xi, V, tail ? TailStrategy::GuardWithIf : TailStrategy::ShiftInwards).vectorize(xi);
        edge.compute_at(down, y).align_storage(edge.args()[0], 64);  // producer at the row loop
    }
    if (getenv("FIX")) down.add_custom_lowering_pass(new FixConstAlign);
    Target t("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41");
    if (getenv("STMT")) down.compile_to_lowered_stmt(getenv("STMT"), {}, Text, t);
    Buffer<uint8_t> o = down.realize({OW, 4}, t);
    unsigned long h = 0;
    for (int j = 0; j < 4; j++) for (int i = 0; i < OW; i++) h = h * 31 + o(i, j);
    printf("ok %lu\n", h);
    return 0;
}
