#pragma once
// The one exception type for mistakes a user can fix (missing estimates,
// malformed options or logs). The plugin entry turns it into a Halide
// user_error so the message reaches the user the way Halide's own do.
#include <stdexcept>
#include <string>

namespace ansor {

class UserError : public std::runtime_error {
public:
    explicit UserError(const std::string &what) : std::runtime_error(what) {}
};

}  // namespace ansor
