#pragma once
// The line protocol between the harness and its worker processes (one per
// variant: forked Halide workers and the vendor-library executables alike).
// The worker reads commands, one per line, on stdin and answers on stdout
// with lines that start with kReplyPrefix; any other stdout line (a library's
// chatter) is not an answer and the harness passes it on to stderr.
//
//   worker -> harness, once set up:   @harness ready [key=value ...]
//                       or:           @harness failed <why>
//   harness -> worker:  time <n> <s>  @harness samples <ms> ... (n samples, fewer if
//                                     they take over s seconds, at least one)
//                       dump <dir>    @harness dumped        (Halide root only: outputs and inputs)
//                       check <tol> <file>
//                                     (Halide variants) the measurer's comparison (output_check's
//                                     rules, relative tolerance tol) with the root's dumped outputs:
//                                     @harness error <largest error>   when they match
//                                     @harness wrong <largest error> <which element, by how much>
//                       quit          (the worker exits)
#include <string>

namespace ansor_harness {

inline const std::string kReplyPrefix = "@harness ";

// A sample is the mean time of enough back-to-back runs to span this long,
// so that timer resolution and call overhead stay small.
constexpr double kSampleSeconds = 0.01;
constexpr int kMaxRunsPerSample = 1000;
// Seconds of samples one variant may take per timing round.
constexpr double kRoundBudgetSeconds = 3;

}  // namespace ansor_harness
