// A tuner killed with kill -9 in the middle of tuning leaves no measuring
// process behind. Starts a real tuning run (ansor_hanging_tuner, which loads
// libansor.so and whose candidates fork a process and then never end) with a
// marker in its environment, which every process it forks inherits; once
// measuring processes run, none in the tuner's process group, kills the
// tuner with SIGKILL and checks that no process with the marker is left
// running.
//
//   ansor_kill_tuner_test path/to/ansor_hanging_tuner path/to/libansor.so
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

// The state letter, parent and process group of a process from
// /proc/<pid>/stat; false if it is gone.
bool read_stat(pid_t pid, char &state, pid_t &parent_pid, pid_t &group) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string text;
    std::getline(in, text);
    const size_t paren = text.rfind(')');
    if (!in || paren == std::string::npos) return false;
    int parent = 0, pgrp = 0;
    if (std::sscanf(text.c_str() + paren + 1, " %c %d %d", &state, &parent, &pgrp) != 3) return false;
    parent_pid = parent;
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
        pid_t parent = 0, group = 0;
        if (!read_stat((pid_t)pid, state, parent, group) || state == 'Z' || state == 'X') continue;
        if (has_marker((pid_t)pid, marker)) found.push_back((pid_t)pid);
    }
    closedir(proc);
    return found;
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s path/to/ansor_hanging_tuner path/to/libansor.so\n", argv[0]);
        return 2;
    }
    const std::string marker = "ANSOR_KILL_TUNER_TEST=" + std::to_string(getpid());
    const pid_t tuner = fork();
    if (tuner < 0) return 2;
    if (tuner == 0) {
        putenv(const_cast<char *>(marker.c_str()));
        setenv("HL_ANSOR_TRIALS", "64", 1);
        setenv("HL_ANSOR_TIMEOUT", "600", 1);
        setenv("HL_ANSOR_BUILDERS", "2", 1);
        setenv("HL_ANSOR_PROGRESS", "0", 1);
        execl(argv[1], argv[1], argv[2], (char *)nullptr);
        _exit(127);
    }

    // Wait until a candidate hangs: the process it forked runs (a marked
    // process whose parent is not the tuner); the other candidates of the
    // round are compiled and wait for their turn.
    pid_t tuner_group = -1;
    std::set<pid_t> seen;
    bool hanging = false;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(300);
    while (!hanging && std::chrono::steady_clock::now() < deadline) {
        for (pid_t p : running_with_marker(marker)) {
            char state = 0;
            pid_t parent = 0, group = 0;
            if (!read_stat(p, state, parent, group)) continue;
            if (p == tuner) {
                tuner_group = group;
                continue;
            }
            if (group == tuner_group) {
                // Just forked: it leaves the tuner's group at once.
                std::this_thread::sleep_for(std::chrono::milliseconds(500));
                if (read_stat(p, state, parent, group) && state != 'Z' && group == tuner_group) {
                    std::fprintf(stderr, "FAIL: measuring process %d is in the tuner's process group\n", (int)p);
                    kill(tuner, SIGKILL);
                    return 1;
                }
            }
            seen.insert(p);
            hanging = hanging || parent != tuner;
        }
        int status = 0;
        if (waitpid(tuner, &status, WNOHANG) == tuner) {
            std::fprintf(stderr, "FAIL: the tuner ended before the test could kill it\n");
            return 1;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    const size_t alive_at_kill = std::max<size_t>(running_with_marker(marker).size(), 1) - 1;
    if (!hanging) {
        std::fprintf(stderr, "FAIL: no candidate started to hang within 300 s\n");
        kill(tuner, SIGKILL);
        return 1;
    }
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
