#pragma once
// The harness's side of a worker process (worker_protocol.h): start one —
// forked to run a function, or an executable — talk to it line by line with
// a deadline on every answer, and kill it (with everything it started) when
// it overruns or when the harness is done with it. Each worker leads its own
// process group, so killing it also ends the measurement children an
// autoscheduler may have forked.
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ansor_harness {

struct Reply {
    enum class Kind { Answer, Timeout, Died } kind = Kind::Died;
    std::string text;  // the answer without kReplyPrefix; for Died, why (exit status or signal)
};

class WorkerProcess {
public:
    // Forks; the child gets the command pipe as stdin and the answer pipe as
    // stdout, runs `body` and exits with its return value. Flushes stdio first
    // so that nothing buffered in the parent is written twice.
    static std::unique_ptr<WorkerProcess> fork_function(const std::string &label, const std::function<int()> &body);
    // Forks and executes argv[0] with `env` added to the environment.
    static std::unique_ptr<WorkerProcess> spawn(const std::string &label, const std::vector<std::string> &argv,
                                                const std::vector<std::pair<std::string, std::string>> &env);
    ~WorkerProcess();
    WorkerProcess(const WorkerProcess &) = delete;
    WorkerProcess &operator=(const WorkerProcess &) = delete;

    // False once the worker died, timed out or was stopped.
    bool alive() const { return pid_ > 0; }
    const std::string &label() const { return label_; }

    // Sends one command line. Returns false if the worker is gone.
    bool send(const std::string &line);
    // The next answer within timeout_s seconds. Other stdout lines go to
    // stderr, prefixed with the label. On a timeout the worker is killed.
    Reply wait_reply(double timeout_s);
    // send() then wait_reply().
    Reply ask(const std::string &line, double timeout_s);
    // Asks the worker to quit, waits a little, then kills what is left.
    void stop();

private:
    WorkerProcess(std::string label, int pid, int to_child, int from_child);
    void kill_group();
    std::string died_reason();

    std::string label_;
    int pid_ = -1;
    int to_child_ = -1, from_child_ = -1;
    std::string pending_;  // bytes read past the last full line
};

}  // namespace ansor_harness
