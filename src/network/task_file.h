#pragma once
// Task files (docs/tuning_networks.md): the tasks to tune together, each a
// generator with its params, a weight (how often the layer occurs in its
// network), the network(s) it belongs to and an optional family.
//
//   {
//     "network": "resnet50",                       // default for tasks without "networks"
//     "networks": {"resnet50": {"latency_requirement_ms": 20}},   // optional, for f2
//     "tasks": [
//       {"name": "conv1", "generator": "conv2d_bias_act",
//        "params": {"N": 1, "H": 224, "W": 224, "CI": 3, "CO": 64, "k": 7, "s": 2, "p": 3, "act": 1, "residual": 0},
//        "weight": 1, "networks": ["resnet50"], "family": "conv2d", "reference_ms": 0.5}
//     ]
//   }
#include "network/generator_pipeline.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ansor {

struct TaskSpec {
    std::string name;       // unique within the file
    std::string generator;  // a registered generator name
    GeneratorParamValues params;
    double weight = 1;
    std::vector<std::string> networks;  // at least one
    std::string family;                 // empty: decided by --families
    std::optional<double> reference_ms;  // for f3
};

struct NetworkSpec {
    std::string name;
    std::optional<double> latency_requirement_ms;  // for f2
};

struct TaskFile {
    std::string path;
    std::vector<NetworkSpec> networks;  // in order of first mention
    std::vector<TaskSpec> tasks;
    // Index of a network by name; throws std::out_of_range.
    int network_index(const std::string &name) const;
};

// Throws std::invalid_argument naming the file, the task (by index and name)
// and the field for anything malformed: unknown fields, wrong types, a
// missing name or generator, repeated names, a non-positive weight, no
// network.
TaskFile parse_task_file(const nlohmann::json &j, const std::string &origin);
TaskFile load_task_file(const std::string &path);

}  // namespace ansor
