#include "measure/exit_cleanup.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <sys/syscall.h>
#include <unistd.h>

namespace ansor {

namespace {

// Directories registered at once: a measurer's work directory and one
// scratch directory per measuring child alive, for every measurer alive.
constexpr int kSlots = 1024;
constexpr size_t kMaxPathBytes = 512;
// Our trees are a few levels deep; anything deeper is left to the sweep.
constexpr int kMaxTreeDepth = 16;
// A child still writing while the tree is removed may refill a directory.
constexpr int kRemovalPasses = 3;

// Free -> Writing -> Ready (registered) -> Free (forgotten) or Removing
// (claimed by a cleanup, which never gives it back).
enum SlotState : int { Free, Writing, Ready, Removing };

struct Slot {
    std::atomic<int> state{Free};
    pid_t owner = 0;
    char path[kMaxPathBytes];
};

Slot slots[kSlots];
// Orders the registering threads among themselves; the handler never takes it.
std::mutex slots_mutex;
std::once_flag handlers_installed;

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};
constexpr int kSignalCount = sizeof(kSignals) / sizeof(kSignals[0]);
struct sigaction previous[kSignalCount];

struct Dirent64 {
    uint64_t d_ino;
    int64_t d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[1];
};

bool is_dot_or_dotdot(const char *name) {
    return name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'));
}

bool remove_entry(int dir_fd, const char *name, int depth);

void remove_entries(int fd, int depth) {
    alignas(8) char buf[4096];
    for (;;) {
        const long n = syscall(SYS_getdents64, fd, buf, sizeof(buf));
        if (n <= 0) return;
        for (long at = 0; at < n;) {
            const auto *e = reinterpret_cast<const Dirent64 *>(buf + at);
            at += e->d_reclen;
            if (!is_dot_or_dotdot(e->d_name)) remove_entry(fd, e->d_name, depth + 1);
        }
    }
}

// unlinkat never follows a symbolic link, so nothing outside the tree goes.
bool remove_entry(int dir_fd, const char *name, int depth) {
    if (unlinkat(dir_fd, name, 0) == 0 || errno == ENOENT) return true;
    if (errno != EISDIR && errno != EPERM) return false;
    if (depth >= kMaxTreeDepth) return false;
    for (int pass = 0; pass < kRemovalPasses; pass++) {
        const int fd = openat(dir_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0) return errno == ENOENT;
        remove_entries(fd, depth);
        close(fd);
        if (unlinkat(dir_fd, name, AT_REMOVEDIR) == 0 || errno == ENOENT) return true;
        if (errno != ENOTEMPTY && errno != EEXIST) return false;
    }
    return false;
}

// Removes this process's registered directories; async-signal-safe.
void remove_registered() {
    const pid_t self = getpid();
    for (Slot &s : slots) {
        if (s.state.load(std::memory_order_acquire) != Ready || s.owner != self) continue;
        int expected = Ready;
        if (!s.state.compare_exchange_strong(expected, Removing, std::memory_order_acq_rel)) continue;
        remove_tree_now(s.path);
    }
}

int signal_index(int sig) {
    for (int i = 0; i < kSignalCount; i++) {
        if (kSignals[i] == sig) return i;
    }
    return -1;
}

void on_signal(int sig, siginfo_t *info, void *context) {
    const int saved_errno = errno;
    const int i = signal_index(sig);
    const struct sigaction &p = previous[i < 0 ? 0 : i];
    if (i >= 0 && (p.sa_flags & SA_SIGINFO)) {
        p.sa_sigaction(sig, info, context);
    } else if (i >= 0 && p.sa_handler != SIG_DFL && p.sa_handler != SIG_IGN) {
        p.sa_handler(sig);
    } else {
        // The default action ends the process: clean up, then let it.
        remove_registered();
        struct sigaction dfl {};
        dfl.sa_handler = SIG_DFL;
        sigemptyset(&dfl.sa_mask);
        sigaction(sig, &dfl, nullptr);
        raise(sig);  // blocked in this handler: delivered, with the default action, as it returns
    }
    errno = saved_errno;
}

void install_handlers() {
    for (int i = 0; i < kSignalCount; i++) {
        struct sigaction old {};
        if (sigaction(kSignals[i], nullptr, &old) != 0) continue;
        if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_IGN) continue;  // does not end the process
        previous[i] = old;
        struct sigaction act {};
        act.sa_sigaction = on_signal;
        act.sa_flags = SA_SIGINFO | (old.sa_flags & (SA_RESTART | SA_ONSTACK));
        act.sa_mask = old.sa_mask;
        // One cleanup at a time: another of these signals waits for it.
        for (int s : kSignals) sigaddset(&act.sa_mask, s);
        sigaction(kSignals[i], &act, nullptr);
    }
    std::atexit(remove_registered);
}

}  // namespace

bool remove_tree_now(const char *path) { return remove_entry(AT_FDCWD, path, 0); }

bool remove_at_exit(const std::string &path) {
    if (path.empty() || path[0] != '/' || path.size() >= kMaxPathBytes) return false;
    std::call_once(handlers_installed, install_handlers);
    std::lock_guard<std::mutex> lock(slots_mutex);
    for (Slot &s : slots) {
        if (s.state.load(std::memory_order_relaxed) != Free) continue;
        s.state.store(Writing, std::memory_order_relaxed);
        std::memcpy(s.path, path.c_str(), path.size() + 1);
        s.owner = getpid();
        s.state.store(Ready, std::memory_order_release);
        return true;
    }
    return false;
}

void keep_at_exit(const std::string &path) {
    const pid_t self = getpid();
    std::lock_guard<std::mutex> lock(slots_mutex);
    for (Slot &s : slots) {
        if (s.state.load(std::memory_order_acquire) != Ready || s.owner != self || path != s.path) continue;
        int expected = Ready;
        s.state.compare_exchange_strong(expected, Free, std::memory_order_acq_rel);
        return;
    }
}

}  // namespace ansor
