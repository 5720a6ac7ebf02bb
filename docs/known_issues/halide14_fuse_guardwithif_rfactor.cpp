// Halide 14 bounds bug found by our sampler: an output's update
// split with GuardWithIf, its outer pieces fused, and an rfactor intermediate
// computed inside whose pure var is split. The program reads B out of
// bounds ("Input buffer B is accessed at 188, which is beyond the max (95)").
// Any one of: no fuse, Auto instead of GuardWithIf on the x split, or no
// split of the intermediate's x makes it correct. The measurer records such
// candidates as failures; the search goes on.
// Build: g++ -std=c++17 halide14_fuse_guardwithif_rfactor.cpp -I/usr/include/halide14 -lHalide14
#include <Halide.h>
using namespace Halide;
int main(int argc, char**argv){
  int n=96;
  ImageParam A(Float(32),2,"A"), B(Float(32),2,"B");
  Var x("x"), y("y"); RDom k(0,n,"k");
  Func matmul("matmul"); matmul(x,y)=0.f; matmul(x,y)+=A(k,y)*B(x,k);
  Var y_0("y_0"),y_r1("y_r1"),y_1("y_1"),y_2("y_2"),x_0("x_0"),x_r1("x_r1"),x_1("x_1"),x_2("x_2"),f("f");
  RVar k_x(k.x.name()), k0("k0"), k1("k1");
  Func intm = matmul.update(0).rfactor({});
  matmul.update(0).split(y, y_0, y_r1, 96, TailStrategy::GuardWithIf);
  matmul.update(0).split(y_r1, y_1, y_2, 1, TailStrategy::GuardWithIf);
  matmul.update(0).split(x, x_0, x_r1, 3, TailStrategy::GuardWithIf);
  matmul.update(0).split(x_r1, x_1, x_2, 3, TailStrategy::GuardWithIf);
  matmul.update(0).reorder(x_2, y_2, x_1, y_1, x_0, y_0);
  matmul.split(x, x_0, x_1, 16, TailStrategy::Auto);
  matmul.vectorize(x_1);
  matmul.parallel(y);
  matmul.update(0).vectorize(x_2);
  matmul.update(0).fuse(x_0, y_0, f);
  matmul.update(0).parallel(f);
  intm.compute_at(matmul, x_1);
  intm.update(0).split(x, x_0, x_r1, 1, TailStrategy::Auto);
  Buffer<float> a(n,n), b(n,n); a.fill(1.f); b.fill(1.f);
  A.set(a); B.set(b);
  Target t("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41");
  Buffer<float> o = matmul.realize({n,n}, t);
  printf("ok %f\n", o(95,95));
}
