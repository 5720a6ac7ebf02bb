#pragma once
// Where ansor_runner is: the path given (HL_ANSOR_RUNNER) if any, else beside the
// binary that holds this code (libansor.so, where the install puts it, as
// the shipped cost model is found: model_file.h), else in this build tree.
#include <string>

namespace ansor {

constexpr const char *kRunnerName = "ansor_runner";

// The runner's absolute path: `given` if not empty (a UserError if it is
// not an executable), else the first that exists of the places above; a
// UserError naming every path tried when none does.
std::string runner_path(const std::string &given = "");

}  // namespace ansor
