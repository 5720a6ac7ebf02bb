#include "records/excluded_records.h"

#include <algorithm>

namespace ansor {

ExcludedRecords::ExcludedRecords(std::string path, std::string key_hash, std::string key_check, MeasureConditions ours)
    : path_(std::move(path)), hash_(std::move(key_hash)), check_(std::move(key_check)), ours_(std::move(ours)) {}

void ExcludedRecords::other_conditions(const TuningRecord &r, const std::vector<std::string> &differing) {
    if (excluded_++ == 0) first_line_ = r.line;
    for (const std::string &name : differing) {
        Count &c = differing_[name];
        if (c.records++ == 0) {
            c.example = name == "target" ? r.target : condition_value(*r.conditions, name);
            order_.push_back(name);
        }
    }
}

void ExcludedRecords::unrecorded_conditions(const TuningRecord &r) {
    if (excluded_++ == 0) first_line_ = r.line;
    if (unrecorded_.records++ == 0) unrecorded_.example = std::to_string(r.line);
}

void ExcludedRecords::collision(const TuningRecord &r) {
    if (collisions_.records++ == 0) collisions_.example = r.check + " at line " + std::to_string(r.line);
}

void ExcludedRecords::other_key_format(const TuningRecord &r) {
    if (key_formats_.records++ == 0) key_formats_.example = r.conditions->key_format;
}

void ExcludedRecords::report(const std::function<void(const std::string &)> &warn) const {
    if (excluded_) {
        std::string m = path_ + ": " + std::to_string(excluded_) + " record(s) of pipeline " + hash_ +
                        " were measured under other conditions and are not applied (first at line " +
                        std::to_string(first_line_) + "):";
        const char *sep = " ";
        for (const std::string &name : order_) {
            const Count &c = differing_.at(name);
            const std::string ours = name == "target" ? ours_.target : condition_value(ours_, name);
            m += sep + std::to_string(c.records) + " with another " + name + " (" + c.example + "; this run " + ours + ")";
            sep = ", ";
        }
        if (unrecorded_.records) {
            m += sep + std::to_string(unrecorded_.records) +
                 " of record version 1, which does not say under which thread count, host CPU and format it was "
                 "measured";
        }
        warn(m);
    }
    if (collisions_.records) {
        warn(path_ + ": " + std::to_string(collisions_.records) + " record(s) carry this pipeline's key " + hash_ +
             " but another check hash (" + collisions_.example + "; this pipeline " + check_ +
             "): they measured another pipeline whose key collides with this one's, and are never applied");
    }
    if (key_formats_.records) {
        warn(path_ + ": " + std::to_string(key_formats_.records) +
             " record(s) were keyed by a build that computes pipeline keys differently (key format " +
             key_formats_.example + "; this build " + ours_.key_format +
             "): Halide's printer or the key's description changed, so a record of this pipeline may sit under "
             "another key; they are not applied");
    }
}

}  // namespace ansor
