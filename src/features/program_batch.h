#pragma once
// Featurised programs: the rows FeatureExtractor (program_features.h) gives
// for each program, stacked into one matrix. The cost model trains and
// predicts on it (model/), and pretraining sets store it (records/), so it
// lives with the features rather than with either.
#include <cstddef>
#include <vector>

namespace ansor {

// Programs as one row-major matrix of statement rows: program i owns rows
// [begin[i], begin[i + 1]).
struct ProgramBatch {
    explicit ProgramBatch(int num_features) : num_features(num_features) {}

    int num_features;
    std::vector<float> rows;
    std::vector<size_t> begin = {0};

    // Appends a program of `statements` rows (statements × num_features floats).
    void add(const float *program_rows, size_t statements);
    // Appends program `program` of `other` (same num_features).
    void add_program(const ProgramBatch &other, size_t program);
    size_t programs() const { return begin.size() - 1; }
    size_t statements() const { return begin.back(); }
    size_t statements(size_t program) const { return begin[program + 1] - begin[program]; }
    // A batch of the given programs, in that order.
    ProgramBatch subset(const std::vector<size_t> &programs) const;
};

}  // namespace ansor
