// The tools' command-line helper: each option or positional argument is
// declared with the variable it fills, whose type is the value's kind and
// whose value before parse() the default: bool (a flag, set when given),
// std::string, int, long, unsigned long (uint64_t, size_t), double, or a
// list (std::vector of std::string, int or unsigned long) whose items are
// split on commas; the first time a list option is given replaces the
// default, later times add to it. Options start with "--" and take the next
// argument, or what follows "=", as their value. A bad command line prints
// the problem and the usage (made from the declarations) and exits; --help
// prints the usage and exits 0.
//
//   ansor_cli::Parser p("ansor_remeasure", "Programs of a log measured again.");
//   p.positional("LOG", &a.log, "the tuning log");
//   p.option("--op", &a.op, "the operator and shape", "OP:SHAPE").required();
//   p.option("--programs", &a.programs, "programs measured");
//   p.parse(argc, argv);
//   if (a.programs < 2) p.fail("--programs must be at least 2");
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ansor_cli {

// What is wrong with a command line, naming the argument.
struct Error : std::runtime_error {
    using std::runtime_error::runtime_error;
};
// --help was given (thrown by parse_or_throw only).
struct HelpAsked {};

// One declared option or positional argument.
struct Arg {
    std::string name, metavar, help, default_text;
    bool positional = false, flag = false, list = false;
    bool required = false, split = true, greedy = false, given = false;
    std::function<void(const std::string &)> set;  // throws Error when malformed
    std::function<void()> clear;                   // lists: forget the default
};

void bind(Arg &a, bool *v);
void bind(Arg &a, std::string *v);
void bind(Arg &a, int *v);
void bind(Arg &a, long *v);
void bind(Arg &a, unsigned long *v);
void bind(Arg &a, double *v);
void bind(Arg &a, std::vector<std::string> *v);
void bind(Arg &a, std::vector<int> *v);
void bind(Arg &a, std::vector<unsigned long> *v);

class Parser {
public:
    // program: the name in messages and usage; summary: what the tool does,
    // printed under the usage line; error_status: the exit status of a bad
    // command line.
    explicit Parser(std::string program, std::string summary = "", int error_status = 2);
    Parser(Parser &&) = default;  // (a copy's arguments would still refer to the original)
    Parser(const Parser &) = delete;

    // An option; metavar names its value in the usage (default: from the kind).
    template <typename T>
    Parser &option(const std::string &name, T *into, const std::string &help, const std::string &metavar = "") {
        return bind(add(name, false, help, metavar), into), *this;
    }
    // A positional argument, filled in declaration order; required unless
    // optional(). A list positional takes all the positional arguments left.
    template <typename T>
    Parser &positional(const std::string &name, T *into, const std::string &help) {
        return bind(add(name, true, help, name), into), *this;
    }

    // Modifiers of the argument declared last.
    Parser &required();
    Parser &optional();
    Parser &whole();   // a list whose items are not split on commas
    Parser &greedy();  // a list option that also takes the arguments after its value, up to the next "--..."

    // Fills the variables. A bad command line prints the problem and the
    // usage to stderr and exits with error_status; --help prints the usage to
    // stdout and exits 0.
    void parse(int argc, const char *const *argv);
    // The same, throwing Error or HelpAsked instead of exiting.
    void parse_or_throw(const std::vector<std::string> &args);

    // Whether the option or positional argument was on the command line.
    bool given(const std::string &name) const;
    std::string usage() const;
    // A problem the tool finds after parse(): printed with the usage, exits error_status.
    [[noreturn]] void fail(const std::string &problem) const;

private:
    Arg &add(const std::string &name, bool positional, const std::string &help, const std::string &metavar);

    std::string program_, summary_;
    int error_status_;
    std::vector<Arg> args_;
};

}  // namespace ansor_cli
