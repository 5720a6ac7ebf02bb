#pragma once
// The app pipelines (apps/app_pipelines/, docs/apps.md): image-processing and
// DNN pipelines written as Halide generators with estimates, each with an
// optional hand-written expert schedule, built in process for benchmarks.
#include <Halide.h>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ansor_apps {

struct AppInfo {
    std::string name;          // generator name, e.g. "bilateral_grid"
    std::string description;   // one line
    bool has_expert_schedule;  // a hand-written schedule exists
    double flops;              // floating-point operations of one run; 0 where not meaningful
    // The size GeneratorParams and their defaults (the sizes built by
    // build_app_pipeline), e.g. {{"M", 1024}, {"N", 1024}, {"K", 1024}};
    // layouts are in docs/apps.md and at the top of each generator's file.
    std::vector<std::pair<std::string, int>> sizes = {};
};

// Every app, in a fixed order.
const std::vector<AppInfo> &app_list();

struct AppPipeline {
    std::unique_ptr<Halide::Internal::GeneratorBase> generator;  // owns the Funcs
    Halide::Pipeline pipeline;
};

// Builds app `name` in process for `target`. With expert_schedule the
// hand-written schedule is applied; without it the pipeline is unscheduled
// (ready for an autoscheduler or for compute_root as the reference).
// Throws std::invalid_argument for an unknown name, or for expert_schedule
// on an app without one.
AppPipeline build_app_pipeline(const std::string &name, bool expert_schedule, const Halide::Target &target);

// The same with GeneratorParams overridden by name, e.g. {{"W", "512"}}
// (tests build smaller images). Throws std::invalid_argument for a name that
// is not one of the app's sizes.
AppPipeline build_app_pipeline(const std::string &name, bool expert_schedule, const Halide::Target &target,
                               const std::map<std::string, std::string> &params);

// The entry of app_list() named `name`; throws std::invalid_argument if none.
const AppInfo &find_app(const std::string &name);

}  // namespace ansor_apps
