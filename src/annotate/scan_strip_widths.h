#pragma once
// How wide a scan's strip must be. A scan computed per strip
// (scan_strip_rule.cpp) steps serially along its scanned dimension, and at
// each step computes the strip's points along its independent dimensions as
// vectors side by side; a strip narrower than one vector leaves lanes of
// every vector empty and makes each step a short dependent chain of loads
// and stores. The cost model cannot represent the scan, so it cannot tell a
// strip of 6 rows from one of 512: the annotator keeps strips at least a
// vector wide.
#include "state/loop_nest.h"

#include <Halide.h>

namespace ansor {

// The fewest native vectors of a scan's values side by side per serial
// step of a strip, where the scan's region holds that many.
constexpr int64_t kMinScanStripVectors = 1;

// Throws InvalidState, naming the Func, where a Func the model cannot
// represent that has both independent and serial dimensions is computed
// inside a loop over fewer points along its independent dimensions than
// kMinScanStripVectors native vectors of `target` (or its whole region
// along them, where that is smaller).
void check_scan_strip_widths(const LoopNest &m, const Halide::Target &target);

}  // namespace ansor
