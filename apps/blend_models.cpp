// Blends trained cost model files into one (src/model/model_blend.h): the
// blend's score of a program is the weighted sum of the members' scores.
//
//   ansor_blend_models MODEL[:WEIGHT] MODEL[:WEIGHT] ... --out FILE
//
// A member without a weight gets 1. Pairwise models' scores have no common
// unit, so weights are how their spreads are evened out: e.g. the inverse of
// each member's mean score spread within a pipeline of the suite data set
// (docs/cost_model.md, "Blended models"). Every member must be a model file
// of this build's feature set and of one objective.
#include "cli.h"
#include "model/model_blend.h"
#include "model/model_file.h"
#include "util/errors.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

struct Member {
    std::string path;
    double weight = 1;
};

// "PATH:WEIGHT" or "PATH" (a colon followed by something that is not a
// positive number stays part of the path).
Member parse_member(const ansor_cli::Parser &p, const std::string &arg) {
    Member m{arg, 1};
    const size_t colon = arg.rfind(':');
    if (colon == std::string::npos) return m;
    const std::string tail = arg.substr(colon + 1);
    char *end = nullptr;
    const double w = std::strtod(tail.c_str(), &end);
    if (tail.empty() || *end != '\0') return m;
    if (!(std::isfinite(w) && w > 0)) p.fail("the weight of " + arg.substr(0, colon) + " must be positive, not " + tail);
    return Member{arg.substr(0, colon), w};
}

std::string weight_text(double w) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", w);
    return buf;
}

}  // namespace

int main(int argc, char **argv) {
    std::vector<std::string> member_args;
    std::string out;
    ansor_cli::Parser p("ansor_blend_models", "Blends trained cost model files into one; a member without a weight gets 1.");
    p.positional("MODEL[:WEIGHT]", &member_args, "two model files or more, each with its weight").whole();
    p.option("--out", &out, "the blended model file written", "FILE").required();
    p.parse(argc, argv);
    std::vector<Member> members;
    for (const std::string &arg : member_args) members.push_back(parse_member(p, arg));
    if (members.size() < 2) p.fail("needs two MODEL files or more and --out FILE");
    try {
        std::vector<ansor::LoadedModel> loaded;
        for (const Member &m : members) loaded.push_back(ansor::load_model_file(m.path));
        std::vector<const ansor::PackSumXGBoost *> trees;
        std::vector<double> weights;
        ansor::ModelFileInfo info = loaded[0].info;
        info.sources.clear();
        for (size_t i = 0; i < loaded.size(); i++) {
            const ansor::ModelFileInfo &mi = loaded[i].info;
            if (mi.objective != info.objective) {
                throw ansor::UserError("cannot blend " + members[i].path + " (objective " + mi.objective + ") with " +
                                       members[0].path + " (objective " + info.objective + ")");
            }
            if (mi.target != info.target) {
                throw ansor::UserError("cannot blend " + members[i].path + " (measured on " + mi.target + ") with " +
                                       members[0].path + " (measured on " + info.target + ")");
            }
            info.pipelines = std::max(info.pipelines, mi.pipelines);
            info.programs = std::max(info.programs, mi.programs);
            for (const std::string &s : mi.sources) {
                if (std::find(info.sources.begin(), info.sources.end(), s) == info.sources.end()) info.sources.push_back(s);
            }
            info.sources.push_back("blend member " + members[i].path + " (" + std::to_string(loaded[i].trees->rounds()) +
                                   " trees, weight " + weight_text(members[i].weight) + ")");
            trees.push_back(loaded[i].trees.get());
            weights.push_back(members[i].weight);
        }
        const ansor::PackSumXGBoost blend = ansor::blend_pack_sum_models(trees, weights);
        ansor::save_model_file(out, blend, info);
        std::printf("wrote %s: %d trees of %zu models (%zu programs of %zu pipelines at most)\n", out.c_str(),
                    blend.rounds(), members.size(), info.programs, info.pipelines);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "ansor_blend_models: %s\n", e.what());
        return 1;
    }
    return 0;
}
