#pragma once
// A peer autoscheduler (Adams2019, Mullapudi2016: Halide's own plugins) on
// one random pipeline, checked the way Ansor's programs are: in a forked
// child, the pipeline is scheduled by the peer, compiled with the JIT, run on
// the measurer's inputs and compared with the all-at-root pipeline. A child
// that crashes or runs past the timeout is a finding, never the fuzzer's end.
#include "fuzz_outcome.h"
#include "scheduled_check.h"

#include <random_pipeline.h>

#include <Halide.h>

namespace ansor_fuzz {

struct PeerCheck {
    std::string scheduler;  // the name the plugin registers ("Adams2019", "Mullapudi2016")
    Halide::Target target;
    int parallelism = 2;
    double tolerance = 1e-3;
    double timeout_s = 60;  // scheduling, compiling and both runs together
};

// The child's verdict (classified like a measurement error). `reference`:
// the all-at-root outputs (reference_outputs in scheduled_check.h).
Finding check_peer(const PeerCheck &check, const random_pipeline::RandomPipelineSpec &spec,
                   const Reference &reference);

}  // namespace ansor_fuzz
