// Compares two lowered statements (-e stmt) for the schedule-paste test.
// Halide numbers its CSE temporaries (t18, t20, ...) from a per-process
// counter, so the same schedule lowered in two processes can differ in those
// numbers only; they are renamed in order of first appearance before comparing.
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

namespace {

std::string read(const char *path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error(std::string("cannot read ") + path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string canonical_temporaries(const std::string &text) {
    static const std::regex temporary(R"(\bt[0-9]+\b)");
    std::map<std::string, std::string> renamed;
    std::string out;
    auto last = text.cbegin();
    for (std::sregex_iterator it(text.begin(), text.end(), temporary), end; it != end; ++it) {
        out.append(last, text.cbegin() + it->position());
        auto found = renamed.emplace(it->str(), "t#" + std::to_string(renamed.size())).first;
        out += found->second;
        last = text.cbegin() + it->position() + it->length();
    }
    out.append(last, text.cend());
    return out;
}

}  // namespace

int main(int argc, char **argv) {
    if (argc != 3) {
        std::cerr << "usage: " << argv[0] << " a.stmt b.stmt\n";
        return 2;
    }
    try {
        std::string a = canonical_temporaries(read(argv[1]));
        std::string b = canonical_temporaries(read(argv[2]));
        if (a == b) return 0;
        std::istringstream la(a), lb(b);
        std::string x, y;
        for (int line = 1;; line++) {
            bool more_a = (bool)std::getline(la, x), more_b = (bool)std::getline(lb, y);
            if (!more_a && !more_b) break;
            if (x != y || more_a != more_b) {
                std::cerr << "statements differ at line " << line << ":\n  " << argv[1] << ": " << x << "\n  "
                          << argv[2] << ": " << y << "\n";
                break;
            }
        }
        return 1;
    } catch (const std::exception &e) {
        std::cerr << e.what() << "\n";
        return 2;
    }
}
