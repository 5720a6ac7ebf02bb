#pragma once
// Limits on a program read back from a tuning log (or sent by another
// process): a record is text anyone may have edited, and replay alone
// accepts any factor that leaves a loop to split. Each step is checked
// against the loop it acts on before it is applied, so a record that would
// unroll a billion iterations or nest thousands of loops is skipped instead
// of compiled. The bounds sit well above anything the search writes.
#include "records/canonical_names.h"
#include "state/state.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <stdexcept>

namespace ansor {

// A split's inner factors may cover more than the loop (the annotator rounds
// an extent with few divisors up to a multiple of 8, a GPU block up to whole
// warps), but never more than twice its extent plus this slack.
constexpr int64_t kTileRoundingSlack = 64;
// The most a split may cover of a loop whose extent is not known.
constexpr int64_t kMaxTileOfUnknownExtent = 4096;
// The widest vectorized and the longest unrolled loop (the upper bound of
// HL_ANSOR_MAX_INNERMOST_FACTOR, which sets the widest the annotator draws).
constexpr int64_t kMaxVectorLanes = 4096;
constexpr int64_t kMaxUnrolledExtent = 4096;
// The largest auto_unroll max_step (the upper bound of HL_ANSOR_AUTO_UNROLL_MAX_STEP).
constexpr int kMaxAutoUnrollStep = 4096;
// Loops of one stage, split pieces included.
constexpr size_t kMaxLoopsPerStage = 128;
// Steps of one Func.
constexpr size_t kMaxStepsPerFunc = 256;

// A record whose numbers no search would write; its message names the step
// and the limit.
class RecordOutOfRange : public std::runtime_error {
public:
    explicit RecordOutOfRange(const std::string &what) : std::runtime_error(what) {}
};

// The State of a record's steps in canonical names (canonical_steps.h),
// counted before they are read and replayed with replay_within_record_limits.
// Throws RecordOutOfRange, or what state_from_canonical_steps and replay throw.
State state_within_record_limits(const PipelineDAG &dag, const CanonicalNames &names, const nlohmann::json &steps);

// The loop nest of `state`, replayed in State::replay's order (deferred
// steps last) with every step checked first. Throws RecordOutOfRange for a
// step beyond the limits above, InvalidState for one that does not fit.
LoopNest replay_within_record_limits(const State &state);

}  // namespace ansor
