#include "results.h"

#include "harness_options.h"
#include "sample_timer.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <stdexcept>

namespace ansor_harness {

namespace {

std::string quoted(const std::string &s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"') out += "\"\"";
        else if (c == '\n' || c == '\r') out += ' ';
        else out += c;
    }
    return out + "\"";
}

std::string number(double v, int precision = 6) {
    if (!std::isfinite(v)) return "";
    std::ostringstream s;
    s.precision(precision);
    s << v;
    return s.str();
}

double parse_number(const std::string &s) {
    if (s.empty()) return NAN;
    try {
        return std::stod(s);
    } catch (const std::exception &) {
        return NAN;
    }
}

std::string shown_status(const VariantResult &v) {
    if (v.status == "timeout") return "TIMEOUT";
    if (v.status == "ok") return "ok";
    return "FAILED";
}

double geomean(const std::vector<double> &v) {
    double s = 0;
    for (double x : v) s += std::log(x);
    return v.empty() ? NAN : std::exp(s / v.size());
}

}  // namespace

void VariantResult::set_samples(const std::vector<double> &samples_ms, const std::vector<double> &round_best_ms) {
    samples = (int)samples_ms.size();
    if (samples_ms.empty()) return;
    median_ms = median_of(samples_ms);
    min_ms = *std::min_element(samples_ms.begin(), samples_ms.end());
    if (!round_best_ms.empty()) rungen_ms = median_of(round_best_ms);
}

double CaseResult::best_ms() const {
    double best = NAN;
    for (const auto &v : variants) {
        if (v.ok() && !(v.median_ms >= best)) best = v.median_ms;
    }
    return best;
}

void print_case(const CaseResult &r, double peak_gflops, FILE *out) {
    const BenchCase &c = r.bench_case;
    std::fprintf(out, "\n== %s (%s: %s)", c.name.c_str(), c.kind == BenchCase::Kind::App ? "app" : "operator",
                 c.params.c_str());
    if (r.flops > 0) std::fprintf(out, ", %.3g GFLOP per run", r.flops * 1e-9);
    std::fprintf(out, " ==\n");
    std::fprintf(out, "  %-14s %-8s %12s %10s %7s %9s %11s %11s\n", "variant", "status", "median ms", "GFLOP/s", "% peak",
                 "x best", "schedule s", "compile s");
    const double best = r.best_ms();
    for (const auto &v : r.variants) {
        std::fprintf(out, "  %-14s %-8s", v.variant.c_str(), shown_status(v).c_str());
        if (v.ok()) {
            std::fprintf(out, " %12.4f", v.median_ms);
            const double gflops = r.flops / (v.median_ms * 1e6);
            if (r.flops > 0) std::fprintf(out, " %10.1f", gflops);
            else std::fprintf(out, " %10s", "-");
            if (r.flops > 0 && peak_gflops > 0) std::fprintf(out, " %6.1f%%", 100 * gflops / peak_gflops);
            else std::fprintf(out, " %7s", "-");
            std::fprintf(out, " %8.2fx", v.median_ms / best);
        } else {
            std::fprintf(out, " %12s %10s %7s %9s", "-", "-", "-", "-");
        }
        for (double s : {v.schedule_s, v.compile_s}) {
            if (std::isfinite(s)) std::fprintf(out, " %11.1f", s);
            else std::fprintf(out, " %11s", "-");
        }
        std::fprintf(out, "\n");
    }
    for (const auto &v : r.variants) {
        if (!v.ok()) std::fprintf(out, "  %s %s: %s\n", v.variant.c_str(), shown_status(v).c_str(), v.detail.c_str());
        if (v.ok() && std::isfinite(v.tuned_ms))
            std::fprintf(out,
                         "  %s: the tuner measured %.4f ms for this program; delivered median %.4f ms (%.2fx), "
                         "RunGen's statistic %.4f ms (%.2fx)\n",
                         v.variant.c_str(), v.tuned_ms, v.median_ms, v.median_ms / v.tuned_ms, v.rungen_ms,
                         v.rungen_ms / v.tuned_ms);
    }
    std::fflush(out);
}

namespace {

// Measured = delivered: the delivered times of Ansor's program against the
// time the tuner measured for it, as the median of all samples and as
// RunGen's statistic (each round's best sample, median over rounds), which
// is the tuner's own.
void print_delivered_over_tuned(const std::vector<CaseResult> &cases, FILE *out) {
    struct Ratios {
        std::string name;
        double median, rungen;
    };
    std::vector<Ratios> ratios;
    for (const CaseResult &r : cases) {
        for (const auto &v : r.variants) {
            if (is_ansor_variant(v.variant) && v.ok() && std::isfinite(v.tuned_ms) && v.tuned_ms > 0) {
                const std::string name = r.bench_case.name + (v.variant == "Ansor" ? "" : " (" + v.variant + ")");
                ratios.push_back({name, v.median_ms / v.tuned_ms, v.rungen_ms / v.tuned_ms});
            }
        }
    }
    if (ratios.empty()) return;
    std::fprintf(out, "\nAnsor's delivered time over the tuner's time for the same program (1.00: as measured):\n");
    std::fprintf(out, "  %-38s %8s %8s\n", "case", "median", "RunGen");
    int within_median = 0, within_rungen = 0;
    for (const Ratios &r : ratios) {
        std::fprintf(out, "  %-38s %8.2f %8.2f\n", r.name.c_str(), r.median, r.rungen);
        within_median += std::abs(r.median - 1) <= 0.1;
        within_rungen += std::abs(r.rungen - 1) <= 0.1;
    }
    std::fprintf(out, "  within 10%%: %d of %zu cases (median), %d of %zu (RunGen's statistic)\n", within_median,
                 ratios.size(), within_rungen, ratios.size());
}

}  // namespace

void print_summary(const std::vector<CaseResult> &cases, const std::vector<std::string> &variants, FILE *out) {
    std::fprintf(out, "\nSummary: median ms per variant (* = fastest of the case; FAILED covers wrong output)\n");
    std::fprintf(out, "%-26s", "case");
    for (const auto &v : variants) std::fprintf(out, " %13s", v.c_str());
    std::fprintf(out, "\n");
    // Ansor variant -> variant -> t_variant / t_(Ansor variant)
    std::map<std::string, std::map<std::string, std::vector<double>>> over_ansor;
    for (const CaseResult &r : cases) {
        std::fprintf(out, "%-26s", r.bench_case.name.c_str());
        const double best = r.best_ms();
        for (const auto &name : variants) {
            const VariantResult *v = nullptr;
            for (const auto &x : r.variants) {
                if (x.variant == name) v = &x;
            }
            if (!v) {
                std::fprintf(out, " %13s", "");
                continue;
            }
            if (!v->ok()) {
                std::fprintf(out, " %13s", shown_status(*v).c_str());
                continue;
            }
            char cell[32];
            std::snprintf(cell, sizeof(cell), "%.4f%s", v->median_ms, v->median_ms == best ? "*" : "");
            std::fprintf(out, " %13s", cell);
            for (const auto &a : r.variants) {
                if (is_ansor_variant(a.variant) && a.ok() && &a != v)
                    over_ansor[a.variant][name].push_back(v->median_ms / a.median_ms);
            }
        }
        std::fprintf(out, "\n");
    }
    print_delivered_over_tuned(cases, out);
    for (const auto &ansor : variants) {
        auto of = over_ansor.find(ansor);
        if (of == over_ansor.end()) continue;
        std::fprintf(out, "\nGeomean of (time of variant / time of %s) over the cases where both ran correctly "
                          "(> 1: %s faster):\n", ansor.c_str(), ansor.c_str());
        for (const auto &name : variants) {
            auto it = of->second.find(name);
            if (it == of->second.end()) continue;
            int wins = 0;
            for (double x : it->second) wins += x > 1;
            std::fprintf(out, "  vs %-14s %6.2fx over %zu cases (%s faster in %d)\n", name.c_str(),
                         geomean(it->second), it->second.size(), ansor.c_str(), wins);
        }
    }
    std::fflush(out);
}

const char *ResultsCsv::header() {
    return "case,kind,params,variant,status,median_ms,min_ms,gflops,ratio_to_best,rel_error,schedule_s,compile_s,"
           "samples,detail,tuned_ms,rungen_ms";
}

std::vector<std::string> split_csv_line(const std::string &line) {
    std::vector<std::string> fields(1);
    bool in_quotes = false;
    for (size_t i = 0; i < line.size(); i++) {
        char c = line[i];
        if (in_quotes) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                fields.back() += '"';
                i++;
            } else if (c == '"') {
                in_quotes = false;
            } else {
                fields.back() += c;
            }
        } else if (c == '"') {
            in_quotes = true;
        } else if (c == ',') {
            fields.emplace_back();
        } else {
            fields.back() += c;
        }
    }
    return fields;
}

ResultsCsv::ResultsCsv(const std::string &path, bool resume) : path_(path) {
    bool exists = std::ifstream(path).good();
    if (exists && !resume) {
        throw std::invalid_argument(path + " exists; pass --resume to add to it, or name another --out directory");
    }
    bool write_header = true;
    if (exists) {
        std::ifstream in(path);
        std::string line;
        if (std::getline(in, line)) {
            if (line != header()) throw std::invalid_argument(path + " is not a CSV this harness wrote; not resuming into it");
            write_header = false;
            while (std::getline(in, line)) {
                auto fields = split_csv_line(line);
                if (!fields.empty() && !fields[0].empty()) done_.insert(fields[0]);
            }
        }
    }
    out_.open(path, std::ios::app);
    if (!out_) throw std::invalid_argument("cannot write " + path);
    if (write_header) out_ << header() << "\n" << std::flush;
}

void ResultsCsv::append(const CaseResult &r) {
    const double best = r.best_ms();
    const BenchCase &c = r.bench_case;
    for (const auto &v : r.variants) {
        out_ << quoted(c.name) << "," << (c.kind == BenchCase::Kind::App ? "app" : "op") << "," << quoted(c.params)
             << "," << v.variant << "," << v.status << "," << (v.ok() ? number(v.median_ms) : "") << ","
             << (v.ok() ? number(v.min_ms) : "") << ","
             << (v.ok() && r.flops > 0 ? number(r.flops / (v.median_ms * 1e6), 5) : "") << ","
             << (v.ok() ? number(v.median_ms / best, 4) : "") << "," << number(v.error, 3) << ","
             << number(v.schedule_s, 4) << "," << number(v.compile_s, 4) << "," << v.samples << ","
             << quoted(v.detail) << "," << number(v.tuned_ms) << "," << (v.ok() ? number(v.rungen_ms) : "") << "\n";
    }
    out_.flush();
}

std::vector<CaseResult> ResultsCsv::read(const std::string &path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    std::vector<CaseResult> cases;
    while (std::getline(in, line)) {
        auto f = split_csv_line(line);
        if (f.size() < 14) continue;
        if (cases.empty() || cases.back().bench_case.name != f[0]) {
            cases.emplace_back();
            cases.back().bench_case.name = f[0];
            cases.back().bench_case.kind = f[1] == "app" ? BenchCase::Kind::App : BenchCase::Kind::Op;
            cases.back().bench_case.params = f[2];
        }
        VariantResult v;
        v.variant = f[3];
        v.status = f[4];
        v.median_ms = parse_number(f[5]);
        v.min_ms = parse_number(f[6]);
        v.error = parse_number(f[9]);
        v.schedule_s = parse_number(f[10]);
        v.compile_s = parse_number(f[11]);
        v.samples = (int)parse_number(f[12]);
        v.detail = f[13];
        if (f.size() > 14) v.tuned_ms = parse_number(f[14]);
        if (f.size() > 15) v.rungen_ms = parse_number(f[15]);
        cases.back().variants.push_back(v);
    }
    return cases;
}

}  // namespace ansor_harness
