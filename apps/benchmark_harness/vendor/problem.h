#pragma once
// The two problems the vendor-library baselines solve (matrix product and 2-D
// convolution), in the layouts of the Halide pipelines they are compared
// with, plus what every library runner needs around them: operand sizes,
// naive references, im2col and the relative error. Nothing here links Halide,
// so each library's executable stays small and independent.
//
// Layouts (row-major, as a Halide buffer's dimensions read from the last):
//   gemm:  a [batch][rows][depth], b [batch][depth][cols] -> c [batch][rows][cols]
//   conv:  input NHWC [n][h][w][ci], weight HWIO [k][k][ci][co], bias [co]
//          -> output NHWC [n][oh][ow][co]; zero padding `pad`, stride `stride`;
//          optional bias (added) and ReLU (max with 0) after the sum.
#include <cstddef>
#include <string>
#include <vector>

namespace ansor_vendor {

struct GemmProblem {
    int batch = 1, rows = 0, cols = 0, depth = 0;
};

struct ConvProblem {
    int n = 1, h = 0, w = 0, ci = 0, co = 0, k = 0, stride = 1, pad = 0;
    bool bias = false, relu = false;
    int out_h() const { return (h + 2 * pad - k) / stride + 1; }
    int out_w() const { return (w + 2 * pad - k) / stride + 1; }
};

struct Problem {
    enum class Kind { Gemm, Conv } kind = Kind::Gemm;
    GemmProblem gemm;
    ConvProblem conv;

    // Element counts of the inputs (a, b / input, weight[, bias]) and the output.
    std::vector<size_t> input_sizes() const;
    size_t output_size() const;
    double flops() const;  // multiply-adds count 2
    std::string describe() const;
};

// "--gemm B,M,N,K" (batch, rows, cols, depth) or "--conv N,H,W,CI,CO,k,s,p"
// with optional "bias" / "relu" flags. Throws std::invalid_argument naming
// the bad field.
Problem parse_gemm(const std::string &spec);
Problem parse_conv(const std::string &spec, bool bias, bool relu);

// Plain loops with double accumulation.
void naive_reference(const Problem &p, const std::vector<std::vector<float>> &inputs, std::vector<float> &out);

// Unfolds the (zero-padded) NHWC input into a [n*oh*ow][k*k*ci] row-major
// matrix whose column order matches the HWIO weight's rows, so that
// conv = im2col(input) x weight[k*k*ci][co].
void im2col(const ConvProblem &c, const float *input, float *columns);
size_t im2col_size(const ConvProblem &c);

// out[i] = max(out[i] + bias[i % co], 0) as the problem asks (a no-op for
// a convolution without bias and ReLU, and for gemm).
void apply_epilogue(const ConvProblem &c, const float *bias, float *out);

// The largest error relative to the reference's scale, as the Halide side
// measures it (src/measure/pipeline_runner.cpp): |got - want| over
// max(|want|, 1e-3 * max|want|). Infinite for NaN/Inf mismatches.
double max_relative_error(const std::vector<float> &got, const std::vector<float> &want);

}  // namespace ansor_vendor
