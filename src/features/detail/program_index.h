#pragma once
// How the Funcs of one loop-nest model map to the DAG and to each other:
// rebuilt at the start of every extraction, its memory reused.
#include "state/loop_nest.h"

#include <vector>

namespace ansor {
namespace features {
namespace detail {

struct ProgramIndex {
    // Per DAG node: the model Func of the node, the model Func of its
    // rfactor intermediate (-1 if none), whether the program inlines it.
    std::vector<int> node_func, intm_func;
    std::vector<bool> inlined;
    // Per model Func: its DAG node (an intermediate: the node it came from;
    // -1 if unknown), the index of its first statement (one per stage; one
    // more entry holds the total), and its compute location (-1: at root
    // or inlined).
    std::vector<int> origin, stmt_off, at_func, at_stage, at_loop;

    void build(const LoopNest &m);
    int total_statements() const { return stmt_off.back(); }
    // Whether the stages of model Func fi are statements with features.
    bool has_statements(const LoopNest &m, int fi) const {
        return m.funcs()[fi].location.kind != LocationKind::Inline && origin[fi] >= 0;
    }

private:
    void index_funcs(const LoopNest &m);
    void index_locations(const LoopNest &m);
};

}  // namespace detail
}  // namespace features
}  // namespace ansor
