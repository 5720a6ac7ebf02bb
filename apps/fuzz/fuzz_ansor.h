#pragma once
// Ansor on one random pipeline at a small budget: a TuningSession (no model
// file, so the first round is random programs, the ones that explore the
// space most widely) measures a few programs through the ForkMeasurer, which
// checks each against the all-at-root pipeline in a forked child. Each
// measured program is a finding; a session that throws is one internal error.
#include "fuzz_outcome.h"

#include "options/options.h"

#include <random_pipeline.h>

#include <Halide.h>
#include <nlohmann/json.hpp>

namespace ansor_fuzz {

struct AnsorCheck {
    Halide::Target target;
    int parallelism = 2;
    int programs = 4;        // programs measured per pipeline
    ansor::Options options;  // HL_ANSOR_* (tolerance, timeout, seed...)
    bool verbose = false;    // print each failing program's schedule
    std::string dump;        // append each failing program to this file as a --replay line ("" for none)
};

std::vector<Finding> check_ansor(const AnsorCheck &check, const random_pipeline::RandomPipelineSpec &spec);

// Measures given programs (canonical steps, as a tuning log or corpus
// stores them) of the pipeline instead of searching: reproduces recorded
// failures. A program the search no longer builds is refused, and with
// `refuse_undrawable` also one the annotator would no longer draw
// (RandomAnnotator::misfit); without it such a program is still measured,
// so that the measurer's own checks stay tested on it.
std::vector<Finding> replay_programs(const AnsorCheck &check, const random_pipeline::RandomPipelineSpec &spec,
                                     const std::vector<nlohmann::json> &steps, bool refuse_undrawable);

}  // namespace ansor_fuzz
