#include "worker_pool.h"

#include "util/errors.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <deque>
#include <optional>
#include <signal.h>
#include <sstream>
#include <unistd.h>

namespace ansor_tasks {

using ansor::MeasureResult;
using nlohmann::json;

std::string this_hostname() {
    char name[256] = {0};
    gethostname(name, sizeof name - 1);
    return name;
}

double steady_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct WorkerPool::Round {
    const TaskDescriptor *task = nullptr;
    const std::vector<json> *states = nullptr;
    std::vector<std::optional<MeasureResult>> results;
    std::vector<std::vector<int>> lost_with;  // per candidate: the ranks lost while it was in flight there
    std::deque<size_t> queue;
    std::map<int64_t, InFlight> in_flight;
    std::string unavailable;  // set when a worker reports the task cannot be measured
    size_t missing() const {
        return (size_t)std::count_if(results.begin(), results.end(), [](const auto &r) { return !r.has_value(); });
    }
};

WorkerPool::WorkerPool(Transport &transport, WorkerPoolOptions options)
    : transport_(transport), options_(std::move(options)) {
    for (int r = 1; r < transport_.size(); r++) {
        Worker w;
        w.rank = r;
        workers_.push_back(w);
    }
}

WorkerPool::~WorkerPool() { stop(); }

void WorkerPool::say(const std::string &line) const {
    if (options_.progress) std::fprintf(stderr, "[mpi] %s\n", line.c_str());
}

WorkerPool::Worker *WorkerPool::worker_of(int rank) {
    if (rank < 1 || rank > (int)workers_.size()) return nullptr;
    return &workers_[(size_t)rank - 1];
}

int WorkerPool::live_workers() const {
    return (int)std::count_if(workers_.begin(), workers_.end(), [](const Worker &w) { return w.phase == Phase::Active; });
}

void WorkerPool::handle_hello(Worker &w, const Message &m) {
    if (w.phase != Phase::Unheard) return;  // a repeated hello changes nothing
    try {
        w.hello = hello_from_json(parse_message(m.body, WireTag::Hello));
    } catch (const std::invalid_argument &e) {
        w.phase = Phase::Refused;
        w.why = std::string("unreadable hello: ") + e.what();
        return;
    }
    // Checked here, answered in welcome() once the primary host class is known.
    if (w.hello.version != options_.version) {
        w.phase = Phase::Refused;
        w.why = "its build (" + w.hello.version + ") is not rank 0's (" + options_.version + ")";
    } else if (w.hello.target != options_.target) {
        w.phase = Phase::Refused;
        w.why = "it was started with target " + w.hello.target + ", rank 0 with " + options_.target;
    }
}

void WorkerPool::welcome(Worker &w) {
    WorkerWelcome answer;
    answer.measure = options_.measure;
    if (w.phase == Phase::Unheard && host_class_.empty()) {
        w.phase = Phase::Unused;
        w.why = "it said hello after rank 0 had found no worker and measures itself";
    } else if (w.phase == Phase::Unheard && w.hello.host_cpu != host_class_) {
        w.phase = Phase::Unused;
        w.why = "its host CPU \"" + w.hello.host_cpu + "\" is not the primary host class \"" + host_class_ +
                "\", whose times this run's candidates are compared by";
    }
    if (w.phase == Phase::Unheard) {
        w.phase = Phase::Active;
        answer.accepted = true;
        say("rank " + std::to_string(w.rank) + " on " + w.hello.hostname + " (" + std::to_string(w.hello.cores) +
            " cores, pid " + std::to_string(w.hello.pid) + ") measures");
    } else {
        answer.refused = w.phase == Phase::Refused;
        answer.reason = w.why;
        say("rank " + std::to_string(w.rank) + (w.phase == Phase::Refused ? " refused: " : " not used: ") + w.why);
    }
    transport_.send(w.rank, WireTag::Welcome, to_json(answer).dump());
}

void WorkerPool::start() {
    if (started_) return;
    started_ = true;
    const double until = steady_seconds() + options_.hello_timeout_s;
    auto unheard = [&] {
        return std::count_if(workers_.begin(), workers_.end(), [](const Worker &w) {
            return w.phase == Phase::Unheard && w.hello.version.empty();
        });
    };
    while (unheard() > 0 && steady_seconds() < until) {
        std::optional<Message> m = transport_.receive(0.1);
        if (!m) continue;
        Worker *w = worker_of(m->source);
        if (!w) continue;
        w->heard_s = steady_seconds();
        if (m->tag == WireTag::Hello) handle_hello(*w, *m);
    }
    // The primary host class: the one with the most cores among acceptable workers.
    std::map<std::string, int> cores_of_class;
    for (const Worker &w : workers_)
        if (w.phase == Phase::Unheard && !w.hello.version.empty()) cores_of_class[w.hello.host_cpu] += w.hello.cores;
    int most = 0;
    for (const auto &[host, cores] : cores_of_class)
        if (cores > most) most = cores, host_class_ = host;
    for (Worker &w : workers_) {
        if (w.hello.version.empty() && w.phase == Phase::Unheard) continue;  // no hello yet: welcomed when it comes
        welcome(w);
    }
    const int silent = (int)unheard();
    if (silent > 0) {
        say(std::to_string(silent) + " worker(s) sent no hello within " + std::to_string((int)options_.hello_timeout_s) +
            " s; they join when they do");
    }
}

void WorkerPool::stop() {
    if (stopped_) return;
    stopped_ = true;
    // With a worker lost nobody may finalize (transport.h): the stop says so.
    const std::string stop = nlohmann::json{{"finalize", counts_.workers_lost == 0}}.dump();
    const std::string here = this_hostname();
    for (const Worker &w : workers_) {
        if (w.phase == Phase::Refused || w.phase == Phase::Unused) continue;
        // Lost workers are told too: a stopped process that resumes then ends.
        transport_.send(w.rank, WireTag::Stop, stop);
        if (w.phase != Phase::Lost || w.hello.pid <= 0) continue;
        // mpirun waits for every rank, a stopped or hung one too: one on this
        // host is killed (its measuring children die with it); one elsewhere
        // is named for whoever runs the job.
        if (w.hello.hostname == here) {
            kill(w.hello.pid, SIGKILL);
        } else {
            say("rank " + std::to_string(w.rank) + " (pid " + std::to_string(w.hello.pid) + " on " + w.hello.hostname +
                ") was lost; if it still runs, mpirun waits for it: kill it there");
        }
    }
}

void WorkerPool::lose(Worker &w, const std::string &why, Round &round) {
    w.phase = Phase::Lost;
    w.why = why;
    transport_.skip_finalize();
    counts_.workers_lost++;
    size_t back = 0, failed = 0;
    if (w.chunk >= 0) {
        auto it = round.in_flight.find(w.chunk);
        if (it != round.in_flight.end()) {
            // Back to the front of the queue, in their order; those lost too often fail.
            for (auto i = it->second.indices.rbegin(); i != it->second.indices.rend(); ++i) {
                round.lost_with[*i].push_back(w.rank);
                if ((int)round.lost_with[*i].size() >= options_.max_losses) {
                    MeasureResult r;
                    std::string ranks;
                    for (int rank : round.lost_with[*i]) ranks += (ranks.empty() ? "" : ", ") + std::to_string(rank);
                    r.error = "lost with every worker that measured it (ranks " + ranks + "; the last " + why + ")";
                    round.results[*i] = r;
                    counts_.lost_failed++;
                    failed++;
                } else {
                    round.queue.push_front(*i);
                    counts_.requeued++;
                    back++;
                }
            }
            round.in_flight.erase(it);
        }
        w.chunk = -1;
    }
    say("rank " + std::to_string(w.rank) + " on " + w.hello.hostname + " lost: " + why + "; " + std::to_string(back) +
        " in-flight candidate(s) requeued, " + std::to_string(failed) + " failed; " + std::to_string(live_workers()) +
        " worker(s) left");
}

void WorkerPool::dispatch(Round &round) {
    std::vector<Worker *> idle;
    for (Worker &w : workers_)
        if (w.phase == Phase::Active && w.chunk < 0) idle.push_back(&w);
    for (size_t k = 0; k < idle.size() && !round.queue.empty(); k++) {
        Worker &w = *idle[k];
        // Share what is queued among the idle workers, at most a worker's cores each.
        const size_t share = (round.queue.size() + (idle.size() - k) - 1) / (idle.size() - k);
        const size_t take = std::max<size_t>(1, std::min<size_t>((size_t)std::max(1, w.hello.cores), share));
        WorkChunk chunk;
        chunk.id = next_chunk_++;
        chunk.task = round.task->index;
        chunk.task_name = round.task->name;
        chunk.generator = round.task->generator;
        chunk.params = round.task->params;
        chunk.parallelism = round.task->parallelism;
        chunk.key = round.task->key;
        InFlight f;
        f.worker = w.rank;
        for (size_t i = 0; i < take && !round.queue.empty(); i++) {
            f.indices.push_back(round.queue.front());
            chunk.states.push_back((*round.states)[round.queue.front()]);
            round.queue.pop_front();
        }
        // Each candidate may take its compile and run timeouts; a task new
        // to the worker first builds its pipeline and runs the reference.
        const ansor::MeasureOptions &m = options_.measure;
        double allowance = (double)f.indices.size() * (2 * m.timeout_s + 4 * m.measure_seconds + 5);
        if (!w.tasks_seen.count(chunk.task)) allowance += 3 * m.timeout_s + 60;
        f.sent_s = steady_seconds();
        f.deadline_s = f.sent_s + allowance;
        const size_t sent = f.indices.size();
        w.chunk = chunk.id;
        round.in_flight[chunk.id] = std::move(f);
        if (!transport_.send(w.rank, WireTag::Work, to_json(chunk).dump())) {
            lose(w, "the transport cannot reach it", round);
            continue;
        }
        w.tasks_seen.insert(chunk.task);
        counts_.chunks_sent++;
        counts_.candidates_sent += (int64_t)sent;
    }
}

bool WorkerPool::receive_one(Round &round, double timeout_s) {
    std::optional<Message> m = transport_.receive(timeout_s);
    if (!m) return false;
    Worker *w = worker_of(m->source);
    if (!w) return true;
    w->heard_s = steady_seconds();
    switch (m->tag) {
    case WireTag::Hello:
        // A worker that joins late (after start() stopped waiting).
        if (w->phase != Phase::Unheard) return true;
        handle_hello(*w, *m);
        welcome(*w);
        return true;
    case WireTag::Result: {
        ChunkResult result;
        try {
            result = result_from_json(parse_message(m->body, WireTag::Result));
        } catch (const std::invalid_argument &e) {
            if (w->phase == Phase::Active) lose(*w, std::string("it sent an unreadable result: ") + e.what(), round);
            return true;
        }
        auto it = round.in_flight.find(result.id);
        // A result of a chunk already given up (its worker was lost, then
        // answered after all) was measured again elsewhere: dropped.
        if (it == round.in_flight.end() || it->second.worker != w->rank || w->phase != Phase::Active) return true;
        const std::vector<size_t> indices = it->second.indices;
        ChunkTiming timing;
        timing.worker = w->rank;
        timing.candidates = indices.size();
        timing.round_trip_s = steady_seconds() - it->second.sent_s;
        timing.worker_s = result.worker_s;
        round.in_flight.erase(it);
        w->chunk = -1;
        if (!result.error.empty()) {
            if (result.measurement_unavailable) round.unavailable = result.error;
            for (size_t i : indices) {
                MeasureResult r;
                r.error = "rank " + std::to_string(w->rank) + ": " + result.error;
                round.results[i] = r;
            }
            return true;
        }
        if (result.results.size() != indices.size()) {
            lose(*w, "it returned " + std::to_string(result.results.size()) + " results for a chunk of " +
                         std::to_string(indices.size()),
                 round);
            return true;
        }
        for (size_t k = 0; k < indices.size(); k++) {
            timing.compile_s.push_back(result.results[k].compile.seconds());
            timing.run_s.push_back(result.results[k].run.seconds());
            MeasureResult r = std::move(result.results[k]);
            if (r.host.empty()) r.host = w->hello.host_cpu;
            round.results[indices[k]] = std::move(r);
        }
        chunk_timings_.push_back(std::move(timing));
        counts_.results += (int64_t)indices.size();
        measured_by_rank_[w->rank] += (int64_t)indices.size();
        return true;
    }
    default:
        return true;  // heartbeats: hearing it was the point
    }
}

void WorkerPool::check_liveness(Round &round) {
    const double now = steady_seconds();
    for (Worker &w : workers_) {
        if (w.phase != Phase::Active) continue;
        char why[160];
        if (now - w.heard_s > options_.silence_limit_s) {
            std::snprintf(why, sizeof why, "silent for %.0f s (killed, stopped or unreachable)", now - w.heard_s);
            lose(w, why, round);
        } else if (w.chunk >= 0) {
            auto it = round.in_flight.find(w.chunk);
            if (it != round.in_flight.end() && now > it->second.deadline_s) {
                std::snprintf(why, sizeof why, "its chunk of %zu candidate(s) passed its deadline (hung)",
                              it->second.indices.size());
                lose(w, why, round);
            }
        }
    }
}

std::vector<MeasureResult> WorkerPool::measure(const TaskDescriptor &task, const std::vector<json> &states,
                                               const LocalMeasure &measure_here) {
    if (!started_) start();
    const double began = steady_seconds();
    counts_.rounds++;
    Round round;
    round.task = &task;
    round.states = &states;
    round.results.resize(states.size());
    round.lost_with.resize(states.size());
    for (size_t i = 0; i < states.size(); i++) round.queue.push_back(i);
    // The heartbeats that came while rank 0 searched first, so that no
    // worker is taken for silent because nobody listened.
    while (receive_one(round, 0)) {
    }
    while (round.missing() > 0) {
        if (live_workers() == 0) {
            // Every worker is gone: rank 0 measures what is left itself.
            std::vector<size_t> rest;
            for (size_t i = 0; i < states.size(); i++)
                if (!round.results[i]) rest.push_back(i);
            say("no worker left: rank 0 measures the " + std::to_string(rest.size()) + " remaining candidate(s) itself");
            std::vector<MeasureResult> here = measure_here(rest);
            for (size_t k = 0; k < rest.size(); k++) round.results[rest[k]] = std::move(here.at(k));
            counts_.measured_here += (int64_t)rest.size();
            break;
        }
        dispatch(round);
        receive_one(round, 0.05);
        check_liveness(round);
    }
    counts_.measuring_s += steady_seconds() - began;
    round_spans_.push_back({began, steady_seconds()});
    if (!round.unavailable.empty()) throw ansor::MeasurementUnavailable(round.unavailable);
    std::vector<MeasureResult> out;
    out.reserve(states.size());
    for (auto &r : round.results) out.push_back(std::move(*r));
    return out;
}

std::string WorkerPool::describe_workers() const {
    std::ostringstream o;
    for (const Worker &w : workers_) {
        const char *phase = w.phase == Phase::Active     ? "active"
                            : w.phase == Phase::Lost     ? "lost"
                            : w.phase == Phase::Refused  ? "refused"
                            : w.phase == Phase::Unused   ? "not used"
                                                         : "never said hello";
        auto it = measured_by_rank_.find(w.rank);
        o << "rank " << w.rank << " " << (w.hello.hostname.empty() ? "?" : w.hello.hostname) << " " << w.hello.cores
          << " cores: " << phase << ", " << (it == measured_by_rank_.end() ? 0 : it->second) << " candidates measured";
        if (!w.why.empty()) o << " (" << w.why << ")";
        o << "\n";
    }
    return o.str();
}

}  // namespace ansor_tasks
