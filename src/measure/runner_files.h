#pragma once
// The files ansor_runner reads and writes (docs/gpu.md, "Measuring and
// verifying GPU programs"). Shared by the runner, which links neither Halide
// nor ansor_core, and by GpuMeasurer: only the C++ library, nlohmann-json and
// Halide's runtime header.
//
// An inputs file (what --inputs reads):
//   {"inputs":  [{"name": "A", "type": "float32", "min": [0, 0], "extent": [128, 128], "file": "A.bin"}],
//    "scalars": [{"name": "k", "value": 1.5}],
//    "outputs": [{"name": "C", "min": [0, 0], "extent": [128, 128]}]}
// Each "file" holds the buffer's elements densely, dimension 0 innermost,
// in the machine's byte order; a relative path is relative to the inputs
// file. Scalars left out take the pipeline's estimate (or its default);
// outputs left out take the buffer estimates; outputs are listed in the
// order of the pipeline's output arguments.
// The outputs file (outputs.json in --outputs-dir) lists the outputs in the
// same form, each with its raw file beside it.
#include <HalideRuntime.h>

#include <cstdint>
#include <string>
#include <vector>

namespace ansor {

struct RunnerBuffer {
    std::string name;
    halide_type_t type{};
    std::vector<int64_t> min, extent;
    std::string file;  // raw elements; empty for an output the runner is to allocate
    size_t elements() const;
    size_t bytes() const { return elements() * ((type.bits + 7) / 8); }
};

struct RunnerScalar {
    std::string name;
    double value = 0;  // JSON numbers; integers up to 2^53 are exact
};

struct RunnerSpec {
    std::vector<RunnerBuffer> inputs;
    std::vector<RunnerScalar> scalars;
    std::vector<RunnerBuffer> outputs;
};

// "float32", "int16", "uint8", "bool", "handle64"... and back; a name that is
// not a type throws std::runtime_error naming it.
std::string runner_type_name(halide_type_t t);
halide_type_t parse_runner_type(const std::string &name);

// Throws std::runtime_error naming the file and what is wrong with it.
RunnerSpec read_runner_spec(const std::string &path);
void write_runner_spec(const std::string &path, const RunnerSpec &spec);
// The "outputs" list of an outputs file, with files resolved against its directory.
std::vector<RunnerBuffer> read_runner_outputs(const std::string &path);

// The last line of a program's output that starts with '{' (the runner's
// JSON result), or "" if none.
std::string last_json_text(const std::string &output);

// Reads a buffer file of exactly `bytes` raw elements into `destination`
// (a runtime_error otherwise). No temporary copy: the runner's heap must stay
// as a fresh process's (fresh_process_measurer.h); freeing a copy of a
// multi-megabyte input would raise glibc's mmap and trim thresholds.
void read_raw_file_into(const std::string &path, void *destination, size_t bytes);
void write_raw_file(const std::string &path, const void *data, size_t bytes);

}  // namespace ansor
