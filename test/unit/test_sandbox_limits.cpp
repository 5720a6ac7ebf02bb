// The resource limits and the scratch directory of the measuring sandbox
// (measure/resource_limits.h, sandbox.h): a crashing child writes no core
// file, a child past its CPU time or file size is stopped by the kernel, a
// fork bomb stops at the task limit, and a candidate sees the limits and
// its scratch directory, which is gone once it ended. The candidates'
// behaviour comes from an extern stage defined in this test binary.
#include "measure/child_limits.h"
#include "measure/measurer.h"
#include "measure_test_support.h"
#include "measure/sandbox.h"
#include "measure/subprocess.h"
#include "measure/temp_dirs.h"
#include "sketch/sketch_rules.h"
#include "util/target.h"

#include <Halide.h>
#include <doctest/doctest.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace ansor;

namespace {

enum class Behaviour { Compute, ReportLimits, Crash, ForkBomb };

// Shared with every process forked after it is mapped.
struct Witness {
    std::atomic<int> armed;
    Behaviour behaviour;
    rlimit core, cpu, file_size, tasks;
    char cwd[512];
    char shell[1024];  // what a program the candidate runs reports
    std::atomic<long> forks;
};

Witness *witness() {
    static Witness *w = [] {
        void *m = mmap(nullptr, sizeof(Witness), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        REQUIRE(m != MAP_FAILED);
        return new (m) Witness();
    }();
    return w;
}

void arm(Behaviour b) {
    witness()->behaviour = b;
    witness()->forks = 0;
    std::memset(witness()->cwd, 0, sizeof(witness()->cwd));
    std::memset(witness()->shell, 0, sizeof(witness()->shell));
    witness()->armed = 1;
}

// The most processes the fork bomb tries, should nothing stop it.
constexpr long kBombCeiling = 5000;

int behave() {
    Witness *w = witness();
    switch (w->behaviour) {
    case Behaviour::Compute: return 0;
    case Behaviour::ReportLimits: {
        getrlimit(RLIMIT_CORE, &w->core);
        getrlimit(RLIMIT_CPU, &w->cpu);
        getrlimit(RLIMIT_FSIZE, &w->file_size);
        getrlimit(RLIMIT_NPROC, &w->tasks);
        if (!getcwd(w->cwd, sizeof(w->cwd))) w->cwd[0] = 0;
        const ProcessResult r = run_process({"/bin/sh", "-c", "echo core $(ulimit -c) cpu $(ulimit -t) dir $(pwd)"});
        std::snprintf(w->shell, sizeof(w->shell), "%s", r.output.c_str());
        return 0;
    }
    case Behaviour::Crash: std::abort();
    case Behaviour::ForkBomb: {
        while (w->forks < kBombCeiling) {
            const pid_t p = fork();
            if (p < 0) break;
            if (p == 0) {
                for (;;) pause();
            }
            w->forks++;
        }
        std::printf("fork failed after %ld processes\n", w->forks.load());
        std::fflush(stdout);
        return -1;
    }
    }
    return 0;
}

}  // namespace

extern "C" {
// out(x) = 2 * in(x), after the armed behaviour in the first process that runs it.
int ansor_test_limited(halide_buffer_t *in, halide_buffer_t *out) {
    int expected = 1;
    if (!in->is_bounds_query() && witness()->armed.compare_exchange_strong(expected, 0) && behave() != 0) return -1;
    ansor_test::extern_stage_double(in, out);
    return 0;
}
}

namespace {

MeasureOptions options() {
    MeasureOptions o;
    o.target = Halide::Target(project_cpu_target());
    o.threads = 2;
    o.repeats = 1;
    o.measure_seconds = 0;
    o.timeout_s = 60;
    o.builders = 1;
    o.memory_limit_bytes = 1ull << 30;
    return o;
}

// This process's scratch directories under the temp root.
std::vector<std::string> own_scratch_dirs() {
    std::vector<std::string> out;
    const std::string prefix = "ansor-scratch-" + std::to_string(getpid()) + "-";
    std::error_code ignored;
    for (const auto &e : std::filesystem::directory_iterator(temp_root(), ignored)) {
        if (e.path().filename().string().rfind(prefix, 0) == 0) out.push_back(e.path().string());
    }
    return out;
}

// Forks a child that enters the sandbox with `limits` and runs `body`; its wait status.
template<typename Body>
int sandboxed_child_status(const SandboxLimits &limits, Body body) {
    std::fflush(stdout);
    std::fflush(stderr);
    const pid_t parent = getpid();
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        enter_sandbox(limits, parent);
        body();
        _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return status;
}

bool core_files_go_to_a_file() {
    std::ifstream in("/proc/sys/kernel/core_pattern");
    std::string pattern;
    std::getline(in, pattern);
    return !pattern.empty() && pattern[0] != '|';
}

}  // namespace

TEST_CASE("sandbox limits: a child that dumps core leaves no core file") {
    TempDir dir("ansor-test-core");
    // Allow core files in this process (as far as it may), so that only the sandbox stops them.
    rlimit core{};
    getrlimit(RLIMIT_CORE, &core);
    rlimit allowed = core;
    allowed.rlim_cur = allowed.rlim_max;
    setrlimit(RLIMIT_CORE, &allowed);
    SandboxLimits limits;
    limits.working_dir = dir.path();
    const int status = sandboxed_child_status(limits, [] {
        signal(SIGSEGV, SIG_DFL);  // not the test framework's report
        raise(SIGSEGV);
    });
    setrlimit(RLIMIT_CORE, &core);
    REQUIRE(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == SIGSEGV);
    if (core_files_go_to_a_file()) CHECK_FALSE(WCOREDUMP(status));
    CHECK(std::filesystem::is_empty(dir.path()));
}

TEST_CASE("sandbox limits: the kernel stops a child past its CPU time or its file size") {
    TempDir dir("ansor-test-limits");
    SandboxLimits cpu;
    cpu.cpu_seconds = 1;
    const int spun = sandboxed_child_status(cpu, [] {
        volatile unsigned long x = 0;
        for (;;) x = x + 1;
    });
    REQUIRE(WIFSIGNALED(spun));
    CHECK(WTERMSIG(spun) == SIGXCPU);
    CHECK(resource_limit_note(WTERMSIG(spun)) == " (its CPU time limit)");

    SandboxLimits file;
    file.file_size_bytes = 1 << 20;
    file.working_dir = dir.path();
    const int wrote = sandboxed_child_status(file, [] {
        std::FILE *f = std::fopen("big", "wb");  // relative: in the scratch directory
        if (!f) _exit(3);
        std::vector<char> block(1 << 16, 'x');
        for (int i = 0; i < 64; i++) std::fwrite(block.data(), 1, block.size(), f);
        std::fclose(f);
    });
    REQUIRE(WIFSIGNALED(wrote));
    CHECK(WTERMSIG(wrote) == SIGXFSZ);
    CHECK(std::filesystem::file_size(dir.path() + "/big") <= (1u << 20));
}

TEST_CASE("sandbox limits: a candidate runs with its limits in a scratch directory removed after it, crashed or not") {
    ansor_test::ExternStagePipe p = ansor_test::extern_stage_pipe("ansor_test_limited", "limited");
    PipelineDAG dag(p.functions(), 2);
    const State root = ansor_test::every_func_at_root(dag);
    witness()->armed = 0;
    const MeasureOptions o = options();
    ForkMeasurer measurer(dag, o);
    REQUIRE(own_scratch_dirs().empty());

    arm(Behaviour::ReportLimits);
    std::vector<MeasureResult> results = measurer.measure({root});
    REQUIRE(results.size() == 1);
    CHECK_MESSAGE(results[0].ok, results[0].error);
    const SandboxLimits expected =
        measuring_child_limits(o.memory_limit_bytes, o.timeout_s, o.threads, ForkMeasurer::compiled_window(1), "");
    const Witness &w = *witness();
    CHECK(w.core.rlim_cur == 0);
    CHECK(w.core.rlim_max == 0);
    CHECK(w.cpu.rlim_cur == expected.cpu_seconds);
    CHECK(w.cpu.rlim_max == expected.cpu_seconds + kCpuLimitGraceSeconds);
    CHECK(w.file_size.rlim_cur == o.memory_limit_bytes);
    if (getuid() != 0) CHECK(w.tasks.rlim_cur <= tasks_of_user(getuid()) + expected.extra_tasks + 64);
    const std::string cwd = w.cwd;
    CHECK(cwd.rfind(temp_root() + "/ansor-scratch-" + std::to_string(getpid()) + "-", 0) == 0);
    CHECK_FALSE(std::filesystem::exists(cwd));
    // A program the candidate runs inherits all of it.
    CHECK(std::string(w.shell) == "core 0 cpu " + std::to_string(expected.cpu_seconds) + " dir " + cwd + "\n");

    arm(Behaviour::Crash);
    results = measurer.measure({root, root});
    REQUIRE(results.size() == 2);
    CHECK_FALSE(results[0].ok);
    CHECK_MESSAGE(results[0].error.find("crashed with signal 6") != std::string::npos, results[0].error);
    CHECK_MESSAGE(results[1].ok, results[1].error);
    CHECK(own_scratch_dirs().empty());
}

TEST_CASE("sandbox limits: a fork bomb in a candidate stops at the task limit") {
    // RLIMIT_NPROC binds users other than root: as root, the measuring
    // process runs as nobody.
    std::fflush(stdout);
    std::fflush(stderr);
    witness()->armed = 0;
    witness()->forks = 0;
    const pid_t tuner = fork();
    REQUIRE(tuner >= 0);
    if (tuner == 0) {
        if (getuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0)) _exit(3);
        int code = 4;
        try {
            ansor_test::ExternStagePipe p = ansor_test::extern_stage_pipe("ansor_test_limited", "limited");
            PipelineDAG dag(p.functions(), 2);
            ForkMeasurer measurer(dag, options());
            arm(Behaviour::ForkBomb);
            const std::vector<MeasureResult> r = measurer.measure({ansor_test::every_func_at_root(dag)});
            code = !r[0].ok && r[0].error.find("fork failed after") != std::string::npos ? 0 : 5;
            if (code) std::fprintf(stderr, "%s\n", r[0].error.c_str());
        } catch (const std::exception &e) {
            std::fprintf(stderr, "%s\n", e.what());
        }
        _exit(code);
    }
    int status = 0;
    waitpid(tuner, &status, 0);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    const long forks = witness()->forks;
    const uint64_t allowance = measuring_child_limits(0, 60, 2, ForkMeasurer::compiled_window(1), "").extra_tasks;
    CAPTURE(forks);
    CHECK(forks > 0);
    CHECK(forks < kBombCeiling);
    CHECK((uint64_t)forks <= allowance);
}
