#include "cli.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <sstream>

namespace ansor_cli {

namespace {

template <typename T>
T number(const std::string &name, const std::string &text) {
    errno = 0;
    char *end = nullptr;
    const char *s = text.c_str();
    if constexpr (std::is_floating_point_v<T>) {
        const double v = std::strtod(s, &end);
        if (text.empty() || *end || errno) throw Error(name + " takes a number, not '" + text + "'");
        return (T)v;
    } else {
        const bool is_signed = std::numeric_limits<T>::is_signed;
        const long long v = is_signed ? std::strtoll(s, &end, 10) : 0;
        const unsigned long long u = is_signed ? 0 : std::strtoull(s, &end, 10);
        const bool fits = is_signed ? v >= (long long)std::numeric_limits<T>::min() && v <= (long long)std::numeric_limits<T>::max()
                                    : text.find('-') == std::string::npos && u <= std::numeric_limits<T>::max();
        if (text.empty() || *end || errno || !fits) {
            throw Error(name + " takes " + (is_signed ? "an integer" : "a whole number >= 0") + ", not '" + text + "'");
        }
        return is_signed ? (T)v : (T)u;
    }
}

template <typename T>
std::string text_of(const T &v) {
    std::ostringstream out;
    out << v;
    return out.str();
}

template <typename T>
void bind_scalar(Arg &a, T *v, const char *metavar) {
    a.metavar = a.metavar.empty() ? metavar : a.metavar;
    a.default_text = text_of(*v);
    a.set = [v, name = a.name](const std::string &s) {
        if constexpr (std::is_same_v<T, std::string>) *v = s;
        else *v = number<T>(name, s);
    };
}

template <typename T>
void bind_list(Arg &a, std::vector<T> *v, const char *metavar) {
    a.list = true;
    a.metavar = a.metavar.empty() ? metavar : a.metavar;
    for (const T &x : *v) a.default_text += (a.default_text.empty() ? "" : ",") + text_of(x);
    a.clear = [v] { v->clear(); };
    a.set = [v, &a](const std::string &s) {
        std::vector<std::string> items;
        if (!a.split) items.push_back(s);
        else {
            std::stringstream in(s);
            for (std::string item; std::getline(in, item, ',');)
                if (!item.empty()) items.push_back(item);
        }
        for (const std::string &item : items) {
            if constexpr (std::is_same_v<T, std::string>) v->push_back(item);
            else v->push_back(number<T>(a.name, item));
        }
    };
}

}  // namespace

void bind(Arg &a, bool *v) {
    a.flag = true;
    a.set = [v](const std::string &) { *v = true; };
}
void bind(Arg &a, std::string *v) { bind_scalar(a, v, "TEXT"); }
void bind(Arg &a, int *v) { bind_scalar(a, v, "N"); }
void bind(Arg &a, long *v) { bind_scalar(a, v, "N"); }
void bind(Arg &a, unsigned long *v) { bind_scalar(a, v, "N"); }
void bind(Arg &a, double *v) { bind_scalar(a, v, "X"); }
void bind(Arg &a, std::vector<std::string> *v) { bind_list(a, v, "A,B"); }
void bind(Arg &a, std::vector<int> *v) { bind_list(a, v, "N,M"); }
void bind(Arg &a, std::vector<unsigned long> *v) { bind_list(a, v, "N,M"); }

Parser::Parser(std::string program, std::string summary, int error_status)
    : program_(std::move(program)), summary_(std::move(summary)), error_status_(error_status) {
    args_.reserve(64);  // each Arg's setter refers to it: no reallocation
}

Arg &Parser::add(const std::string &name, bool positional, const std::string &help, const std::string &metavar) {
    if (args_.size() == args_.capacity()) throw std::logic_error("ansor_cli: too many arguments declared");
    Arg &a = args_.emplace_back();
    a.name = name;
    a.positional = a.required = positional;
    a.help = help;
    a.metavar = metavar;
    return a;
}

Parser &Parser::required() { return args_.back().required = true, *this; }
Parser &Parser::optional() { return args_.back().required = false, *this; }
Parser &Parser::whole() { return args_.back().split = false, *this; }
Parser &Parser::greedy() { return args_.back().greedy = true, *this; }

bool Parser::given(const std::string &name) const {
    for (const Arg &a : args_)
        if (a.name == name) return a.given;
    throw std::logic_error("ansor_cli: no argument " + name + " declared");
}

void Parser::parse_or_throw(const std::vector<std::string> &argv) {
    auto fill = [](Arg &a, const std::string &value) {
        if (a.list && !a.given) a.clear();
        a.given = true;
        a.set(value);
    };
    for (Arg &a : args_) a.given = false;
    size_t next_positional = 0;
    for (size_t i = 0; i < argv.size(); i++) {
        const std::string &arg = argv[i];
        if (arg == "--help" || arg == "-h") throw HelpAsked{};
        if (arg.size() > 2 && arg.rfind("--", 0) == 0) {
            const size_t eq = arg.find('=');
            auto a = std::find_if(args_.begin(), args_.end(), [&](const Arg &d) { return d.name == arg.substr(0, eq); });
            if (a == args_.end() || a->positional) throw Error("unknown option " + arg.substr(0, eq));
            if (a->flag) {
                if (eq != std::string::npos) throw Error(a->name + " takes no value");
                fill(*a, "");
            } else if (eq != std::string::npos) {
                fill(*a, arg.substr(eq + 1));
            } else {
                if (i + 1 >= argv.size()) throw Error("missing value after " + arg);
                fill(*a, argv[++i]);
                while (a->greedy && i + 1 < argv.size() && argv[i + 1].rfind("--", 0) != 0) a->set(argv[++i]);
            }
            continue;
        }
        while (next_positional < args_.size() && (!args_[next_positional].positional ||
                                                  (args_[next_positional].given && !args_[next_positional].list)))
            next_positional++;
        if (next_positional == args_.size()) throw Error("unexpected argument " + arg);
        fill(args_[next_positional], arg);
    }
    for (const Arg &a : args_)
        if (a.required && !a.given) throw Error("missing " + a.name + (a.positional ? "" : " " + a.metavar));
}

void Parser::parse(int argc, const char *const *argv) {
    try {
        parse_or_throw(std::vector<std::string>(argv + 1, argv + argc));
    } catch (const HelpAsked &) {
        std::fputs(usage().c_str(), stdout);
        std::exit(0);
    } catch (const Error &e) {
        fail(e.what());
    }
}

void Parser::fail(const std::string &problem) const {
    std::fprintf(stderr, "%s: %s\n%s", program_.c_str(), problem.c_str(), usage().c_str());
    std::exit(error_status_);
}

std::string Parser::usage() const {
    std::string line = "usage: " + program_, table, indent(7 + program_.size(), ' ');
    size_t column = line.size();  // the usage line wraps before 100 columns
    for (const Arg &a : args_) {
        std::string shown = a.positional ? a.metavar : a.name + (a.flag ? "" : " " + a.metavar);
        if (a.list && a.positional) shown += "...";
        else if (a.greedy) shown += " ...";
        const std::string item = a.required ? shown : "[" + shown + "]";
        if (column + 1 + item.size() > 100 && column > indent.size()) line += "\n" + indent.substr(1), column = indent.size() - 1;
        line += " " + item, column += 1 + item.size();
        std::string help = a.help;
        if (!a.default_text.empty() && !a.required && help.find("(default") == std::string::npos) help += " (default " + a.default_text + ")";
        if (a.list && !a.positional) help += a.split ? "; a comma list, may be repeated" : "; may be repeated";
        const std::string pad = shown.size() > 26 ? "\n" + std::string(29, ' ') : std::string(27 - shown.size(), ' ');
        table += "  " + shown + pad + help + "\n";
    }
    return line + "\n" + (summary_.empty() ? "" : summary_ + "\n") + table + "  --help                     prints this and exits\n";
}

}  // namespace ansor_cli
