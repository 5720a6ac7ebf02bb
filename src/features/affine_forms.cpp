#include "features/detail/affine_forms.h"

#include "features/detail/ir_helpers.h"

namespace ansor {
namespace features {
namespace detail {

using namespace Halide;
using namespace Halide::Internal;

std::vector<double> Linearizer::form(const Expr &e) {
    std::vector<double> f(1 + slots_.size(), 0.0);
    add(e, 1.0, f.data(), 0);
    return f;
}

std::vector<double> Linearizer::forms(const std::vector<Expr> &args) {
    std::vector<double> f;
    for (const Expr &a : args) {
        std::vector<double> row = form(a);
        f.insert(f.end(), row.begin(), row.end());
    }
    return f;
}

// Adds s * e to the form f.
void Linearizer::add(const Expr &e, double s, double *f, int depth) {
    if (!e.defined() || depth > 200 || s == 0) return;
    depth++;
    double c;
    if (const_value(e, c)) {
        f[0] += s * c;
    } else if (const Variable *v = e.as<Variable>()) {
        for (auto it = lets_.rbegin(); it != lets_.rend(); ++it) {
            if (it->first == v->name) {
                add(it->second, s, f, depth);
                return;
            }
        }
        for (size_t i = 0; i < slots_.size(); i++) {
            if (slots_[i] == v->name) {
                f[1 + i] += s;
                return;
            }
        }
    } else if (const Add *a = e.as<Add>()) {
        add(a->a, s, f, depth);
        add(a->b, s, f, depth);
    } else if (const Sub *b = e.as<Sub>()) {
        add(b->a, s, f, depth);
        add(b->b, -s, f, depth);
    } else if (const Mul *m = e.as<Mul>()) {
        if (const_value(m->b, c)) add(m->a, s * c, f, depth);
        else if (const_value(m->a, c)) add(m->b, s * c, f, depth);
    } else if (const Div *d = e.as<Div>()) {
        if (const_value(d->b, c) && c != 0) add(d->a, s / c, f, depth);
    } else if (const Mod *md = e.as<Mod>()) {
        add(md->a, s, f, depth);
    } else if (const Min *mn = e.as<Min>()) {
        add(const_value(mn->a, c) ? mn->b : mn->a, s, f, depth);
    } else if (const Max *mx = e.as<Max>()) {
        add(const_value(mx->a, c) ? mx->b : mx->a, s, f, depth);
    } else if (const Cast *cs = e.as<Cast>()) {
        add(cs->value, s, f, depth);
    } else if (const Let *l = e.as<Let>()) {
        lets_.emplace_back(l->name, l->value);
        add(l->body, s, f, depth);
        lets_.pop_back();
    } else if (const Select *sel = e.as<Select>()) {
        add(sel->true_value, s, f, depth);
    } else if (const Call *call = e.as<Call>()) {
        add_call(call, s, f, depth);
    }
}

// Intrinsics that pass one argument through index like it; other calls
// (Funcs, images, math) are data-dependent: nothing is added.
void Linearizer::add_call(const Call *call, double s, double *f, int depth) {
    if (call->is_intrinsic(Call::return_second) && call->args.size() == 2) {
        add(call->args[1], s, f, depth);
    } else if (call->is_intrinsic(Call::if_then_else) && call->args.size() >= 2) {
        add(call->args[1], s, f, depth);
    } else if (is_transparent_intrinsic(call) && !call->args.empty()) {
        add(call->args[0], s, f, depth);
    }
}

}  // namespace detail
}  // namespace features
}  // namespace ansor
