// Eigen 3.4 baseline: the matrix product as a product of row-major mapped
// matrices, the convolution as im2col + product + bias/ReLU pass (a 1x1,
// stride-1, unpadded convolution skips the unfold). Built with OpenMP, so
// Eigen's product uses setNbThreads() threads, and with the AVX-512 flags of
// the Halide target.
#include "driver.h"

#include <Eigen/Core>

#include <memory>

namespace {

using ansor_vendor::Problem;
using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

std::function<void()> prepare(const Problem &p, const std::vector<std::vector<float>> &in, std::vector<float> &out) {
    if (p.kind == Problem::Kind::Gemm) {
        const auto g = p.gemm;
        const float *a = in[0].data(), *b = in[1].data();
        float *c = out.data();
        return [=] {
            for (int i = 0; i < g.batch; i++) {
                Eigen::Map<const RowMajor> lhs(a + (size_t)i * g.rows * g.depth, g.rows, g.depth);
                Eigen::Map<const RowMajor> rhs(b + (size_t)i * g.depth * g.cols, g.depth, g.cols);
                Eigen::Map<RowMajor> dst(c + (size_t)i * g.rows * g.cols, g.rows, g.cols);
                dst.noalias() = lhs * rhs;
            }
        };
    }
    const auto c = p.conv;
    const bool direct = c.k == 1 && c.stride == 1 && c.pad == 0;
    auto columns = std::make_shared<std::vector<float>>(direct ? 0 : ansor_vendor::im2col_size(c));
    const float *input = in[0].data(), *weight = in[1].data(), *bias = c.bias ? in[2].data() : nullptr;
    float *out_data = out.data();
    const int rows = c.n * c.out_h() * c.out_w(), depth = c.k * c.k * c.ci;
    return [=] {
        const float *lhs_data = input;
        if (!direct) {
            ansor_vendor::im2col(c, input, columns->data());
            lhs_data = columns->data();
        }
        Eigen::Map<const RowMajor> lhs(lhs_data, rows, depth);
        Eigen::Map<const RowMajor> rhs(weight, depth, c.co);
        Eigen::Map<RowMajor> dst(out_data, rows, c.co);
        dst.noalias() = lhs * rhs;
        ansor_vendor::apply_epilogue(c, bias, out_data);
    };
}

}  // namespace

int main(int argc, char **argv) {
    ansor_vendor::Library lib;
    lib.name = "Eigen";
    lib.set_threads = [](int n) { Eigen::setNbThreads(n); };
    lib.info = [] {
        return "Eigen " + std::to_string(EIGEN_WORLD_VERSION) + "." + std::to_string(EIGEN_MAJOR_VERSION) + "." +
               std::to_string(EIGEN_MINOR_VERSION) + ", " + Eigen::SimdInstructionSetsInUse() + ", " +
               std::to_string(Eigen::nbThreads()) + " threads";
    };
    lib.prepare = prepare;
    return ansor_vendor::vendor_main(argc, argv, lib);
}
