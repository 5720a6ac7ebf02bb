// The worker pool of distributed tuning over an in-process transport: fake
// workers (threads) that answer, die, or are of another build or host; and
// the messages' JSON round trips.
#include "distributed/measure_wire.h"
#include "distributed/worker_pool.h"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

using namespace ansor_tasks;

namespace {

// Mailboxes of every rank, shared by the fake transports.
struct FakeNetwork {
    std::mutex mutex;
    std::condition_variable arrived;
    std::map<int, std::deque<Message>> boxes;
};

class FakeTransport : public Transport {
public:
    FakeTransport(FakeNetwork &net, int rank, int size) : net_(net), rank_(rank), size_(size) {}
    int rank() const override { return rank_; }
    int size() const override { return size_; }
    bool send(int dest, WireTag tag, const std::string &body) override {
        std::lock_guard<std::mutex> lock(net_.mutex);
        net_.boxes[dest].push_back({rank_, tag, body});
        net_.arrived.notify_all();
        return true;
    }
    std::optional<Message> receive(double timeout_s) override {
        std::unique_lock<std::mutex> lock(net_.mutex);
        auto &box = net_.boxes[rank_];
        net_.arrived.wait_for(lock, std::chrono::duration<double>(timeout_s), [&] { return !box.empty(); });
        if (box.empty()) return std::nullopt;
        Message m = box.front();
        box.pop_front();
        return m;
    }

private:
    FakeNetwork &net_;
    int rank_, size_;
};

struct FakeWorkerBehaviour {
    std::string version = build_version();
    std::string target = "x86-64-linux";
    std::string host_cpu = "Test CPU";
    int cores = 2;
    int dies_on_chunk = -1;  // the n-th chunk (0-based) it receives, it goes silent for good
};

// Answers every candidate with a time of 1 + its position in the chunk's
// state ("n" field), heartbeating while it waits.
void fake_worker(FakeNetwork &net, int rank, int size, FakeWorkerBehaviour b, std::atomic<bool> &welcomed,
                 std::atomic<bool> &refused) {
    FakeTransport t(net, rank, size);
    WorkerHello h;
    h.version = b.version;
    h.target = b.target;
    h.host_cpu = b.host_cpu;
    h.hostname = "fake" + std::to_string(rank);
    h.cores = b.cores;
    h.pid = 1000 + rank;
    t.send(0, WireTag::Hello, to_json(h).dump());
    int chunks = 0;
    for (;;) {
        std::optional<Message> m = t.receive(0.05);
        if (!m) {
            t.send(0, WireTag::Heartbeat, "{}");
            continue;
        }
        if (m->tag == WireTag::Stop) return;
        if (m->tag == WireTag::Welcome) {
            WorkerWelcome w = welcome_from_json(parse_message(m->body, WireTag::Welcome));
            if (!w.accepted) {
                refused = w.refused;
                return;
            }
            welcomed = true;
            continue;
        }
        if (m->tag != WireTag::Work) continue;
        if (chunks++ == b.dies_on_chunk) return;  // silent: no result, no heartbeat
        WorkChunk c = chunk_from_json(parse_message(m->body, WireTag::Work));
        ChunkResult r;
        r.id = c.id;
        for (const auto &s : c.states) {
            ansor::MeasureResult res;
            res.ok = true;
            res.min_ms = res.median_ms = 1 + s.at("n").get<double>();
            r.results.push_back(res);
        }
        t.send(0, WireTag::Result, to_json(r).dump());
    }
}

struct Cluster {
    FakeNetwork net;
    std::unique_ptr<FakeTransport> rank0;
    std::unique_ptr<WorkerPool> pool;
    std::vector<std::thread> threads;
    std::deque<std::atomic<bool>> welcomed, refused;

    explicit Cluster(const std::vector<FakeWorkerBehaviour> &workers, int max_losses = 2) {
        const int size = (int)workers.size() + 1;
        rank0 = std::make_unique<FakeTransport>(net, 0, size);
        WorkerPoolOptions o;
        o.version = build_version();
        o.target = "x86-64-linux";
        o.measure.target = Halide::Target("x86-64-linux");
        o.hello_timeout_s = 5;
        o.silence_limit_s = 1.5;  // healthy fakes heartbeat every 0.05 s; a loaded machine may stall them a little
        o.max_losses = max_losses;
        o.progress = false;
        pool = std::make_unique<WorkerPool>(*rank0, o);
        for (size_t i = 0; i < workers.size(); i++) {
            welcomed.emplace_back(false);
            refused.emplace_back(false);
            threads.emplace_back(fake_worker, std::ref(net), (int)i + 1, size, workers[i], std::ref(welcomed.back()),
                                 std::ref(refused.back()));
        }
        pool->start();
    }
    ~Cluster() {
        pool->stop();
        for (auto &t : threads) t.join();
    }
};

// A fake worker sets its flags on its own thread: wait (5 s at most) for it.
bool eventually(const std::atomic<bool> &flag) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (!flag && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return flag;
}

std::vector<nlohmann::json> numbered_states(int n) {
    std::vector<nlohmann::json> states;
    for (int i = 0; i < n; i++) states.push_back({{"n", i}});
    return states;
}

TaskDescriptor some_task() {
    TaskDescriptor t;
    t.name = "t";
    t.generator = "g";
    t.key = "0123456789abcdef";
    return t;
}

const WorkerPool::LocalMeasure no_local = [](const std::vector<size_t> &) -> std::vector<ansor::MeasureResult> {
    FAIL("rank 0 measured although workers were left");
    return {};
};

}  // namespace

TEST_CASE("worker pool: every candidate is measured once, by both workers, in order") {
    Cluster c(std::vector<FakeWorkerBehaviour>(2));
    CHECK(c.pool->live_workers() == 2);
    auto results = c.pool->measure(some_task(), numbered_states(20), no_local);
    REQUIRE(results.size() == 20);
    for (int i = 0; i < 20; i++) {
        CHECK(results[i].ok);
        CHECK(results[i].min_ms == doctest::Approx(1 + i));
        CHECK(results[i].host == "Test CPU");  // the worker's host class, for the record
    }
    CHECK(c.pool->measured_by_rank().at(1) > 0);
    CHECK(c.pool->measured_by_rank().at(2) > 0);
    CHECK(c.pool->measured_by_rank().at(1) + c.pool->measured_by_rank().at(2) == 20);
    CHECK(c.pool->counts().requeued == 0);
    CHECK(c.pool->host_class() == "Test CPU");
}

TEST_CASE("worker pool: a worker that dies mid-chunk loses only its chunk, which the other measures") {
    FakeWorkerBehaviour dies;
    dies.dies_on_chunk = 0;
    Cluster c({dies, {}});
    auto results = c.pool->measure(some_task(), numbered_states(12), no_local);
    REQUIRE(results.size() == 12);
    for (int i = 0; i < 12; i++) {
        CHECK(results[i].ok);
        CHECK(results[i].min_ms == doctest::Approx(1 + i));
    }
    CHECK(c.pool->counts().workers_lost == 1);
    CHECK(c.pool->counts().requeued == 2);  // its first chunk: as many candidates as its cores
    CHECK(c.pool->measured_by_rank().count(1) == 0);
    CHECK(c.pool->measured_by_rank().at(2) == 12);
    CHECK(c.pool->live_workers() == 1);
    // The next round goes to the worker left.
    auto more = c.pool->measure(some_task(), numbered_states(3), no_local);
    CHECK(more.size() == 3);
    CHECK(c.pool->measured_by_rank().at(2) == 15);
}

TEST_CASE("worker pool: a candidate lost with max_losses workers is a recorded failure") {
    FakeWorkerBehaviour dies;
    dies.dies_on_chunk = 0;
    Cluster c({dies, {}}, /*max_losses=*/1);
    auto results = c.pool->measure(some_task(), numbered_states(8), no_local);
    int lost = 0, ok = 0;
    for (const auto &r : results) {
        if (r.ok) ok++;
        else {
            lost++;
            CHECK(r.error.find("lost with every worker") != std::string::npos);
            CHECK(r.error.find("ranks 1") != std::string::npos);
        }
    }
    CHECK(lost == 2);
    CHECK(ok == 6);
    CHECK(c.pool->counts().lost_failed == 2);
}

TEST_CASE("worker pool: with every worker gone, rank 0 measures the rest itself") {
    FakeWorkerBehaviour dies;
    dies.dies_on_chunk = 0;
    Cluster c({dies, dies});
    std::vector<size_t> asked;
    auto here = [&](const std::vector<size_t> &indices) {
        asked = indices;
        std::vector<ansor::MeasureResult> out(indices.size());
        for (auto &r : out) r.ok = true, r.min_ms = 99;
        return out;
    };
    auto results = c.pool->measure(some_task(), numbered_states(6), here);
    CHECK(asked.size() == 6);  // both first chunks were lost and requeued
    for (const auto &r : results) CHECK(r.min_ms == 99);
    CHECK(c.pool->counts().measured_here == 6);
    CHECK(c.pool->live_workers() == 0);
}

TEST_CASE("worker pool: a worker of another build or target is refused with the reason") {
    FakeWorkerBehaviour old_build, other_target;
    old_build.version = "elsewhere; features 0";
    other_target.target = "arm-64-linux";
    Cluster c({old_build, other_target, {}});
    CHECK(c.pool->live_workers() == 1);
    // Refused workers return; the accepted one waits for stop.
    c.threads[0].join();
    c.threads[1].join();
    c.threads.erase(c.threads.begin(), c.threads.begin() + 2);
    CHECK(c.refused[0]);
    CHECK(c.refused[1]);
    CHECK(eventually(c.welcomed[2]));
    const std::string d = c.pool->describe_workers();
    CHECK(d.find("refused, 0 candidates measured (its build (elsewhere; features 0) is not rank 0's") != std::string::npos);
    CHECK(d.find("started with target arm-64-linux") != std::string::npos);
}

TEST_CASE("worker pool: workers of another host class are not used, and it is no error") {
    FakeWorkerBehaviour big, small_other;
    big.cores = 4;
    small_other.host_cpu = "Other CPU";
    small_other.cores = 2;
    Cluster c({small_other, big});
    CHECK(c.pool->host_class() == "Test CPU");
    CHECK(c.pool->live_workers() == 1);
    c.threads[0].join();
    c.threads.erase(c.threads.begin());
    CHECK_FALSE(c.refused[0]);
    CHECK_FALSE(c.welcomed[0]);
    CHECK(c.pool->describe_workers().find("not used") != std::string::npos);
}

TEST_CASE("wire: results, options and chunks survive the round trip; bad messages name the field") {
    ansor::MeasureResult r;
    r.ok = false;
    r.error = "crashed";
    r.min_ms = INFINITY;
    r.median_ms = INFINITY;
    r.host = "H";
    auto back = measure_result_from_json(nlohmann::json::parse(to_json(r).dump()));
    CHECK_FALSE(back.ok);
    CHECK(back.error == "crashed");
    CHECK(std::isinf(back.min_ms));
    CHECK(back.host == "H");

    // A worker's ok result with an impossible time is that candidate's
    // failure, naming the worker, never its best time.
    ansor::MeasureResult forged;
    forged.ok = true;
    forged.min_ms = forged.median_ms = -1;
    forged.host = "W";
    auto refused = measure_result_from_json(nlohmann::json::parse(to_json(forged).dump()));
    CHECK_FALSE(refused.ok);
    CHECK(refused.error.find("implausible result from worker W: min_ms -1") != std::string::npos);
    forged.min_ms = forged.median_ms = 0.5;
    CHECK(measure_result_from_json(nlohmann::json::parse(to_json(forged).dump())).ok);

    ansor::MeasureOptions o;
    o.target = Halide::Target("x86-64-linux-avx2");
    o.threads = 3;
    o.timeout_s = 7;
    o.memory_limit_bytes = 123456789012ull;
    auto o2 = measure_options_from_json(nlohmann::json::parse(to_json(o).dump()));
    CHECK(o2.target == o.target);
    CHECK(o2.threads == 3);
    CHECK(o2.timeout_s == 7);
    CHECK(o2.memory_limit_bytes == 123456789012ull);

    WorkChunk c;
    c.id = 5;
    c.task = 1;
    c.generator = "conv2d_bias_act";
    c.params = {{"N", "1"}, {"H", "8"}};
    c.parallelism = 2;
    c.states = {nlohmann::json::array()};
    auto c2 = chunk_from_json(to_json(c));
    CHECK(c2.params == c.params);
    CHECK(c2.parallelism == 2);
    CHECK(c2.states.size() == 1);

    nlohmann::json broken = to_json(c);
    broken.erase("key");
    CHECK_THROWS_WITH_AS(chunk_from_json(broken), doctest::Contains("\"key\""), std::invalid_argument);
    broken = to_json(c);
    broken["task"] = "one";
    CHECK_THROWS_WITH_AS(chunk_from_json(broken), doctest::Contains("\"task\" has the wrong type"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(parse_message("not json", WireTag::Result), doctest::Contains("result message"),
                         std::invalid_argument);
}
