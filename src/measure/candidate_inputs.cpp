#include "measure/candidate_inputs.h"

#include "measure/measurement_buffers.h"
#include "measure/pipeline_runner.h"
#include "measure/reference_inputs.h"
#include "measure/runner_files.h"
#include "measure/subprocess.h"
#include "util/errors.h"

#include <nlohmann/json.hpp>

namespace ansor {

namespace {

bool pinned(const InputInfo &in, size_t d) {
    return d < in.constraints.min.size() && (in.constraints.min[d] || in.constraints.extent[d]);
}

// The union of the file's region and the one read, or nothing if the file covers it.
bool widen(const InputInfo &in, RunnerBuffer &file, const std::vector<int64_t> &min, const std::vector<int64_t> &extent,
           std::vector<DimRange> &region) {
    bool grows = false;
    for (size_t d = 0; d < file.min.size(); d++) {
        int64_t lo = file.min[d], hi = file.min[d] + file.extent[d];
        if (d < min.size() && extent[d] > 0 && !pinned(in, d)) {
            grows = grows || min[d] < lo || min[d] + extent[d] > hi;
            lo = std::min(lo, min[d]);
            hi = std::max(hi, min[d] + extent[d]);
        }
        region.push_back({lo, hi - lo});
    }
    return grows;
}

}  // namespace

std::string candidate_inputs(const PipelineDAG &dag, const std::string &reference_spec, const std::string &runner,
                             const std::string &library, const std::string &function, const std::string &dir) {
    ProcessResult q = run_process({runner, library, function, "--inputs", reference_spec, "--bounds-query"});
    nlohmann::json read;
    try {
        if (q.exit_code != 0) throw std::runtime_error("failed");
        read = nlohmann::json::parse(last_json_text(q.output));
    } catch (const std::exception &) {
        throw UserError("the bounds query of " + library + " failed (" + q.describe() + "): " + q.output);
    }
    RunnerSpec spec = read_runner_spec(reference_spec);
    const std::vector<uint64_t> seeds = measurement_input_seeds(dag);
    bool changed = false;
    for (const nlohmann::json &r : read["inputs"]) {
        const std::string name = r.value("name", "");
        size_t buffer_index = 0;
        const InputInfo *info = nullptr;
        for (const InputInfo &in : dag.inputs()) {
            if (in.dimensions == 0) continue;
            if (in.name == name) {
                info = &in;
                break;
            }
            buffer_index++;
        }
        RunnerBuffer *file = nullptr;
        for (RunnerBuffer &b : spec.inputs) {
            if (b.name == name) file = &b;
        }
        if (!info || !file) continue;  // the runner reports an input it lacks by name
        std::vector<DimRange> region;
        if (!widen(*info, *file, r["min"].get<std::vector<int64_t>>(), r["extent"].get<std::vector<int64_t>>(), region)) {
            continue;
        }
        Halide::Buffer<> b = make_measurement_input(dag, *info, region, seeds.at(buffer_index));
        if (!is_dense(b)) b = b.copy();
        file->file = dir + "/" + "input" + std::to_string(buffer_index) + ".bin";
        for (size_t d = 0; d < region.size(); d++) {
            file->min[d] = region[d].min;
            file->extent[d] = region[d].extent;
        }
        write_raw_file(file->file, b.data(), b.size_in_bytes());
        changed = true;
    }
    if (!changed) return reference_spec;
    const std::string path = dir + "/" + kReferenceInputsFile;
    write_runner_spec(path, spec);
    return path;
}

}  // namespace ansor
