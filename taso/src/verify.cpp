#include "verify.h"

#include <stdexcept>

namespace taso {

struct Verifier::Impl {
    VerifyOptions options;
    z3::context ctx;
    Z3Signature sig{ctx};
    z3::solver solver{ctx};
    std::vector<std::string> names;

    explicit Impl(VerifyOptions o) : options(std::move(o)) {
        z3::params p(ctx);
        // E-matching on the patterns only: model-based instantiation would
        // search for counter-models of the quantified axioms, which rarely
        // ends within the limit and never proves anything here.
        p.set("mbqi", false);
        p.set("timeout", options.timeout_ms);
        solver.set(p);
        for (const Axiom &a : operator_axioms()) {
            solver.add(a.build(sig));
            names.push_back(a.name);
        }
        for (const Axiom &a : shape_axioms()) solver.add(a.build(sig));
        for (const Axiom &a : options.extra_axioms) {
            solver.add(a.build(sig));
            names.push_back(a.name);
        }
    }

    z3::expr dim_term(const DimExpr &d, const InputFamily &family) {
        if (!d.plain()) throw std::runtime_error("input sizes must not involve convolutions");
        z3::expr e = ctx.int_val((int64_t)d.constant);
        for (int s : d.symbols) e = e + ctx.int_const(("sym_" + family.symbols.name(s)).c_str());
        return e;
    }

    // Terms of one graph's outputs.
    std::vector<z3::expr> terms(const PatternGraph &g, const z3::expr_vector &inputs) {
        std::vector<std::vector<z3::expr>> results;
        auto get = [&](const TensorRef &r) -> z3::expr {
            return r.op < 0 ? inputs[(unsigned)r.index] : results.at(r.op).at(r.port);
        };
        for (const PatternOp &op : g.ops) {
            std::vector<z3::expr> in;
            for (const TensorRef &r : op.operands) in.push_back(get(r));
            const OpAttrs &at = op.attrs;
            std::vector<z3::expr> out;
            switch (op.kind) {
            case OpKind::Matmul: out.push_back(sig.matmul(in[0], in[1])); break;
            case OpKind::EwAdd: out.push_back(sig.ewadd(in[0], in[1])); break;
            case OpKind::EwMul: out.push_back(sig.ewmul(in[0], in[1])); break;
            case OpKind::ScalarMul: out.push_back(sig.smul(in[0], in[1])); break;
            case OpKind::Relu: out.push_back(sig.relu(in[0])); break;
            case OpKind::Transpose: out.push_back(sig.transpose(in[0])); break;
            case OpKind::Concat: out.push_back(sig.concat(ctx.int_val(at.axis), in[0], in[1])); break;
            case OpKind::Split:
                out.push_back(sig.split0(ctx.int_val(at.axis), in[0]));
                out.push_back(sig.split1(ctx.int_val(at.axis), in[0]));
                break;
            case OpKind::Conv2d:
                out.push_back(sig.conv(ctx.int_val(at.stride),
                                       ctx.int_val(at.padding == Padding::Same ? kZ3PadSame : kZ3PadValid),
                                       ctx.int_val(at.activation == Activation::Relu ? kZ3ActRelu : kZ3ActNone),
                                       in[0], in[1]));
                break;
            case OpKind::Enlarge: out.push_back(sig.enlarge(ctx.int_val(at.kernel), in[0])); break;
            case OpKind::Conv2dBias:
                out.push_back(sig.conv_bias(ctx.int_val(at.stride),
                                            ctx.int_val(at.padding == Padding::Same ? kZ3PadSame : kZ3PadValid),
                                            ctx.int_val(at.activation == Activation::Relu ? kZ3ActRelu : kZ3ActNone),
                                            in[0], in[1], in[2]));
                break;
            case OpKind::MatmulBias: out.push_back(sig.matmul_bias(in[0], in[1], in[2])); break;
            case OpKind::Conv2dBiasAdd:
                out.push_back(sig.conv_bias_add(ctx.int_val(at.stride),
                                                ctx.int_val(at.padding == Padding::Same ? kZ3PadSame : kZ3PadValid),
                                                ctx.int_val(at.activation == Activation::Relu ? kZ3ActRelu : kZ3ActNone),
                                                in[0], in[1], in[2], in[3]));
                break;
            }
            results.push_back(out);
        }
        std::vector<z3::expr> outs;
        for (const TensorRef &r : g.outputs) outs.push_back(get(r));
        return outs;
    }

    bool prove(const InputFamily &family, const PatternGraph &a, const PatternGraph &b,
               const std::vector<std::pair<int, int>> &outputs) {
        infer_graph(family, a);  // ill-shaped graphs are an error, not a proof
        infer_graph(family, b);
        solver.push();
        z3::expr_vector inputs(ctx);
        for (int s = 0; s < family.symbols.size(); s++)
            solver.add(ctx.int_const(("sym_" + family.symbols.name(s)).c_str()) > 0);
        for (const InputSpec &in : family.inputs) {
            if (in.kind == InputKind::IdentityKernel) {
                inputs.push_back(sig.identity(dim_term(in.shape.at(0), family)));
                continue;
            }
            z3::expr t = ctx.constant(("in_" + in.name).c_str(), sig.T);
            for (size_t i = 0; i < in.shape.size(); i++) solver.add(sig.dim((int)i, t) == dim_term(in.shape[i], family));
            inputs.push_back(t);
        }
        auto ta = terms(a, inputs), tb = terms(b, inputs);
        z3::expr differ = ctx.bool_val(false);
        for (auto [i, j] : outputs) differ = differ || ta.at(i) != tb.at(j);
        solver.add(differ);
        z3::check_result r = solver.check();
        solver.pop();
        return r == z3::unsat;
    }
};

Verifier::Verifier(VerifyOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}
Verifier::~Verifier() = default;

bool Verifier::prove_equal(const InputFamily &family, const PatternGraph &a, const PatternGraph &b,
                           const std::vector<std::pair<int, int>> &outputs) {
    return impl_->prove(family, a, b, outputs);
}

std::vector<std::string> Verifier::axiom_names() const { return impl_->names; }

}  // namespace taso
