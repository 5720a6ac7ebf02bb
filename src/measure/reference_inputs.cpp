#include "measure/reference_inputs.h"

#include "measure/measurement_buffers.h"
#include "measure/runner_files.h"

#include <cstring>

namespace ansor {

namespace {

RunnerBuffer region_entry(const std::string &name, const std::vector<DimRange> &region) {
    RunnerBuffer b;
    b.name = name;
    for (const DimRange &r : region) {
        b.min.push_back(r.min);
        b.extent.push_back(std::max<int64_t>(1, r.extent));
    }
    return b;
}

}  // namespace

void write_reference_inputs(const std::string &dir, const PipelineDAG &dag, const std::vector<Halide::Buffer<>> &inputs) {
    RunnerSpec spec;
    size_t next = 0;
    for (const InputInfo &in : dag.inputs()) {
        if (in.dimensions == 0) continue;  // scalars: the runner takes the same estimates
        const Halide::Buffer<> &given = inputs.at(next++);
        const Halide::Buffer<> dense = is_dense(given) ? given : given.copy();
        RunnerBuffer b;
        b.name = in.name;
        b.type = dense.type();
        for (int d = 0; d < dense.dimensions(); d++) {
            b.min.push_back(dense.dim(d).min());
            b.extent.push_back(dense.dim(d).extent());
        }
        b.file = in.name + ".bin";
        write_raw_file(dir + "/" + b.file, dense.data(), dense.size_in_bytes());
        spec.inputs.push_back(b);
    }
    for (const Halide::Internal::Function &f : dag.outputs()) {
        const Node &n = dag.node(*dag.index_of(f.name()));
        for (size_t k = 0; k < f.output_types().size(); k++) spec.outputs.push_back(region_entry(f.name(), n.region));
    }
    write_runner_spec(dir + "/" + kReferenceInputsFile, spec);
}

Halide::Buffer<> read_runner_buffer(const RunnerBuffer &b) {
    std::vector<int> sizes;
    for (int64_t e : b.extent) sizes.push_back((int)e);
    Halide::Buffer<> out(Halide::Type(b.type), sizes);
    for (size_t d = 0; d < b.min.size(); d++) out.translate((int)d, (int)b.min[d]);
    read_raw_file_into(b.file, out.data(), out.size_in_bytes());
    return out;
}

}  // namespace ansor
