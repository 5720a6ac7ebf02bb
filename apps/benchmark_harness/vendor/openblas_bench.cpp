// OpenBLAS baseline (cblas_sgemm): the matrix product directly, the
// convolution as im2col + sgemm + bias/ReLU pass (a 1x1, stride-1, unpadded
// convolution skips the unfold). Debian's OpenBLAS 0.3.21 does not know Zen 5
// and falls back to AVX2 kernels; run it with OPENBLAS_CORETYPE=SkylakeX for
// the AVX-512 ones (the harness does; info() prints the core in use).
#include "driver.h"

#include <cblas.h>

#include <memory>

namespace {

using ansor_vendor::Problem;

std::function<void()> prepare(const Problem &p, const std::vector<std::vector<float>> &in, std::vector<float> &out) {
    if (p.kind == Problem::Kind::Gemm) {
        const auto g = p.gemm;
        const float *a = in[0].data(), *b = in[1].data();
        float *c = out.data();
        return [=] {
            for (int i = 0; i < g.batch; i++) {
                cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, g.rows, g.cols, g.depth, 1.f,
                            a + (size_t)i * g.rows * g.depth, g.depth, b + (size_t)i * g.depth * g.cols, g.cols, 0.f,
                            c + (size_t)i * g.rows * g.cols, g.cols);
            }
        };
    }
    const auto c = p.conv;
    const bool direct = c.k == 1 && c.stride == 1 && c.pad == 0;
    auto columns = std::make_shared<std::vector<float>>(direct ? 0 : ansor_vendor::im2col_size(c));
    const float *input = in[0].data(), *weight = in[1].data(), *bias = c.bias ? in[2].data() : nullptr;
    float *dst = out.data();
    const int rows = c.n * c.out_h() * c.out_w(), depth = c.k * c.k * c.ci;
    return [=] {
        const float *lhs = input;
        if (!direct) {
            ansor_vendor::im2col(c, input, columns->data());
            lhs = columns->data();
        }
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, rows, c.co, depth, 1.f, lhs, depth, weight, c.co, 0.f,
                    dst, c.co);
        ansor_vendor::apply_epilogue(c, bias, dst);
    };
}

}  // namespace

int main(int argc, char **argv) {
    ansor_vendor::Library lib;
    lib.name = "OpenBLAS";
    lib.set_threads = [](int n) { openblas_set_num_threads(n); };
    lib.info = [] { return std::string(openblas_get_config()) + ", core " + openblas_get_corename(); };
    lib.prepare = prepare;
    return ansor_vendor::vendor_main(argc, argv, lib);
}
