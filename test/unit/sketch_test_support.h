#pragma once
// What the sketch-rule tests share: where a State's own steps place a Func.
#include "state/state.h"

#include <optional>
#include <string>

namespace ansor_test {

// The location the first placement step naming `func` gives it (compute_at,
// compute_root or compute_inline), if any step does.
inline std::optional<ansor::Location> placement_of(const ansor::State &s, const std::string &func) {
    const ansor::FuncSteps *g = s.group(func);
    if (!g) return std::nullopt;
    for (const auto &step : g->steps) {
        if (const ansor::Location *l = step->placement()) return *l;
    }
    return std::nullopt;
}

}  // namespace ansor_test
