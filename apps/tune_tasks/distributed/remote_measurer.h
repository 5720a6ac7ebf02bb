#pragma once
// The Measurer a task's TuningSession uses on rank 0 of a distributed run:
// it hands the candidates, as canonical steps, to the WorkerPool, and
// measures on rank 0 only when no worker is left (with the ForkMeasurer a
// plain run would use, made then).
#include "worker_pool.h"

#include "measure/measurer.h"
#include "records/pipeline_key.h"

#include <memory>

namespace ansor_tasks {

class RemoteMeasurer : public ansor::Measurer {
public:
    RemoteMeasurer(WorkerPool &pool, TaskDescriptor task, const ansor::PipelineDAG &dag, const ansor::PipelineKey &key,
                   ansor::MeasureOptions local_options);
    std::vector<ansor::MeasureResult> measure(const std::vector<ansor::State> &states) override;

private:
    WorkerPool &pool_;
    TaskDescriptor task_;
    const ansor::PipelineDAG &dag_;
    const ansor::PipelineKey &key_;
    ansor::MeasureOptions local_options_;
    std::unique_ptr<ansor::ForkMeasurer> local_;
};

}  // namespace ansor_tasks
