#include "features/detail/feature_writers.h"

#include <algorithm>

namespace ansor {
namespace features {
namespace detail {

namespace {

void write_buffer_group(const BufferSummary &o, double work_scale, float *G) {
    G[o.read && o.write ? kAccReadWrite : o.write ? kAccWrite : kAccRead] = 1.f;
    G[kBytes] = slog(o.bytes * work_scale);
    G[kUniqueBytes] = slog(o.unique_bytes);
    G[kLines] = slog(o.lines * work_scale);
    G[kUniqueLines] = slog(o.unique_lines);
    G[kReuseLoop + (int)o.reuse] = 1.f;
    G[kReuseDisIter] = slog(o.dis_iter);
    G[kReuseDisBytes] = slog(o.dis_bytes);
    G[kReuseCt] = slog(o.ct);
    const double div = std::max(1.0, o.ct);
    G[kBytesDReuseCt] = slog(o.bytes * work_scale / div);
    G[kUniqueBytesDReuseCt] = slog(o.unique_bytes / div);
    G[kLinesDReuseCt] = slog(o.lines * work_scale / div);
    G[kUniqueLinesDReuseCt] = slog(o.unique_lines / div);
    G[kStride] = slog(o.stride);
}

}  // namespace

void write_buffer_features(const std::vector<BufferSummary> &buffers, std::vector<int> &order, double work_scale,
                           float *F) {
    const int nb = (int)buffers.size();
    // Most bytes first; ties keep the definition's order (written buffer first).
    order.resize(nb);
    for (int b = 0; b < nb; b++) order[b] = b;
    std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return buffers[x].bytes > buffers[y].bytes; });
    for (int i = 0; i < nb && i < kMaxBuffers; i++) write_buffer_group(buffers[order[i]], work_scale, F + kBufferBegin + i * kPerBuffer);
}

}  // namespace detail
}  // namespace features
}  // namespace ansor
