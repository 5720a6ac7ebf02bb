#include "measure_worker.h"

#include "worker_pool.h"

#include "dag/pipeline_dag.h"
#include "network/generator_pipeline.h"
#include "records/pipeline_key.h"
#include "records/record_conditions.h"
#include "records/record_limits.h"
#include "state/loop_nest.h"
#include "util/errors.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <sched.h>
#include <thread>
#include <unistd.h>

namespace ansor_tasks {

using ansor::MeasureResult;

int usable_cores() {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
    return std::max(1, (int)std::thread::hardware_concurrency());
}

namespace {

// One task as this worker measures it, built on its first chunk.
struct TaskOnWorker {
    ansor::GeneratorPipeline built;
    std::unique_ptr<ansor::PipelineDAG> dag;
    std::unique_ptr<ansor::PipelineKey> key;
    std::unique_ptr<ansor::ForkMeasurer> measurer;  // runs the reference once
    std::string error;                             // the task cannot be measured here
    bool unavailable = false;                      // ... because measurement is unavailable
};

class Heartbeat {
public:
    Heartbeat(Transport &t, double period_s) : transport_(t), period_(period_s), thread_([this] { loop(); }) {}
    ~Heartbeat() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            done_ = true;
        }
        wake_.notify_all();
        thread_.join();
    }

private:
    void loop() {
        std::unique_lock<std::mutex> lock(mutex_);
        while (!done_) {
            transport_.send(0, WireTag::Heartbeat, "{}");
            wake_.wait_for(lock, std::chrono::duration<double>(period_), [this] { return done_; });
        }
    }
    Transport &transport_;
    double period_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool done_ = false;
    std::thread thread_;  // last: started once the rest exists
};

class Worker {
public:
    Worker(Transport &t, const WorkerSetup &setup) : transport_(t), setup_(setup) {}

    int run() {
        WorkerHello hello;
        hello.version = build_version();
        hello.target = setup_.target;
        hello.host_cpu = ansor::host_cpu_id();
        hello.hostname = this_hostname();
        hello.cores = usable_cores();
        hello.pid = (int)getpid();
        transport_.send(0, WireTag::Hello, to_json(hello).dump());
        Heartbeat heartbeat(transport_, setup_.heartbeat_s);
        for (;;) {
            std::optional<Message> m = transport_.receive(1.0);
            if (!m || m->source != 0) continue;
            if (m->tag == WireTag::Stop) {
                nlohmann::json stop = parse_message(m->body, WireTag::Stop);
                if (!stop.value("finalize", true)) transport_.skip_finalize();
                return 0;
            }
            if (m->tag == WireTag::Welcome) {
                WorkerWelcome w = welcome_from_json(parse_message(m->body, WireTag::Welcome));
                if (!w.accepted) {
                    std::fprintf(stderr, "ansor_tune_tasks rank %d on %s: %s: %s\n", transport_.rank(),
                                 hello.hostname.c_str(), w.refused ? "refused by rank 0" : "not used by rank 0",
                                 w.reason.c_str());
                    return w.refused ? 1 : 0;
                }
                measure_ = w.measure;
                measure_.builders = setup_.builders > 0 ? setup_.builders : hello.cores;
                welcomed_ = true;
                continue;
            }
            if (m->tag == WireTag::Work && welcomed_) {
                WorkChunk chunk;
                try {
                    chunk = chunk_from_json(parse_message(m->body, WireTag::Work));
                } catch (const std::invalid_argument &e) {
                    // Without its id nothing can be answered: rank 0's deadline for the chunk ends it.
                    std::fprintf(stderr, "ansor_tune_tasks rank %d: unreadable work: %s\n", transport_.rank(), e.what());
                    continue;
                }
                const auto arrived = std::chrono::steady_clock::now();
                ChunkResult result;
                try {
                    result = measure_chunk(chunk);
                } catch (const std::exception &e) {
                    result = ChunkResult{};
                    result.id = chunk.id;
                    result.error = std::string("the worker failed to measure: ") + e.what();
                }
                result.worker_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - arrived).count();
                transport_.send(0, WireTag::Result, to_json(result).dump());
            }
        }
    }

private:
    TaskOnWorker &task(const WorkChunk &c) {
        auto it = tasks_.find(c.task);
        if (it != tasks_.end()) return *it->second;
        auto t = std::make_unique<TaskOnWorker>();
        try {
            // The tool's target, as rank 0 builds the task with (the measurement target may drop features).
            t->built = ansor::build_generator_pipeline(c.generator, c.params, Halide::Target(setup_.target));
            t->dag = std::make_unique<ansor::PipelineDAG>(t->built.outputs(), c.parallelism);
            t->key = std::make_unique<ansor::PipelineKey>(ansor::make_pipeline_key(*t->dag));
            if (t->key->hash != c.key) {
                t->error = "task " + c.task_name + " builds pipeline " + t->key->hash + " here, " + c.key +
                           " on rank 0 (different generators?)";
            } else {
                t->measurer = std::make_unique<ansor::ForkMeasurer>(*t->dag, measure_);
            }
        } catch (const ansor::MeasurementUnavailable &e) {
            t->error = e.what();
            t->unavailable = true;
        } catch (const std::exception &e) {
            t->error = "task " + c.task_name + " cannot be built here: " + e.what();
        }
        return *tasks_.emplace(c.task, std::move(t)).first->second;
    }

    ChunkResult measure_chunk(const WorkChunk &c) {
        ChunkResult out;
        out.id = c.id;
        TaskOnWorker &t = task(c);
        if (!t.error.empty()) {
            out.error = t.error;
            out.measurement_unavailable = t.unavailable;
            return out;
        }
        // Candidates whose steps do not rebuild here fail alone; the rest are measured as one batch.
        std::vector<ansor::State> states;
        std::vector<size_t> measured;
        out.results.resize(c.states.size());
        for (size_t i = 0; i < c.states.size(); i++) {
            try {
                states.push_back(ansor::state_within_record_limits(*t.dag, t.key->names, c.states[i]));
                measured.push_back(i);
            } catch (const std::exception &e) {
                out.results[i].error = std::string("its steps do not rebuild on the worker: ") + e.what();
            }
        }
        std::vector<MeasureResult> results = t.measurer->measure(states);
        for (size_t k = 0; k < measured.size(); k++) out.results[measured[k]] = std::move(results[k]);
        for (auto &r : out.results) r.host = ansor::host_cpu_id();
        return out;
    }

    Transport &transport_;
    WorkerSetup setup_;
    ansor::MeasureOptions measure_;
    bool welcomed_ = false;
    std::map<int, std::unique_ptr<TaskOnWorker>> tasks_;
};

}  // namespace

int run_measure_worker(Transport &transport, const WorkerSetup &setup) {
    Worker worker(transport, setup);
    return worker.run();
}

}  // namespace ansor_tasks
