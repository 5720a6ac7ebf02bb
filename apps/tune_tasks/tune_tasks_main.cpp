// ansor_tune_tasks: tunes the tasks of a task file together under one trial
// budget (docs/tuning_networks.md). The task scheduler
// (src/scheduler/) hands out units, one unit = one tuning round of one task
// (HL_ANSOR_MEASURES_PER_ROUND measurements); every measurement is appended
// to the tuning log, so that building a generator afterwards with
// HL_ANSOR_LOG=<log> HL_ANSOR_TRIALS=0 applies the best program found, and a
// second run resumes: each task's logged trials count as spent units.
//
//   ansor_tune_tasks --tasks networks/resnet50.json --log resnet50.jsonl --trials 1000
//       [--policy gradient|round-robin] [--objective f1|f2|f3|f4] [--seed 0]
//       [--csv units.csv] [--model per-task|family|monolithic] [--families generator|structure]
//       [--foresee K] [--early-stopping K] [--alpha A] [--beta B] [--window DT] [--epsilon E]
//       [--parallelism P]
//   ansor_tune_tasks --generator conv2d_bias_act --param N=1 --param H=56 ... --log L --trials 200
//       (one pipeline: a task file of one task)
//
// Started by mpirun (docs/distributed_tuning.md), rank 0 runs all of the
// above and is the only writer of the log; every other rank builds and
// measures the candidates rank 0 sends it (distributed/).
#include "cli.h"
#include "families.h"
#include "shared_cost_model.h"
#include "task_run.h"

#include "distributed/measure_worker.h"
#include "distributed/mpi_transport.h"
#include "distributed/remote_measurer.h"
#include "distributed/worker_pool.h"

#include "model/make_cost_model.h"
#include "records/record_conditions.h"
#include "records/pretraining_set.h"
#include "scheduler/task_scheduler.h"
#include "util/errors.h"
#include "util/target.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <sys/stat.h>

namespace {

using namespace ansor_tasks;

const char *const default_target = ansor::project_cpu_target();

struct Args {
    std::string tasks, log, csv;
    int trials = 0;
    std::string policy = "gradient", objective = "f1", model = "per-task", families = "generator";
    uint64_t seed = 0;
    int foresee = 0;
    std::optional<int> early_stopping;
    ansor::TaskSchedulerOptions scheduler;
    int parallelism = 2;
    std::string target = default_target;
    bool list = false;  // print the tasks and stop
    // One pipeline instead of a task file (--generator, --param K=V ...).
    std::string generator;
    ansor_tasks::GeneratorParamValues params;
    // Distributed runs: how long rank 0 waits for the workers' hellos, and
    // for a word from a worker before it takes it for dead.
    double worker_hello_s = 60, worker_silence_s = 30;
    std::string stats;  // JSON file of the run's throughput and the workers' chunk timings
};

// The command line, filling a (its members hold the defaults).
ansor_cli::Parser command_line(Args &a, std::vector<std::string> &params, int &early_stopping) {
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

// The checks of the values parse() cannot make.
void check(const ansor_cli::Parser &p, Args &a, const std::vector<std::string> &params, int early_stopping) {
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
    if (a.policy != "gradient" && a.policy != "round-robin") p.fail("unknown --policy " + a.policy);
    if (a.objective != "f1" && a.objective != "f2" && a.objective != "f3" && a.objective != "f4")
        p.fail("unknown --objective " + a.objective);
    if (a.model != "per-task" && a.model != "family" && a.model != "monolithic") p.fail("unknown --model " + a.model);
    if (a.families != "generator" && a.families != "structure") p.fail("unknown --families " + a.families);
    a.scheduler.policy = a.policy == "gradient" ? ansor::SchedulePolicy::Gradient : ansor::SchedulePolicy::RoundRobin;
    a.scheduler.seed = a.seed;
    // f4 = f1 with per-task early stopping (docs/task_scheduler.md).
    a.scheduler.early_stopping = a.early_stopping.value_or(a.objective == "f4" ? 4 : 0);
    if (a.objective == "f4" && a.scheduler.early_stopping == 0) p.fail("--objective f4 needs --early-stopping > 0");
}

double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

std::string ms_text(double ms) {
    if (!std::isfinite(ms)) return "-";
    char b[32];
    std::snprintf(b, sizeof b, "%.5g", ms);
    return b;
}

bool file_is_empty(const std::string &path) {
    struct stat st;
    return stat(path.c_str(), &st) != 0 || st.st_size == 0;
}

// Rebuilds the scheduler's view of earlier runs from the log: each task's
// records, in file order, in units of one round; the units of all tasks are
// replayed in the order their last records were written.
struct LoggedUnit {
    int last_line, task;
    double best;
};

std::vector<LoggedUnit> logged_units(const std::vector<std::unique_ptr<TaskRun>> &runs, int round) {
    std::vector<LoggedUnit> units;
    for (size_t i = 0; i < runs.size(); i++) {
        const auto &recs = runs[i]->logged();
        double best = INFINITY;
        for (size_t r = 0; r < recs.size(); r++) {
            if (recs[r].ok) best = std::min(best, recs[r].min_ms);
            if ((r + 1) % round == 0 || r + 1 == recs.size()) units.push_back({recs[r].line, (int)i, best});
        }
    }
    std::stable_sort(units.begin(), units.end(), [](const LoggedUnit &a, const LoggedUnit &b) { return a.last_line < b.last_line; });
    return units;
}

// The run's throughput and, distributed, the pool's counts and every
// answered chunk's timings: the input of scripts/simulate_distributed_tuning.py.
void write_stats(const std::string &path, double wall_s, int trials, const Transport *transport, const WorkerPool *pool) {
    nlohmann::json j = {{"ranks", transport ? transport->size() : 1}, {"wall_s", wall_s}, {"trials", trials},
                        {"candidates_per_minute", wall_s > 0 ? 60.0 * trials / wall_s : 0.0}};
    if (pool) {
        const WorkerPool::Counts &c = pool->counts();
        j["rounds"] = c.rounds;
        j["measuring_s"] = c.measuring_s;
        j["workers_lost"] = c.workers_lost;
        j["requeued"] = c.requeued;
        nlohmann::json chunks = nlohmann::json::array();
        for (const auto &t : pool->chunk_timings()) {
            chunks.push_back({{"worker", t.worker}, {"candidates", t.candidates}, {"round_trip_s", t.round_trip_s},
                              {"worker_s", t.worker_s}, {"compile_s", t.compile_s}, {"run_s", t.run_s}});
        }
        j["chunks"] = chunks;
        // Rank 0's search between consecutive rounds (the first round's is
        // sampling; later ones evolve under a trained model).
        nlohmann::json gaps = nlohmann::json::array();
        const auto &spans = pool->round_spans();
        for (size_t i = 1; i < spans.size(); i++) gaps.push_back(spans[i].first - spans[i - 1].second);
        j["search_gaps_s"] = gaps;
    }
    std::ofstream out(path);
    out << j.dump(1) << "\n";
    if (!out) throw ansor::UserError("cannot write " + path);
}

}  // namespace

int main(int argc, char **argv) {
    Args args;
    std::vector<std::string> params;
    int early_stopping = 0;
    ansor_cli::Parser p = command_line(args, params, early_stopping);
    p.parse(argc, argv);
    check(p, args, params, early_stopping);
    for (const std::string &replaced : options_replaced_by_flags()) {
        if (std::getenv(replaced.c_str())) {
            p.fail(replaced + " is set; ansor_tune_tasks takes --trials, --log and --seed instead");
        }
    }
    try {
        TuningSetup setup;
        setup.target = Halide::Target(args.target);
        setup.parallelism = args.parallelism;
        setup.options = ansor::Options::from_environment();
        setup.seed = args.seed;
        setup.log = args.log;
        const int round = setup.options.measures_per_round;
        const bool progress = setup.options.progress;

        // Under mpirun the other ranks measure (they never return from
        // here) and rank 0 goes on with a pool of them. The worker pool is
        // declared after the transport: it stops the workers before MPI finalises.
        std::unique_ptr<Transport> transport;
        std::unique_ptr<WorkerPool> workers;
        if (launched_by_mpi()) {
            transport = start_mpi(&argc, &argv);
            if (transport->rank() != 0) {
                WorkerSetup worker;
                worker.target = args.target;
                if (std::getenv("HL_ANSOR_BUILDERS")) worker.builders = setup.options.builders;
                return run_measure_worker(*transport, worker);
            }
            if (transport->size() > 1) {
                if (!launcher_survives_rank_failure()) {
                    std::fprintf(stderr, "[mpi] warning: mpirun was not given --enable-recovery: a worker rank that "
                                         "dies ends the whole job (the log keeps what was measured)\n");
                }
                WorkerPoolOptions po;
                po.version = build_version();
                po.target = args.target;
                po.measure = ansor::measure_options(setup.options, setup.target, setup.parallelism);
                po.hello_timeout_s = args.worker_hello_s;
                po.silence_limit_s = args.worker_silence_s;
                po.progress = progress;
                workers = std::make_unique<WorkerPool>(*transport, po);
                workers->start();
                setup.measure_host = workers->host_class();
                std::fprintf(stderr, "[mpi] %d of %d worker rank(s) measure; records name host \"%s\"\n",
                             workers->live_workers(), transport->size() - 1,
                             setup.measure_host.empty() ? ansor::host_cpu_id().c_str() : setup.measure_host.c_str());
            }
        }

        TaskFile file;
        if (!args.generator.empty()) {
            // One pipeline: a task file of one task, named after its generator.
            nlohmann::json one = {{"network", args.generator},
                                  {"tasks", {{{"name", args.generator}, {"generator", args.generator}, {"params", args.params}}}}};
            file = parse_task_file(one, "--generator " + args.generator);
        } else {
            file = load_task_file(args.tasks);
        }
        FamilyRule rule = parse_family_rule(args.families);
        std::vector<std::unique_ptr<TaskRun>> runs;
        std::vector<ansor::Task> tasks;
        std::map<std::string, std::string> task_of_key;
        for (const TaskSpec &spec : file.tasks) {
            try {
                runs.push_back(std::make_unique<TaskRun>(spec, setup));
            } catch (const std::exception &e) {
                throw ansor::UserError(file.path + ": task '" + spec.name + "': " + e.what());
            }
            const TaskRun &run = *runs.back();
            auto [it, fresh] = task_of_key.emplace(run.key().hash, spec.name);
            if (!fresh) {
                throw ansor::UserError(file.path + ": tasks '" + it->second + "' and '" + spec.name +
                                       "' are the same pipeline (key " + run.key().hash + "); make them one task and add their weights");
            }
            ansor::Task t;
            t.name = spec.name;
            t.weight = spec.weight;
            t.networks.clear();
            for (const auto &n : spec.networks) t.networks.push_back(file.network_index(n));
            t.flops = run.dag().flop_count();
            t.reference_latency = spec.reference_ms;
            t.family = family_key(spec, run.key(), rule);
            tasks.push_back(t);
        }

        if (args.list) {
            std::printf("%-32s %-18s %6s %10s %-24s %-16s  %s\n", "task", "generator", "weight", "GFLOP", "family", "key", "params");
            for (size_t i = 0; i < tasks.size(); i++) {
                std::printf("%-32s %-18s %6g %10.4f %-24s %-16s  %s\n", tasks[i].name.c_str(), file.tasks[i].generator.c_str(),
                            tasks[i].weight, tasks[i].flops / 1e9, tasks[i].family.c_str(), runs[i]->key().hash.c_str(),
                            generator_param_args(file.tasks[i].params).c_str());
            }
            return 0;
        }

        std::shared_ptr<const ansor::Objective> objective;
        if (args.objective == "f1" || args.objective == "f4") objective = ansor::make_weighted_sum_objective(tasks);
        else if (args.objective == "f2") {
            std::vector<double> req;
            for (const auto &n : file.networks) {
                if (!n.latency_requirement_ms)
                    throw ansor::UserError(file.path + ": --objective f2 needs networks." + n.name + ".latency_requirement_ms");
                req.push_back(*n.latency_requirement_ms);
            }
            objective = ansor::make_latency_requirement_objective(tasks, req);
        } else {
            try {
                objective = ansor::make_geomean_speedup_objective(tasks, ansor::reference_network_latencies(tasks));
            } catch (const std::invalid_argument &e) {
                throw ansor::UserError(file.path + ": --objective f3 needs reference_ms on every task (" + e.what() + ")");
            }
        }
        ansor::TaskScheduler scheduler(tasks, objective, args.scheduler);

        // Cost models: one per task (the session's own, as the plugin's), per
        // family (FamilySeer) or one for all (Ansor), shared through the pool.
        const bool shared_models = args.model != "per-task" && setup.options.cost_model == ansor::CostModelKind::XGBoost;
        SharedModelPool pool(args.seed, ansor::pack_sum_objective(setup.options.model_objective));
        // A pretraining set (HL_ANSOR_PRETRAIN) trains every model on other
        // pipelines' programs first: read once, for the pool or for every task's session.
        std::shared_ptr<const ansor::PretrainingSet> pretraining;
        const std::string &pretrain_path = setup.options.pretrain;
        if (!pretrain_path.empty()) {
            if (setup.options.cost_model != ansor::CostModelKind::XGBoost)
                throw ansor::UserError(std::string("HL_ANSOR_PRETRAIN needs HL_ANSOR_COST_MODEL=xgboost, not ") +
                                       ansor::choice_name(setup.options.cost_model));
            pretraining = std::make_shared<ansor::PretrainingSet>(ansor::read_pretraining_set(pretrain_path));
            if (shared_models) {
                std::vector<std::string> task_keys;
                for (const auto &r : runs) task_keys.push_back(r->key().hash);
                ansor::PretrainingSummary s = pool.pretrain(*pretraining, task_keys, setup.target.to_string(), pretrain_path);
                std::fprintf(stderr, "[tasks] every %s model starts from %zu programs of %zu other pipelines in %s\n",
                             args.model.c_str(), s.programs, s.pipelines, pretrain_path.c_str());
                pretraining.reset();  // the pool holds what it needs
            }
        }
        // Start every task's session (reading its history from the log); the
        // log's units count as spent.
        int spent = 0;
        for (size_t i = 0; i < runs.size(); i++) {
            ansor::SessionParts parts;
            parts.pretraining = pretraining;
            if (workers) {
                TaskDescriptor task;
                task.index = (int)i;
                task.name = file.tasks[i].name;
                task.generator = file.tasks[i].generator;
                task.params = file.tasks[i].params;
                task.parallelism = setup.parallelism;
                task.key = runs[i]->key().hash;
                const TaskRun *run = runs[i].get();
                WorkerPool *pool_of_workers = workers.get();
                parts.make_measurer = [pool_of_workers, task, run](const ansor::PipelineDAG &dag, const ansor::MeasureOptions &m) {
                    return std::make_unique<RemoteMeasurer>(*pool_of_workers, task, dag, run->key(), m);
                };
            }
            if (shared_models) {
                const std::string group = args.model == "family" ? tasks[i].family : "all";
                const std::string task_key = runs[i]->key().hash;
                parts.make_model = [&pool, group, task_key](const ansor::PipelineDAG &dag) {
                    return pool.view(group, task_key, dag);
                };
            }
            runs[i]->start(std::move(parts));
            spent += (int)runs[i]->logged().size();
        }
        const std::vector<LoggedUnit> resumed = logged_units(runs, round);
        for (const LoggedUnit &u : resumed) {
            if (scheduler.status(u.task) == ansor::TaskStatus::Active) scheduler.report(u.task, u.best);
        }

        std::ofstream csv;
        auto network_latencies = [&] { return ansor::network_latencies(tasks, scheduler.best_latencies()); };
        auto csv_row = [&](int unit, int task, int total_trials, double elapsed) {
            if (!csv.is_open()) return;
            csv << unit << "," << tasks[task].name << "," << runs[task]->trials() << "," << total_trials << ","
                << elapsed << "," << scheduler.objective_value();
            for (double n : network_latencies()) csv << "," << n;
            for (int i = 0; i < (int)tasks.size(); i++) csv << "," << scheduler.best(i);
            csv << "\n";
            csv.flush();
        };
        if (!args.csv.empty()) {
            bool fresh = file_is_empty(args.csv);
            csv.open(args.csv, std::ios::app);
            if (!csv) throw ansor::UserError("cannot write " + args.csv);
            if (fresh) {
                csv << "unit,task,task_trials,total_trials,elapsed_s,objective";
                for (const auto &n : file.networks) csv << ",network:" << n.name;
                for (const auto &t : tasks) csv << ",best_ms:" << t.name;
                csv << "\n";
                // Rows for the units a resumed log already holds (elapsed unknown: 0).
                ansor::TaskScheduler replay(tasks, objective, args.scheduler);
                int trials_so_far = 0, unit = 0;
                std::vector<int> task_trials(tasks.size(), 0);
                for (const LoggedUnit &u : resumed) {
                    if (replay.status(u.task) != ansor::TaskStatus::Active) continue;
                    replay.report(u.task, u.best);
                    int n = 0;
                    for (const auto &r : runs[u.task]->logged()) n += r.line <= u.last_line;
                    trials_so_far += n - task_trials[u.task];
                    task_trials[u.task] = n;
                    csv << ++unit << "," << tasks[u.task].name << "," << n << "," << trials_so_far << ",0,"
                        << replay.objective_value();
                    for (double x : ansor::network_latencies(tasks, replay.best_latencies())) csv << "," << x;
                    for (int i = 0; i < (int)tasks.size(); i++) csv << "," << replay.best(i);
                    csv << "\n";
                }
                csv.flush();
            }
        }

        std::fprintf(stderr, "[tune] %s: %zu tasks, %zu networks; budget %d trials (%d in the log already), "
                             "units of %d; policy %s, objective %s, model %s, foresee %d; log %s\n",
                     file.path.c_str(), tasks.size(), file.networks.size(), args.trials, spent, round,
                     args.policy.c_str(), args.objective.c_str(), args.model.c_str(), args.foresee, args.log.c_str());

        auto start = std::chrono::steady_clock::now();
        int spent_now = 0;
        auto print_state = [&](int task, int measured) {
            if (!progress) return;
            double elapsed = seconds_since(start);
            int done = spent + spent_now;
            double left = spent_now > 0 ? elapsed / spent_now * std::max(0, args.trials - done) : 0;
            std::fprintf(stderr, "[tune] unit %d: %s +%d trials | objective %s %.6g | trials %d/%d | elapsed %.0f s, left ~%.0f s\n",
                         scheduler.total_units(), tasks[task].name.c_str(), measured, args.objective.c_str(),
                         scheduler.objective_value(), done, args.trials, elapsed, left);
            std::vector<double> nets = network_latencies();
            for (size_t j = 0; j < nets.size(); j++)
                std::fprintf(stderr, "[tune]   network %-16s %s ms\n", file.networks[j].name.c_str(), ms_text(nets[j]).c_str());
            for (int i = 0; i < (int)tasks.size(); i++) {
                std::fprintf(stderr, "[tune]   %-28s w %-4g trials %4d  best %10s ms  %s%s\n", tasks[i].name.c_str(),
                             tasks[i].weight, runs[i]->trials(), ms_text(scheduler.best(i)).c_str(),
                             ansor::task_status_name(scheduler.status(i)), i == task ? "  <" : "");
            }
        };

        while (spent + spent_now < args.trials) {
            std::optional<int> next = scheduler.next_task();
            if (!next) {
                std::fprintf(stderr, "[tune] every task is retired; stopping with %d trials left\n",
                             args.trials - spent - spent_now);
                break;
            }
            const int i = *next;
            const int want = std::min(round, args.trials - spent - spent_now);
            int measured = 0;
            try {
                measured = runs[i]->tune(want);
            } catch (const std::exception &e) {
                // A pipeline that cannot run at all (its reference fails) has no
                // valid program; the scheduler retires it after its cap.
                std::fprintf(stderr, "[tune] task %s failed: %s\n", tasks[i].name.c_str(), e.what());
            }
            // A unit that measured nothing (an exhausted space, a failing task)
            // still costs one trial, so that the loop ends.
            spent_now += std::max(measured, 1);
            scheduler.report(i, runs[i]->best_ms());
            if (args.foresee > 0) {
                std::vector<ansor::State> found = runs[i]->last_unit_best(args.foresee);
                for (int j = 0; j < (int)tasks.size(); j++) {
                    if (j == i || tasks[j].family != tasks[i].family || scheduler.status(j) != ansor::TaskStatus::Active) continue;
                    std::vector<ansor::State> moved;
                    for (const auto &s : found)
                        if (auto t = runs[j]->transfer(s, *runs[i])) moved.push_back(std::move(*t));
                    runs[j]->suggest(std::move(moved));
                }
            }
            csv_row(scheduler.total_units(), i, spent + spent_now, seconds_since(start));
            print_state(i, measured);
        }

        std::printf("%-28s %6s %6s %8s %12s %10s  %s\n", "task", "weight", "trials", "fail", "best ms", "status", "family");
        for (int i = 0; i < (int)tasks.size(); i++) {
            std::printf("%-28s %6g %6d %8d %12s %10s  %s\n", tasks[i].name.c_str(), tasks[i].weight, runs[i]->trials(),
                        runs[i]->failures(), ms_text(scheduler.best(i)).c_str(), ansor::task_status_name(scheduler.status(i)),
                        tasks[i].family.c_str());
        }
        std::vector<double> nets = network_latencies();
        for (size_t j = 0; j < nets.size(); j++)
            std::printf("network %s: sum of weight x best latency = %s ms\n", file.networks[j].name.c_str(), ms_text(nets[j]).c_str());
        std::printf("objective %s = %.6g after %d units, %d trials (%d this run)\n", args.objective.c_str(),
                    scheduler.objective_value(), scheduler.total_units(), spent + spent_now, spent_now);
        if (args.foresee > 0) {
            int moved = 0;
            for (const auto &r : runs) moved += r->transferred_measured();
            std::printf("foresee: %d measurements were programs passed on within a family\n", moved);
        }
        if (!args.stats.empty()) write_stats(args.stats, seconds_since(start), spent_now, transport.get(), workers.get());
        if (workers) {
            const WorkerPool::Counts &c = workers->counts();
            std::printf("workers: %lld candidates sent in %lld chunks, %lld results back, %lld requeued after a lost "
                        "worker, %lld failed as lost, %lld measured on rank 0, %d worker(s) lost\n",
                        (long long)c.candidates_sent, (long long)c.chunks_sent, (long long)c.results,
                        (long long)c.requeued, (long long)c.lost_failed, (long long)c.measured_here, c.workers_lost);
            std::printf("%s", workers->describe_workers().c_str());
        }
        return 0;
    } catch (const ansor::UserError &e) {
        std::fprintf(stderr, "ansor_tune_tasks: %s\n", e.what());
        return 1;
    } catch (const std::invalid_argument &e) {
        std::fprintf(stderr, "ansor_tune_tasks: %s\n", e.what());
        return 1;
    }
}
