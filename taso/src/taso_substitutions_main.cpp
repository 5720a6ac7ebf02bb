// ansor_taso_substitutions: generate, verify and prune graph substitutions
// (docs/taso.md) and write the kept ones as JSON (format in substitution.h).
#include "generate.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>

namespace {

const char *kUsage =
    "usage: ansor_taso_substitutions [--max-ops N] [--out subst.json] [--timeout-ms T]\n"
    "                                [--family matrix|conv|dense_bias|conv_bias|residual]... [--show N] [--quiet]\n"
    "  --max-ops N     operators per graph, 1..4, for every family (default: 3 for matrix and\n"
    "                  conv and residual, 4 for dense_bias and conv_bias; 4 for conv is slow)\n"
    "  --out FILE      write the kept substitutions as JSON\n"
    "  --timeout-ms T  Z3 time limit per candidate pair (default 2000)\n"
    "  --family NAME   enumerate only this input family (repeatable; default all)\n"
    "  --show N        print N kept, N unproved and N recheck-failed substitutions\n";

long parse_number(const std::string &flag, const char *text, long lo, long hi) {
    char *end = nullptr;
    long v = std::strtol(text, &end, 10);
    if (!*text || *end || v < lo || v > hi)
        throw std::runtime_error(flag + " expects a number in " + std::to_string(lo) + ".." + std::to_string(hi) +
                                 ", got '" + text + "'");
    return v;
}

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
        for (int i = 1; i < argc; i++) {
            std::string a = argv[i];
            auto value = [&]() -> const char * {
                if (i + 1 >= argc) throw std::runtime_error(a + " needs a value");
                return argv[++i];
            };
            if (a == "--max-ops") options.max_ops = (int)parse_number(a, value(), 1, 4);
            else if (a == "--out") out = value();
            else if (a == "--timeout-ms") options.verify.timeout_ms = (unsigned)parse_number(a, value(), 1, 600000);
            else if (a == "--family") families.push_back(value());
            else if (a == "--show") show = parse_number(a, value(), 0, 1000000);
            else if (a == "--quiet") quiet = true;
            else if (a == "--help" || a == "-h") {
                std::cout << kUsage;
                return 0;
            } else
                throw std::runtime_error("unknown argument '" + a + "'\n" + kUsage);
        }
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
