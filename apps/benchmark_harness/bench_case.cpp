#include "bench_case.h"

#include "suite_pipelines.h"

#ifdef ANSOR_HARNESS_HAS_APPS
#include "app_pipelines.h"
#endif

#include <sstream>
#include <stdexcept>

namespace ansor_harness {

namespace {

std::vector<std::string> split(const std::string &s, char sep) {
    std::vector<std::string> out;
    std::stringstream in(s);
    std::string item;
    while (std::getline(in, item, sep)) out.push_back(item);
    return out;
}

int op_param(const BenchCase &c, const std::string &name) { return ansor_ops::param(c.op_shape, name); }

// The vendor problems: the suite's gmm and c2d, the apps' matmul and
// conv_bias_relu (layouts in docs/operators.md and the apps' file headers).
std::optional<VendorSpec> op_vendor_spec(const BenchCase &c) {
    VendorSpec v;
    if (c.generator == "gmm") {
        v.problem.kind = ansor_vendor::Problem::Kind::Gemm;
        v.problem.gemm = {op_param(c, "B"), op_param(c, "N"), op_param(c, "M"), op_param(c, "K")};
        v.input_names = {"lhs", "rhs"};
        return v;
    }
    if (c.generator == "c2d") {
        v.problem.kind = ansor_vendor::Problem::Kind::Conv;
        v.problem.conv = {op_param(c, "N"),  op_param(c, "H"), op_param(c, "W"), op_param(c, "CI"),
                          op_param(c, "CO"), op_param(c, "k"), op_param(c, "s"), op_param(c, "p")};
        v.input_names = {"input", "weight"};
        return v;
    }
    return std::nullopt;
}

}  // namespace

std::string BenchCase::file_stem() const {
    std::string s;
    for (char ch : name) s += std::isalnum((unsigned char)ch) || ch == '_' || ch == '-' ? ch : '_';
    return s;
}

std::vector<Halide::Internal::Function> BuiltPipeline::outputs() const {
    std::vector<Halide::Internal::Function> out;
    for (const Halide::Func &f : pipeline.outputs()) out.push_back(f.function());
    return out;
}

BenchCase op_case(const std::string &spec) {
    auto colon = spec.find(':');
    const std::string op = spec.substr(0, colon);
    const ansor_ops::OpShapes *table = nullptr;
    try {
        table = &ansor_ops::find_op(op);
    } catch (const std::out_of_range &) {
        std::string known;
        for (const auto &o : ansor_ops::operator_suite()) known += (known.empty() ? "" : ", ") + o.name;
        throw std::invalid_argument("unknown operator \"" + op + "\" (known: " + known + ")");
    }
    BenchCase c;
    c.kind = BenchCase::Kind::Op;
    c.generator = op;
    std::string which = colon == std::string::npos ? "0" : spec.substr(colon + 1);
    if (which == "small") {
        c.op_shape = table->small_shape;
    } else {
        size_t used = 0;
        int index = -1;
        try {
            index = std::stoi(which, &used);
        } catch (const std::exception &) {
            used = 0;
        }
        if (used != which.size() || index < 0 || index >= (int)table->ansor_shapes.size()) {
            throw std::invalid_argument("operator " + op + " has no shape \"" + which + "\" (0.." +
                                        std::to_string(table->ansor_shapes.size() - 1) + " or small)");
        }
        c.op_shape = table->ansor_shapes[index];
    }
    c.name = op + ":" + which;
    c.params = ansor_ops::generator_params(c.op_shape);
    c.vendor = op_vendor_spec(c);
    return c;
}

#ifdef ANSOR_HARNESS_HAS_APPS

bool apps_available() { return true; }

std::vector<std::string> app_names() {
    std::vector<std::string> names;
    for (const auto &a : ansor_apps::app_list()) names.push_back(a.name);
    return names;
}

BenchCase app_case(const std::string &spec) {
    std::vector<std::string> parts = split(spec, ':');
    const ansor_apps::AppInfo &info = ansor_apps::find_app(parts[0]);  // throws std::invalid_argument
    BenchCase c;
    c.kind = BenchCase::Kind::App;
    c.generator = info.name;
    c.has_expert = info.has_expert_schedule;
    c.flops_defined = info.flops > 0;
    std::map<std::string, int> sizes;
    for (const auto &s : info.sizes) sizes[s.first] = s.second;
    for (size_t i = 1; i < parts.size(); i++) {
        auto eq = parts[i].find('=');
        if (eq == std::string::npos) throw std::invalid_argument("\"" + parts[i] + "\" in \"" + spec + "\" is not SIZE=VALUE");
        std::string key = parts[i].substr(0, eq), value = parts[i].substr(eq + 1);
        if (!sizes.count(key)) throw std::invalid_argument("app \"" + info.name + "\" has no size \"" + key + "\"");
        size_t used = 0;
        int v = 0;
        try {
            v = std::stoi(value, &used);
        } catch (const std::exception &) {
            used = 0;
        }
        if (used != value.size() || v <= 0) throw std::invalid_argument("size " + key + "=\"" + value + "\" is not a positive integer");
        sizes[key] = v;
        c.app_overrides[key] = value;
    }
    c.name = info.name;
    if (!c.app_overrides.empty()) {
        c.name += "[";
        bool first = true;
        for (const auto &kv : c.app_overrides) {
            c.name += (first ? "" : ",") + kv.first + "=" + kv.second;
            first = false;
        }
        c.name += "]";
    }
    for (const auto &s : info.sizes) c.params += (c.params.empty() ? "" : " ") + s.first + "=" + std::to_string(sizes[s.first]);

    VendorSpec v;
    if (info.name == "matmul") {
        v.problem.kind = ansor_vendor::Problem::Kind::Gemm;
        v.problem.gemm = {1, sizes["M"], sizes["N"], sizes["K"]};
        v.input_names = {"a", "b"};
        c.vendor = v;
    } else if (info.name == "conv_bias_relu") {
        v.problem.kind = ansor_vendor::Problem::Kind::Conv;
        v.problem.conv = {sizes["N"], sizes["H"], sizes["W"], sizes["CI"], sizes["CO"], 3, 1, 1, true, true};
        v.input_names = {"input", "weight", "bias"};
        c.vendor = v;
    }
    return c;
}

#else

bool apps_available() { return false; }
std::vector<std::string> app_names() { return {}; }
BenchCase app_case(const std::string &spec) {
    throw std::invalid_argument("app \"" + spec + "\": this harness was built without the app pipelines (apps/app_pipelines)");
}

#endif

BuiltPipeline build_case_pipeline(const BenchCase &c, bool expert, const Halide::Target &target) {
    BuiltPipeline b;
    if (c.kind == BenchCase::Kind::Op) {
        if (expert) throw std::invalid_argument("operator " + c.name + " has no hand-written schedule");
        ansor_apps::SuitePipeline s = ansor_apps::build_suite_pipeline(c.generator, c.op_shape, target);
        b.generator = std::move(s.generator);
        b.pipeline = s.pipeline;
        return b;
    }
#ifdef ANSOR_HARNESS_HAS_APPS
    ansor_apps::AppPipeline a = ansor_apps::build_app_pipeline(c.generator, expert, target, c.app_overrides);
    b.generator = std::move(a.generator);
    b.pipeline = a.pipeline;
    return b;
#else
    throw std::invalid_argument("app " + c.name + ": built without the app pipelines");
#endif
}

}  // namespace ansor_harness
