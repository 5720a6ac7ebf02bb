#include "measure/input_reads.h"

#include "measure/gpu_build.h"
#include "measure/lowered_input_reads.h"
#include "measure/runner_files.h"
#include "measure/subprocess.h"
#include "util/errors.h"

#include <nlohmann/json.hpp>

namespace ansor {

void require_reads_within_reference(const PipelineDAG &dag, const std::string &reference_spec,
                                    const std::string &runner, const std::string &library,
                                    const std::string &function) {
    ProcessResult q = run_process({runner, library, function, "--inputs", reference_spec, "--bounds-query"});
    nlohmann::json read;
    try {
        if (q.exit_code != 0) throw std::runtime_error("failed");
        read = nlohmann::json::parse(last_json_text(q.output));
    } catch (const std::exception &) {
        throw UserError("the bounds query of " + library + " failed (" + q.describe() + "): " + q.output);
    }
    const RunnerSpec spec = read_runner_spec(reference_spec);
    for (const nlohmann::json &r : read["inputs"]) {
        const std::string name = r.value("name", "");
        const InputInfo *info = nullptr;
        for (const InputInfo &in : dag.inputs()) {
            if (in.dimensions > 0 && in.name == name) info = &in;
        }
        const RunnerBuffer *file = nullptr;
        for (const RunnerBuffer &b : spec.inputs) {
            if (b.name == name) file = &b;
        }
        if (!info || !file) continue;  // the runner reports an input it lacks by name
        const auto min = r["min"].get<std::vector<int64_t>>();
        const auto extent = r["extent"].get<std::vector<int64_t>>();
        for (size_t d = 0; d < file->min.size() && d < min.size(); d++) {
            if (auto over = read_beyond(*info, (int)d, min[d], extent[d], file->min[d], file->extent[d])) {
                throw GpuProgramRejected(over->describe());
            }
        }
    }
}

}  // namespace ansor
