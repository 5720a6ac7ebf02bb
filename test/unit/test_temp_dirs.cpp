// The tuner's temporary directories (measure/temp_dirs.h, exit_cleanup.h):
// named after their owner, swept once the owner is dead, and removed when a
// signal with the default action ends the process, without taking over a
// disposition the program chose.
#include "measure/exit_cleanup.h"
#include "measure/temp_dirs.h"
#include "measure_test_support.h"

#include <doctest/doctest.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace ansor;
namespace fs = std::filesystem;

namespace {

pid_t dead_pid() {
    const pid_t p = fork();
    REQUIRE(p >= 0);
    if (p == 0) _exit(0);
    int status = 0;
    waitpid(p, &status, 0);
    return p;
}

void touch(const std::string &path) { std::ofstream(path) << "x"; }

// What a child reports to the test through shared memory.
struct Report {
    char dir[512];
    std::atomic<int> existed_after_signal;
    std::atomic<int> own_handler_ran;
};

Report *report() {
    static Report *r = [] {
        void *m = mmap(nullptr, sizeof(Report), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        REQUIRE(m != MAP_FAILED);
        return new (m) Report();
    }();
    return r;
}

// A directory outside the ones removed, with a file that must stay.
const std::string &canary() {
    static const std::string dir = [] {
        const std::string d = temp_root() + "/ansor_test_canary_" + std::to_string(getpid());
        fs::create_directories(d);
        touch(d + "/kept");
        return d;
    }();
    return dir;
}

// Makes a temporary directory with files, a subdirectory and a link to the
// canary in it, noted in the report.
std::string make_filled_dir() {
    const std::string dir = make_temp_dir("ansor-test-exit");
    fs::create_directories(dir + "/sub/deeper");
    touch(dir + "/sub/deeper/file");
    touch(dir + "/file");
    fs::create_symlink(canary(), dir + "/sub/link");  // must go without its target
    std::snprintf(report()->dir, sizeof(report()->dir), "%s", dir.c_str());
    return dir;
}

// The test framework catches SIGINT and SIGTERM; a scenario starts from a
// program that leaves them at their default action.
void default_dispositions() {
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) signal(sig, SIG_DFL);
}

// Runs `child` in a forked process; its wait status.
template<typename Child>
int run_forked(Child child) {
    std::memset(report()->dir, 0, sizeof(report()->dir));
    report()->existed_after_signal = 0;
    report()->own_handler_ran = 0;
    std::fflush(stdout);
    std::fflush(stderr);
    const pid_t p = fork();
    REQUIRE(p >= 0);
    if (p == 0) {
        default_dispositions();
        child();
        _exit(0);
    }
    int status = 0;
    waitpid(p, &status, 0);
    return status;
}

void own_handler(int) { report()->own_handler_ran = 1; }


}  // namespace

TEST_CASE("temp dirs: the owner's pid is read from the name") {
    CHECK(temp_dir_owner("ansor-fresh-1234-Ab3dEf") == 1234);
    CHECK(temp_dir_owner("ansor-compile-check-77-zzzzzz") == 77);
    CHECK(temp_dir_owner("ansor-fresh-Ab3dEf") == 0);  // before owners were named
    CHECK(temp_dir_owner("ansor-fresh-12x4-Ab3dEf") == 0);
    CHECK(temp_dir_owner("ansor-fresh-1234-Ab3") == 0);
    CHECK(temp_dir_owner("other-fresh-1234-Ab3dEf") == 0);
    const std::string made = make_temp_dir("ansor-test-name");
    CHECK(temp_dir_owner(fs::path(made).filename().string()) == getpid());
    CHECK(made.rfind(temp_root() + "/ansor-test-name-" + std::to_string(getpid()) + "-", 0) == 0);
    remove_temp_dir(made);
    CHECK_FALSE(fs::exists(made));
}

TEST_CASE("temp dirs: the sweep removes a dead owner's directories and nothing else") {
    TempDir root("ansor-test-sweep");
    const std::string dead = std::to_string(dead_pid()), live = std::to_string(getppid());
    const std::string stale = root.path() + "/ansor-fresh-" + dead + "-AbCdEf";
    fs::create_directories(stale + "/reference");
    touch(stale + "/reference/inputs.json");
    const std::string outside = root.path() + "/outside";
    fs::create_directories(outside);
    touch(outside + "/kept");
    fs::create_symlink(outside, stale + "/link");
    const std::vector<std::string> kept = {
        root.path() + "/ansor-fresh-" + live + "-AbCdEf",     // its owner runs
        root.path() + "/ansor-fresh-QwErTy",                  // no owner named
        root.path() + "/other-fresh-" + dead + "-AbCdEf",     // not ours
    };
    for (const std::string &d : kept) fs::create_directories(d);
    fs::create_symlink(outside, root.path() + "/ansor-gpu-" + dead + "-ZxCvBn");  // a link, not a directory
    CHECK(sweep_stale_temp_dirs(root.path()) == 1);
    CHECK_FALSE(fs::exists(stale));
    for (const std::string &d : kept) CHECK(fs::exists(d));
    CHECK(fs::exists(outside + "/kept"));
    CHECK(fs::is_symlink(root.path() + "/ansor-gpu-" + dead + "-ZxCvBn"));
}

TEST_CASE("temp dirs: a signal that ends the process removes its directories and only the owner's") {
    // Each scenario sets its disposition before its first directory, as a
    // program does before it tunes: that needs a process that made none yet.
    if (!ansor_test::in_fresh_copy_of_this_test("temp dirs: a signal that ends the process removes its directories and only the owner's",
                                    "ANSOR_TEST_EXIT_CLEANUP")) {
        return;
    }
    canary();
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
        CAPTURE(sig);
        const int status = run_forked([sig] {
            make_filled_dir();
            raise(sig);
        });
        CHECK(WIFSIGNALED(status));
        CHECK(WTERMSIG(status) == sig);  // ended as the default action ends it
        CHECK_FALSE(fs::exists(report()->dir));
    }

    // An ignored SIGINT stays ignored; exit() removes the directory.
    int status = run_forked([] {
        signal(SIGINT, SIG_IGN);
        const std::string dir = make_filled_dir();
        raise(SIGINT);
        report()->existed_after_signal = fs::exists(dir);
        std::exit(0);
    });
    CHECK(WIFEXITED(status));
    CHECK(report()->existed_after_signal == 1);
    CHECK_FALSE(fs::exists(report()->dir));

    // The program's own handler runs instead, and the directory stays in use.
    status = run_forked([] {
        signal(SIGINT, own_handler);
        const std::string dir = make_filled_dir();
        raise(SIGINT);
        report()->existed_after_signal = fs::exists(dir);
        std::exit(0);
    });
    CHECK(WIFEXITED(status));
    CHECK(report()->own_handler_ran == 1);
    CHECK(report()->existed_after_signal == 1);
    CHECK_FALSE(fs::exists(report()->dir));

    // A process the owner forked, ended by the signal, leaves it alone.
    status = run_forked([] {
        const std::string dir = make_filled_dir();
        const pid_t child = fork();
        if (child == 0) {
            raise(SIGTERM);
            _exit(0);
        }
        int child_status = 0;
        waitpid(child, &child_status, 0);
        report()->existed_after_signal = WIFSIGNALED(child_status) && fs::exists(dir);
        raise(SIGTERM);
    });
    CHECK(WIFSIGNALED(status));
    CHECK(report()->existed_after_signal == 1);
    CHECK_FALSE(fs::exists(report()->dir));
    CHECK(fs::exists(canary() + "/kept"));
    fs::remove_all(canary());
}
