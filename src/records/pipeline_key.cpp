#include "records/pipeline_key.h"

#include <cstdio>
#include <sstream>

namespace ansor {

using namespace Halide;
using namespace Halide::Internal;

namespace {

// Raise when the canonical description changes (every key changes with it).
constexpr int kPipelineKeyRevision = 1;

// Halide's printer on a fixed set of expressions: the node kinds, types and
// operators a description prints. If a Halide prints any differently, keys
// of the same pipeline differ, and so does this text.
std::string printer_probe_text() {
    Var x("x"), y("y");
    Expr f = cast<float>(x) * 0.5f;
    std::vector<Expr> probes = {
        x + y * 2 - (x / 3) % 4,
        min(x, y) + max(x, 1),
        select((x < y && !(x == 2)) || y >= 5, x, y),
        cast<uint8_t>(clamp(x, 0, 255)),
        sqrt(f) + abs(f) + floor(f) + pow(f, 2.0f),
        cast<int16_t>(x) >> 2,
        Let::make("t", x + 1, Variable::make(Int(32), "t") * 2),
        likely(x > 0),
        Broadcast::make(x, 4) + Ramp::make(y, 1, 4),
        cast<double>(f) / Expr(3.0),
        x != y,
        Call::make(Int(32), "probe_extern", {x, f}, Call::Extern),
        StringImm::make("s"),
    };
    std::ostringstream out;
    for (const Expr &e : probes) out << e << "\n";
    out << Float(32) << " " << UInt(8, 4) << " " << Int(64) << " " << Handle() << "\n";
    return out.str();
}

// An input as the description lists it: an ImageParam or scalar Param, or
// a constant Buffer baked into the pipeline.
struct InputRef {
    Parameter param;
    Buffer<> buffer;
};

// Halide's printer with every process-dependent name replaced: Funcs by
// f<i>, inputs by in<i> (numbered as first met), the current Func's Vars and
// RVars by their canonical names, lets and any other variable by t<i>.
// Floats print exactly so that no two constants print alike.
class CanonicalPrinter : public IRPrinter {
public:
    CanonicalPrinter(std::ostream &s, const CanonicalNames &names) : IRPrinter(s), names_(names) {}

    // Vars resolve against this Func's canonical loop names.
    void set_func(const std::string &func) {
        loops_ = &names_.loop_names(func);
        others_.clear();
    }

    std::string input(const std::string &name, const Parameter &p, const Buffer<> &b) {
        auto it = input_ids_.find(name);
        if (it != input_ids_.end()) return "in" + std::to_string(it->second);
        int id = (int)inputs_.size();
        input_ids_[name] = id;
        inputs_.push_back({p, b});
        return "in" + std::to_string(id);
    }
    const std::vector<InputRef> &inputs() const { return inputs_; }

    std::string var(const std::string &name) {
        if (loops_) {
            auto it = loops_->find(name);
            if (it != loops_->end()) return it->second;
        }
        auto it = others_.find(name);
        if (it != others_.end()) return it->second;
        std::string id = "t" + std::to_string(others_.size());
        others_[name] = id;
        return id;
    }

protected:
    using IRPrinter::visit;

    void visit(const FloatImm *op) override {
        char buf[64];
        std::snprintf(buf, sizeof(buf), "%a", op->value);
        stream << "(" << op->type << ")" << buf;
    }

    void visit(const Variable *op) override {
        if (op->type != Int(32)) stream << "(" << op->type << ")";
        if (op->param.defined()) {
            stream << input(op->param.name(), op->param, Buffer<>()) << member(op->name, op->param.name());
        } else if (op->image.defined()) {
            stream << input(op->image.name(), Parameter(), op->image) << member(op->name, op->image.name());
        } else {
            stream << var(op->name);
        }
    }

    void visit(const Let *op) override {
        stream << "(let " << var(op->name) << " = ";
        print(op->value);
        stream << " in ";
        print(op->body);
        stream << ")";
    }

    void visit(const Call *op) override {
        stream << "(" << op->type << ")";
        if (op->call_type == Call::Halide) {
            auto f = names_.canonical_func(op->name);
            stream << (f ? *f : "?" + op->name);
            if (op->value_index != 0) stream << "." << op->value_index;
        } else if (op->call_type == Call::Image) {
            stream << input(op->name, op->param, op->image);
        } else {
            stream << op->name;
        }
        stream << "(";
        print_list(op->args);
        stream << ")";
    }

private:
    // "A.min.0" of input "A" -> ".min.0".
    static std::string member(const std::string &var, const std::string &input) {
        return var.size() > input.size() && var.compare(0, input.size(), input) == 0 ? var.substr(input.size()) : "";
    }

    const CanonicalNames &names_;
    const std::map<std::string, std::string> *loops_ = nullptr;
    std::map<std::string, std::string> others_;
    std::map<std::string, int> input_ids_;
    std::vector<InputRef> inputs_;
};

class Describer {
public:
    Describer(const PipelineDAG &dag, const CanonicalNames &names) : dag_(dag), names_(names), p_(out_, names) {}

    std::string describe() {
        for (size_t i = 0; i < names_.funcs().size(); i++) func((int)i);
        out_ << "outputs";
        for (const Function &o : dag_.outputs()) out_ << " " << canonical(o.name());
        out_ << "\n";
        // Printing constraints may meet further inputs, so walk by index.
        for (size_t i = 0; i < p_.inputs().size(); i++) input((int)i);
        return out_.str();
    }

private:
    std::string canonical(const std::string &func) { return names_.canonical_func(func).value_or("?"); }

    void expr(const Expr &e) {
        if (e.defined()) p_.print(e);
        else out_ << "undef";
    }

    void exprs(const std::vector<Expr> &es) {
        out_ << "(";
        for (size_t i = 0; i < es.size(); i++) {
            if (i) out_ << ", ";
            expr(es[i]);
        }
        out_ << ")";
    }

    void func(int id) {
        const std::string &name = names_.funcs()[id];
        const Function &f = dag_.env().at(name);
        p_.set_func(name);
        out_ << "f" << id << " (";
        for (size_t a = 0; a < f.args().size(); a++) out_ << (a ? ", " : "") << p_.var(f.args()[a]);
        out_ << ") ->";
        for (const Type &t : f.output_types()) out_ << " " << t;
        out_ << "\n";
        // Estimates by argument position, whatever order they were set in.
        for (const std::string &a : f.args()) {
            for (const Bound &b : f.schedule().estimates()) {
                if (b.var != a) continue;
                out_ << "  estimate " << p_.var(a) << " [";
                expr(b.min);
                out_ << ", ";
                expr(b.extent);
                out_ << "]\n";
            }
        }
        if (f.has_extern_definition()) {
            extern_call(f);
            return;
        }
        if (f.has_pure_definition()) definition("pure", f.definition(), 1);
        for (size_t u = 0; u < f.updates().size(); u++) definition("update " + std::to_string(u), f.updates()[u], 1);
    }

    void definition(const std::string &what, const Definition &def, int depth) {
        std::string indent(2 * depth, ' ');
        out_ << indent << what << " ";
        exprs(def.args());
        out_ << " = ";
        exprs(def.values());
        for (const ReductionVariable &rv : def.schedule().rvars()) {
            out_ << " " << p_.var(rv.var) << "[";
            expr(rv.min);
            out_ << ", ";
            expr(rv.extent);
            out_ << "]";
        }
        if (def.predicate().defined() && !is_const_one(def.predicate())) {
            out_ << " where ";
            expr(def.predicate());
        }
        out_ << "\n";
        for (const Specialization &s : def.specializations()) {
            out_ << indent << "  specialize ";
            expr(s.condition);
            out_ << (s.failure_message.empty() ? "" : " fails") << "\n";
            definition("then", s.definition, depth + 2);
        }
    }

    void extern_call(const Function &f) {
        out_ << "  extern " << f.extern_function_name() << " (";
        const auto &args = f.extern_arguments();
        for (size_t i = 0; i < args.size(); i++) {
            const ExternFuncArgument &a = args[i];
            if (i) out_ << ", ";
            if (a.is_func()) {
                out_ << canonical(Function(a.func).name());
            } else if (a.is_expr()) {
                expr(a.expr);
            } else if (a.is_buffer()) {
                out_ << p_.input(a.buffer.name(), Parameter(), a.buffer);
            } else if (a.is_image_param()) {
                out_ << p_.input(a.image_param.name(), a.image_param, Buffer<>());
            } else {
                out_ << "undef";
            }
        }
        out_ << ") mangling " << (int)f.extern_definition_name_mangling() << "\n";
    }

    void input(int id) {
        const InputRef in = p_.inputs()[id];
        p_.set_func("");
        out_ << "in" << id;
        if (in.buffer.defined()) {
            out_ << " constant buffer " << in.buffer.type() << " [";
            for (int d = 0; d < in.buffer.dimensions(); d++) {
                out_ << (d ? ", " : "") << in.buffer.dim(d).min() << "+" << in.buffer.dim(d).extent();
            }
            out_ << "]\n";
            return;
        }
        const Parameter &p = in.param;
        if (!p.defined()) {
            out_ << " unknown\n";
            return;
        }
        if (!p.is_buffer()) {
            out_ << " scalar " << p.type() << " estimate ";
            expr(p.estimate());
            out_ << " range [";
            expr(p.min_value());
            out_ << ", ";
            expr(p.max_value());
            out_ << "]\n";
            return;
        }
        out_ << " buffer " << p.type() << " dims " << p.dimensions() << "\n";
        for (int d = 0; d < p.dimensions(); d++) {
            out_ << "  dim " << d << " estimate [";
            expr(p.min_constraint_estimate(d));
            out_ << ", ";
            expr(p.extent_constraint_estimate(d));
            out_ << "] constraint [";
            expr(p.min_constraint(d));
            out_ << ", ";
            expr(p.extent_constraint(d));
            out_ << ", stride ";
            expr(p.stride_constraint(d));
            out_ << "]\n";
        }
    }

    const PipelineDAG &dag_;
    const CanonicalNames &names_;
    std::ostringstream out_;
    CanonicalPrinter p_;
};

}  // namespace

std::string fnv1a_hex(const std::string &text) {
    uint64_t h = 14695981039346656037ull;
    for (unsigned char c : text) {
        h ^= c;
        h *= 1099511628211ull;
    }
    char buf[17];
    std::snprintf(buf, sizeof(buf), "%016llx", (unsigned long long)h);
    return buf;
}

std::string check_hash_hex(const std::string &text) {
    uint64_t h = 0x9e3779b97f4a7c15ull ^ (uint64_t)text.size();
    for (unsigned char c : text) {
        h = (h ^ c) * 0xff51afd7ed558ccdull;
        h ^= h >> 29;
    }
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebull;
    h ^= h >> 31;
    char buf[17];
    std::snprintf(buf, sizeof(buf), "%016llx", (unsigned long long)h);
    return buf;
}

const std::string &pipeline_key_format() {
    static const std::string format = std::to_string(kPipelineKeyRevision) + "-" + fnv1a_hex(printer_probe_text());
    return format;
}

std::string strip_uniquifier(const std::string &name) {
    size_t dollar = name.rfind('$');
    if (dollar == std::string::npos || dollar + 1 == name.size()) return name;
    if (name.find_first_not_of("0123456789", dollar + 1) != std::string::npos) return name;
    return name.substr(0, dollar);
}

PipelineKey make_pipeline_key(const PipelineDAG &dag) {
    PipelineKey key{"", "", "", CanonicalNames(dag), {}, dag.parallelism()};
    key.text = Describer(dag, key.names).describe();
    key.hash = fnv1a_hex(key.text);
    key.check = check_hash_hex(key.text);
    for (const Function &o : dag.outputs()) key.outputs.push_back(strip_uniquifier(o.name()));
    return key;
}

}  // namespace ansor
