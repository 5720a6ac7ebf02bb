#pragma once
// The measuring child's side of ForkMeasurer. A forked child compiles its
// candidate, writes a compiled line, and blocks until the parent sends one
// byte ("go") on its control socket; then it warms up, checks the output
// against the reference in shared memory, times the runs and writes a
// result line. Everything it prints (Halide's errors included) reaches the
// parent on that same socket.
#include "measure/measurer.h"

#include <string>

namespace ansor {

// Seconds on the steady clock, which the parent and its children share.
double steady_now_s();

// The child's body; state == nullptr measures the reference (every Func at
// root) and writes its outputs into `shared`. Never returns.
[[noreturn]] void measure_child_main(const PipelineDAG &dag, const State *state, const MeasureOptions &options,
                                     void *shared, int control_fd);

// The lines of the protocol, for child bodies other than measure_child_main
// (ForkMeasurer::measure_children). Each flushes stdout.
void report_compiled();
// Blocks until the parent's go byte; false if the parent gave up instead.
bool wait_for_go(int control_fd);
void report_ok(double min_ms, double median_ms, size_t runs, const TimeSpan &timed);
void report_wrong(const std::string &detail, double worst);
// Before the result line: the device the time was taken on (MeasureResult::device).
void report_device(const std::string &device);
// Instead of a result: built and checked, but not run (MeasureResult::not_run).
void report_not_run(const std::string &why);

// Whether the child's output so far says its candidate compiled.
bool reports_compiled(const std::string &output);

// Whether the child's output so far holds a complete result line.
bool reports_result(const std::string &output);

// The verdict in the child's output once it ended (exit status from
// waitpid): its result line, or its error text, crash signal or silence.
MeasureResult parse_child_output(const std::string &output, int wait_status);

}  // namespace ansor
