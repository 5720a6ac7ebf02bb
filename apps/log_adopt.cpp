// Adopts the version 1 records of a tuning log (written before records named
// the conditions they were measured under, and therefore never applied) by
// appending copies that name the conditions the user asserts: the given
// thread count, this host's CPU and this build's formats (docs/tuning_log.md,
// "Version 1 records"). The old log is only read.
//
//   ansor_log_adopt OLD NEW --threads N
//
// Exit status: 0 on success, 1 for bad usage or an unreadable log, 2 for a
// malformed log or a NEW that cannot be written.
#include "cli.h"
#include "records/tuning_log.h"
#include "util/errors.h"

#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char **argv) {
    std::string old_path, new_path;
    long threads = 0;
    ansor_cli::Parser p("ansor_log_adopt",
                        "Appends to NEW a copy of every version 1 record of OLD, stated as measured with N threads on\n"
                        "this host by this build's formats; use it only for a log measured that way.", 1);
    p.positional("OLD", &old_path, "the tuning log read");
    p.positional("NEW", &new_path, "the tuning log appended to");
    p.option("--threads", &threads, "the thread count OLD was measured with").required();
    p.parse(argc, argv);
    if (threads < 1 || threads > 4096) p.fail("--threads must be a whole number from 1 to 4096");
    struct stat st {};
    if (::stat(old_path.c_str(), &st) != 0) p.fail("no tuning log at '" + old_path + "'");
    try {
        int adopted = 0, kept = 0;
        ansor::TuningLog out(new_path);
        for (const ansor::TuningRecord &r : ansor::TuningLog(old_path).read_all()) {
            if (r.conditions) {
                kept++;
                continue;
            }
            ansor::MeasureConditions c = ansor::conditions_of_this_build(Halide::Target(), (int)threads);
            c.target = r.target;  // as the record spells it
            out.append(ansor::adopt_record(r, c, old_path + ":" + std::to_string(r.line)));
            adopted++;
        }
        std::printf("%s: adopted %d version 1 record(s) of %s as measured with %ld thread(s) on \"%s\"; "
                    "%d record(s) already naming their conditions left out\n",
                    new_path.c_str(), adopted, old_path.c_str(), threads, ansor::host_cpu_id().c_str(), kept);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "ansor_log_adopt: %s\n", e.what());
        return 2;
    }
    return 0;
}
