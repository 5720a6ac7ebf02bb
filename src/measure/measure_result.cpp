#include "measure/measure_result.h"

#include <cmath>
#include <sstream>

namespace ansor {

std::string implausible_result(const MeasureResult &r) {
    if (!r.ok) return "";
    std::ostringstream why;
    if (!std::isfinite(r.min_ms) || r.min_ms <= 0) {
        why << "min_ms " << r.min_ms << " is not a positive finite time";
    } else if (!std::isfinite(r.median_ms) || r.median_ms < 0 || (r.median_ms > 0 && r.median_ms < r.min_ms)) {
        why << "median_ms " << r.median_ms << " is not a finite time at least min_ms " << r.min_ms;
    } else if (!std::isfinite(r.seconds) || r.seconds < 0) {
        why << "seconds " << r.seconds << " is not a finite duration";
    } else if (r.runs < 0) {
        why << "runs " << r.runs << " is negative";
    }
    return why.str();
}

}  // namespace ansor
