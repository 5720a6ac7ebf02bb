#include "window_copies.h"

#include "op_attrs.h"

#include <optional>
#include <set>

namespace ansor_graph {

namespace {

// The view `v` of a dense part (len elements per row) seen in the whole
// (total elements per row, the part starting at element `first` of each
// row), or nullopt when `v` does not keep the part's rows intact.
std::optional<View> into_window(const View &v, const std::string &whole, int64_t len, int64_t total, int64_t first) {
    if (v.offset != 0) return std::nullopt;
    View w = v;
    w.tensor = whole;
    w.offset = first;
    int64_t within_row = 0;  // the furthest element a view position reaches inside one row
    for (halide_dimension_t &d : w.dims) {
        if (d.stride % len == 0) {
            const int64_t stride = d.stride / len * total;
            if (stride > INT32_MAX) return std::nullopt;
            d.stride = (int32_t)stride;
        } else if (d.stride < len) {
            within_row += (int64_t)d.stride * (d.extent - 1);
        } else {
            return std::nullopt;
        }
    }
    if (within_row > len - 1) return std::nullopt;
    return w;
}

class Elider {
public:
    Elider(const Graph &g, LoweredGraph &l) : g_(g), l_(l) {
        outputs_.insert(g.outputs.begin(), g.outputs.end());
        for (const auto &[name, target] : l.aliases) {
            aliased_.insert(name);
            aliased_.insert(target);
        }
    }

    void run() {
        for (const Node &n : g_.nodes) {
            if (n.op != "concat" && n.op != "split") continue;
            const bool concat = n.op == "concat";
            const std::string &whole = concat ? n.outputs[0] : n.inputs[0];
            const Shape &s = g_.tensor(whole).shape;
            const int axis = axis_attrs(n, "node '" + n.name + "'", (int)s.size()).axis;
            if (axis != (int)s.size() - 1 || l_.windows.count(whole) || aliased_.count(whole)) continue;
            int64_t first = 0;
            for (const std::string &part : concat ? n.inputs : n.outputs) {
                const int64_t len = g_.tensor(part).shape.back();
                elide(n, part, whole, len, s.back(), first, concat);
                first += len;
            }
        }
    }

private:
    const Graph &g_;
    LoweredGraph &l_;
    std::set<std::string> outputs_, aliased_;

    void elide(const Node &n, const std::string &part, const std::string &whole, int64_t len, int64_t total,
               int64_t first, bool concat) {
        if (outputs_.count(part) || aliased_.count(part) || l_.windows.count(part)) return;
        if (g_.tensor(part).kind != TensorKind::kIntermediate) return;
        int copy = -1, writers = 0;
        std::vector<std::pair<View *, View>> rewrites;
        for (size_t i = 0; i < l_.calls.size(); i++) {
            KernelCall &c = l_.calls[i];
            const bool is_copy = c.node == n.name && c.generator == "graph_copy" &&
                                 (concat ? c.inputs.at(0).second.tensor == part : c.output.tensor == part);
            if (is_copy) {
                if (c.on_weights) return;  // weight preparation: made once, nothing to gain
                copy = (int)i;
                continue;
            }
            for (auto &[name, view] : c.inputs) {
                if (view.tensor != part) continue;
                auto w = into_window(view, whole, len, total, first);
                if (!w) return;
                rewrites.emplace_back(&view, *w);
            }
            if (c.output.tensor == part) {
                writers++;
                if (c.on_weights) return;
                auto w = into_window(c.output, whole, len, total, first);
                if (!w) return;
                rewrites.emplace_back(&c.output, *w);
            }
        }
        // A concat's part is written by one kernel; a split's only by the copy.
        if (copy < 0 || writers != (concat ? 1 : 0)) return;
        for (auto &[view, w] : rewrites) *view = w;
        l_.calls.erase(l_.calls.begin() + copy);
        const Shape &ps = g_.tensor(part).shape;
        l_.windows[part] = *into_window(dense_view(part, std::vector<int>(ps.rbegin(), ps.rend())), whole, len, total, first);
    }
};

}  // namespace

void elide_channel_copies(const Graph &g, LoweredGraph &lowered) { Elider(g, lowered).run(); }

}  // namespace ansor_graph
