#include "measure/temp_dirs.h"

#include "measure/exit_cleanup.h"
#include "util/errors.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <sys/stat.h>
#include <unistd.h>

namespace ansor {

namespace {

constexpr char kTempDirPrefix[] = "ansor-";

bool all_digits(const std::string &s) {
    if (s.empty()) return false;
    for (char c : s) {
        if (c < '0' || c > '9') return false;
    }
    return true;
}

bool runs(pid_t pid) { return kill(pid, 0) == 0 || errno != ESRCH; }

std::once_flag swept;

}  // namespace

std::string temp_root() {
    const char *tmp = std::getenv("TMPDIR");
    std::error_code ignored;
    const std::filesystem::path root = tmp && *tmp ? tmp : "/tmp";
    const std::filesystem::path absolute = std::filesystem::absolute(root, ignored);
    return (absolute.empty() ? root : absolute).string();
}

std::string make_temp_dir(const std::string &prefix) {
    const std::string root = temp_root();
    std::call_once(swept, [&] { sweep_stale_temp_dirs(root); });
    std::string path = root + "/" + prefix + "-" + std::to_string(getpid()) + "-XXXXXX";
    if (!mkdtemp(path.data())) {
        throw UserError("cannot create a temporary directory " + path + ": " + std::strerror(errno) +
                        " (TMPDIR names where they go)");
    }
    remove_at_exit(path);
    return path;
}

void remove_temp_dir(const std::string &path) {
    if (path.empty()) return;
    keep_at_exit(path);
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
}

TempDir &TempDir::operator=(TempDir &&o) noexcept {
    if (this != &o) {
        reset();
        path_ = std::move(o.path_);
        o.path_.clear();
    }
    return *this;
}

void TempDir::reset() {
    remove_temp_dir(path_);
    path_.clear();
}

pid_t temp_dir_owner(const std::string &name) {
    if (name.rfind(kTempDirPrefix, 0) != 0) return 0;
    const size_t suffix = name.rfind('-');
    if (suffix == std::string::npos || suffix == 0 || name.size() - suffix - 1 != 6) return 0;  // mkdtemp's XXXXXX
    const size_t pid_at = name.rfind('-', suffix - 1);
    if (pid_at == std::string::npos || pid_at + 1 < sizeof(kTempDirPrefix) - 1) return 0;
    const std::string pid = name.substr(pid_at + 1, suffix - pid_at - 1);
    if (!all_digits(pid) || pid.size() > 9) return 0;
    return (pid_t)std::stol(pid);
}

int sweep_stale_temp_dirs(const std::string &root) {
    int removed = 0;
    std::error_code error;
    for (const auto &entry : std::filesystem::directory_iterator(root, error)) {
        const std::string name = entry.path().filename().string();
        const pid_t owner = temp_dir_owner(name);
        if (owner <= 0 || owner == getpid() || runs(owner)) continue;
        struct stat st {};
        if (lstat(entry.path().c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid()) continue;
        std::error_code ignored;
        if (std::filesystem::remove_all(entry.path(), ignored) != static_cast<std::uintmax_t>(-1)) removed++;
    }
    return removed;
}

}  // namespace ansor
