// libansor.so: registers the "Ansor" autoscheduler with Halide when loaded
// (by GenGen's -p, Halide::load_plugin, or add_halide_library's PLUGINS).
#include "options/options.h"
#include "search/autoschedule.h"
#include "search/plugin_boundary.h"

#include <Halide.h>

namespace {

void autoschedule_ansor(const Halide::Pipeline &pipeline, const Halide::Target &target,
                        const Halide::MachineParams &params, Halide::AutoSchedulerResults *results) {
    // Every exception (not only UserError) becomes a Halide user error.
    ansor::with_halide_user_errors([&] {
        std::vector<Halide::Internal::Function> outputs;
        for (const Halide::Func &f : pipeline.outputs()) outputs.push_back(f.function());
        ansor::Options options = ansor::Options::from_environment();
        ansor::AutoscheduleResult r = ansor::autoschedule(outputs, target, params.parallelism, options);
        if (results) {
            results->scheduler_name = "Ansor";
            results->target = target;
            results->machine_params_string = params.to_string();
            results->schedule_source = r.schedule_source;
        }
    });
}

// Halide 14 does not install its registration macro; a static initializer
// does the same job.
struct RegisterAnsor {
    RegisterAnsor() { Halide::Pipeline::add_autoscheduler("Ansor", autoschedule_ansor); }
} register_ansor;

}  // namespace
