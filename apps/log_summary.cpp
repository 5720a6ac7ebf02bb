// Prints a tuning log's summary: for every pipeline, target and set of
// measurement conditions (thread count, host CPU) in it, how many
// measurements it holds, how many failed, and the best time with the
// trial and line it came from (docs/tuning_log.md).
//
//   ansor_log_summary LOG
//
// Exit status: 0 on success, 1 for bad usage or a log that cannot be read,
// 2 for a malformed log (the message names file:line and why).
#include "cli.h"
#include "records/tuning_log.h"
#include "util/errors.h"

#include <sys/stat.h>

#include <cstdio>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace {

struct Group {
    std::string pipeline, target, conditions;
    std::vector<std::string> outputs;
    int records = 0, failures = 0;
    std::vector<ansor::TuningRecord> ok;
};

std::string join(const std::vector<std::string> &names) {
    std::string s;
    for (const auto &n : names) s += (s.empty() ? "" : ", ") + n;
    return s.empty() ? "(not recorded)" : s;
}

// The conditions a record was measured under, as one line.
std::string describe_conditions(const ansor::TuningRecord &r) {
    if (!r.conditions) return "conditions not recorded (record version 1)";
    const ansor::MeasureConditions &c = *r.conditions;
    return std::to_string(c.threads) + " thread(s) on \"" + c.host + "\", steps format " +
           std::to_string(c.steps_format) + ", features " + c.feature_set + ", key format " + c.key_format;
}

void print(const Group &g) {
    std::printf("pipeline %s  outputs: %s\n", g.pipeline.c_str(), join(g.outputs).c_str());
    std::printf("  target    %s\n", g.target.c_str());
    std::printf("  measured  %s\n", g.conditions.c_str());
    std::printf("  records   %d (%d failed)\n", g.records, g.failures);
    auto best = ansor::best_record(g.ok);
    if (!best) {
        std::printf("  best      none: no measurement succeeded\n");
        return;
    }
    std::string trial = best->trial ? "trial " + std::to_string(*best->trial) + ", " : "";
    std::printf("  best      %.4f ms (median %.4f ms), %sline %d\n", best->min_ms, best->median_ms, trial.c_str(),
                best->line);
}

}  // namespace

int main(int argc, char **argv) {
    std::string path;
    ansor_cli::Parser p("ansor_log_summary", "Prints the pipelines, trials and best times of a tuning log.", 1);
    p.positional("LOG", &path, "the tuning log");
    p.parse(argc, argv);
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        p.fail("no tuning log at '" + path + "'");
    }
    std::vector<ansor::TuningRecord> records;
    try {
        records = ansor::TuningLog(path).read_all();
    } catch (const ansor::UserError &e) {
        std::fprintf(stderr, "ansor_log_summary: %s\n", e.what());
        return 2;
    }

    // Groups in the order their first record appears.
    std::vector<Group> groups;
    std::map<std::tuple<std::string, std::string, std::string>, size_t> index;
    for (auto &r : records) {
        const std::string conditions = describe_conditions(r);
        auto key = std::make_tuple(r.pipeline, r.target, conditions);
        auto it = index.find(key);
        if (it == index.end()) {
            it = index.emplace(key, groups.size()).first;
            groups.push_back({r.pipeline, r.target, conditions, r.outputs, 0, 0, {}});
        }
        Group &g = groups[it->second];
        g.records++;
        if (r.ok) g.ok.push_back(std::move(r));
        else g.failures++;
    }
    std::printf("%s: %zu record(s), %zu group(s) of pipeline, target and conditions\n", path.c_str(), records.size(), groups.size());
    for (const Group &g : groups) print(g);
    return 0;
}
