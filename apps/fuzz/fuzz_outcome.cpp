#include "fuzz_outcome.h"

#include <algorithm>
#include <sstream>

namespace ansor_fuzz {

const char *outcome_name(Outcome o) {
    switch (o) {
    case Outcome::Ok: return "ok";
    case Outcome::Crash: return "crash";
    case Outcome::InternalError: return "internal error";
    case Outcome::WrongOutput: return "wrong output";
    case Outcome::Refused: return "refused";
    }
    return "?";
}

Outcome classify_error(const std::string &error) {
    if (error.empty()) return Outcome::Ok;
    // The measurer's own wording (measure_child.cpp, fork_measurer.cpp).
    if (error.find("wrong output") != std::string::npos) return Outcome::WrongOutput;
    if (error.find("crashed with signal") != std::string::npos || error.find("timed out") != std::string::npos) {
        return Outcome::Crash;
    }
    return Outcome::InternalError;
}

void FuzzTally::add(const Finding &f) {
    if (!counts_.count(f.scheduler)) schedulers_.push_back(f.scheduler);
    counts_[f.scheduler][f.outcome]++;
    if (f.outcome != Outcome::Ok) failures_.push_back(f);
}

int FuzzTally::count(const std::string &scheduler, Outcome o) const {
    auto s = counts_.find(scheduler);
    if (s == counts_.end()) return 0;
    auto c = s->second.find(o);
    return c == s->second.end() ? 0 : c->second;
}

int FuzzTally::bad(const std::string &scheduler) const {
    return count(scheduler, Outcome::Crash) + count(scheduler, Outcome::InternalError) +
           count(scheduler, Outcome::WrongOutput);
}

std::string FuzzTally::table() const {
    std::ostringstream out;
    for (const std::string &s : schedulers_) {
        out << s << ": " << count(s, Outcome::Crash) << " crashes, " << count(s, Outcome::InternalError)
            << " internal errors, " << count(s, Outcome::WrongOutput) << " wrong outputs, " << count(s, Outcome::Ok)
            << " ok";
        if (count(s, Outcome::Refused)) out << ", " << count(s, Outcome::Refused) << " refused";
        out << "\n";
    }
    return out.str();
}

}  // namespace ansor_fuzz
