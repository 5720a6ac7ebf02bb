#include "driver.h"

#include "cli.h"
#include "sample_timer.h"
#include "worker_protocol.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <stdexcept>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace ansor_vendor {

namespace {

struct Args {
    Problem problem;
    bool have_problem = false;
    std::vector<std::string> inputs;
    std::string expected;
    int threads = 2;
    int samples = 10;
    double tolerance = 1e-3;
    bool serve = false;
};

Args parse(int argc, char **argv) {
    Args a;
    std::string gemm, conv;
    bool bias = false, relu = false;
    ansor_cli::Parser p(argv[0], "One matrix product or 2-D convolution timed with a vendor library, its output checked.");
    p.option("--gemm", &gemm, "a batched matrix product", "B,M,N,K");
    p.option("--conv", &conv, "a 2-D convolution", "N,H,W,CI,CO,k,s,p");
    p.option("--bias", &bias, "the convolution adds a bias");
    p.option("--relu", &relu, "the convolution ends with a ReLU");
    p.option("--inputs", &a.inputs, "the inputs' files of floats (default: random)", "a.f32,b.f32[,bias.f32]");
    p.option("--expected", &a.expected, "the expected output's file of floats (default: the naive loops')", "out.f32");
    p.option("--threads", &a.threads, "threads, >= 1");
    p.option("--samples", &a.samples, "timed runs, >= 1");
    p.option("--tolerance", &a.tolerance, "the largest relative error, >= 0", "T");
    p.option("--serve", &a.serve, "answers the harness's requests on stdin");
    p.parse(argc, argv);
    try {
        if (a.threads < 1) throw std::invalid_argument("--threads wants an integer >= 1");
        if (a.samples < 1) throw std::invalid_argument("--samples wants an integer >= 1");
        if (!(a.tolerance >= 0)) throw std::invalid_argument("--tolerance wants a number >= 0");
        if (gemm.empty() == conv.empty()) throw std::invalid_argument("give exactly one of --gemm and --conv");
        if (!gemm.empty() && (bias || relu)) throw std::invalid_argument("--bias and --relu go with --conv only");
        a.problem = gemm.empty() ? parse_conv(conv, bias, relu) : parse_gemm(gemm);
        if (!a.expected.empty() && a.inputs.empty()) throw std::invalid_argument("--expected needs --inputs");
        if (!a.inputs.empty() && a.inputs.size() != a.problem.input_sizes().size()) {
            throw std::invalid_argument("--inputs names " + std::to_string(a.inputs.size()) + " files; " +
                                        a.problem.describe() + " has " +
                                        std::to_string(a.problem.input_sizes().size()) + " inputs");
        }
    } catch (const std::invalid_argument &e) {
        p.fail(e.what());
    }
    return a;
}

std::vector<float> read_floats(const std::string &file, size_t count) {
    std::ifstream in(file, std::ios::binary | std::ios::ate);
    if (!in) throw std::runtime_error("cannot read " + file);
    std::streamsize bytes = in.tellg();
    if (bytes != (std::streamsize)(count * sizeof(float))) {
        throw std::runtime_error(file + " holds " + std::to_string(bytes) + " bytes; the problem needs " +
                                 std::to_string(count * sizeof(float)) + " (" + std::to_string(count) + " floats)");
    }
    std::vector<float> v(count);
    in.seekg(0);
    in.read(reinterpret_cast<char *>(v.data()), bytes);
    return v;
}

std::vector<float> random_floats(size_t count, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<float> unit(0.f, 1.f);
    std::vector<float> v(count);
    for (float &x : v) x = unit(rng);
    return v;
}

void reply(std::string line) {
    for (char &c : line) {
        if (c == '\n' || c == '\r') c = ' ';  // one answer, one line
    }
    std::cout << ansor_harness::kReplyPrefix << line << std::endl;
}

// Answers the harness's requests until "quit" or the end of stdin.
void serve(const std::function<void()> &run) {
    ansor_harness::SampleTimer timer;
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream in(line);
        std::string command;
        in >> command;
        if (command == "quit") return;
        if (command == "time") {
            int n = 0;
            double budget = ansor_harness::kRoundBudgetSeconds;
            in >> n >> budget;
            std::ostringstream out;
            out << "samples";
            for (double ms : timer.samples_ms(run, std::max(n, 1), budget)) out << " " << ms;
            reply(out.str());
        } else {
            reply("failed unknown command \"" + line + "\"");
        }
    }
}

}  // namespace

int vendor_main(int argc, char **argv, const Library &lib) {
    const Args args = parse(argc, argv);
    const Problem &p = args.problem;
    try {
#ifdef _OPENMP
        omp_set_num_threads(args.threads);  // im2col, the epilogue, and OpenMP-based libraries
#endif
        lib.set_threads(args.threads);
        std::vector<std::vector<float>> inputs;
        std::vector<size_t> sizes = p.input_sizes();
        for (size_t i = 0; i < sizes.size(); i++) {
            inputs.push_back(args.inputs.empty() ? random_floats(sizes[i], 1000 + i) : read_floats(args.inputs[i], sizes[i]));
        }
        std::vector<float> expected;
        if (!args.expected.empty()) expected = read_floats(args.expected, p.output_size());
        else naive_reference(p, inputs, expected);

        std::vector<float> out(p.output_size(), NAN);
        std::function<void()> run = lib.prepare(p, inputs, out);
        run();
        double error = max_relative_error(out, expected);
        if (args.serve) {
            std::ostringstream ready;
            ready << "ready error=" << error << " info=\"" << lib.info() << "\"";
            reply(ready.str());
            serve(run);
            return 0;
        }
        ansor_harness::SampleTimer timer;
        std::vector<double> samples = timer.samples_ms(run, args.samples, 1e30);
        double med = ansor_harness::median_of(samples);
        double best = *std::min_element(samples.begin(), samples.end());
        bool ok = error <= args.tolerance;
        std::printf("%s (%s), %s, %d threads: median %.4f ms, min %.4f ms, %.1f GFLOP/s; max relative error %.3g "
                    "against %s: %s\n",
                    lib.name.c_str(), lib.info().c_str(), p.describe().c_str(), args.threads, med, best,
                    p.flops() / (med * 1e6), error, args.expected.empty() ? "the naive loops" : args.expected.c_str(),
                    ok ? "ok" : "WRONG");
        return ok ? 0 : 1;
    } catch (const std::exception &e) {
        if (args.serve) reply(std::string("failed ") + lib.name + ": " + e.what());
        std::fprintf(stderr, "%s: %s: %s\n", argv[0], p.describe().c_str(), e.what());
        return 1;
    }
}

}  // namespace ansor_vendor
