// The measuring sandbox end to end through ForkMeasurer. A candidate whose
// extern stage crashes, aborts, hangs, allocates without bound, forks a
// process that outlives it, writes garbage on its output, writes into the
// shared reference or computes a wrong value is a recorded failure with a
// clear error, and the next candidate of the same batch is still measured
// correctly; a tuner killed with kill -9 leaves no measuring process behind.
//
// The misbehaviour comes from the pipeline itself (an extern stage defined
// in this test binary, which the JIT resolves through ENABLE_EXPORTS), as a
// user's extern code would misbehave: nothing in the product is test-only.
#include "measure/measurer.h"
#include "measure_test_support.h"
#include "measure/temp_dirs.h"
#include "sketch/sketch_rules.h"
#include "util/errors.h"
#include "util/target.h"

#include <Halide.h>
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/mman.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace ansor;

namespace {

enum class Misbehaviour { None, Segfault, Abort, Hang, Allocate, Fork, ForkThenHang, Garbage, WriteReference, Wrong };

// What the extern stage does, read by the measuring children (set in the
// tuner before it forks them).
Misbehaviour mode = Misbehaviour::None;
// The reference outputs, for Misbehaviour::WriteReference.
void *reference_outputs = nullptr;

// Shared with every process forked after it is mapped: which process
// misbehaves (the first to claim `armed`), and the pids it leaves behind.
struct Witness {
    std::atomic<int> armed;
    std::atomic<pid_t> candidate, grandchild;
    std::atomic<long> allocated_mib;
};

Witness *witness() {
    static Witness *w = [] {
        void *m = mmap(nullptr, sizeof(Witness), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        REQUIRE(m != MAP_FAILED);
        return new (m) Witness();
    }();
    return w;
}

void arm(Misbehaviour m) {
    mode = m;
    witness()->armed = 1;
    witness()->candidate = 0;
    witness()->grandchild = 0;
    witness()->allocated_mib = 0;
}

void write_all(const char *data, size_t n) {
    while (n > 0) {
        ssize_t w = write(1, data, n);
        if (w <= 0) return;
        data += w;
        n -= (size_t)w;
    }
}

// Runs in a measuring child; a nonzero return is the extern stage's failure.
int misbehave() {
    switch (mode) {
    case Misbehaviour::None:
    case Misbehaviour::Wrong: return 0;
    case Misbehaviour::Segfault: {
        static int *volatile nowhere = nullptr;
        *nowhere = 1;
        return 0;
    }
    case Misbehaviour::Abort: std::abort();
    case Misbehaviour::Hang:
        for (;;) pause();
    case Misbehaviour::Allocate: {
        // 64 MiB at a time, each touched, until malloc says no.
        const size_t chunk = 64u << 20;
        long mib = 0;
        while (void *p = std::malloc(chunk)) {
            std::memset(p, 1, chunk);
            mib += 64;
        }
        witness()->allocated_mib = mib;
        char line[96];
        std::snprintf(line, sizeof(line), "malloc failed after %ld MiB\n", mib);
        write_all(line, std::strlen(line));
        return -1;
    }
    case Misbehaviour::Fork:
    case Misbehaviour::ForkThenHang: {
        witness()->candidate = getpid();
        pid_t child = fork();
        if (child == 0) {
            for (;;) pause();
        }
        witness()->grandchild = child;
        if (mode == Misbehaviour::ForkThenHang) {
            for (;;) pause();
        }
        return 0;
    }
    case Misbehaviour::Garbage: {
        // A flood of bytes (NULs, half markers, invalid UTF-8), then a result line that is not one.
        std::string junk;
        uint32_t x = 12345;
        while (junk.size() < (3u << 20)) {
            x = x * 1664525u + 1013904223u;
            junk += (char)(x >> 24);
            if (x % 997 == 0) junk += "ANSOR_RESU";
        }
        write_all(junk.data(), junk.size());
        const char fake[] = "\nANSOR_RESULT ok nan \xff\xfe garbage\n";
        write_all(fake, sizeof(fake) - 1);
        _exit(0);
    }
    case Misbehaviour::WriteReference: std::memset(reference_outputs, 0x7f, 16); return 0;
    }
    return 0;
}

}  // namespace

extern "C" {
// out(x) = 2 * in(x) over the requested region, unless this is the first
// process to run the stage since the test armed a misbehaviour.
int ansor_test_misbehave(halide_buffer_t *in, halide_buffer_t *out) {
    if (in->is_bounds_query()) {
        ansor_test::extern_stage_double(in, out);
        return 0;
    }
    int expected = 1;
    const bool chosen = witness()->armed.compare_exchange_strong(expected, 0);
    if (chosen && misbehave() != 0) return -1;
    ansor_test::extern_stage_double(in, out, chosen && mode == Misbehaviour::Wrong ? 1.f : 0.f);
    return 0;
}
}

namespace {

const Halide::Target cpu(ansor::project_cpu_target());

MeasureOptions sandboxed(int builders) {
    MeasureOptions o;
    o.target = cpu;
    o.threads = 2;
    o.repeats = 1;
    o.measure_seconds = 0;
    o.timeout_s = 20;
    o.builders = builders;
    o.memory_limit_bytes = 1ull << 30;
    return o;
}

// A process no longer runs: gone, or a zombie nobody reaped yet.
bool ended(pid_t pid, double within_s) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(within_s);
    for (;;) {
        std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
        std::string text;
        std::getline(stat, text);
        const size_t paren = text.rfind(')');
        if (!stat || paren == std::string::npos || paren + 2 >= text.size()) return true;
        const char state = text[paren + 2];
        if (state == 'Z' || state == 'X') return true;
        if (std::chrono::steady_clock::now() > deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

bool printable_ascii(const std::string &s) {
    for (unsigned char c : s) {
        if (!((c >= 0x20 && c < 0x7f) || c == '\n' || c == '\t')) return false;
    }
    return true;
}

}  // namespace

TEST_CASE("sandbox: a misbehaving candidate is a recorded failure and the next candidate is still measured") {
    ansor_test::ExternStagePipe p = ansor_test::extern_stage_pipe("ansor_test_misbehave", "misbehaving");
    PipelineDAG dag(p.functions(), 2);
    const State root = ansor_test::every_func_at_root(dag);
    struct Case {
        Misbehaviour mode;
        const char *error;  // what its error must say
    };
    const std::vector<Case> cases = {
        {Misbehaviour::Segfault, "crashed with signal 11"},
        {Misbehaviour::Abort, "crashed with signal 6"},
        {Misbehaviour::Hang, "timed out running"},
        {Misbehaviour::Allocate, "malloc failed after"},
        {Misbehaviour::Fork, "left processes running"},
        {Misbehaviour::Garbage, "garbage on the result channel"},
        {Misbehaviour::WriteReference, "crashed with signal 11"},
        {Misbehaviour::Wrong, "wrong output"},
    };
    for (int builders : {1, 2}) {
        mode = Misbehaviour::None;
        ForkMeasurer measurer(dag, sandboxed(builders));
        reference_outputs = const_cast<void *>(measurer.reference_outputs());
        for (const Case &c : cases) {
            CAPTURE(builders);
            const std::string expected = c.error;
            CAPTURE(expected);
            arm(c.mode);
            const std::vector<MeasureResult> results = measurer.measure({root, root});
            REQUIRE(results.size() == 2);
            CHECK_FALSE(results[0].ok);
            CHECK_MESSAGE(results[0].error.find(c.error) != std::string::npos, results[0].error);
            CHECK(printable_ascii(results[0].error));  // fit for the log and the terminal
            // The reference is intact and the sandbox is ready for the next one.
            CHECK_MESSAGE(results[1].ok, results[1].error);
            CHECK(witness()->armed == 0);
            if (c.mode == Misbehaviour::Allocate) {
                // The limit stopped it, far below the machine's memory.
                CHECK(witness()->allocated_mib > 0);
                CHECK(witness()->allocated_mib <= 1024);
            }
            if (c.mode == Misbehaviour::Fork) {
                REQUIRE(witness()->grandchild > 0);
                CHECK(ended(witness()->grandchild, 5));
            }
        }
    }
}

TEST_CASE("sandbox: the reference itself runs under the memory limit, and its failure says so") {
    ansor_test::ExternStagePipe p = ansor_test::extern_stage_pipe("ansor_test_misbehave", "misbehaving");
    PipelineDAG dag(p.functions(), 2);
    arm(Misbehaviour::Allocate);
    CHECK_THROWS_WITH_AS(ForkMeasurer(dag, sandboxed(1)), doctest::Contains("malloc failed after"), UserError);
    CHECK(witness()->allocated_mib <= 1024);
}

TEST_CASE("sandbox: a tuner killed with kill -9 leaves no measuring process behind") {
    ansor_test::ExternStagePipe p = ansor_test::extern_stage_pipe("ansor_test_misbehave", "misbehaving");
    PipelineDAG dag(p.functions(), 2);
    const State root = ansor_test::every_func_at_root(dag);
    arm(Misbehaviour::None);
    witness()->armed = 0;
    std::fflush(stdout);
    std::fflush(stderr);
    const pid_t tuner = fork();
    REQUIRE(tuner >= 0);
    if (tuner == 0) {
        // The tuner: its first candidate forks a process and hangs.
        try {
            ForkMeasurer measurer(dag, sandboxed(2));
            arm(Misbehaviour::ForkThenHang);
            measurer.measure({root, root});
        } catch (...) {
        }
        _exit(0);
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(180);
    while ((witness()->candidate == 0 || witness()->grandchild == 0) && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    const pid_t candidate = witness()->candidate, grandchild = witness()->grandchild;
    kill(tuner, SIGKILL);
    int status = 0;
    waitpid(tuner, &status, 0);
    REQUIRE(candidate > 0);
    REQUIRE(grandchild > 0);
    CHECK(ended(candidate, 10));
    CHECK(ended(grandchild, 10));
    // kill -9 leaves the tuner's scratch directories; the next tuner's sweep removes them.
    const auto left_by_tuner = [&] {
        std::vector<std::string> found;
        std::error_code ignored;
        for (const auto &e : std::filesystem::directory_iterator(temp_root(), ignored)) {
            if (temp_dir_owner(e.path().filename().string()) == tuner) found.push_back(e.path().string());
        }
        return found;
    };
    CHECK_FALSE(left_by_tuner().empty());
    sweep_stale_temp_dirs(temp_root());
    CHECK(left_by_tuner().empty());
}
