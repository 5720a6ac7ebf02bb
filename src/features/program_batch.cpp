#include "features/program_batch.h"

namespace ansor {

void ProgramBatch::add(const float *program_rows, size_t statements) {
    rows.insert(rows.end(), program_rows, program_rows + statements * (size_t)num_features);
    begin.push_back(begin.back() + statements);
}

void ProgramBatch::add_program(const ProgramBatch &other, size_t program) {
    add(other.rows.data() + other.begin[program] * (size_t)other.num_features, other.statements(program));
}

ProgramBatch ProgramBatch::subset(const std::vector<size_t> &programs) const {
    ProgramBatch out(num_features);
    for (size_t p : programs) out.add_program(*this, p);
    return out;
}

}  // namespace ansor
