#pragma once
// Runs one case: starts a worker per variant one after the other (the
// reference first, so that every later variant is checked against its output
// as soon as it is ready), then times every correct variant in interleaved
// rounds so that drift on a shared machine hits them alike, and stops them.
#include "harness_options.h"
#include "results.h"

#include <map>
#include <string>
#include <vector>

namespace ansor_harness {

struct CaseContext {
    const HarnessOptions &options;
    // Autoscheduler name -> why its plugin did not load (its variants fail with that).
    std::map<std::string, std::string> plugin_errors;
};

// An Ansor variant's tuning curve for a case: "trial,ok,ms,best_ms" rows, and
// where they came from ("tuned", "zero-shot" or "log"; "-cold" appended for
// Ansor-cold, "-model" for Ansor-model).
struct TuningCurve {
    std::string source;
    std::vector<std::string> rows;
};

struct CaseRun {
    CaseResult result;
    std::vector<TuningCurve> curves;  // one per Ansor variant that ran
};

CaseRun run_case(const BenchCase &c, const CaseContext &ctx);

// The variants that apply to a case (expert only where one exists, vendor
// libraries only for their problems), in table order.
std::vector<std::string> variants_for(const BenchCase &c, const HarnessOptions &o);

}  // namespace ansor_harness
