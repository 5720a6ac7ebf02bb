#include "network/families.h"

#include <regex>
#include <sstream>
#include <stdexcept>

namespace ansor {

FamilyRule parse_family_rule(const std::string &name) {
    if (name == "generator") return FamilyRule::Generator;
    if (name == "structure") return FamilyRule::Structure;
    throw std::invalid_argument("unknown family rule '" + name + "' (use generator or structure)");
}

std::string operation_sequence(const PipelineKey &key) {
    std::istringstream in(key.text);
    std::string out;
    for (std::string line; std::getline(in, line);) {
        if (line.find("estimate") != std::string::npos) continue;  // sizes only
        out += line + "\n";
    }
    // Hex float constants (0x1.8p+2) keep their value: 6 in relu6 is an
    // operation parameter, not a size. Other integers are sizes, strides,
    // paddings and canonical indices alike; all are blanked.
    static const std::regex number("(0x[0-9a-fA-F.]+p[-+][0-9]+)|[0-9]+");
    std::string blanked;
    auto begin = std::sregex_iterator(out.begin(), out.end(), number);
    size_t last = 0;
    for (auto it = begin; it != std::sregex_iterator(); ++it) {
        blanked += out.substr(last, it->position() - last);
        blanked += (*it)[1].matched ? it->str() : "#";
        last = it->position() + it->length();
    }
    blanked += out.substr(last);
    return blanked;
}

std::string family_key(const TaskSpec &spec, const PipelineKey &key, FamilyRule rule) {
    if (!spec.family.empty()) return spec.family;
    if (rule == FamilyRule::Generator) return spec.generator;
    return spec.generator + ":" + fnv1a_hex(operation_sequence(key)).substr(0, 8);
}

}  // namespace ansor
