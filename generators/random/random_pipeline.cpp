// The driver: input sizes, the stage loop (a weighted draw of kinds), the
// two outputs, and the in-process build over ImageParams.
#include "random_pipeline.h"

#include "draft.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <sstream>
#include <stdexcept>

using namespace Halide;

namespace random_pipeline {

namespace {

// Draw weights of the kinds, in StageKind order: pointwise code and
// stencils dominate real pipelines; the rest appear now and then.
const std::vector<double> &kind_weights() {
    static const std::vector<double> w = {
        16,  // Pointwise
        7,   // Cast
        14,  // Stencil
        5,   // Downsample
        4,   // Upsample
        3,   // Transpose
        3,   // RowSum
        3,   // ColumnSum
        3,   // ChannelReduce
        4,   // Matmul
        3,   // Argmax
        3,   // Histogram
        3,   // Scan
        4,   // Lookup
        3,   // TupleValued
        4,   // Update
        3,   // Expand
    };
    return w;
}

bool draw_kind(Draft &d, StageKind kind) {
    switch (kind) {
    case StageKind::Pointwise: return draw_pointwise(d);
    case StageKind::Cast: return draw_cast(d);
    case StageKind::Stencil: return draw_stencil(d);
    case StageKind::Downsample: return draw_downsample(d);
    case StageKind::Upsample: return draw_upsample(d);
    case StageKind::Transpose: return draw_transpose(d);
    case StageKind::RowSum: return draw_axis_sum(d, 0);
    case StageKind::ColumnSum: return draw_axis_sum(d, 1);
    case StageKind::ChannelReduce: return draw_channel_reduce(d);
    case StageKind::Matmul: return draw_matmul(d);
    case StageKind::Argmax: return draw_argmax(d);
    case StageKind::Histogram: return draw_histogram(d);
    case StageKind::Scan: return draw_scan(d);
    case StageKind::Lookup: return draw_lookup(d);
    case StageKind::TupleValued: return draw_tuple_valued(d);
    case StageKind::Update: return draw_update(d);
    case StageKind::Expand: return draw_expand(d);
    case StageKind::Count: break;
    }
    return false;
}

void check_spec(const RandomPipelineSpec &spec) {
    if (spec.stages < 1 || spec.stages > 64) {
        throw std::invalid_argument("random_pipeline: stages=" + std::to_string(spec.stages) + " (1..64)");
    }
    if (spec.max_size < 16 || spec.max_size > 8192) {
        throw std::invalid_argument("random_pipeline: max_size=" + std::to_string(spec.max_size) + " (16..8192)");
    }
    if (spec.min_size < 16 || spec.min_size > spec.max_size) {
        throw std::invalid_argument("random_pipeline: min_size=" + std::to_string(spec.min_size) + " (16..max_size=" +
                                    std::to_string(spec.max_size) + ")");
    }
}

// Halves the largest of the first dims until the product fits.
void fit(std::vector<int> &extents, int64_t max_points) {
    auto product = [&] {
        int64_t p = 1;
        for (int e : extents) p *= e;
        return p;
    };
    while (product() > max_points) {
        auto largest = std::max_element(extents.begin(), extents.end());
        *largest = std::max(1, *largest / 2);
    }
}

// The output's conversion of v to f32 of the given rank.
Func to_output(Draft &d, const Value &v, int rank, const std::string &name, std::vector<int> *extents) {
    Func out = named_func(name);
    double magnitude = 0;
    if (rank == 3) {
        std::vector<Expr> args = d.coords(v.rank());
        *extents = v.extents;
        if (v.rank() == 2) extents->push_back(1);  // a single channel
        out(d.x, d.y, d.c) = convert(v, args, Float(32), &magnitude);
    } else if (v.rank() == 2) {
        *extents = v.extents;
        out(d.x, d.y) = convert(v, d.coords(2), Float(32), &magnitude);
    } else {  // the largest of the first (up to) four channels
        *extents = {v.extents[0], v.extents[1]};
        Expr e = convert(v, {d.x, d.y, 0}, Float(32), &magnitude);
        for (int ch = 1; ch < std::min(v.extents[2], 4); ch++) e = max(e, convert(v, {d.x, d.y, ch}, Float(32), &magnitude));
        out(d.x, d.y) = e;
    }
    out.set_estimates(region_of(*extents));
    return out;
}

// An input read through a Func of a fixed name: ImageParams' and
// generator Inputs' own wrappers (<name>_im) are numbered process-wide.
Func deterministic_input(const Func &f, int i) {
    const Internal::Call *call = nullptr;
    if (f.defined() && f.function().has_pure_definition() && f.outputs() == 1) {
        call = f.function().values()[0].as<Internal::Call>();
    }
    if (!call || !call->param.defined()) return f;  // not a plain input: read it as it is
    Func g = named_func(std::string(input_name(i)) + "_im");
    std::vector<Var> args;
    std::vector<Expr> coords;
    for (int d = 0; d < f.dimensions(); d++) {
        args.push_back(Var("_" + std::to_string(d)));
        coords.push_back(args.back());
    }
    g(args) = Internal::Call::make(call->param, coords);
    return g;
}

}  // namespace

const char *kind_name(StageKind kind) {
    static const char *names[] = {"pointwise", "cast",      "stencil",        "downsample", "upsample",
                                  "transpose", "row_sum",   "column_sum",     "channel_reduce",
                                  "matmul",    "argmax",    "histogram",      "scan",
                                  "lookup",    "tuple_valued", "update",      "expand"};
    static_assert(sizeof(names) / sizeof(names[0]) == (size_t)StageKind::Count, "a name per kind");
    return names[(int)kind];
}

Type input_type(int i) { return i == 2 ? UInt(8) : Float(32); }
int input_dimensions(int i) { return i == 2 ? 2 : 3; }
const char *input_name(int i) {
    static const char *names[] = {"input_a", "input_b", "input_c"};
    return names[i];
}

int64_t size_scale(const RandomPipelineSpec &spec) { return std::clamp<int64_t>(spec.max_size / 1024, 1, 4); }

std::vector<std::vector<int>> random_input_extents(const RandomPipelineSpec &spec) {
    check_spec(spec);
    Rng rng(spec.seed ^ 0x1f83d9abfb41bd6bull);
    const int lo = spec.min_size, hi = spec.max_size;
    const int64_t scale = size_scale(spec);
    std::vector<int> a = {rng.log_range(lo, hi), rng.log_range(lo, hi), rng.pick(std::vector<int>{1, 3, 4, 8, 16, 32})};
    fit(a, (2 << 20) * scale);
    std::vector<int> b = a;  // often a second image of the same size
    if (rng.chance(0.6)) {
        b = {rng.log_range(lo, hi), rng.log_range(lo, hi), rng.pick(std::vector<int>{1, 3, 4, 8})};
        fit(b, (2 << 20) * scale);
    }
    std::vector<int> c = {rng.log_range(lo, hi), rng.log_range(lo, hi)};
    fit(c, (4 << 20) * scale);
    return {a, b, c};
}

RandomPipelineFuncs build_random_pipeline_on(const RandomPipelineSpec &spec, const std::vector<Func> &inputs) {
    std::vector<std::vector<int>> input_extents = random_input_extents(spec);
    if (inputs.size() != (size_t)kInputs) {
        throw std::invalid_argument("random_pipeline: " + std::to_string(inputs.size()) + " inputs given, 3 needed");
    }
    // The stage draws depend on the seed alone: fewer stages give a prefix
    // of the same chain (only the outputs differ).
    Draft d(spec.seed);
    d.max_points = kMaxPoints * size_scale(spec);
    RandomPipelineFuncs result;
    result.input_used.assign(kInputs, false);
    const double use_odds[kInputs] = {0.75, 0.4, 0.5};
    for (int i = 0; i < kInputs; i++) result.input_used[i] = d.rng.chance(use_odds[i]);
    if (std::none_of(result.input_used.begin(), result.input_used.end(), [](bool u) { return u; })) {
        result.input_used[d.rng.range(0, kInputs - 1)] = true;
    }
    for (int i = 0; i < kInputs; i++) {
        if (!result.input_used[i]) continue;
        // Float inputs are taken to lie in [-1, 1]: the bounds every stage keeps start there.
        d.pool.push_back({deterministic_input(inputs[i], i), input_type(i), input_extents[i], input_type(i).is_float() ? 1.0 : 255.0});
    }
    for (d.stage = 0; d.stage < spec.stages; d.stage++) {
        bool drawn = false;
        for (int attempt = 0; attempt < 8 && !drawn; attempt++) {
            drawn = draw_kind(d, (StageKind)d.rng.weighted(kind_weights()));
        }
        if (!drawn) draw_pointwise(d);  // reads any value: never fails
    }
    result.stages = d.records;
    // output: the last value; output2: the last again (a cheap second view)
    // or an earlier stage's value (a second branch of the pipeline).
    const Value &last = d.pool.back();
    int first_stage_value = (int)d.pool.size() - (int)d.records.size();
    const Value &second = d.rng.chance(0.5) || d.records.size() < 2
                              ? last
                              : d.pool[(size_t)d.rng.range(first_stage_value, (int64_t)d.pool.size() - 2)];
    result.output_extents.resize(2);
    result.outputs.push_back(to_output(d, last, 3, "output", &result.output_extents[0]));
    result.outputs.push_back(to_output(d, second, 2, "output2", &result.output_extents[1]));
    return result;
}

std::vector<Internal::Function> RandomPipeline::output_functions() const {
    std::vector<Internal::Function> out;
    for (const Func &f : funcs.outputs) out.push_back(f.function());
    return out;
}

std::string RandomPipeline::summary() const {
    std::ostringstream s;
    for (const StageRecord &r : funcs.stages) {
        s << kind_name(r.kind) << " " << r.func << ": " << r.description << "\n";
    }
    return s.str();
}

RandomPipeline build_random_pipeline(const RandomPipelineSpec &spec) {
    std::vector<std::vector<int>> extents = random_input_extents(spec);
    RandomPipeline p;
    std::vector<Func> funcs;
    for (int i = 0; i < kInputs; i++) {
        ImageParam in(input_type(i), input_dimensions(i), input_name(i));
        in.set_estimates(region_of(extents[i]));
        p.inputs.push_back(in);
        funcs.push_back(in);
    }
    p.funcs = build_random_pipeline_on(spec, funcs);
    return p;
}

RandomPipeline build_random_pipeline(uint64_t seed, int stages, int max_size) {
    return build_random_pipeline(RandomPipelineSpec{seed, stages, max_size});
}

void compute_all_at_root(const std::vector<Func> &outputs) {
    for (const Func &out : outputs) {
        for (const auto &[name, fn] : Internal::find_transitive_calls(out.function())) Func(fn).compute_root();
    }
}

std::string renumber_lets(const std::string &text) {
    // Halide's CSE names its lets t<n> from a process-wide counter: number
    // them by first appearance instead.
    std::map<std::string, std::string> names;
    std::string out;
    size_t i = 0;
    auto is_word = [](char ch) { return std::isalnum((unsigned char)ch) || ch == '_' || ch == '$' || ch == '.'; };
    while (i < text.size()) {
        bool starts_word = i == 0 || !is_word(text[i - 1]);
        size_t j = i + 1;
        while (j < text.size() && std::isdigit((unsigned char)text[j])) j++;
        if (starts_word && text[i] == 't' && j > i + 1 && (j == text.size() || !std::isalnum((unsigned char)text[j]))) {
            std::string token = text.substr(i, j - i);
            auto it = names.emplace(token, "t" + std::to_string(names.size())).first;
            out += it->second;
            i = j;
        } else {
            out += text[i++];
        }
    }
    return out;
}

std::string describe_definitions(const std::vector<Func> &outputs) {
    std::map<std::string, Internal::Function> env;
    for (const Func &f : outputs) {
        for (const auto &[name, fn] : Internal::find_transitive_calls(f.function())) env.emplace(name, fn);
    }
    std::ostringstream s;
    auto print_definition = [&](const std::string &name, const Internal::Definition &def) {
        s << name << "(";
        for (size_t i = 0; i < def.args().size(); i++) s << (i ? ", " : "") << def.args()[i];
        s << ") = ";
        for (size_t i = 0; i < def.values().size(); i++) s << (i ? ", " : "") << def.values()[i];
        for (const auto &rv : def.schedule().rvars()) s << "  [" << rv.var << " in " << rv.min << " + " << rv.extent << "]";
        s << "\n";
    };
    for (const auto &[name, fn] : env) {
        print_definition(name, fn.definition());
        for (const auto &u : fn.updates()) print_definition(name, u);
    }
    return renumber_lets(s.str());
}

}  // namespace random_pipeline
