// ansor_taso_substitutions: generate, verify and prune graph substitutions
// (docs/taso.md) and write the kept ones as JSON (format in substitution.h).
#include "cli.h"
#include "generate.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>

namespace {

void print_counts(const std::string &label, const taso::GenerateCounts &c) {
    std::printf("%-10s graphs %lld  candidates %lld  recheck-failed %lld  pruned-before %lld (weights %lld, renaming %lld, common %lld)"
                "  verified %lld  rejected %lld  pruned-instances %lld  kept %lld\n",
                label.c_str(), (long long)c.graphs, (long long)c.candidates, (long long)c.recheck_failed,
                (long long)(c.pruned_weights + c.pruned_renaming + c.pruned_common), (long long)c.pruned_weights,
                (long long)c.pruned_renaming, (long long)c.pruned_common, (long long)c.verified, (long long)c.rejected,
                (long long)c.pruned_instance, (long long)c.kept());
}

}  // namespace

int main(int argc, char **argv) {
    try {
        taso::GenerateOptions options;
        std::string out;
        std::vector<std::string> families;
        long show = 0;
        bool quiet = false;
        long max_ops = 0, timeout_ms = options.verify.timeout_ms;
        ansor_cli::Parser p("ansor_taso_substitutions", "Enumerates graph substitutions, verifies them with Z3 and prunes them.", 1);
        p.option("--max-ops", &max_ops, "operators per graph, 1..4, for every family (default: 3 for matrix and\n"
                                        "                             conv and residual, 4 for dense_bias and conv_bias; 4 for conv is slow)");
        p.option("--out", &out, "write the kept substitutions as JSON", "FILE");
        p.option("--timeout-ms", &timeout_ms, "Z3 time limit per candidate pair, 1..600000", "T");
        p.option("--family", &families, "enumerate only these input families (default all)",
                 "matrix|conv|dense_bias|conv_bias|residual");
        p.option("--show", &show, "print N kept, N unproved and N recheck-failed substitutions, 0..1000000");
        p.option("--quiet", &quiet, "no progress lines");
        p.parse(argc, argv);
        if (p.given("--max-ops") && (max_ops < 1 || max_ops > 4)) p.fail("--max-ops expects a number in 1..4");
        if (timeout_ms < 1 || timeout_ms > 600000) p.fail("--timeout-ms expects a number in 1..600000");
        if (show < 0 || show > 1000000) p.fail("--show expects a number in 0..1000000");
        options.max_ops = (int)max_ops;
        options.verify.timeout_ms = (unsigned)timeout_ms;
        if (!families.empty()) {
            std::vector<taso::EnumerationFamily> chosen;
            for (const std::string &name : families) {
                bool found = false;
                for (const auto &f : options.families)
                    if (f.family.name == name) {
                        chosen.push_back(f);
                        found = true;
                    }
                if (!found) throw std::runtime_error("unknown family '" + name + "' (matrix, conv, dense_bias, conv_bias)");
            }
            options.families = chosen;
        }
        if (!out.empty() && !std::ofstream(out))  // fail before the work, not after
            throw std::runtime_error("cannot write '" + out + "'");
        if (!quiet) options.log = [](const std::string &line) { std::fprintf(stderr, "%s\n", line.c_str()); };

        auto start = std::chrono::steady_clock::now();
        taso::GenerateResult r = taso::generate_substitutions(options);
        double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

        std::string depths;
        for (size_t i = 0; i < r.per_family.size(); i++)
            depths += (i ? ", " : "") + r.per_family[i].first + " " + std::to_string(r.per_family_max_ops[i]);
        std::printf("max ops: %s; Z3 timeout %u ms, %.1f s\n", depths.c_str(), options.verify.timeout_ms, secs);
        for (const auto &[name, c] : r.per_family) print_counts(name, c);
        print_counts("total", r.total);
        for (long i = 0; i < show && i < (long)r.kept.size(); i++)
            std::printf("kept: %s", taso::describe(r.kept[i]).c_str());
        for (long i = 0; i < show && i < (long)r.unproved.size(); i++)
            std::printf("unproved: %s", taso::describe(r.unproved[i]).c_str());
        for (long i = 0; i < show && i < (long)r.recheck_failed.size(); i++)
            std::printf("recheck-failed: %s", taso::describe(r.recheck_failed[i]).c_str());
        if (!out.empty()) {
            taso::save_substitutions(out, r.kept);
            std::printf("wrote %zu substitutions to %s\n", r.kept.size(), out.c_str());
        }
        return 0;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "ansor_taso_substitutions: %s\n", e.what());
        return 1;
    }
}
