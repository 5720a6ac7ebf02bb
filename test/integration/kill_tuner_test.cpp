// A tuner killed with kill -9 in the middle of tuning leaves no measuring
// process behind. Starts a real tuning run (ansor_plugin_load_test, which
// loads libansor.so) with a marker in its environment, which every process
// it forks inherits; once measuring processes run, each in a process group
// of its own, kills the tuner with SIGKILL and checks that no process with
// the marker is left running.
//
//   ansor_kill_tuner_test path/to/ansor_plugin_load_test path/to/libansor.so
#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

// The state letter and process group of a process from /proc/<pid>/stat;
// false if it is gone.
bool read_stat(pid_t pid, char &state, pid_t &group) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string text;
    std::getline(in, text);
    const size_t paren = text.rfind(')');
    if (!in || paren == std::string::npos) return false;
    int parent = 0, pgrp = 0;
    if (std::sscanf(text.c_str() + paren + 1, " %c %d %d", &state, &parent, &pgrp) != 3) return false;
    group = pgrp;
    return true;
}

bool has_marker(pid_t pid, const std::string &marker) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/environ", std::ios::binary);
    std::string env((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return env.find(marker + '\0') != std::string::npos;
}

// Running processes (not zombies) whose environment holds the marker.
std::vector<pid_t> running_with_marker(const std::string &marker) {
    std::vector<pid_t> found;
    DIR *proc = opendir("/proc");
    if (!proc) return found;
    while (dirent *e = readdir(proc)) {
        char *end = nullptr;
        long pid = std::strtol(e->d_name, &end, 10);
        if (*end != '\0' || pid <= 0) continue;
        char state = 0;
        pid_t group = 0;
        if (!read_stat((pid_t)pid, state, group) || state == 'Z' || state == 'X') continue;
        if (has_marker((pid_t)pid, marker)) found.push_back((pid_t)pid);
    }
    closedir(proc);
    return found;
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s path/to/ansor_plugin_load_test path/to/libansor.so\n", argv[0]);
        return 2;
    }
    const std::string marker = "ANSOR_KILL_TUNER_TEST=" + std::to_string(getpid());
    const pid_t tuner = fork();
    if (tuner < 0) return 2;
    if (tuner == 0) {
        putenv(const_cast<char *>(marker.c_str()));
        setenv("HL_ANSOR_TRIALS", "100000", 1);
        setenv("HL_ANSOR_BUILDERS", "2", 1);
        setenv("HL_ANSOR_PROGRESS", "0", 1);
        execl(argv[1], argv[1], argv[2], (char *)nullptr);
        _exit(127);
    }

    // Wait until measuring processes (the tuner's forked children) run.
    std::set<pid_t> seen;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(300);
    while (seen.size() < 3 && std::chrono::steady_clock::now() < deadline) {
        for (pid_t p : running_with_marker(marker)) {
            if (p == tuner) continue;
            char state = 0;
            pid_t group = 0;
            if (read_stat(p, state, group) && group != p) {
                std::fprintf(stderr, "FAIL: measuring process %d is not the leader of its own process group (%d)\n",
                             (int)p, (int)group);
                kill(tuner, SIGKILL);
                return 1;
            }
            seen.insert(p);
        }
        int status = 0;
        if (waitpid(tuner, &status, WNOHANG) == tuner) {
            std::fprintf(stderr, "FAIL: the tuner ended before the test could kill it\n");
            return 1;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (seen.empty()) {
        std::fprintf(stderr, "FAIL: no measuring process appeared\n");
        kill(tuner, SIGKILL);
        return 1;
    }
    // Kill it while a measuring process runs.
    while (running_with_marker(marker).size() < 2 && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    const size_t alive_at_kill = std::max<size_t>(running_with_marker(marker).size(), 1) - 1;
    kill(tuner, SIGKILL);
    int status = 0;
    waitpid(tuner, &status, 0);

    std::vector<pid_t> left;
    const auto grace = std::chrono::steady_clock::now() + std::chrono::seconds(15);
    do {
        left = running_with_marker(marker);
        if (left.empty()) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    } while (std::chrono::steady_clock::now() < grace);
    if (!left.empty()) {
        std::fprintf(stderr, "FAIL: %zu processes of the killed tuner still run:", left.size());
        for (pid_t p : left) std::fprintf(stderr, " %d", (int)p);
        std::fprintf(stderr, "\n");
        for (pid_t p : left) kill(p, SIGKILL);
        return 1;
    }
    std::printf("PASS: %zu measuring processes seen, %zu running when the tuner was killed, none left\n", seen.size(),
                alive_at_kill);
    return 0;
}
