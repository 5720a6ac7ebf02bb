#include "case_runner.h"

#include "halide_worker.h"
#include "worker_process.h"
#include "worker_protocol.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

namespace ansor_harness {

namespace fs = std::filesystem;

namespace {

// Time allowed for things that should be quick: building, scheduling and
// compiling a variant that is not autoscheduled, dumping, checking, and one
// round of timing samples.
constexpr double kSetupLimitS = 900;
constexpr double kRequestLimitS = 600;

// "ready a=1 b=\"x y\"" -> {a: 1, b: x y}
std::map<std::string, std::string> parse_fields(const std::string &text) {
    std::map<std::string, std::string> out;
    size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && text[i] == ' ') i++;
        size_t eq = text.find('=', i);
        if (eq == std::string::npos) break;
        std::string key = text.substr(i, eq - i);
        std::string value;
        i = eq + 1;
        if (i < text.size() && text[i] == '"') {
            size_t close = text.find('"', i + 1);
            if (close == std::string::npos) close = text.size();
            value = text.substr(i + 1, close - i - 1);
            i = close + 1;
        } else {
            size_t space = text.find(' ', i);
            if (space == std::string::npos) space = text.size();
            value = text.substr(i, space - i);
            i = space;
        }
        out[key] = value;
    }
    return out;
}

double field_number(const std::map<std::string, std::string> &f, const std::string &key) {
    auto it = f.find(key);
    if (it == f.end()) return NAN;
    try {
        return std::stod(it->second);
    } catch (const std::exception &) {
        return NAN;
    }
}

bool starts_with(const std::string &s, const std::string &prefix) { return s.compare(0, prefix.size(), prefix) == 0; }

// Waits for a worker's first answer and records what it says.
bool await_ready(WorkerProcess &w, double limit_s, VariantResult &v, std::map<std::string, std::string> &fields) {
    Reply r = w.wait_reply(limit_s);
    if (r.kind == Reply::Kind::Timeout) {
        v.status = "timeout";
        v.detail = "not ready within the limit of " + std::to_string((int)limit_s) + " s (schedule + compile)";
        v.schedule_s = limit_s;
        return false;
    }
    if (r.kind == Reply::Kind::Died) {
        v.status = "failed";
        v.detail = r.text + " before it was ready";
        return false;
    }
    if (starts_with(r.text, "failed ")) {
        v.status = "failed";
        v.detail = r.text.substr(7);
        w.stop();
        return false;
    }
    if (!starts_with(r.text, "ready")) {
        v.status = "failed";
        v.detail = "unexpected answer: " + r.text;
        w.stop();
        return false;
    }
    fields = parse_fields(r.text.substr(5));
    return true;
}

void judge_error(VariantResult &v, double error, double tolerance, WorkerProcess &w) {
    v.error = error;
    if (!(error <= tolerance)) {
        v.status = "wrong";
        std::ostringstream s;
        s << "wrong output: max relative error " << error << " against root (tolerance " << tolerance << ")";
        v.detail = s.str() + (v.detail.empty() ? "" : "; " + v.detail);
        w.stop();
    } else {
        v.status = "ok";
    }
}

// A Halide variant's outputs that the worker found to differ from the
// root's ("<largest error> <which element, by how much>").
void judge_mismatch(VariantResult &v, const std::string &reply, WorkerProcess &w) {
    std::istringstream in(reply);
    in >> v.error;
    std::string where;
    std::getline(in >> std::ws, where);
    v.status = "wrong";
    v.detail = "wrong output: " + where + " (against root)" + (v.detail.empty() ? "" : "; " + v.detail);
    w.stop();
}

std::string vendor_executable(const HarnessOptions &o, const std::string &variant) {
    std::string lower;
    for (char ch : variant) lower += (char)std::tolower((unsigned char)ch);
    return o.vendor_bin + "/ansor_" + lower + "_bench";
}

std::vector<std::string> vendor_argv(const BenchCase &c, const HarnessOptions &o, const std::string &variant,
                                     const std::string &work) {
    const ansor_vendor::Problem &p = c.vendor->problem;
    std::vector<std::string> argv = {vendor_executable(o, variant)};
    std::ostringstream shape;
    if (p.kind == ansor_vendor::Problem::Kind::Gemm) {
        shape << p.gemm.batch << "," << p.gemm.rows << "," << p.gemm.cols << "," << p.gemm.depth;
        argv.insert(argv.end(), {"--gemm", shape.str()});
    } else {
        const auto &k = p.conv;
        shape << k.n << "," << k.h << "," << k.w << "," << k.ci << "," << k.co << "," << k.k << "," << k.stride << ","
              << k.pad;
        argv.insert(argv.end(), {"--conv", shape.str()});
        if (k.bias) argv.push_back("--bias");
        if (k.relu) argv.push_back("--relu");
    }
    std::string inputs;
    for (const auto &name : c.vendor->input_names) inputs += (inputs.empty() ? "" : ",") + work + "/" + name + ".bin";
    argv.insert(argv.end(), {"--inputs", inputs, "--expected", work + "/output.bin", "--threads",
                             std::to_string(o.threads), "--serve"});
    return argv;
}

std::vector<std::pair<std::string, std::string>> vendor_env(const HarnessOptions &o, const std::string &variant) {
    std::vector<std::pair<std::string, std::string>> env = {{"OMP_NUM_THREADS", std::to_string(o.threads)},
                                                            {"OPENBLAS_NUM_THREADS", std::to_string(o.threads)}};
    // Debian's OpenBLAS 0.3.21 does not recognise Zen 5 and would pick its
    // AVX2 kernels; SkylakeX gives it the AVX-512 ones where the run's
    // target has them (the harness refuses a target this CPU cannot run;
    // elsewhere they die of an illegal instruction). A value the user set wins.
    const bool avx512 = Halide::Target(o.target).has_feature(Halide::Target::AVX512_Skylake);
    if (variant == "OpenBLAS" && avx512 && !std::getenv("OPENBLAS_CORETYPE")) {
        env.push_back({"OPENBLAS_CORETYPE", "SkylakeX"});
    }
    // libgomp's default lets idle team threads spin; on a shared 2-core
    // machine a spinning thread holds the core the other one needs, and
    // oneDNN's many parallel regions ran several times slower for it
    // (docs/user_guide.md §6).
    // Halide's own thread pool likewise sleeps when idle.
    if (!std::getenv("OMP_WAIT_POLICY")) env.push_back({"OMP_WAIT_POLICY", "passive"});
    return env;
}

struct Running {
    size_t index;  // into the result's variants
    std::unique_ptr<WorkerProcess> worker;
    std::vector<double> samples;
    std::vector<double> round_best;  // each round's best sample
};

}  // namespace

std::vector<std::string> variants_for(const BenchCase &c, const HarnessOptions &o) {
    std::vector<std::string> out;
    for (const auto &v : o.variants) {
        if (v == "expert" && !c.has_expert) continue;
        if (is_vendor_variant(v) && !c.vendor) continue;
        out.push_back(v);
    }
    return out;
}

CaseRun run_case(const BenchCase &c, const CaseContext &ctx) {
    const HarnessOptions &o = ctx.options;
    CaseRun run;
    CaseResult &result = run.result;
    result.bench_case = c;
    const std::string work = o.out_dir + "/work/" + c.file_stem();
    fs::create_directories(work);

    std::vector<Running> running;
    const Halide::Target target(o.target);
    bool have_reference = false;
    std::string reference_failure;

    for (const std::string &name : variants_for(c, o)) {
        result.variants.emplace_back();
        VariantResult &v = result.variants.back();
        v.variant = name;
        const size_t index = result.variants.size() - 1;
        if (name != "root" && !have_reference) {
            v.detail = "no reference to check against: root " + reference_failure;
            continue;
        }
        auto plugin = ctx.plugin_errors.find(name);
        if (plugin != ctx.plugin_errors.end()) {
            v.detail = "plugin not loaded: " + plugin->second;
            continue;
        }
        std::fprintf(stderr, "[harness] %s: %s\n", c.name.c_str(), name.c_str());
        const std::string label = c.name + "/" + name;
        std::unique_ptr<WorkerProcess> w;
        double limit = kSetupLimitS;
        std::string curve_source, curve_file;  // Ansor variants: their tuning curve
        if (is_vendor_variant(name)) {
            w = WorkerProcess::spawn(label, vendor_argv(c, o, name, work), vendor_env(o, name));
        } else {
            HalideVariantSpec spec;
            spec.bench_case = &c;
            spec.variant = name;
            spec.target = target;
            spec.threads = o.threads;
            spec.fresh_process_timing = o.timing == "fresh-process";
            spec.work_dir = work + "/built-" + name;
            if (is_autoscheduler_variant(name)) {
                spec.schedule_file = o.out_dir + "/schedules/" + c.file_stem() + "." + name + ".schedule.h";
                limit = is_ansor_variant(name) ? o.ansor_limit() : o.time_limit_s;
            }
            if (is_ansor_variant(name)) {
                spec.ansor_search = o.search;
                spec.ansor_model = ansor_model_of(name, o);
                spec.ansor_judge = ansor_judge_of(name, o);
                const std::string suffix = ansor_variant_suffix(name);
                spec.curve_file = work + "/" + name + "_curve.csv";
                if (o.ansor_log.empty() && o.trials == 0) {
                    // Zero-shot: no log, so the plugin applies the cost model's choice.
                    spec.ansor_trials = 0;
                    curve_source = "zero-shot";
                } else if (o.ansor_log.empty()) {
                    spec.ansor_trials = o.trials;
                    spec.ansor_log = o.out_dir + "/ansor_logs/" + c.file_stem() + (suffix.empty() ? "" : "." + suffix) + ".jsonl";
                    // A rerun (--resume after an interruption) starts from a clean
                    // log, so the budget means the same for every case.
                    fs::remove(spec.ansor_log);
                    curve_source = "tuned";
                } else {
                    spec.ansor_trials = 0;
                    spec.ansor_log = o.ansor_log;
                    curve_source = "log";
                }
                if (!suffix.empty()) curve_source += "-" + suffix;
                curve_file = spec.curve_file;
            }
            w = WorkerProcess::fork_function(label, [spec] { return run_halide_worker(spec); });
        }
        std::map<std::string, std::string> fields;
        if (!await_ready(*w, limit, v, fields)) {
            if (name == "root") reference_failure = v.status + ": " + v.detail;
            continue;
        }
        v.schedule_s = field_number(fields, "schedule_s");
        v.compile_s = field_number(fields, "compile_s");
        if (fields.count("info")) v.detail = fields["info"];
        if (name == "root") {
            double flops = field_number(fields, "flops");
            result.flops = c.flops_defined && flops > 0 ? flops : 0;
            Reply d = w->ask("dump " + work, kRequestLimitS);
            if (d.kind != Reply::Kind::Answer || d.text != "dumped") {
                v.detail = "could not write its output for the checks: " + d.text;
                reference_failure = "failed: " + v.detail;
                continue;
            }
            v.status = "ok";
            v.error = 0;
            have_reference = true;
        } else if (is_vendor_variant(name)) {
            judge_error(v, field_number(fields, "error"), o.tolerance, *w);
        } else {
            std::ostringstream request;
            request << "check " << o.tolerance << " " << work << "/output.bin";
            Reply r = w->ask(request.str(), kRequestLimitS);
            if (r.kind == Reply::Kind::Answer && starts_with(r.text, "wrong ")) {
                judge_mismatch(v, r.text.substr(6), *w);
                continue;
            }
            if (r.kind != Reply::Kind::Answer || !starts_with(r.text, "error ")) {
                v.status = r.kind == Reply::Kind::Timeout ? "timeout" : "failed";
                v.detail = "check: " + r.text;
                continue;
            }
            // The worker judged it under the measurer's rules: it matches.
            v.error = std::atof(r.text.c_str() + 6);
            v.status = "ok";
        }
        if (!curve_file.empty()) {
            TuningCurve tuning{curve_source, {}};
            std::ifstream curve(curve_file);
            std::string line;
            while (std::getline(curve, line)) tuning.rows.push_back(line);
            // The last row's best is the fastest record of the pipeline on this
            // target: the program the plugin applied (inf when none ran).
            if (!tuning.rows.empty()) {
                const std::string &last = tuning.rows.back();
                const double best = std::atof(last.substr(last.rfind(',') + 1).c_str());
                if (std::isfinite(best) && best > 0) v.tuned_ms = best;
            }
            run.curves.push_back(std::move(tuning));
        }
        if (v.ok()) running.push_back({index, std::move(w), {}});
    }

    // Interleaved timing: every round visits every variant once.
    for (int round = 0; round < o.rounds; round++) {
        for (Running &r : running) {
            VariantResult &v = result.variants[r.index];
            if (!v.ok()) continue;
            Reply reply = r.worker->ask("time " + std::to_string(o.samples) + " " + std::to_string(kRoundBudgetSeconds),
                                        kRequestLimitS);
            if (reply.kind != Reply::Kind::Answer || !starts_with(reply.text, "samples")) {
                v.status = reply.kind == Reply::Kind::Timeout ? "timeout" : "failed";
                v.detail = "while timing: " + reply.text;
                continue;
            }
            std::istringstream in(reply.text.substr(7));
            double ms, best = INFINITY;
            while (in >> ms) r.samples.push_back(ms), best = std::min(best, ms);
            if (std::isfinite(best)) r.round_best.push_back(best);
        }
    }
    for (Running &r : running) {
        result.variants[r.index].set_samples(r.samples, r.round_best);
        r.worker->stop();
    }
    fs::remove_all(work);
    return run;
}

}  // namespace ansor_harness
