#pragma once
// Loop-nest assembly: each statement's view of the loops around it, built
// from the LoopNest model: the loops of the Funcs it is computed in, then
// its own, each with how far one step moves the definition's variables.
#include "features/detail/template_cache.h"

#include <utility>
#include <vector>

namespace ansor {
namespace features {
namespace detail {

// One loop around a statement. A model loop fused from several base
// variables becomes one (virtual) loop per origin.
struct NestLoop {
    double extent = 1;
    int func = -1, stage = 0, loop = -1;  // the model loop this (virtual) loop belongs to
    int base = -1;                        // base variable of the owner stage it walks, -1 if unknown
    bool first = true;                    // first virtual loop of its model loop
};

struct StatementNest {
    int gen = 0;  // the extraction it was built in; negated while being built
    const DefinitionTemplate *t = nullptr;
    int chain = 0;  // loops that belong to the Funcs this one is computed in
    std::vector<NestLoop> loops;  // outermost first
    std::vector<double> coef;     // loops x slots: how far one step of the loop moves each slot
};

// The iterations of a statement: the product of its model loops' extents,
// the part of it the enclosing Funcs' loops make, and how many model loops
// there are.
struct IterationCounts {
    double iters = 1, chain_iters = 1;
    int real_loops = 0;
};
IterationCounts count_iterations(const LoopNest &m, const StatementNest &N);

// Builds the statements' nests of one program at a time, each once, and
// keeps their memory between programs.
class NestAssembler {
public:
    explicit NestAssembler(TemplateCache &templates) : templates_(templates) {}

    // Forgets the nests of the previous program.
    void begin_program(const ProgramIndex &index);
    // The nest of stage s of model Func fi of the program begun last.
    StatementNest &nest(const LoopNest &m, int fi, int s);

private:
    void inherit_enclosing_loops(const LoopNest &m, int fi, StatementNest &N);
    void append_own_loops(const LoopNest &m, int fi, int s, StatementNest &N) const;
    void set_own_steps(const LoopNest &m, int fi, int s, StatementNest &N);

    TemplateCache &templates_;
    const ProgramIndex *index_ = nullptr;
    int gen_ = 0;
    std::vector<StatementNest> nests_;  // per statement, at ProgramIndex::stmt_off
    std::vector<double> run_mult_;
    std::vector<std::vector<std::pair<int, double>>> resolution_;
};

}  // namespace detail
}  // namespace features
}  // namespace ansor
