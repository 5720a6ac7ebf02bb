#include "tune_tasks_distributed.h"

#include "distributed/measure_worker.h"
#include "distributed/mpi_transport.h"
#include "distributed/remote_measurer.h"

#include "records/record_conditions.h"
#include "search/session_settings.h"
#include "util/errors.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

namespace ansor_tasks {

DistributedRun start_distributed(int *argc, char ***argv, const TuneTasksArgs &args, ansor::TuningSetup &setup) {
    DistributedRun run;
    if (!launched_by_mpi()) return run;
    run.transport = start_mpi(argc, argv);
    if (run.transport->rank() != 0) {
        WorkerSetup worker;
        worker.target = args.target;
        if (std::getenv("HL_ANSOR_BUILDERS")) worker.builders = setup.options.builders;
        run.worker_exit = run_measure_worker(*run.transport, worker);
        return run;
    }
    if (run.transport->size() <= 1) return run;
    if (!launcher_survives_rank_failure()) {
        std::fprintf(stderr, "[mpi] warning: mpirun was not given --enable-recovery: a worker rank that "
                             "dies ends the whole job (the log keeps what was measured)\n");
    }
    WorkerPoolOptions po;
    po.version = build_version();
    po.target = args.target;
    po.measure = ansor::measure_options(setup.options, setup.target, setup.parallelism);
    po.hello_timeout_s = args.worker_hello_s;
    po.silence_limit_s = args.worker_silence_s;
    po.progress = setup.options.progress;
    run.workers = std::make_unique<WorkerPool>(*run.transport, po);
    run.workers->start();
    setup.measure_host = run.workers->host_class();
    std::fprintf(stderr, "[mpi] %d of %d worker rank(s) measure; records name host \"%s\"\n",
                 run.workers->live_workers(), run.transport->size() - 1,
                 setup.measure_host.empty() ? ansor::host_cpu_id().c_str() : setup.measure_host.c_str());
    return run;
}

ansor::TaskMeasurers remote_measurers(WorkerPool &workers, int parallelism) {
    return [&workers, parallelism](int index, const ansor::TaskRun &run) -> ansor::MeasurerFactory {
        TaskDescriptor task;
        task.index = index;
        task.name = run.spec().name;
        task.generator = run.spec().generator;
        task.params = run.spec().params;
        task.parallelism = parallelism;
        task.key = run.key().hash;
        const ansor::TaskRun *of = &run;
        return [&workers, task, of](const ansor::PipelineDAG &dag, const ansor::MeasureOptions &m) {
            return std::make_unique<RemoteMeasurer>(workers, task, dag, of->key(), m);
        };
    };
}

void write_stats(const std::string &path, double wall_s, int trials, const DistributedRun &run) {
    nlohmann::json j = {{"ranks", run.transport ? run.transport->size() : 1}, {"wall_s", wall_s}, {"trials", trials},
                        {"candidates_per_minute", wall_s > 0 ? 60.0 * trials / wall_s : 0.0}};
    if (const WorkerPool *pool = run.workers.get()) {
        const WorkerPool::Counts &c = pool->counts();
        j["rounds"] = c.rounds;
        j["measuring_s"] = c.measuring_s;
        j["workers_lost"] = c.workers_lost;
        j["requeued"] = c.requeued;
        nlohmann::json chunks = nlohmann::json::array();
        for (const auto &t : pool->chunk_timings()) {
            chunks.push_back({{"worker", t.worker}, {"candidates", t.candidates}, {"round_trip_s", t.round_trip_s},
                              {"worker_s", t.worker_s}, {"compile_s", t.compile_s}, {"run_s", t.run_s}});
        }
        j["chunks"] = chunks;
        // Rank 0's search between consecutive rounds (the first round's is
        // sampling; later ones evolve under a trained model).
        nlohmann::json gaps = nlohmann::json::array();
        const auto &spans = pool->round_spans();
        for (size_t i = 1; i < spans.size(); i++) gaps.push_back(spans[i].first - spans[i - 1].second);
        j["search_gaps_s"] = gaps;
    }
    std::ofstream out(path);
    out << j.dump(1) << "\n";
    if (!out) throw ansor::UserError("cannot write " + path);
}

void print_worker_summary(const WorkerPool &workers) {
    const WorkerPool::Counts &c = workers.counts();
    std::printf("workers: %lld candidates sent in %lld chunks, %lld results back, %lld requeued after a lost "
                "worker, %lld failed as lost, %lld measured on rank 0, %d worker(s) lost\n",
                (long long)c.candidates_sent, (long long)c.chunks_sent, (long long)c.results, (long long)c.requeued,
                (long long)c.lost_failed, (long long)c.measured_here, c.workers_lost);
    std::printf("%s", workers.describe_workers().c_str());
}

}  // namespace ansor_tasks
