#pragma once
// The pure part of feature extraction: what one stage's definition does per
// iteration, independent of the schedule. Built once per (DAG node, stage,
// inlining that reaches it) and cached by TemplateCache.
#include "features/program_features.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ansor {
namespace features {
namespace detail {

// Columns of the arithmetic group.
enum ArithColumn {
    FMad, FAddSub, FMul, FDivMod, FCmp, FMath, FOther,
    IMad, IAddSub, IMul, IDivMod, ICmp, IMath, IOther,
    BoolOp, SelectOp,
};

// What a buffer of a definition is: a Func of the DAG, an input image (or a
// Buffer baked into the pipeline), or the intermediate of an rfactor.
enum class BufKind : uint8_t { Func, Input, Intm };

struct TemplateAccess {
    int buffer = 0;
    // One row per buffer dimension: the constant, then one coefficient per
    // slot (the definition's loop variables).
    std::vector<double> form;
    int dim_offset = 0;  // into the per-access scratch rows
};

struct TemplateBuffer {
    BufKind kind = BufKind::Func;
    int index = 0;       // DAG node (Func, Intm: the node it came from) or image
    int elem_bytes = 4;
    bool read = false, write = false;
    int dims = 0;
    int dim_offset = 0;  // into the per-buffer scratch rows
    std::vector<int> accesses;
};

struct DefinitionTemplate {
    std::vector<std::string> slot_names;
    std::vector<LoopKind> slot_kinds;
    std::vector<int> pure_slot;  // slot of each dimension of the written buffer, -1 if none
    std::array<double, kArith> arith{};
    double ops = 0;  // arithmetic operations per iteration, a mad counting two
    int write_bytes = 4;
    std::vector<TemplateBuffer> buffers;  // written buffer first, then reads in order of appearance
    std::vector<TemplateAccess> accesses;
    int total_access_dims = 0;
    int total_buffer_dims = 0;
    int nslots() const { return (int)slot_names.size(); }
    // The slot of a variable, -1 if it is none of the definition's.
    int slot_of(const std::string &name) const {
        for (size_t i = 0; i < slot_names.size(); i++) {
            if (slot_names[i] == name) return (int)i;
        }
        return -1;
    }
};

}  // namespace detail
}  // namespace features
}  // namespace ansor
