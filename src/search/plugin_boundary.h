#pragma once
// The plugin's boundary with Halide: whatever escapes the autoscheduler
// (a UserError, an internal error of any exception type, an allocation
// failure, an exception that is not a std::exception) reaches the user as a
// Halide user error naming what went wrong, never as a raw C++ exception
// through Halide's code.
#include <exception>
#include <functional>
#include <string>

namespace ansor {

// One line saying what the exception is: a UserError's own message; for
// anything else, what kind of failure it is (out of memory, an invalid
// schedule state, a JSON error, an internal error), its C++ type and its
// message.
std::string describe_exception(const std::exception_ptr &e);

// Runs `body`; an exception from it becomes a Halide user error (a
// Halide::CompileError when Halide throws its errors, else Halide's abort)
// whose message starts with "Ansor autoscheduler: ".
void with_halide_user_errors(const std::function<void()> &body);

}  // namespace ansor
