#include "remote_measurer.h"

#include "records/canonical_steps.h"
#include "state/loop_nest.h"

namespace ansor_tasks {

using ansor::MeasureResult;

RemoteMeasurer::RemoteMeasurer(WorkerPool &pool, TaskDescriptor task, const ansor::PipelineDAG &dag,
                               const ansor::PipelineKey &key, ansor::MeasureOptions local_options)
    : pool_(pool), task_(std::move(task)), dag_(dag), key_(key), local_options_(std::move(local_options)) {}

std::vector<MeasureResult> RemoteMeasurer::measure(const std::vector<ansor::State> &states) {
    std::vector<MeasureResult> results(states.size());
    // Candidates that have no canonical steps fail here; the rest travel.
    std::vector<nlohmann::json> steps;
    std::vector<size_t> sent;
    for (size_t i = 0; i < states.size(); i++) {
        try {
            steps.push_back(ansor::canonical_steps(states[i], key_.names));
            sent.push_back(i);
        } catch (const ansor::InvalidState &e) {
            results[i].error = std::string("not sent to a worker: ") + e.what();
        }
    }
    auto measure_here = [&](const std::vector<size_t> &indices) {
        if (!local_) local_ = std::make_unique<ansor::ForkMeasurer>(dag_, local_options_);
        std::vector<ansor::State> here;
        for (size_t k : indices) here.push_back(states[sent[k]]);
        return local_->measure(here);
    };
    std::vector<MeasureResult> remote = pool_.measure(task_, steps, measure_here);
    for (size_t k = 0; k < sent.size(); k++) results[sent[k]] = std::move(remote[k]);
    return results;
}

}  // namespace ansor_tasks
