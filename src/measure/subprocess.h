#pragma once
// Runs a program (the C compiler, ptxas, ansor_runner) and collects its
// output. Called inside sandboxed measuring children: the program is forked
// from the child, so it belongs to the child's process group and dies with
// it when the measurer ends the child; the measurer's deadlines bound it.
#include <string>
#include <vector>

namespace ansor {

struct ProcessResult {
    int exit_code = -1;  // -1: killed by a signal (signal says which) or not started
    int signal = 0;
    std::string output;  // stdout and stderr together, in order
    std::string describe() const;  // "exit code 1", "signal 11"
};

// argv[0] is looked up on PATH unless it holds a '/'; `env` entries
// ("NAME=value") are set in the program's environment. A program that cannot
// be started gives exit code 127 and says why in `output`.
ProcessResult run_process(const std::vector<std::string> &argv, const std::vector<std::string> &env = {});

}  // namespace ansor
