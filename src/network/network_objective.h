#pragma once
// The objectives a network tuning run can minimise (docs/task_scheduler.md),
// made for the tasks of a task file.
#include "network/task_file.h"
#include "scheduler/objective.h"

#include <memory>
#include <string>
#include <vector>

namespace ansor {

// f1..f3 are Objectives; f4 is f1 with per-task early stopping.
enum class NetworkObjective { F1, F2, F3, F4 };

// Throws UserError naming `name` unless it is f1, f2, f3 or f4.
NetworkObjective parse_network_objective(const std::string &name);
const char *network_objective_name(NetworkObjective objective);

// Throws UserError naming the file when f2 lacks a network's
// latency_requirement_ms or f3 a task's reference_ms.
std::shared_ptr<const Objective> make_network_objective(NetworkObjective objective, const std::vector<Task> &tasks,
                                                        const TaskFile &file);

}  // namespace ansor
