#include "shape.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace taso {

int SymbolTable::intern(const std::string &name) {
    if (auto id = find(name)) return *id;
    names_.push_back(name);
    return (int)names_.size() - 1;
}

std::optional<int> SymbolTable::find(const std::string &name) const {
    for (size_t i = 0; i < names_.size(); i++)
        if (names_[i] == name) return (int)i;
    return std::nullopt;
}

DimExpr DimExpr::symbol(int id) {
    DimExpr d;
    d.symbols.push_back(id);
    return d;
}

DimExpr DimExpr::literal(int64_t value) {
    DimExpr d;
    d.constant = value;
    return d;
}

int64_t DimExpr::evaluate(const std::vector<int64_t> &symbol_values) const {
    int64_t v = constant;
    for (int s : symbols) v += symbol_values.at(s);
    for (const ConvStep &c : steps) {
        if (v <= 0) return 0;
        if (c.same) {
            v = (v - 1) / c.stride + 1;
        } else {
            if (v < c.kernel) return 0;
            v = (v - c.kernel) / c.stride + 1;
        }
    }
    return v;
}

std::string DimExpr::str(const SymbolTable &table) const {
    std::string s;
    for (int id : symbols) s += (s.empty() ? "" : "+") + table.name(id);
    if (constant != 0 || s.empty()) s += (s.empty() ? "" : "+") + std::to_string(constant);
    for (const ConvStep &c : steps)
        s = "conv(" + s + "," + std::to_string(c.kernel) + "," + std::to_string(c.stride) + "," +
            (c.same ? "same" : "valid") + ")";
    return s;
}

std::optional<DimExpr> add_dims(const DimExpr &a, const DimExpr &b) {
    if (!a.plain() || !b.plain()) return std::nullopt;
    DimExpr r;
    r.constant = a.constant + b.constant;
    r.symbols = a.symbols;
    r.symbols.insert(r.symbols.end(), b.symbols.begin(), b.symbols.end());
    std::sort(r.symbols.begin(), r.symbols.end());
    return r;
}

std::optional<DimExpr> subtract_dims(const DimExpr &total, const DimExpr &part) {
    if (!total.plain() || !part.plain()) return std::nullopt;
    DimExpr r;
    r.constant = total.constant - part.constant;
    r.symbols = total.symbols;
    for (int s : part.symbols) {
        auto it = std::find(r.symbols.begin(), r.symbols.end(), s);
        if (it == r.symbols.end()) return std::nullopt;
        r.symbols.erase(it);
    }
    if (r.symbols.empty() && r.constant <= 0) return std::nullopt;
    return r;
}

DimExpr conv_dim(const DimExpr &in, int kernel, int stride, bool same) {
    if (stride == 1 && (same || kernel == 1)) return in;
    DimExpr r = in;
    r.steps.push_back(ConvStep{kernel, stride, same});
    return r;
}

DimExpr parse_dim(const std::string &text, SymbolTable &table) {
    DimExpr d;
    size_t i = 0;
    if (text.empty()) throw std::runtime_error("empty dimension");
    while (i < text.size()) {
        size_t j = text.find('+', i);
        if (j == std::string::npos) j = text.size();
        std::string term = text.substr(i, j - i);
        if (term.empty()) throw std::runtime_error("bad dimension '" + text + "'");
        if (std::isdigit((unsigned char)term[0])) {
            for (char c : term)
                if (!std::isdigit((unsigned char)c))
                    throw std::runtime_error("bad dimension '" + text + "'");
            d.constant += std::stoll(term);
        } else {
            for (char c : term)
                if (!std::isalnum((unsigned char)c) && c != '_')
                    throw std::runtime_error("bad dimension '" + text + "' (symbols are identifiers)");
            d.symbols.push_back(table.intern(term));
        }
        i = j + 1;
    }
    std::sort(d.symbols.begin(), d.symbols.end());
    return d;
}

bool same_tree(const SplitTree &a, const SplitTree &b) {
    if (!a || !b) return !a && !b;
    if (a == b) return true;
    return a->left == b->left && same_tree(a->left_tree, b->left_tree) &&
           same_tree(a->right_tree, b->right_tree);
}

std::string tree_key(const SplitTree &t, const std::vector<int64_t> &symbol_values) {
    if (!t) return ".";
    return "(" + tree_key(t->left_tree, symbol_values) + std::to_string(t->left.evaluate(symbol_values)) +
           tree_key(t->right_tree, symbol_values) + ")";
}

bool same_shape(const TensorType &a, const TensorType &b) {
    if (a.rank != b.rank) return false;
    for (int i = 0; i < a.rank; i++)
        if (a.dims[i] != b.dims[i]) return false;
    return true;
}

std::string shape_str(const TensorType &t, const SymbolTable &symbols) {
    std::string s = "[";
    for (int i = 0; i < t.rank; i++) s += (i ? "," : "") + t.dims[i].str(symbols);
    return s + "]";
}

}  // namespace taso
