// oneDNN 2.6 baseline: the matrix product as a matmul primitive on plain
// row-major operands, the convolution as a convolution_forward primitive with
// bias and a ReLU post-op where the problem has them. Activations stay in
// the pipelines' NHWC layout; the weights may be kept in the blocked layout
// oneDNN prefers, but their reorder from HWIO runs inside the timed call,
// since the Halide pipelines are timed from the same plain HWIO weights.
#include "driver.h"

#include <oneapi/dnnl/dnnl.hpp>
#include <omp.h>

#include <memory>
#include <unordered_map>

namespace {

using ansor_vendor::Problem;
using dnnl::memory;
using tag = dnnl::memory::format_tag;
using dt = dnnl::memory::data_type;

// Kept across the set-up and the timed calls: engine, stream, primitives and
// the memory objects wrapping the caller's buffers.
struct Session {
    dnnl::engine engine{dnnl::engine::kind::cpu, 0};
    dnnl::stream stream{engine};
};

// The kernel oneDNN chose, for info().
std::string implementation_note;

memory wrap(const memory::desc &md, const dnnl::engine &e, const float *data) {
    return memory(md, e, const_cast<float *>(data));
}

std::function<void()> prepare_gemm(const Problem &p, const std::vector<std::vector<float>> &in, std::vector<float> &out) {
    auto s = std::make_shared<Session>();
    const auto g = p.gemm;
    memory::desc a_md({g.batch, g.rows, g.depth}, dt::f32, tag::abc);
    memory::desc b_md({g.batch, g.depth, g.cols}, dt::f32, tag::abc);
    memory::desc c_md({g.batch, g.rows, g.cols}, dt::f32, tag::abc);
    dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(a_md, b_md, c_md), s->engine);
    implementation_note = pd.impl_info_str();
    auto prim = std::make_shared<dnnl::matmul>(pd);
    auto a = wrap(a_md, s->engine, in[0].data()), b = wrap(b_md, s->engine, in[1].data());
    auto c = wrap(c_md, s->engine, out.data());
    return [=] {
        prim->execute(s->stream, {{DNNL_ARG_SRC, a}, {DNNL_ARG_WEIGHTS, b}, {DNNL_ARG_DST, c}});
        s->stream.wait();
    };
}

std::function<void()> prepare_conv(const Problem &p, const std::vector<std::vector<float>> &in, std::vector<float> &out) {
    auto s = std::make_shared<Session>();
    const auto c = p.conv;
    memory::desc src_md({c.n, c.ci, c.h, c.w}, dt::f32, tag::nhwc);
    memory::desc user_w_md({c.co, c.ci, c.k, c.k}, dt::f32, tag::hwio);
    memory::desc any_w_md({c.co, c.ci, c.k, c.k}, dt::f32, tag::any);
    memory::desc bias_md = c.bias ? memory::desc({c.co}, dt::f32, tag::a) : memory::desc();
    memory::desc dst_md({c.n, c.co, c.out_h(), c.out_w()}, dt::f32, tag::nhwc);
    // The padding on the high side: what the last window overhangs.
    const int pad_r_h = (c.out_h() - 1) * c.stride + c.k - c.h - c.pad;
    const int pad_r_w = (c.out_w() - 1) * c.stride + c.k - c.w - c.pad;
    dnnl::convolution_forward::desc desc(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
                                         src_md, any_w_md, bias_md, dst_md, {c.stride, c.stride}, {c.pad, c.pad},
                                         {pad_r_h, pad_r_w});
    dnnl::primitive_attr attr;
    if (c.relu) {
        dnnl::post_ops ops;
        ops.append_eltwise(1.f, dnnl::algorithm::eltwise_relu, 0.f, 0.f);
        attr.set_post_ops(ops);
    }
    dnnl::convolution_forward::primitive_desc pd(desc, attr, s->engine);
    implementation_note = pd.impl_info_str();
    auto conv = std::make_shared<dnnl::convolution_forward>(pd);
    auto src = wrap(src_md, s->engine, in[0].data());
    auto user_w = wrap(user_w_md, s->engine, in[1].data());
    auto dst = wrap(dst_md, s->engine, out.data());
    memory bias = c.bias ? wrap(bias_md, s->engine, in[2].data()) : memory();
    memory w = user_w;
    std::shared_ptr<dnnl::reorder> reorder;
    if (pd.weights_desc() != user_w_md) {
        w = memory(pd.weights_desc(), s->engine);
        reorder = std::make_shared<dnnl::reorder>(user_w, w);
        implementation_note += " + weight reorder";
    }
    return [=]() mutable {
        if (reorder) reorder->execute(s->stream, user_w, w);
        std::unordered_map<int, memory> args = {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, w}, {DNNL_ARG_DST, dst}};
        if (c.bias) args[DNNL_ARG_BIAS] = bias;
        conv->execute(s->stream, args);
        s->stream.wait();
    };
}

}  // namespace

int main(int argc, char **argv) {
    ansor_vendor::Library lib;
    lib.name = "oneDNN";
    lib.set_threads = [](int n) { omp_set_num_threads(n); };
    lib.info = [] {
        const dnnl_version_t *v = dnnl_version();
        return "oneDNN " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch) +
               ", " + implementation_note;
    };
    lib.prepare = [](const Problem &p, const std::vector<std::vector<float>> &in, std::vector<float> &out) {
        return p.kind == Problem::Kind::Gemm ? prepare_gemm(p, in, out) : prepare_conv(p, in, out);
    };
    return ansor_vendor::vendor_main(argc, argv, lib);
}
