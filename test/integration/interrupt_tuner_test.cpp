// Ctrl-C in the middle of tuning leaves no temporary directory of the
// tuner, and a directory a dead tuner left is swept by the next one. Plants
// a directory named after a process that no longer runs in a TMPDIR of its
// own, starts a real tuning run there (ansor_plugin_load_test with a
// budget it will not finish; its candidates are timed in fresh processes,
// so it keeps a work directory with the reference's inputs, and a scratch
// directory per measuring child) in a process group of its own, checks
// that the planted directory went, sends SIGINT to the group a few seconds
// into tuning, as a terminal's Ctrl-C does, and checks that the tuner ended
// by the signal and that nothing of it is left in TMPDIR.
//
//   ansor_interrupt_tuner_test path/to/ansor_plugin_load_test path/to/libansor.so
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;

namespace {

// How long the tuner tunes before the Ctrl-C.
constexpr int kTuningSecondsBeforeInterrupt = 3;

std::vector<std::string> entries_with(const std::string &dir, const std::string &part) {
    std::vector<std::string> out;
    std::error_code ignored;
    for (const auto &e : fs::directory_iterator(dir, ignored)) {
        const std::string name = e.path().filename().string();
        if (name.find(part) != std::string::npos) out.push_back(name);
    }
    return out;
}

int fail(const std::string &why, pid_t tuner, const std::string &root) {
    std::fprintf(stderr, "FAIL: %s\n", why.c_str());
    if (tuner > 0) {
        kill(-tuner, SIGKILL);
        waitpid(tuner, nullptr, 0);
    }
    fs::remove_all(root);
    return 1;
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s path/to/ansor_plugin_load_test path/to/libansor.so\n", argv[0]);
        return 2;
    }
    char pattern[] = "/tmp/ansor_interrupt_test_XXXXXX";
    if (!mkdtemp(pattern)) return 2;
    const std::string root = pattern;

    const pid_t dead = fork();
    if (dead == 0) _exit(0);
    waitpid(dead, nullptr, 0);
    const std::string stale = root + "/ansor-fresh-" + std::to_string(dead) + "-AbCdEf";
    fs::create_directories(stale + "/reference");
    std::ofstream(stale + "/reference/inputs.json") << "{}";

    const pid_t tuner = fork();
    if (tuner < 0) return fail("cannot fork", -1, root);
    if (tuner == 0) {
        setpgid(0, 0);
        setenv("TMPDIR", root.c_str(), 1);
        setenv("HL_ANSOR_TRIALS", "100000", 1);
        setenv("HL_ANSOR_PROGRESS", "0", 1);
        unsetenv("HL_ANSOR_TIMING");
        execl(argv[1], argv[1], argv[2], (char *)nullptr);
        _exit(127);
    }
    setpgid(tuner, tuner);
    const std::string own = "-" + std::to_string(tuner) + "-";

    // Tuning has begun once a measuring child works in its scratch directory.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(300);
    while (entries_with(root, "ansor-scratch" + own).empty() || entries_with(root, "ansor-fresh" + own).empty()) {
        if (std::chrono::steady_clock::now() > deadline) return fail("the tuner made no directories in 300 s", tuner, root);
        if (waitpid(tuner, nullptr, WNOHANG) == tuner) return fail("the tuner ended before the interrupt", -1, root);
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    if (fs::exists(stale)) return fail("the dead tuner's " + stale + " was not swept", tuner, root);
    std::this_thread::sleep_for(std::chrono::seconds(kTuningSecondsBeforeInterrupt));
    const size_t seen = entries_with(root, own).size();

    kill(-tuner, SIGINT);
    int status = 0;
    waitpid(tuner, &status, 0);
    if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGINT) {
        return fail("the tuner did not end by SIGINT (wait status " + std::to_string(status) + ")", -1, root);
    }
    // Its measuring children die with it (PR_SET_PDEATHSIG); give them a moment.
    std::this_thread::sleep_for(std::chrono::seconds(2));
    const std::vector<std::string> left = entries_with(root, own);
    if (!left.empty()) {
        std::string names;
        for (const std::string &n : left) names += " " + n;
        return fail(std::to_string(left.size()) + " directories of the interrupted tuner are left:" + names, -1, root);
    }
    fs::remove_all(root);
    std::printf("PASS: the stale directory was swept; %zu of the tuner's directories at the interrupt, none after\n", seen);
    return 0;
}
