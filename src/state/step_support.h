#pragma once
// Small pieces the steps' source files share.
#include "state/directive.h"
#include "state/loop_nest.h"

#include <nlohmann/json.hpp>

#include <string>

namespace ansor {

// `loop` of a stage as a Directive names it: reduction loops are RVars.
inline LoopRef ref(const LoopNest &m, const std::string &func, int stage, const std::string &loop) {
    return {loop, m.loop(func, stage, loop).kind == LoopKind::Reduction};
}

// A compute or store location's fields in a step's JSON.
inline nlohmann::json location_json(const Location &l) {
    nlohmann::json j;
    j["at"] = l.func;
    j["stage"] = l.stage;
    j["loop"] = l.loop;
    return j;
}

// The location `location_json` wrote, of kind `kind`.
inline Location location_from_json(const nlohmann::json &j, LocationKind kind) {
    Location l;
    l.kind = kind;
    if (kind == LocationKind::At) {
        l.func = j.at("at").get<std::string>();
        l.stage = j.at("stage").get<int>();
        l.loop = j.at("loop").get<std::string>();
    }
    return l;
}

}  // namespace ansor
