// ansor_fuzz: random pipelines (generators/random/) scheduled by Ansor at a
// small budget and by Halide's Adams2019 and Mullapudi2016 as peers, every
// program checked against the unscheduled pipeline; counts of crashes,
// internal errors, wrong outputs and ok programs per scheduler
// (docs/fuzzing.md).
#include "cli.h"
#include "corpus_file.h"
#include "corpus_pipelines.h"
#include "fuzz_ansor.h"
#include "fuzz_peer.h"
#include "scheduled_check.h"
#include "util/errors.h"
#include "util/target.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

namespace {

struct FuzzOptions {
    uint64_t first = 0, last = 0;
    int stages = 0;
    int max_size = 512;
    int programs = 4;
    std::vector<std::string> peers = {"Adams2019", "Mullapudi2016"};
    std::string plugins = "/usr/lib/x86_64-linux-gnu/halide14";
    double peer_timeout = 120;
    std::string corpus, replay, dump;
    bool verbose = false, strict = false, describe = false;
    std::set<uint64_t> known;
};

FuzzOptions parse(int argc, char **argv) {
    FuzzOptions o;
    std::string seeds;
    unsigned long peer_timeout = 120;
    std::vector<unsigned long> known;
    ansor_cli::Parser p("ansor_fuzz",
                        "Random pipelines scheduled by Ansor and its peers, every program's output checked.\n"
                        "HL_ANSOR_* options apply to Ansor's session (HL_ANSOR_TIMEOUT, HL_ANSOR_TOLERANCE, HL_ANSOR_SEED...);\n"
                        "HL_BEAM_SIZE (Adams2019's beam) defaults to 1 here.");
    p.positional("SEEDS", &seeds, "A-B (inclusive) or N (seeds 0..N-1) of random pipelines").optional();
    p.option("--stages", &o.stages, "stages per pipeline (default 0: drawn per seed, 2..16, as the corpus does)");
    p.option("--max-size", &o.max_size, "the pipelines' max_size");
    p.option("--programs", &o.programs, "Ansor programs measured per pipeline, >= 1");
    p.option("--peers", &o.peers, "peer autoschedulers (none for Ansor only)", "LIST|none");
    p.option("--halide-plugins", &o.plugins, "where libautoschedule_<name>.so are", "DIR");
    p.option("--peer-timeout", &peer_timeout, "limit of one peer's schedule, compile and runs, in seconds", "S");
    p.option("--corpus", &o.corpus, "no search: measure the failed programs the corpus file recorded for SEEDS", "FILE");
    p.option("--replay", &o.replay,
             "no search: measure the programs of FILE, JSON lines of {\"seed\":S,\"stages\":N,\"max_size\":M,\n"
             "                             \"steps\":[canonical steps]} (SEEDS is ignored); a program the search now refuses\n"
             "                             to build or to draw counts as refused, not as a failure",
             "FILE");
    p.option("--dump", &o.dump, "append each failing Ansor program to FILE as a --replay line", "FILE");
    p.option("--verbose", &o.verbose, "print each failing Ansor program's schedule");
    p.option("--strict", &o.strict, "exit 1 if any Ansor program failed");
    p.option("--known", &known, "with --strict: failures on these seeds (open, documented bugs) do not fail the run", "S1,S2");
    p.option("--describe", &o.describe, "print each pipeline's stages and definitions, and check nothing");
    p.parse(argc, argv);
    if (o.peers == std::vector<std::string>{"none"}) o.peers.clear();
    o.peer_timeout = (double)peer_timeout;
    o.known.insert(known.begin(), known.end());
    if (o.stages < 0 || o.max_size < 0) p.fail("--stages and --max-size take whole numbers >= 0");
    if (!seeds.empty()) {
        auto seed = [&](const std::string &text) -> uint64_t {
            if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos || text.size() > 19)
                p.fail("bad SEEDS: '" + text + "'");
            return std::stoull(text);
        };
        const size_t dash = seeds.find('-');
        if (dash == std::string::npos) {
            const uint64_t n = seed(seeds);
            if (n == 0) p.fail("SEEDS: no seeds in '" + seeds + "'");
            o.last = n - 1;
        } else {
            o.first = seed(seeds.substr(0, dash));
            o.last = seed(seeds.substr(dash + 1));
            if (o.last < o.first) p.fail("SEEDS: empty range '" + seeds + "'");
        }
    } else if (o.replay.empty()) {
        p.fail("SEEDS missing");
    }
    if (o.programs < 1) p.fail("--programs must be at least 1");
    return o;
}

std::string lower(std::string s) {
    for (char &c : s) c = (char)std::tolower((unsigned char)c);
    return s;
}

// The failed programs the corpus recorded, per seed (of random pipelines of this max_size).
std::map<uint64_t, std::pair<int, std::vector<nlohmann::json>>> corpus_failures(const FuzzOptions &o) {
    std::map<uint64_t, std::pair<int, std::vector<nlohmann::json>>> out;
    for (const ansor_corpus::CorpusEntry &e : ansor_corpus::read_corpus(o.corpus).entries) {
        if (e.spec.generator != ansor_corpus::kRandomGenerator) continue;
        const uint64_t seed = (uint64_t)e.spec.params.at("seed");
        if (seed < o.first || seed > o.last) continue;
        for (const ansor_corpus::CorpusProgram &p : e.programs) {
            if (p.ok) continue;
            out[seed].first = (int)e.spec.params.at("stages");
            out[seed].second.push_back(p.steps);
        }
        if (e.spec.params.at("max_size") != o.max_size && out.count(seed)) {
            std::fprintf(stderr, "ansor_fuzz: seed %llu of the corpus has max_size %lld: use --max-size %lld\n",
                         (unsigned long long)seed, (long long)e.spec.params.at("max_size"),
                         (long long)e.spec.params.at("max_size"));
            std::exit(2);
        }
    }
    return out;
}

void print_seed(uint64_t seed, int stages, const std::vector<ansor_fuzz::Finding> &findings) {
    std::map<std::string, std::pair<int, int>> per;  // scheduler -> ok, all
    std::vector<std::string> order;
    for (const auto &f : findings) {
        if (!per.count(f.scheduler)) order.push_back(f.scheduler);
        per[f.scheduler].second++;
        if (f.outcome == ansor_fuzz::Outcome::Ok) per[f.scheduler].first++;
    }
    std::printf("seed %llu (%d stages):", (unsigned long long)seed, stages);
    for (const std::string &s : order) std::printf(" %s %d/%d ok", s.c_str(), per[s].first, per[s].second);
    for (const auto &f : findings) {
        if (f.outcome != ansor_fuzz::Outcome::Ok) {
            // The end of the error: Halide's warnings come first, the error last.
            const std::string &d = f.detail;
            const std::string shown = d.size() > 300 ? "..." + d.substr(d.size() - 300) : d;
            std::printf("\n  %s: %s: %s", f.scheduler.c_str(), ansor_fuzz::outcome_name(f.outcome), shown.c_str());
        }
    }
    std::printf("\n");
    std::fflush(stdout);
}

// Each peer's verdict on the seed, checked against one all-at-root run.
void add_peer_findings(const FuzzOptions &o, const ansor_fuzz::AnsorCheck &ansor,
                       const random_pipeline::RandomPipelineSpec &spec, std::vector<ansor_fuzz::Finding> &findings) {
    ansor_fuzz::Reference reference;
    try {
        auto build = [&spec]() { return random_pipeline::build_random_pipeline(spec).outputs(); };
        reference = ansor_fuzz::reference_outputs(build, ansor.target, ansor.parallelism);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "ansor_fuzz: seed %llu: the unscheduled pipeline failed: %s\n",
                     (unsigned long long)spec.seed, e.what());
        return;
    }
    for (const std::string &peer : o.peers) {
        ansor_fuzz::PeerCheck check{peer, ansor.target, ansor.parallelism, ansor.options.tolerance, o.peer_timeout};
        findings.push_back(ansor_fuzz::check_peer(check, spec, reference));
    }
}

}  // namespace

int main(int argc, char **argv) {
    const FuzzOptions o = parse(argc, argv);
    setenv("HL_BEAM_SIZE", "1", 0);  // Adams2019: greedy search; correctness, not speed, is checked
    ansor_fuzz::AnsorCheck ansor;
    try {
        ansor.options = ansor::Options::from_environment();
        for (const std::string &peer : o.peers) Halide::load_plugin(o.plugins + "/libautoschedule_" + lower(peer) + ".so");
    } catch (const std::exception &e) {
        std::fprintf(stderr, "ansor_fuzz: %s\n", e.what());
        return 2;
    }
    ansor.target = Halide::get_host_target();
    ansor.programs = o.programs;
    ansor.verbose = o.verbose;
    ansor.dump = o.dump;

    ansor_fuzz::FuzzTally tally;
    if (!o.replay.empty()) {
        std::ifstream in(o.replay);
        if (!in) {
            std::fprintf(stderr, "ansor_fuzz: cannot read %s\n", o.replay.c_str());
            return 2;
        }
        for (std::string line; std::getline(in, line);) {
            if (line.empty()) continue;
            const nlohmann::json j = nlohmann::json::parse(line);
            random_pipeline::RandomPipelineSpec spec;
            spec.seed = j.at("seed").get<uint64_t>();
            spec.stages = j.at("stages").get<int>();
            spec.max_size = j.at("max_size").get<int>();
            const std::vector<ansor_fuzz::Finding> findings = ansor_fuzz::replay_programs(ansor, spec, {j.at("steps")}, true);
            for (const auto &f : findings) tally.add(f);
            print_seed(spec.seed, spec.stages, findings);
        }
        std::printf("\n%s", tally.table().c_str());
        return o.strict && tally.bad("Ansor") > 0 ? 1 : 0;
    }

    std::map<uint64_t, std::pair<int, std::vector<nlohmann::json>>> replay;
    if (!o.corpus.empty()) replay = corpus_failures(o);

    for (uint64_t seed = o.first; seed <= o.last; seed++) {
        random_pipeline::RandomPipelineSpec spec;
        spec.seed = seed;
        spec.stages = o.stages > 0 ? o.stages : ansor_corpus::stages_for_seed(seed);
        spec.max_size = o.max_size;
        if (o.describe) {
            random_pipeline::RandomPipeline p = random_pipeline::build_random_pipeline(spec);
            std::printf("seed %llu (%d stages):\n%s\n%s\n", (unsigned long long)seed, spec.stages, p.summary().c_str(),
                        random_pipeline::describe_definitions(p.outputs()).c_str());
            continue;
        }
        std::vector<ansor_fuzz::Finding> findings;
        if (!o.corpus.empty()) {
            auto r = replay.find(seed);
            if (r == replay.end()) continue;
            spec.stages = r->second.first;
            findings = ansor_fuzz::replay_programs(ansor, spec, r->second.second, false);
        } else {
            findings = ansor_fuzz::check_ansor(ansor, spec);
            if (!o.peers.empty()) add_peer_findings(o, ansor, spec, findings);
        }
        for (const auto &f : findings) tally.add(f);
        print_seed(seed, spec.stages, findings);
    }
    std::printf("\nseeds %llu-%llu, max_size %d, %d Ansor programs per pipeline:\n%s", (unsigned long long)o.first,
                (unsigned long long)o.last, o.max_size, o.programs, tally.table().c_str());
    int unexpected = 0;
    for (const ansor_fuzz::Finding &f : tally.failures()) {
        if (f.scheduler == "Ansor" && f.outcome != ansor_fuzz::Outcome::Refused && !o.known.count(f.seed)) unexpected++;
    }
    if (o.strict && unexpected) std::printf("%d Ansor failures on seeds not listed as known\n", unexpected);
    return o.strict && unexpected > 0 ? 1 : 0;
}
