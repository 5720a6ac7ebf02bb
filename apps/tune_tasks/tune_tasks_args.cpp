#include "tune_tasks_args.h"

#include "cli.h"

#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>

namespace ansor_tasks {

namespace {

// The command line, filling a (its members hold the defaults).
ansor_cli::Parser command_line(TuneTasksArgs &a, std::vector<std::string> &params, int &early_stopping) {
    ansor_cli::Parser p("ansor_tune_tasks",
                        "Tunes many tasks (networks) together under one budget of --trials measurements:\n"
                        "  ansor_tune_tasks --tasks FILE.json --log LOG.jsonl --trials N\n"
                        "  ansor_tune_tasks --generator NAME [--param K=V ...] --log LOG.jsonl --trials N   (one pipeline)\n"
                        "  ansor_tune_tasks --tasks FILE.json --list     (build every task, print it, tune nothing)\n"
                        "Under mpirun (docs/distributed_tuning.md) rank 0 tunes and the other ranks measure.\n"
                        "Search settings come from the plugin's HL_ANSOR_* variables (README); HL_ANSOR_TRIALS,\n"
                        "HL_ANSOR_LOG and HL_ANSOR_SEED are replaced by --trials, --log and --seed.");
    p.option("--tasks", &a.tasks, "the task file", "FILE.json");
    p.option("--generator", &a.generator, "one pipeline instead of a task file", "NAME");
    p.option("--param", &params, "a generator parameter of --generator", "K=V").whole();
    p.option("--log", &a.log, "the tuning log (required unless --list)", "LOG.jsonl");
    p.option("--trials", &a.trials, "measurements in all, >= 1 (required unless --list)");
    p.option("--list", &a.list, "builds every task, prints it and tunes nothing");
    p.option("--policy", &a.policy, "the task scheduler's policy", "gradient|round-robin");
    p.option("--objective", &a.objective, "the objective over the networks", "f1|f2|f3|f4");
    p.option("--seed", &a.seed, "the seed", "S");
    p.option("--csv", &a.csv, "a CSV of the run", "FILE");
    p.option("--model", &a.model, "one cost model per task, per family (FamilySeer) or for all tasks (Ansor)", "per-task|family|monolithic");
    p.option("--families", &a.families, "families of tasks without one: by core operation or by operation sequence", "generator|structure");
    p.option("--foresee", &a.foresee, "passes each unit's K fastest new programs on to its family (0: off)", "K");
    p.option("--early-stopping", &early_stopping, "units a task may take without improvement before it is retired, >= 0 "
                                                  "(default 0; 4 with f4)", "K");
    p.option("--alpha", &a.scheduler.alpha, "weight of the observed slope against the optimistic guess", "A");
    p.option("--beta", &a.scheduler.beta, "a task is assumed able to reach 1/B of a similar task's best flop/s", "B");
    p.option("--window", &a.scheduler.backward_window, "units the observed slope looks back, >= 1", "DT");
    p.option("--epsilon", &a.scheduler.epsilon, "probability of giving a unit to a random active task", "E");
    p.option("--parallelism", &a.parallelism, "the DAG analysis's parallelism, >= 1", "P");
    p.option("--target", &a.target, "the Halide target", "T");
    p.option("--worker-hello", &a.worker_hello_s, "seconds rank 0 waits for the workers' hellos", "S");
    p.option("--worker-silence", &a.worker_silence_s, "seconds of silence before a worker is taken for dead", "S");
    p.option("--stats", &a.stats, "a JSON file of the run's throughput and the workers' chunk timings", "FILE");
    return p;
}

// Fails the command line unless `parse` accepts the flag's value.
template <typename Parse>
void known(const ansor_cli::Parser &p, const std::string &flag, const std::string &value, Parse parse) {
    try {
        parse(value);
    } catch (const std::exception &) {
        p.fail("unknown " + flag + " " + value);
    }
}

// The checks of the values parse() cannot make.
void check(const ansor_cli::Parser &p, TuneTasksArgs &a, const std::vector<std::string> &params, int early_stopping) {
    auto at_least = [&](const char *flag, long v, long min) {
        if (p.given(flag) && (v < min || v > 1000000000))
            p.fail(std::string(flag) + " needs an integer >= " + std::to_string(min) + ", got " + std::to_string(v));
    };
    at_least("--trials", a.trials, 1);
    at_least("--foresee", a.foresee, 0);
    at_least("--early-stopping", early_stopping, 0);
    at_least("--window", a.scheduler.backward_window, 1);
    at_least("--parallelism", a.parallelism, 1);
    const std::pair<const char *, double> numbers[] = {{"--alpha", a.scheduler.alpha},
                                                       {"--beta", a.scheduler.beta},
                                                       {"--epsilon", a.scheduler.epsilon},
                                                       {"--worker-hello", a.worker_hello_s},
                                                       {"--worker-silence", a.worker_silence_s}};
    for (const auto &[flag, v] : numbers)
        if (!std::isfinite(v)) p.fail(std::string(flag) + " needs a number, got " + std::to_string(v));
    if (p.given("--early-stopping")) a.early_stopping = early_stopping;
    for (const std::string &v : params) {
        size_t eq = v.find('=');
        if (eq == std::string::npos || eq == 0) p.fail("--param needs NAME=VALUE, got '" + v + "'");
        a.params[v.substr(0, eq)] = v.substr(eq + 1);
    }
    if (a.tasks.empty() == a.generator.empty()) p.fail("give either --tasks or --generator");
    if (!a.params.empty() && a.generator.empty()) p.fail("--param goes with --generator");
    if (a.worker_hello_s <= 0 || a.worker_silence_s <= 0) p.fail("--worker-hello and --worker-silence need positive seconds");
    if (a.log.empty() && !a.list) p.fail("--log is required");
    if (a.trials <= 0 && !a.list) p.fail("--trials is required (the total number of measurements)");
    known(p, "--policy", a.policy, ansor::parse_schedule_policy);
    known(p, "--objective", a.objective, ansor::parse_network_objective);
    known(p, "--model", a.model, ansor::parse_model_grouping);
    known(p, "--families", a.families, ansor::parse_family_rule);
    // f4 = f1 with per-task early stopping (docs/task_scheduler.md).
    if (a.objective == "f4" && a.early_stopping == 0) p.fail("--objective f4 needs --early-stopping > 0");
}

}  // namespace

TuneTasksArgs parse_tune_tasks_args(int argc, char **argv) {
    TuneTasksArgs args;
    std::vector<std::string> params;
    int early_stopping = 0;
    ansor_cli::Parser p = command_line(args, params, early_stopping);
    p.parse(argc, argv);
    check(p, args, params, early_stopping);
    for (const std::string &replaced : ansor::options_replaced_by_flags()) {
        if (std::getenv(replaced.c_str())) {
            p.fail(replaced + " is set; ansor_tune_tasks takes --trials, --log and --seed instead");
        }
    }
    return args;
}

ansor::TuningSetup tuning_setup(const TuneTasksArgs &args) {
    ansor::TuningSetup setup;
    setup.target = Halide::Target(args.target);
    setup.parallelism = args.parallelism;
    setup.options = ansor::Options::from_environment();
    setup.seed = args.seed;
    setup.log = args.log;
    return setup;
}

ansor::TaskFile task_file(const TuneTasksArgs &args) {
    if (args.generator.empty()) return ansor::load_task_file(args.tasks);
    nlohmann::json one = {{"network", args.generator},
                          {"tasks", {{{"name", args.generator}, {"generator", args.generator}, {"params", args.params}}}}};
    return ansor::parse_task_file(one, "--generator " + args.generator);
}

ansor::NetworkTunerSettings tuner_settings(const TuneTasksArgs &args, const ansor::TuningSetup &setup) {
    ansor::NetworkTunerSettings s;
    s.trials = args.trials;
    s.objective = ansor::parse_network_objective(args.objective);
    s.models = ansor::parse_model_grouping(args.model);
    s.families = ansor::parse_family_rule(args.families);
    s.foresee = args.foresee;
    s.early_stopping = args.early_stopping;
    s.scheduler = args.scheduler;
    s.scheduler.policy = ansor::parse_schedule_policy(args.policy);
    s.scheduler.seed = args.seed;
    s.csv = args.csv;
    s.progress = setup.options.progress;
    return s;
}

}  // namespace ansor_tasks
