#pragma once
// The tuner's temporary directories: <TMPDIR>/<prefix>-<pid>-XXXXXX (TMPDIR
// or /tmp), where <prefix> starts with "ansor-" and <pid> is the process
// that made it. Each is removed by its owner when done, on SIGINT, SIGTERM
// or SIGHUP and at exit() (exit_cleanup.h); what a process killed otherwise
// leaves behind is swept by the next process that makes one: a directory of
// this user whose owner no longer runs is removed.
//
// The owner is judged by its pid in this pid namespace: tuners in separate
// pid namespaces (containers) must not share a TMPDIR. A reused pid keeps
// a dead owner's directory until that pid ends too.
#include <sys/types.h>

#include <string>

namespace ansor {

// $TMPDIR if set and not empty, else /tmp, made absolute.
std::string temp_root();

// Makes <temp_root()>/<prefix>-<pid>-XXXXXX and registers it for removal at
// exit. The first call of a process sweeps stale directories first. Throws
// UserError naming the directory if it cannot be made.
std::string make_temp_dir(const std::string &prefix);

// Removes a directory make_temp_dir made, with everything in it.
void remove_temp_dir(const std::string &path);

// A directory from make_temp_dir, removed when this goes.
class TempDir {
public:
    TempDir() = default;
    explicit TempDir(const std::string &prefix) : path_(make_temp_dir(prefix)) {}
    ~TempDir() { reset(); }
    TempDir(TempDir &&o) noexcept : path_(std::move(o.path_)) { o.path_.clear(); }
    TempDir &operator=(TempDir &&o) noexcept;
    TempDir(const TempDir &) = delete;
    TempDir &operator=(const TempDir &) = delete;
    const std::string &path() const { return path_; }
    // Removes it now.
    void reset();

private:
    std::string path_;
};

// The owner pid in the name of a directory make_temp_dir makes ("ansor-fresh-1234-Ab3dEf"), or 0.
pid_t temp_dir_owner(const std::string &name);

// Removes the directories under `root` that make_temp_dir made for a
// process of this user that no longer runs; returns how many.
int sweep_stale_temp_dirs(const std::string &root);

}  // namespace ansor
