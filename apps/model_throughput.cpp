// How long the learned cost model takes, single-threaded: retraining on
// ~1000 programs and predicting 2048 states (features + trees), on random
// programs of a 512^3 matmul and a conv layer. Nothing is measured: each
// program's time comes from a toy machine model of its features (below), so
// the held-out ranking accuracy printed beside the timings only compares
// hyperparameter settings with each other.
//
//   ansor_model_throughput [train=1000] [predict=2048] [key=value ...]
//
// key=value overrides a PackSumParams field: tree_method, max_bin,
// max_depth, eta, min_child_weight, max_rounds, early_stopping_rounds,
// min_improvement, validation_fraction, min_weight, nthread.
#include "cli.h"
#include "features/program_features.h"
#include "model/xgboost_cost_model.h"
#include "search/program_sampler.h"
#include "sketch/sketch_generator.h"

#include "throughput_pipelines.h"

#include <Halide.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace Halide;
using namespace ansor;

namespace {

const Target target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41");
const int parallelism = 2;

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Inverse of features::slog.
double unslog(float v) { return std::exp2((double)v) - 1; }

// A toy machine: per statement, iterations spread over the vector lanes
// (up to 16) and the cores, plus a cost per cache line moved; times ±10%
// log-normal noise.
double toy_ms(const std::vector<StageFeatures> &fs, std::mt19937_64 &rng) {
    using namespace features;
    double t = 0;
    for (const auto &f : fs) {
        double n = unslog(f.values[kOtherBegin]);  // outer_prod
        double vec = std::min(16.0, std::max(1.0, unslog(f.values[kVecBegin + kAnnLen])));
        double par = std::min<double>(parallelism, std::max(1.0, unslog(f.values[kParallelBegin + kAnnProd])));
        double lines = 0;
        for (int b = 0; b < kMaxBuffers; b++) lines += unslog(f.values[kBufferBegin + b * kPerBuffer + kLines]);
        t += (n / vec + 4 * lines) / par;
    }
    std::normal_distribution<double> noise(0, 0.1);
    return t * 1e-6 * std::exp(noise(rng));
}

struct Timings {
    double update_s, retrain_s, predict_s, statements_per_program, pair_accuracy;
    int rounds;
};

Timings run(const Func &out, int train, int predict, const PackSumParams &params) {
    PipelineDAG dag({out.function()}, parallelism);
    AnnotationOptions ao;
    ao.parallelism = parallelism;
    RandomAnnotator annotator(dag, target, ao);
    ProgramSampler sampler(generate_sketches({dag, target}), annotator);
    std::mt19937_64 rng(1);
    auto sample = [&](int n) {
        std::vector<State> s;
        while ((int)s.size() < n) {
            auto p = sampler.sample(rng);
            if (!p) throw std::runtime_error("no program could be sampled");
            s.push_back(*p);
        }
        return s;
    };
    const int held_out = 500;
    std::vector<State> train_states = sample(train), test_states = sample(held_out), predict_states = sample(predict);

    FeatureExtractor fx(dag);
    size_t statements = 0;
    auto fake_results = [&](const std::vector<State> &states) {
        std::vector<MeasureResult> r(states.size());
        for (size_t i = 0; i < states.size(); i++) {
            auto fs = fx.extract(states[i].replay());
            statements += fs.size();
            r[i].ok = true;
            r[i].min_ms = r[i].median_ms = toy_ms(fs, rng);
        }
        return r;
    };
    std::vector<MeasureResult> train_results = fake_results(train_states);
    Timings t{};
    t.statements_per_program = (double)statements / train;
    std::vector<MeasureResult> test_results = fake_results(test_states);

    XGBoostCostModel model(dag, params);
    auto t0 = std::chrono::steady_clock::now();
    model.update(train_states, train_results);
    t.update_s = seconds_since(t0);
    t0 = std::chrono::steady_clock::now();
    model.trained_model().retrain();
    t.retrain_s = seconds_since(t0);
    t.rounds = model.trained_model().trees().rounds();

    t0 = std::chrono::steady_clock::now();
    std::vector<double> scores = model.predict(predict_states);
    t.predict_s = seconds_since(t0);

    std::vector<double> test_scores = model.predict(test_states);
    long right = 0, pairs = 0;
    for (int i = 0; i < held_out; i++) {
        for (int j = 0; j < i; j++) {
            pairs++;
            // Faster (smaller time) should score higher.
            right += (test_results[i].min_ms < test_results[j].min_ms) == (test_scores[i] > test_scores[j]);
        }
    }
    t.pair_accuracy = (double)right / pairs;
    return t;
}

bool set_param(PackSumParams &p, const std::string &key, const std::string &value) {
    if (key == "tree_method") p.tree_method = value;
    else if (key == "max_bin") p.max_bin = std::stoi(value);
    else if (key == "max_depth") p.max_depth = std::stoi(value);
    else if (key == "eta") p.eta = std::stod(value);
    else if (key == "min_child_weight") p.min_child_weight = std::stod(value);
    else if (key == "max_rounds") p.max_rounds = std::stoi(value);
    else if (key == "early_stopping_rounds") p.early_stopping_rounds = std::stoi(value);
    else if (key == "min_improvement") p.min_improvement = std::stod(value);
    else if (key == "validation_fraction") p.validation_fraction = std::stod(value);
    else if (key == "min_weight") p.min_weight = std::stod(value);
    else if (key == "nthread") p.nthread = std::stoi(value);
    else return false;
    return true;
}

}  // namespace

int main(int argc, char **argv) {
    int train = 1000, predict = 2048;
    std::vector<std::string> overrides;
    ansor_cli::Parser p("ansor_model_throughput", "Seconds to retrain the cost model and to predict states.");
    p.positional("train", &train, "programs trained on, > 0").optional();
    p.positional("predict", &predict, "states predicted, > 0").optional();
    p.positional("key=value", &overrides, "a PackSumParams field set").optional().whole();
    p.parse(argc, argv);
    PackSumParams params;
    for (const std::string &kv : overrides) {
        const size_t eq = kv.find('=');
        bool known = false;
        try {
            known = eq != std::string::npos && set_param(params, kv.substr(0, eq), kv.substr(eq + 1));
        } catch (const std::logic_error &) {
            p.fail("bad value in '" + kv + "'");
        }
        if (!known) p.fail("unknown parameter '" + kv + "'");
    }
    if (train <= 0 || predict <= 0) p.fail("needs train > 0 and predict > 0");
    struct Case {
        const char *name;
        Func out;
    } cases[] = {{"gemm_512", ansor_apps::throughput_matmul(512)}, {"conv_56x56_64to128_3x3", ansor_apps::throughput_conv(56, 64, 128)}};
    for (const auto &c : cases) {
        Timings t = run(c.out, train, predict, params);
        std::printf("%s: %d programs (%.2f statements each): update (features + training) %.3f s, "
                    "retrain %.3f s (%d trees); predict %d states %.3f s (%.0f states/s); "
                    "held-out pairwise accuracy %.3f\n",
                    c.name, train, t.statements_per_program, t.update_s, t.retrain_s, t.rounds, predict,
                    t.predict_s, predict / t.predict_s, t.pair_accuracy);
    }
    return 0;
}
