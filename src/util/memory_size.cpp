#include "util/memory_size.h"

#include "util/errors.h"

#include <cctype>
#include <cstdio>
#include <limits>
#include <unistd.h>

namespace ansor {

uint64_t physical_memory_bytes() {
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || page <= 0) return 0;
    return (uint64_t)pages * (uint64_t)page;
}

uint64_t default_memory_limit_bytes() { return physical_memory_bytes() / 2; }

uint64_t parse_memory_size(const std::string &name, const std::string &text) {
    auto bad = [&] {
        return UserError(name + "='" + text + "' is not a memory size: give bytes, or a number with K, M, G or T " +
                         "(binary multiples), e.g. 8G or 512M; 0 for no limit");
    };
    size_t digits = 0;
    while (digits < text.size() && std::isdigit((unsigned char)text[digits])) digits++;
    if (digits == 0 || digits > 19) throw bad();
    const uint64_t number = std::stoull(text.substr(0, digits));
    std::string unit;
    for (size_t i = digits; i < text.size(); i++) unit += (char)std::toupper((unsigned char)text[i]);
    int shift = 0;
    if (!unit.empty()) {
        const std::string units = "KMGT";
        const size_t at = units.find(unit[0]);
        const std::string rest = unit.substr(1);
        if (at == std::string::npos || !(rest.empty() || rest == "B" || rest == "IB")) throw bad();
        shift = 10 * (int)(at + 1);
    }
    if (number > (std::numeric_limits<uint64_t>::max() >> shift)) throw bad();
    return number << shift;
}

std::string memory_size_text(uint64_t bytes) {
    const char *units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
    double v = (double)bytes;
    int u = 0;
    while (v >= 1024 && u < 4) {
        v /= 1024;
        u++;
    }
    char buf[48];
    if (u == 0) std::snprintf(buf, sizeof(buf), "%llu bytes", (unsigned long long)bytes);
    else std::snprintf(buf, sizeof(buf), "%.1f %s", v, units[u]);
    return buf;
}

}  // namespace ansor
