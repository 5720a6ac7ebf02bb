#include "features/detail/access_analysis.h"

#include <algorithm>
#include <cmath>

namespace ansor {
namespace features {
namespace detail {

void AccessAnalysis::analyse(const LoopNest &m, const StatementNest &N, const ProgramIndex &index,
                             const ImageTable &images, double iters) {
    const DefinitionTemplate &t = *N.t;
    set_buffer_shapes(m, N, index, images);
    start_access_bounds(t);
    level_x_.clear();
    level_y_.clear();
    sweep_loops(N);
    summarise_buffers(N, iters);
}

// Each buffer's extents and strides, and the loops outside its allocation.
void AccessAnalysis::set_buffer_shapes(const LoopNest &m, const StatementNest &N, const ProgramIndex &index,
                                       const ImageTable &images) {
    const DefinitionTemplate &t = *N.t;
    const auto &funcs = m.funcs();
    const int nb = (int)t.buffers.size();
    const int n = (int)N.loops.size();
    bext_.assign(t.total_buffer_dims, 0.0);
    bstride_.assign(t.total_buffer_dims, 0.0);
    buf_depth_.assign(nb, 0);
    buf_reuse_.assign(nb, -1);
    bout_.assign(nb, BufferSummary{});
    for (int b = 0; b < nb; b++) {
        const TemplateBuffer &B = t.buffers[b];
        const std::vector<int64_t> *ext = nullptr;
        int mf = -1;
        if (B.kind == BufKind::Func) mf = index.node_func[B.index];
        else if (B.kind == BufKind::Intm) mf = index.intm_func[B.index];
        if (mf >= 0) ext = &funcs[mf].extents;
        else if (B.kind == BufKind::Input && B.index < images.size()) ext = &images.extents(B.index);
        double stride = 1;
        for (int d = 0; d < B.dims; d++) {
            double e = ext && d < (int)ext->size() ? (double)(*ext)[d] : 0.0;
            bext_[B.dim_offset + d] = e;
            bstride_[B.dim_offset + d] = stride;
            stride *= std::max(1.0, e);
        }
        // A Func computed inside loops is addressed relative to them.
        if (mf >= 0 && index.at_func[mf] >= 0) {
            for (int v = n - 1; v >= 0; v--) {
                const NestLoop &L = N.loops[v];
                if (L.func == index.at_func[mf] && L.stage == index.at_stage[mf] && L.loop == index.at_loop[mf]) {
                    buf_depth_[b] = v + 1;
                    break;
                }
            }
        }
    }
}

// Inside no loop, each access touches the element of its constant part.
void AccessAnalysis::start_access_bounds(const DefinitionTemplate &t) {
    const int na = (int)t.accesses.size();
    const int ns = t.nslots();
    lo_.resize(t.total_access_dims);
    hi_.resize(t.total_access_dims);
    acc_p_.assign(na, -1);
    acc_stride_.assign(na, 0.0);
    for (int a = 0; a < na; a++) {
        const TemplateAccess &A = t.accesses[a];
        const int dims = t.buffers[A.buffer].dims;
        for (int d = 0; d < dims; d++) lo_[A.dim_offset + d] = hi_[A.dim_offset + d] = A.form[(size_t)d * (1 + ns)];
    }
}

// Bytes touched by the loops inside the current level, summed over the
// buffers; with record_unique, also each buffer's footprint.
double AccessAnalysis::level_bytes(const DefinitionTemplate &t, bool record_unique) {
    double total = 0;
    for (int b = 0; b < (int)t.buffers.size(); b++) {
        const TemplateBuffer &B = t.buffers[b];
        double volume = 1, run = 1, rest = 1;
        bool contiguous = true;
        for (int d = 0; d < B.dims; d++) {
            double mn = 0, mx = 0;
            bool firsta = true;
            for (int a : B.accesses) {
                const int o = t.accesses[a].dim_offset + d;
                if (firsta || lo_[o] < mn) mn = lo_[o];
                if (firsta || hi_[o] > mx) mx = hi_[o];
                firsta = false;
            }
            double w = std::floor(mx - mn + 1e-9) + 1;
            double e = bext_[B.dim_offset + d];
            if (e > 0 && w > e) w = e;
            if (w < 1) w = 1;
            volume *= w;
            if (record_unique) {
                // Dimensions covered whole continue the innermost run.
                if (contiguous) run *= w;
                else rest *= w;
                if (!(e > 0 && w >= e)) contiguous = false;
            }
        }
        if (record_unique) {
            bout_[b].unique_bytes = volume * B.elem_bytes;
            bout_[b].unique_lines = std::ceil(run * B.elem_bytes / line_bytes_ - 1e-9) * rest;
        }
        total += volume * B.elem_bytes;
    }
    return total;
}

// Widens the accessed ranges one loop at a time, from the innermost (only
// the statement itself) outwards.
void AccessAnalysis::sweep_loops(const StatementNest &N) {
    const DefinitionTemplate &t = *N.t;
    const int n = (int)N.loops.size();
    const int ns = t.nslots();
    double prev_bytes = level_bytes(t, false);
    per_iter_bytes_ = prev_bytes;
    double inner = 1;
    for (int v = n - 1; v >= 0; v--) {
        const double e = N.loops[v].extent;
        const double *crow = &N.coef[(size_t)v * ns];
        for (int b = 0; b < (int)t.buffers.size(); b++) step_buffer(t, b, v, e, crow, inner, prev_bytes);
        inner *= e;
        prev_bytes = level_bytes(t, v == 0);
        if (t.ops > 0) add_level(t.ops * inner, prev_bytes);
    }
    if (n == 0) {
        level_bytes(t, true);
        if (t.ops > 0) add_level(t.ops, prev_bytes);
    }
}

// Loop v (extent e, moving the slots by crow) around buffer b: widens its
// accesses' ranges, notes the first loop that moves each access, and the
// first that does not move the buffer at all (its reuse).
void AccessAnalysis::step_buffer(const DefinitionTemplate &t, int b, int v, double e, const double *crow,
                                 double inner, double prev_bytes) {
    const int ns = t.nslots();
    const TemplateBuffer &B = t.buffers[b];
    bool all_zero = true;
    for (int a : B.accesses) {
        const TemplateAccess &A = t.accesses[a];
        double flat = 0;
        if (v >= buf_depth_[b]) {
            for (int d = 0; d < B.dims; d++) {
                const double *row = &A.form[(size_t)d * (1 + ns) + 1];
                double c = 0;
                for (int i = 0; i < ns; i++) c += row[i] * crow[i];
                if (c == 0) continue;
                all_zero = false;
                double span = c * (e - 1);
                if (span > 0) hi_[A.dim_offset + d] += span;
                else lo_[A.dim_offset + d] += span;
                flat += c * bstride_[B.dim_offset + d];
            }
        }
        if (flat != 0 && e > 1 && acc_p_[a] < 0) {
            acc_p_[a] = v;
            acc_stride_[a] = std::fabs(flat);
        }
    }
    if (buf_reuse_[b] < 0 && all_zero && e > 1 && v >= buf_depth_[b]) {
        buf_reuse_[b] = v;
        bout_[b].ct = e;
        bout_[b].dis_iter = inner;
        bout_[b].dis_bytes = prev_bytes;
    }
}

void AccessAnalysis::add_level(double ops, double bytes) {
    level_x_.push_back(std::log2(1 + ops));
    level_y_.push_back(ops / std::max(1.0, bytes));
}

// Bytes, lines, stride and reuse of each buffer over the whole nest.
void AccessAnalysis::summarise_buffers(const StatementNest &N, double iters) {
    const DefinitionTemplate &t = *N.t;
    for (int b = 0; b < (int)t.buffers.size(); b++) {
        const TemplateBuffer &B = t.buffers[b];
        BufferSummary &o = bout_[b];
        o.read = B.read;
        o.write = B.write;
        const double k = (double)B.accesses.size();
        o.bytes = iters * k * B.elem_bytes;
        o.lines = 0;
        int best_p = -2;
        o.stride = 0;
        for (int a : B.accesses) {
            int p = acc_p_[a];
            if (p < 0) {
                o.lines += 1;
            } else {
                double outer = 1;
                for (int v = 0; v < p; v++) outer *= N.loops[v].extent;
                double e = N.loops[p].extent;
                double step = acc_stride_[a] * B.elem_bytes;
                double sweep = step >= line_bytes_ ? e : std::ceil(e * step / line_bytes_ - 1e-9);
                o.lines += outer * sweep;
            }
            // The stride of the access moved innermost, the smallest among ties.
            if (p > best_p || (p == best_p && acc_stride_[a] < o.stride)) {
                best_p = p;
                o.stride = p < 0 ? 0 : acc_stride_[a];
            }
        }
        if (buf_reuse_[b] >= 0) {
            o.reuse = ReuseKind::Loop;
        } else if (B.accesses.size() > 1) {
            o.reuse = ReuseKind::Serial;
            o.ct = k - 1;
            o.dis_iter = 1;
            o.dis_bytes = per_iter_bytes_;
        } else {
            o.reuse = ReuseKind::None;
            o.ct = o.dis_iter = o.dis_bytes = 0;
        }
    }
}

}  // namespace detail
}  // namespace features
}  // namespace ansor
