#pragma once
// Counts the records of a pipeline that a load leaves out, and says why in
// as few warnings as possible: one for records measured under other
// conditions (with a count per differing condition), one for records whose
// check hash shows another pipeline under the same key, one for records of
// any pipeline keyed by a build whose key format differs.
#include "records/tuning_record.h"

#include <functional>
#include <map>
#include <string>

namespace ansor {

class ExcludedRecords {
public:
    ExcludedRecords(std::string path, std::string key_hash, std::string key_check, MeasureConditions ours);

    // A record of this pipeline measured under other conditions: `differing`
    // names them (differing_conditions).
    void other_conditions(const TuningRecord &r, const std::vector<std::string> &differing);
    // A version 1 record of this pipeline and target: its conditions unknown.
    void unrecorded_conditions(const TuningRecord &r);
    // A record with this key but another check hash.
    void collision(const TuningRecord &r);
    // A record of another pipeline key, written by another key format.
    void other_key_format(const TuningRecord &r);

    // Emits the warnings (none if nothing was left out).
    void report(const std::function<void(const std::string &)> &warn) const;

private:
    struct Count {
        int records = 0;
        std::string example;  // the first such record's value, or its line
    };
    std::string path_, hash_, check_;
    MeasureConditions ours_;
    int excluded_ = 0;                       // records of this pipeline left out for their conditions
    int first_line_ = 0;
    std::map<std::string, Count> differing_;  // per condition name
    std::vector<std::string> order_;          // condition names in the order first met
    Count unrecorded_, collisions_, key_formats_;
};

}  // namespace ansor
