// libansor.so: registers the "Ansor" autoscheduler with Halide when loaded
// (by GenGen's -p, Halide::load_plugin, or add_halide_library's PLUGINS).
#include "options/options.h"
#include "search/autoschedule.h"
#include "util/errors.h"

#include <Halide.h>

namespace {

void autoschedule_ansor(const Halide::Pipeline &pipeline, const Halide::Target &target,
                        const Halide::MachineParams &params, Halide::AutoSchedulerResults *results) {
    std::vector<Halide::Internal::Function> outputs;
    for (const Halide::Func &f : pipeline.outputs()) outputs.push_back(f.function());
    try {
        ansor::Options options = ansor::Options::from_environment();
        ansor::AutoscheduleResult r = ansor::autoschedule(outputs, target, params.parallelism, options);
        if (results) {
            results->scheduler_name = "Ansor";
            results->target = target;
            results->machine_params_string = params.to_string();
            results->schedule_source = r.schedule_source;
        }
    } catch (const ansor::UserError &e) {
        Halide::Internal::ErrorReport(__FILE__, __LINE__, nullptr, Halide::Internal::ErrorReport::User)
            << "Ansor autoscheduler: " << e.what() << "\n";
    }
}

// Halide 14 does not install its registration macro; a static initializer
// does the same job.
struct RegisterAnsor {
    RegisterAnsor() { Halide::Pipeline::add_autoscheduler("Ansor", autoschedule_ansor); }
} register_ansor;

}  // namespace
