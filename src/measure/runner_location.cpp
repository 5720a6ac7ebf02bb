#include "measure/runner_location.h"

#include "util/errors.h"

#include <cstdlib>
#include <dlfcn.h>
#include <filesystem>
#include <unistd.h>
#include <vector>

namespace ansor {

namespace {

bool runnable(const std::string &path) { return access(path.c_str(), X_OK) == 0; }

// Candidates run the runner from directories of their own, so a path
// relative to this process's directory (`-p build/libansor.so`) would not
// find it there.
std::string absolute(const std::string &path) {
    return std::filesystem::absolute(path).lexically_normal().string();
}

}  // namespace

std::string runner_path(const std::string &given) {
    if (!given.empty()) {
        if (runnable(given)) return absolute(given);
        throw UserError("HL_ANSOR_RUNNER names " + given + ", which is not an executable file");
    }
    std::vector<std::string> tried;
    Dl_info info;
    if (dladdr(reinterpret_cast<void *>(&runner_path), &info) && info.dli_fname) {
        const std::string binary = info.dli_fname;
        const size_t slash = binary.rfind('/');
        tried.push_back((slash == std::string::npos ? "." : binary.substr(0, slash)) + "/" + kRunnerName);
    }
#ifdef ANSOR_RUNNER_BUILD_PATH
    tried.push_back(ANSOR_RUNNER_BUILD_PATH);
#endif
    std::string list;
    for (const std::string &path : tried) {
        if (runnable(path)) return absolute(path);
        list += (list.empty() ? "" : ", ") + path;
    }
    throw UserError(std::string("cannot find ") + kRunnerName + " (tried " + list +
                    "); build it (target ansor_runner) or set HL_ANSOR_RUNNER to its path");
}

}  // namespace ansor
