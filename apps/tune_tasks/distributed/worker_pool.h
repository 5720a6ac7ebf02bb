#pragma once
// Rank 0's side of a distributed tuning run (docs/distributed_tuning.md):
// the worker ranks, what each is measuring, and the faults. A round of a
// task's candidates is cut into chunks, one chunk in flight per worker (as
// many candidates as it has cores, fewer when the round is short); a worker
// that stays silent past the silence limit (its heartbeat stopped: killed,
// stopped, its host gone) or holds a chunk past the chunk's deadline is
// lost, and its in-flight candidates go back to the queue for the others. A
// candidate lost with `max_losses` workers fails as a recorded failure.
// Tuning goes on with the workers left; with none left, rank 0 measures
// the rest itself.
//
// Times from different host CPUs never meet in one model or one log
// history: the workers of the host class with the most cores (the primary)
// measure, workers of other classes are told so and idle (run one job per
// host class).
#include "measure_wire.h"
#include "transport.h"

#include "measure/measurer.h"
#include "records/canonical_names.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace ansor_tasks {

struct WorkerPoolOptions {
    std::string version;  // build_version(): workers of another are refused
    std::string target;   // rank 0's target: workers started with another are refused
    ansor::MeasureOptions measure;  // sent to every worker (it picks its own builders)
    double hello_timeout_s = 60;    // how long start() waits for every worker's hello
    double silence_limit_s = 30;    // a worker not heard from for longer is lost
    int max_losses = 2;             // a candidate lost with this many workers fails
    bool progress = true;           // lines on stderr about workers joining and lost
};

// One task as the workers rebuild it.
struct TaskDescriptor {
    int index = 0;
    std::string name, generator;
    ansor::GeneratorParamValues params;
    int parallelism = 1;
    std::string key;  // PipelineKey::hash
};

class WorkerPool {
public:
    WorkerPool(Transport &transport, WorkerPoolOptions options);
    // Stops the workers that are left (stop()).
    ~WorkerPool();

    // Waits for the hellos (up to hello_timeout_s), refuses workers of
    // another version or target with the reason, picks the primary host
    // class and welcomes its workers.
    void start();
    // host_cpu_id() of the primary class; "" when no worker was accepted.
    const std::string &host_class() const { return host_class_; }
    int live_workers() const;

    // Measures `states` (canonical steps) of `task` on the workers and
    // returns one result per state, in order. `measure_here` measures the
    // given candidates on rank 0 when no worker is left. Throws
    // ansor::MeasurementUnavailable when a worker reports that the task
    // cannot be measured at all.
    using LocalMeasure = std::function<std::vector<ansor::MeasureResult>(const std::vector<size_t> &indices)>;
    std::vector<ansor::MeasureResult> measure(const TaskDescriptor &task, const std::vector<nlohmann::json> &states,
                                              const LocalMeasure &measure_here);

    // Tells every worker still heard from to finish. Idempotent.
    void stop();

    struct Counts {
        int64_t chunks_sent = 0, candidates_sent = 0, results = 0;
        int64_t requeued = 0;      // candidates sent again after their worker was lost
        int64_t lost_failed = 0;   // candidates failed after max_losses lost workers
        int64_t measured_here = 0; // candidates rank 0 measured with no worker left
        int workers_lost = 0;
        int rounds = 0;           // measure() calls
        double measuring_s = 0;   // rank 0's time inside measure(): the rest of a run is its search
    };
    // Each answered chunk: what the scaling simulation
    // (scripts/simulate_distributed_tuning.py) is fed.
    struct ChunkTiming {
        int worker = 0;
        size_t candidates = 0;
        double round_trip_s = 0;  // from rank 0's send to its receipt of the result
        double worker_s = 0;      // the worker's own time on it
        std::vector<double> compile_s, run_s;  // per candidate
    };
    const std::vector<ChunkTiming> &chunk_timings() const { return chunk_timings_; }
    // Each measure() call's steady-clock begin and end: the gaps between
    // them are rank 0's search (evolution, retraining) between rounds.
    const std::vector<std::pair<double, double>> &round_spans() const { return round_spans_; }
    const Counts &counts() const { return counts_; }
    // Candidates each worker rank returned results for.
    const std::map<int, int64_t> &measured_by_rank() const { return measured_by_rank_; }
    // One line per worker: rank, host, cores, state, candidates measured.
    std::string describe_workers() const;

private:
    enum class Phase { Unheard, Active, Refused, Unused, Lost };
    struct Worker {
        int rank = 0;
        Phase phase = Phase::Unheard;
        WorkerHello hello;
        double heard_s = 0;  // steady clock of its last message
        int64_t chunk = -1;  // the chunk in flight, -1 for none
        std::set<int> tasks_seen;  // tasks it has built (their first chunk may take a reference run longer)
        std::string why;           // why refused, unused or lost
    };
    struct InFlight {
        int worker = 0;
        std::vector<size_t> indices;
        double deadline_s = 0;
        double sent_s = 0;
    };
    struct Round;  // one measure() call's state

    void handle_hello(Worker &w, const Message &m);
    void welcome(Worker &w);
    void lose(Worker &w, const std::string &why, Round &round);
    void dispatch(Round &round);
    // Handles the next message, waiting up to timeout_s; false if none came.
    bool receive_one(Round &round, double timeout_s);
    void check_liveness(Round &round);
    Worker *worker_of(int rank);
    void say(const std::string &line) const;

    Transport &transport_;
    WorkerPoolOptions options_;
    std::vector<Worker> workers_;  // ranks 1..size-1
    std::string host_class_;
    bool started_ = false, stopped_ = false;
    int64_t next_chunk_ = 1;
    Counts counts_;
    std::map<int, int64_t> measured_by_rank_;
    std::vector<ChunkTiming> chunk_timings_;
    std::vector<std::pair<double, double>> round_spans_;
};

// Seconds on the steady clock (one clock for every deadline of the pool).
double steady_seconds();
// gethostname(): what a worker's hello calls its host.
std::string this_hostname();

}  // namespace ansor_tasks
