#pragma once
// Access analysis: which buffers a statement touches, and for each the
// bytes and cache lines touched in its loop nest, the footprint (unique
// bytes and lines), the stride of the innermost loop that moves it, and
// its reuse. Also the bytes touched per loop level, for the arithmetic
// intensity curve.
#include "features/detail/statement_nest.h"

#include <vector>

namespace ansor {
namespace features {
namespace detail {

enum class ReuseKind : int { Loop = 0, Serial = 1, None = 2 };  // in column order

struct BufferSummary {
    double bytes, unique_bytes, lines, unique_lines;
    ReuseKind reuse;
    double dis_iter, dis_bytes, ct, stride;
    bool read, write;
};

// Analyses one statement at a time; keeps its scratch memory between
// statements.
class AccessAnalysis {
public:
    explicit AccessAnalysis(double line_bytes) : line_bytes_(line_bytes) {}

    // `iters`: the statement's iterations (count_iterations).
    void analyse(const LoopNest &m, const StatementNest &N, const ProgramIndex &index, const ImageTable &images,
                 double iters);

    // Per buffer of the statement's template, in its order.
    const std::vector<BufferSummary> &buffers() const { return bout_; }
    // Per loop level from the innermost out (none if the definition has no
    // arithmetic): log2(1 + operations) inside the level, and operations
    // per byte touched there.
    const std::vector<double> &level_ops_log() const { return level_x_; }
    const std::vector<double> &level_intensity() const { return level_y_; }

private:
    void set_buffer_shapes(const LoopNest &m, const StatementNest &N, const ProgramIndex &index,
                           const ImageTable &images);
    void start_access_bounds(const DefinitionTemplate &t);
    double level_bytes(const DefinitionTemplate &t, bool record_unique);
    void sweep_loops(const StatementNest &N);
    void step_buffer(const DefinitionTemplate &t, int b, int v, double e, const double *crow, double inner,
                     double prev_bytes);
    void add_level(double ops, double bytes);
    void summarise_buffers(const StatementNest &N, double iters);

    double line_bytes_;
    double per_iter_bytes_ = 0;
    // Per buffer dimension: extent (0 if unknown) and stride in elements.
    std::vector<double> bext_, bstride_;
    // Per access dimension: the range of the index over the loops inside
    // the current level.
    std::vector<double> lo_, hi_;
    // Per access: the innermost loop that moves it (-1: none) and its
    // stride there in elements.
    std::vector<int> acc_p_;
    std::vector<double> acc_stride_;
    // Per buffer: loops outside its allocation (which do not move it), and
    // the innermost loop that reuses it (-1: none).
    std::vector<int> buf_depth_, buf_reuse_;
    std::vector<BufferSummary> bout_;
    std::vector<double> level_x_, level_y_;
};

}  // namespace detail
}  // namespace features
}  // namespace ansor
