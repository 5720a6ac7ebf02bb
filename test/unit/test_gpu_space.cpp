// The GPU schedule space (docs/gpu.md): GPU targets accepted or refused, the
// GPU steps, the GPU sketches and annotation, the GPU feature columns, and
// that Halide lowers every sampled GPU program for CUDA and for OpenCL.
#include "features/program_features.h"
#include "search/autoschedule.h"
#include "search/mutations.h"
#include "search/program_sampler.h"
#include "search/tuning_session.h"
#include "sketch/sketch_generator.h"
#include "suite_pipelines.h"
#include "test_pipelines.h"
#include "util/errors.h"
#include "util/gpu_target.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <functional>
#include <iostream>

#include <sys/wait.h>
#include <unistd.h>

using namespace ansor;
using namespace Halide;

namespace {

const Target cuda("x86-64-linux-avx-avx2-cuda-cuda_capability_80");
const Target opencl("x86-64-linux-avx-avx2-opencl");

std::vector<std::string> kinds(const State &s, const std::string &func) {
    std::vector<std::string> k;
    if (const FuncSteps *g = s.group(ansor_test::resolve(s.dag(), func))) {
        for (const auto &st : g->steps) k.push_back(st->kind());
    }
    return k;
}

bool has(const std::vector<std::string> &v, const std::string &x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// GEMM reading its operands through wrapper Funcs, as the operator suite does.
ansor_test::Pipe make_wrapped_matmul(int n) {
    ImageParam A(Float(32), 2, "A"), B(Float(32), 2, "B");
    A.dim(0).set_estimate(0, n).dim(1).set_estimate(0, n);
    B.dim(0).set_estimate(0, n).dim(1).set_estimate(0, n);
    Var x("x"), y("y");
    Func a("A_w"), b("B_w"), c("gemm");
    a(x, y) = A(x, y);
    b(x, y) = B(x, y);
    RDom k(0, n, "k");
    c(x, y) = 0.f;
    c(x, y) += a(k, y) * b(x, k);
    c.set_estimate(x, 0, n).set_estimate(y, 0, n);
    return {{c}};
}

ansor_test::Pipe make_softmax(int rows, int cols) {
    ImageParam in(Float(32), 2, "in");
    in.dim(0).set_estimate(0, cols).dim(1).set_estimate(0, rows);
    Var x("x"), y("y");
    RDom r(0, cols, "r");
    Func mx("row_max"), e("exp"), sum("row_sum"), out("softmax");
    mx(y) = in(0, y);
    mx(y) = max(mx(y), in(r, y));
    e(x, y) = exp(in(x, y) - mx(y));
    sum(y) = 0.f;
    sum(y) += e(r, y);
    out(x, y) = e(x, y) / sum(y);
    out.set_estimate(x, 0, cols).set_estimate(y, 0, rows);
    return {{out}};
}

ansor_test::Pipe make_histogram(int w, int h) {
    ImageParam in(UInt(8), 2, "in");
    in.dim(0).set_estimate(0, w).dim(1).set_estimate(0, h);
    Var b("b");
    RDom r(0, w, 0, h, "r");
    Func hist("hist");
    hist(b) = 0;
    hist(clamp(cast<int>(in(r.x, r.y)), 0, 255)) += 1;
    hist.set_estimate(b, 0, 256);
    return {{hist}};
}

ansor_test::Pipe make_conv2d(int hw, int ci, int co) {
    ImageParam in(Float(32), 3, "in"), w(Float(32), 4, "w");
    in.dim(0).set_estimate(0, ci).dim(1).set_estimate(0, hw).dim(2).set_estimate(0, hw);
    w.dim(0).set_estimate(0, ci).dim(1).set_estimate(0, 3).dim(2).set_estimate(0, 3).dim(3).set_estimate(0, co);
    Func padded = BoundaryConditions::constant_exterior(in, 0.f, {{0, ci}, {0, hw}, {0, hw}});
    Func wim("w_im");
    Var c("c"), x("x"), y("y"), k("k"), q("q");
    wim(c, x, y, k) = w(c, x, y, k);
    RDom r(0, ci, 0, 3, 0, 3, "r");
    Func conv("conv");
    conv(k, x, y) = 0.f;
    conv(k, x, y) += padded(r.x, x + r.y - 1, y + r.z - 1) * wim(r.x, r.y, r.z, k);
    conv.set_estimate(k, 0, co).set_estimate(x, 0, hw).set_estimate(y, 0, hw);
    return {{conv}};
}

// Whether `f` lives in a loop bound with `a` of a Func it is computed in.
bool inside(const LoopNest &m, const std::string &f, Annotation a) {
    for (const Location &loc : m.enclosing_loops(f)) {
        if (m.loop(loc.func, loc.stage, loc.loop).annotation == a) return true;
    }
    return false;
}

// Every non-inlined Func's stages bound to blocks and threads (or a single
// thread, or computed per thread), threads per block within the limit.
void check_structure(const State &s, const GpuTargetFacts &facts) {
    const LoopNest m = s.replay();
    for (const ModelFunc &f : m.funcs()) {
        if (f.location.kind == LocationKind::Inline) continue;
        const bool per_thread = inside(m, f.name, Annotation::GpuThread);
        const bool in_block = inside(m, f.name, Annotation::GpuBlock);
        for (const ModelStage &st : f.stages) {
            int64_t threads = 1;
            bool blocks = false, bound_threads = false;
            for (const ModelLoop &l : st.loops) {
                CHECK(l.annotation != Annotation::Parallel);
                CHECK(l.annotation != Annotation::Vectorize);
                blocks = blocks || l.annotation == Annotation::GpuBlock;
                if (l.annotation == Annotation::GpuThread) {
                    bound_threads = true;
                    threads *= l.extent;
                }
            }
            CHECK(threads <= facts.max_threads_per_block);
            CHECK_MESSAGE((per_thread || st.gpu_single_thread || ((blocks || in_block) && bound_threads)),
                          "stage of '" << f.name << "' not on the GPU:\n" << s.source());
        }
    }
}

// Runs `job` in a forked child, as the measurer runs candidates; the
// exception text it ends with, or empty. Halide names an rfactor
// intermediate uniquely per process (`gemm_intm$2` the second time) and a
// program names the first, so every application of a program gets a fresh
// process.
std::string in_child(const std::function<void()> &job) {
    std::fflush(stdout);
    std::cout.flush();
    int fds[2];
    REQUIRE(pipe(fds) == 0);
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        std::string error;
        try {
            job();
        } catch (const std::exception &e) {
            error = std::string("error: ") + e.what();
        }
        if (!error.empty() && write(fds[1], error.data(), error.size()) < 0) _exit(2);
        _exit(0);
    }
    close(fds[1]);
    std::string out;
    char buf[4096];
    for (ssize_t n; (n = read(fds[0], buf, sizeof(buf))) > 0;) out.append(buf, (size_t)n);
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) out += " (the child process died)";
    return out;
}

// Applies the program to a deep copy of the pipeline and lowers it for
// `target`, device code included; the Halide error, or empty.
std::string lower(const PipelineDAG &dag, const State &s, const Target &target) {
    return in_child([&] {
        auto copied = Internal::deep_copy(dag.outputs(), dag.env());
        s.apply(copied.second);
        std::vector<Func> outs;
        for (const Internal::Function &f : copied.first) outs.emplace_back(f);
        Pipeline p(outs);
        p.compile_to_module(p.infer_arguments(), "gpu_space_test", target);
    });
}

// Draws `per_sketch` programs from every GPU sketch of the pipeline and
// checks that each has the GPU structure and lowers for the target.
int check_lowers(const PipelineDAG &dag, const Target &target, int per_sketch, uint64_t seed) {
    const GpuTargetFacts facts = *gpu_target_facts(target);
    RandomAnnotator annotator(dag, target, AnnotationOptions{});
    std::mt19937_64 rng(seed);
    int lowered = 0;
    for (const State &sketch : generate_sketches({dag, target})) {
        for (int k = 0; k < per_sketch; k++) {
            std::optional<State> program;
            for (int attempt = 0; attempt < 256 && !program; attempt++) {
                try {
                    program = annotator.annotate(sketch, rng);
                } catch (const InvalidState &) {
                }
            }
            REQUIRE_MESSAGE(program.has_value(), "no program from sketch\n" << sketch.to_json().dump());
            check_structure(*program, facts);
            const std::string error = lower(dag, *program, target);
            CHECK_MESSAGE(error.empty(), target.to_string() << ": " << error << "\n" << program->source());
            lowered++;
        }
    }
    return lowered;
}

// Why the sketches give no program: each sketch's annotation error.
std::string annotation_errors(const std::vector<State> &sketches, RandomAnnotator &annotator) {
    std::string out;
    std::mt19937_64 rng(1);
    for (const State &sketch : sketches) {
        try {
            annotator.annotate(sketch, rng);
            out += "\n  annotated";
        } catch (const InvalidState &e) {
            out += std::string("\n  ") + e.what();
        }
    }
    return out;
}

}  // namespace

TEST_CASE("gpu target: CUDA and OpenCL facts; other device APIs are user errors naming the feature") {
    auto c = gpu_target_facts(cuda);
    REQUIRE(c.has_value());
    CHECK(c->api == GpuApi::CUDA);
    CHECK(c->max_threads_per_block == 1024);
    CHECK(c->max_shared_bytes_per_block == 48 * 1024);
    CHECK(c->warp_size == 32);
    CHECK(c->max_registers_per_thread == 255);
    CHECK(c->max_registers_per_block == 65536);
    auto o = gpu_target_facts(opencl);
    REQUIRE(o.has_value());
    CHECK(o->api == GpuApi::OpenCL);
    CHECK(o->max_threads_per_block == 256);
    CHECK(o->max_shared_bytes_per_block == 32 * 1024);
    CHECK_FALSE(gpu_target_facts(Target("x86-64-linux-avx-avx2")).has_value());
    for (const char *feature : {"metal", "d3d12compute", "openglcompute", "hvx"}) {
        CAPTURE(feature);
        Target t = Target("x86-64-linux-avx-avx2").with_feature(Target::feature_from_name(feature));
        CHECK_THROWS_WITH_AS(gpu_target_facts(t), doctest::Contains(feature), UserError);
    }
    CHECK_THROWS_AS(gpu_target_facts(cuda.with_feature(Target::OpenCL)), UserError);
    // The tuning session refuses them too, and accepts CUDA.
    auto p = ansor_test::make_matmul(64);
    PipelineDAG dag(p.functions(), 1);
    const Target metal = Target("x86-64-linux-avx-avx2").with_feature(Target::Metal);
    CHECK_THROWS_WITH_AS(TuningSession(dag, metal, Options::from_map({{"HL_ANSOR_PROGRESS", "0"}})),
                         doctest::Contains("metal"), UserError);
}

TEST_CASE("gpu steps: binding rules, JSON round trip, renaming, and applied == printed") {
    auto p = make_wrapped_matmul(64);
    PipelineDAG dag(p.functions(), 1);
    const std::string gemm = ansor_test::resolve(dag, "gemm");
    {
        // Thread loops need a constant extent; blocks sit outside threads.
        LoopNest m(dag);
        CHECK_THROWS_AS(AnnotateStep(gemm, 0, "x", Annotation::GpuThread).replay(m), InvalidState);
        SplitStep(gemm, 0, "x", {32}).replay(m);
        {
            LoopNest inside = m;
            ReorderStep(gemm, 0, {"x_1", "y", "x_0"}).replay(inside);
            AnnotateStep(gemm, 0, "x_1", Annotation::GpuThread).replay(inside);
            CHECK_THROWS_AS(AnnotateStep(gemm, 0, "y", Annotation::GpuBlock).replay(inside), InvalidState);
        }
        AnnotateStep(gemm, 0, "x_1", Annotation::GpuThread).replay(m);
        CHECK_THROWS_AS(AnnotateStep(gemm, 0, "x_0", Annotation::Parallel).replay(m), InvalidState);
        AnnotateStep(gemm, 0, "x_0", Annotation::GpuBlock).replay(m);
        CHECK_THROWS_AS(GpuSingleThreadStep(gemm, 0).replay(m), InvalidState);
        GpuSingleThreadStep(gemm, 1).replay(m);
        CHECK(m.stage(gemm, 1).gpu_single_thread);
        CHECK_THROWS_AS(StoreInStep(gemm, MemoryType::GPUShared).replay(m), InvalidState);
    }
    CHECK(memory_type_from_name(memory_type_name(MemoryType::GPUShared)) == MemoryType::GPUShared);
    CHECK_THROWS_AS(memory_type_from_name("texture"), UserError);

    const std::vector<State> sketches = generate_sketches({dag, cuda});
    // Tiled, tiled with both operands in shared memory, and the plain root kernels.
    REQUIRE(sketches.size() == 3);
    int shared = 0, plain = 0;
    for (const State &s : sketches) {
        auto k = kinds(s, "gemm");
        if (!has(k, "cache_write")) {
            plain++;
            continue;
        }
        CHECK(has(k, "gpu_blocks"));
        CHECK(has(k, "gpu_threads"));
        CHECK(kinds(s, "gemm_intm")[0] == "compute_at");
        shared += has(kinds(s, "A_w"), "gpu_cache_read") && has(kinds(s, "B_w"), "gpu_cache_read");
    }
    CHECK(shared == 1);
    CHECK(plain == 1);

    RandomAnnotator annotator(dag, cuda, AnnotationOptions{});
    ProgramSampler sampler(sketches, annotator);
    std::mt19937_64 rng(3);
    bool printed = false;
    for (int i = 0; i < 16; i++) {
        auto program = sampler.sample(rng);
        REQUIRE(program.has_value());
        // JSON round trip, and a renaming to other names and back.
        const State back = State::from_json(dag, program->to_json());
        CHECK(back.key() == program->key());
        for (const StepPtr &step : program->steps()) {
            struct Same : Renamer {
                std::string func(const std::string &n) const override { return n; }
                std::string loop(const std::string &, const std::string &n) const override { return n; }
                void derive_loop(const std::string &, const std::string &, const std::string &) override {}
                void derive_func(const std::string &, const std::string &,
                                 const std::vector<std::pair<std::string, std::string>> &) override {}
            } same;
            CHECK(step->renamed(same)->to_json() == step->to_json());
        }
        const std::string source = program->source();
        CHECK(source.find(".gpu_blocks(") != std::string::npos);
        CHECK(source.find(".gpu_threads(") != std::string::npos);
        CHECK(source.find(".parallel(") == std::string::npos);
        CHECK(source.find(".vectorize(") == std::string::npos);
        if (source.find("GPUShared") != std::string::npos && !printed) {
            // For review: one GEMM program with shared-memory tiles, as printed.
            MESSAGE("GPU GEMM 64^3 program:\n" << source);
            printed = true;
        }
        CHECK(lower(dag, *program, cuda).empty());
    }
    CHECK(printed);
}

TEST_CASE("gpu sketches: CPU sketches unchanged; cross-thread reduction for little space parallelism") {
    auto p = ansor_test::make_norm(256);
    PipelineDAG dag(p.functions(), 1);
    const Target cpu("x86-64-linux-avx-avx2");
    CHECK(generate_sketches({dag, cpu}).size() == generate_sketches({dag, cpu}, sketch_rules()).size());
    bool factored = false;
    for (const State &s : generate_sketches({dag, cuda})) {
        factored = factored || has(kinds(s, "sumsq"), "rfactor");
        for (const StepPtr &step : s.steps()) CHECK(step->kind() != "parallel");
    }
    CHECK(factored);
}

TEST_CASE("gpu sketches: a stencil chain's producers fused into the output's blocks, in shared memory") {
    auto p = ansor_test::make_stencil_chain(64, 48, 3);
    PipelineDAG dag(p.functions(), 1);
    const std::vector<State> sketches = generate_sketches({dag, cuda});
    int fused = 0;
    for (const State &s : sketches) {
        const auto k0 = kinds(s, "stage_0"), k1 = kinds(s, "stage_1");
        if (has(k0, "store_in") && has(k1, "store_in")) {
            fused++;
            CHECK(has(k0, "compute_at"));
            CHECK(has(kinds(s, "out"), "gpu_blocks"));
        }
    }
    CHECK(fused == 1);
    CHECK(sketches.size() <= 4);
    RandomAnnotator annotator(dag, cuda, AnnotationOptions{});
    std::mt19937_64 rng(4);
    for (const State &sketch : sketches) {
        if (!has(kinds(sketch, "stage_1"), "store_in")) continue;
        const State program = annotator.annotate(sketch, rng);
        const LoopNest m = program.replay();
        const std::string s1 = ansor_test::resolve(dag, "stage_1");
        CHECK(m.func(s1).memory_type == MemoryType::GPUShared);
        bool threads = false;
        for (const ModelLoop &l : m.stage(s1, 0).loops) threads = threads || l.annotation == Annotation::GpuThread;
        CHECK(threads);
        const std::string source = program.source();
        CHECK(source.find("store_in(MemoryType::GPUShared)") != std::string::npos);
        CHECK(lower(dag, program, cuda).empty());
        CHECK(lower(dag, program, opencl).empty());
    }
}

TEST_CASE("gpu annotation: tiles within the block's limits, GPU feature columns filled") {
    auto p = make_wrapped_matmul(256);
    PipelineDAG dag(p.functions(), 1);
    for (const Target &t : {cuda, opencl}) {
        const GpuTargetFacts facts = *gpu_target_facts(t);
        RandomAnnotator annotator(dag, t, AnnotationOptions{});
        std::vector<State> tiled;  // the sketches with the accumulator this test looks at
        for (const State &s : generate_sketches({dag, t})) {
            if (s.structure_key().find("cache_write") != std::string::npos) tiled.push_back(s);
        }
        REQUIRE(tiled.size() == 2);
        ProgramSampler sampler(tiled, annotator);
        std::mt19937_64 rng(11);
        int full_warps = 0;
        for (int i = 0; i < 24; i++) {
            auto program = sampler.sample(rng);
            REQUIRE(program.has_value());
            check_structure(*program, facts);
            const LoopNest m = program->replay();
            const std::string gemm = ansor_test::resolve(dag, "gemm");
            int64_t threads = 1;
            std::vector<int64_t> thread_dims;  // outermost first; Halide's x is the innermost
            for (const ModelLoop &l : m.stage(gemm, 1).loops) {
                if (l.annotation != Annotation::GpuThread) continue;
                threads *= l.extent;
                thread_dims.push_back(l.extent);
            }
            REQUIRE(!thread_dims.empty());
            full_warps += threads % facts.warp_size == 0;
            const ModelFunc &intm = m.func(intermediate_name(gemm));
            int64_t tile = 1;
            for (int64_t e : intm.extents) tile *= e;
            CHECK(tile <= facts.max_register_tile);
            // Features: is_gpu and the thread extent of the merge stage.
            const auto rows = extract_features(m);
            bool seen = false;
            for (const StageFeatures &row : rows) {
                if (m.funcs()[row.func].name != gemm || row.stage != 1) continue;
                seen = true;
                CHECK(row.values[feature_index("is_gpu")] == 1.f);
                const char *dims[] = {"threadIdx_x_len", "threadIdx_y_len", "threadIdx_z_len"};
                for (size_t k = 0; k < thread_dims.size(); k++) {
                    const double extent = (double)thread_dims[thread_dims.size() - 1 - k];
                    CHECK(row.values[feature_index(dims[k])] == doctest::Approx(features::slog(extent)));
                }
                CHECK(row.values[feature_index("blockIdx_x_len")] > 0.f);
            }
            CHECK(seen);
        }
        CHECK(full_warps >= 18);  // whole warps preferred (256^2 always allows them)
    }
    // A CPU program's GPU columns stay zero.
    const Target cpu("x86-64-linux-avx-avx2");
    RandomAnnotator annotator(dag, cpu, AnnotationOptions{});
    ProgramSampler sampler(generate_sketches({dag, cpu}), annotator);
    std::mt19937_64 rng(5);
    for (const StageFeatures &row : extract_features(sampler.sample(rng)->replay())) {
        for (const char *c : {"is_gpu", "blockIdx_x_len", "threadIdx_x_len", "vthread_len"}) {
            CHECK(row.values[feature_index(c)] == 0.f);
        }
    }
}

TEST_CASE("gpu annotation: a stage that selects on its coordinates (constant_exterior) draws small auto-unroll steps") {
    // The operator suite's capsule convolution: constant_exterior inlined into
    // the convolution (its repeat_edge at root, so no clamp is inlined), the
    // reduction auto-unrolled 512 steps inside six fused thread coordinates,
    // lowered for CUDA in 70-160 s; unrolled 16 in under 5 s.
    ImageParam in(Float(32), 2, "in");
    in.dim(0).set_estimate(0, 70).dim(1).set_estimate(0, 54);
    Var x("x"), y("y");
    Func ext = BoundaryConditions::constant_exterior(in, 0.f);
    Func conv("conv");
    RDom r(-1, 3, -1, 3);
    conv(x, y) = 0.f;
    conv(x, y) += ext(x + r.x, y + r.y);
    conv.set_estimate(x, 0, 70).set_estimate(y, 0, 54);
    PipelineDAG dag({conv.function()}, 1);
    const std::string conv_name = ansor_test::resolve(dag, "conv");
    State placed(dag);
    for (const Node &n : dag.nodes()) {
        if (n.name == conv_name) continue;
        const bool clamps = n.name.rfind("repeat_edge", 0) == 0;
        placed.add(std::make_shared<ComputeLocationStep>(
            n.name, clamps ? Location{} : Location{LocationKind::Inline, "", 0, ""}));
    }
    const LoopNest m = placed.replay();
    AnnotationOptions ao;
    const std::vector<int> all = ao.auto_unroll_steps, small = {0, 16};
    for (const Target &t : {cuda, opencl}) {
        CHECK(RandomAnnotator(dag, t, ao).auto_unroll_choices(m, conv_name, 1) == small);
    }
    // A CPU target keeps every step: the rule is for GPU lowering only.
    CHECK(RandomAnnotator(dag, Target("x86-64-linux-avx-avx2"), ao).auto_unroll_choices(m, conv_name, 1) == all);
}

TEST_CASE("gpu evolution: mutants stay GPU programs within the target's limits") {
    auto p = make_wrapped_matmul(256);
    PipelineDAG dag(p.functions(), 1);
    RandomAnnotator annotator(dag, opencl, AnnotationOptions{});
    ProgramSampler sampler(generate_sketches({dag, opencl}), annotator);
    Mutator mutator(annotator, AnnotationOptions{});
    std::mt19937_64 rng(21);
    int mutants = 0;
    for (int i = 0; i < 12; i++) {
        auto program = sampler.sample(rng);
        REQUIRE(program.has_value());
        for (int j = 0; j < 8; j++) {
            auto mutant = mutator.mutate(*program, rng);
            if (!mutant) continue;
            mutants++;
            check_structure(*mutant, *gpu_target_facts(opencl));
            CHECK(annotator.fits_target(*mutant));
        }
    }
    CHECK(mutants > 20);
}

TEST_CASE("gpu programs lower for CUDA and OpenCL: GEMM, conv2d, depthwise, stencils, softmax, reductions, histogram") {
    std::vector<std::pair<std::string, std::function<ansor_test::Pipe()>>> pipelines = {
        {"gemm", [] { return make_wrapped_matmul(128); }},
        {"gemm_relu", [] { return ansor_test::make_matmul_relu(64); }},
        {"conv2d", [] { return make_conv2d(16, 8, 16); }},
        {"depthwise_pointwise", [] { return ansor_test::make_depthwise_pointwise(16, 8, 16); }},
        {"stencil_chain", [] { return ansor_test::make_stencil_chain(64, 48, 3); }},
        {"blur", [] { return ansor_test::make_blur(64, 32); }},
        {"softmax", [] { return make_softmax(64, 128); }},
        {"norm", [] { return ansor_test::make_norm(64); }},
        {"scalar_sum", [] { return ansor_test::make_scalar_sum(4096); }},
        {"histogram", [] { return make_histogram(64, 32); }},
    };
    uint64_t seed = 1;
    for (const auto &[name, make] : pipelines) {
        CAPTURE(name);
        auto p = make();
        PipelineDAG dag(p.functions(), 1);
        CHECK(check_lowers(dag, cuda, 1, seed++) >= 1);
        CHECK(check_lowers(dag, opencl, 1, seed++) >= 1);
    }
}

TEST_CASE("gpu programs lower for CUDA and OpenCL: the operator suite at shape 0") {
    for (const std::string op : {"c1d", "c2d", "c3d", "cap", "conv_layer", "dep", "dil", "gmm", "grp", "nrm", "t2d", "tbs"}) {
        CAPTURE(op);
        auto [shapes, index] = ansor_apps::parse_op_shape(op);
        for (const Target &t : {cuda, opencl}) {
            ansor_apps::SuitePipeline built = ansor_apps::build_suite_pipeline(shapes->name, shapes->ansor_shapes[index], t);
            PipelineDAG dag(built.outputs(), 1);
            RandomAnnotator annotator(dag, t, AnnotationOptions{});
            const std::vector<State> sketches = generate_sketches({dag, t});
            ProgramSampler sampler(sketches, annotator);
            std::mt19937_64 rng(7);
            for (int i = 0; i < 2; i++) {
                auto program = sampler.sample(rng);
                REQUIRE_MESSAGE(program.has_value(), op << ": no GPU program sampled" << annotation_errors(sketches, annotator));
                check_structure(*program, *gpu_target_facts(t));
                const std::string error = lower(dag, *program, t);
                CHECK_MESSAGE(error.empty(), t.to_string() << ": " << error << "\n" << program->source());
            }
        }
    }
}

TEST_CASE("tuning session: a GPU target is scheduled with the cost model alone") {
    auto p = make_wrapped_matmul(64);
    PipelineDAG dag(p.functions(), 1);
    const Options options = Options::from_map({{"HL_ANSOR_TRIALS", "8"}, {"HL_ANSOR_PROGRESS", "0"}, {"HL_ANSOR_SEED", "2"}});
    TuningSession session(dag, cuda, session_settings(options, dag, cuda));
    CHECK(session.tune(8) == 0);
    SessionChoice choice = session.choose();
    CHECK(choice.how.not_measured_because.find("GPU") != std::string::npos);
    CHECK(choice.source.find(".gpu_threads(") != std::string::npos);
    CHECK(lower(dag, choice.state, cuda).empty());
}

TEST_CASE("plugin path: a GPU pipeline is autoscheduled, applied and compiled for CUDA and OpenCL") {
    for (const Target &t : {cuda, opencl}) {
        const std::string error = in_child([&] {
            auto p = make_softmax(64, 128);
            const Options options = Options::from_map({{"HL_ANSOR_TRIALS", "4"}, {"HL_ANSOR_PROGRESS", "0"}});
            AutoscheduleResult r = autoschedule(p.functions(), t, 1, options);
            if (r.measured || r.not_measured_because.empty()) throw std::runtime_error("measured a GPU program");
            if (r.schedule_source.find(".gpu_threads(") == std::string::npos) throw std::runtime_error(r.schedule_source);
            Pipeline pipeline(p.outputs);
            pipeline.compile_to_module(pipeline.infer_arguments(), "softmax_gpu", t);
        });
        CHECK_MESSAGE(error.empty(), t.to_string() << ": " << error);
    }
}
