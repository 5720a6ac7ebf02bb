#include "corpus_file.h"

#include "util/errors.h"

#include <zlib.h>

#include <cmath>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <limits>
#include <optional>
#include <sstream>
#include <unistd.h>

namespace ansor_corpus {

using nlohmann::json;

std::string PipelineSpec::id() const {
    std::string s = generator;
    for (const auto &[name, value] : params) s += " " + name + "=" + std::to_string(value);
    return s;
}

namespace {

bool ends_with(const std::string &s, const std::string &tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

json time_json(double ms) { return std::isfinite(ms) ? json(ms) : json(nullptr); }

double time_from(const json &j, const char *field) {
    const json &v = j.at(field);
    return v.is_null() ? std::numeric_limits<double>::infinity() : v.get<double>();
}

// The decompressed text of a file's whole gzip members, and for each member
// where its text and its bytes end. Stops at a member cut short.
struct Members {
    std::string text;
    std::vector<std::pair<size_t, size_t>> ends;  // (text end, file end)
};

Members inflate_members(const std::string &path, const std::string &bytes) {
    Members m;
    size_t at = 0;
    while (at < bytes.size()) {
        z_stream z{};
        if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) throw ansor::UserError("zlib: cannot start inflating " + path);
        z.next_in = (Bytef *)bytes.data() + at;
        z.avail_in = (uInt)(bytes.size() - at);
        std::string text;
        char out[1 << 16];
        int rc = Z_OK;
        while (rc == Z_OK) {
            z.next_out = (Bytef *)out;
            z.avail_out = sizeof(out);
            rc = inflate(&z, Z_NO_FLUSH);
            text.append(out, sizeof(out) - z.avail_out);
        }
        const size_t consumed = bytes.size() - at - z.avail_in;
        inflateEnd(&z);
        if (rc == Z_BUF_ERROR) break;  // the input ran out: a member cut short
        if (rc != Z_STREAM_END) throw ansor::UserError(path + ": corrupt gzip data at byte " + std::to_string(at));
        at += consumed;
        m.text += text;
        m.ends.push_back({m.text.size(), at});
    }
    return m;
}

std::string read_bytes(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

PipelineSpec spec_from(const json &p) {
    PipelineSpec s;
    s.generator = p.at("generator").get<std::string>();
    for (const auto &[name, value] : p.at("params").items()) s.params[name] = value.get<int64_t>();
    return s;
}

CorpusProgram program_from(const json &j) {
    CorpusProgram p;
    p.steps = j.at("steps");
    p.ok = j.at("ok").get<bool>();
    p.error = j.value("error", "");
    p.min_ms = time_from(j, "min_ms");
    p.median_ms = time_from(j, "median_ms");
    p.seconds = j.value("seconds", 0.0);
    return p;
}

// Parses whole lines of `text`; returns the text offset after the last whole entry.
size_t parse_entries(const std::string &path, const std::string &text, std::vector<CorpusEntry> &out) {
    size_t done_at = 0, at = 0;
    int line = 0;
    std::optional<CorpusEntry> open;
    while (at < text.size()) {
        const size_t newline = text.find('\n', at);
        if (newline == std::string::npos) break;  // a line cut short
        line++;
        const std::string where = path + ":" + std::to_string(line) + ": ";
        try {
            const json j = json::parse(text.begin() + at, text.begin() + newline);
            if (j.contains("pipeline")) {
                if (open) throw ansor::UserError("a pipeline entry starts inside another");
                const json &p = j.at("pipeline");
                open.emplace();
                open->spec = spec_from(p);
                open->key = p.at("key").get<std::string>();
                open->target = p.at("target").get<std::string>();
                open->parallelism = p.at("parallelism").get<int>();
                open->funcs = p.value("funcs", 0);
                open->model = p.value("model", "");
            } else if (j.contains("end")) {
                if (!open) throw ansor::UserError("an end line outside a pipeline entry");
                open->seconds = j.at("end").value("seconds", 0.0);
                open->error = j.at("end").value("error", "");
                out.push_back(std::move(*open));
                open.reset();
                done_at = newline + 1;
            } else {
                if (!open) throw ansor::UserError("a program line outside a pipeline entry");
                open->programs.push_back(program_from(j));
            }
        } catch (const ansor::UserError &e) {
            throw ansor::UserError(where + e.what());
        } catch (const json::exception &e) {
            throw ansor::UserError(where + "malformed corpus line: " + e.what());
        }
        at = newline + 1;
    }
    return done_at;
}

void write_all(const std::string &path, const std::string &bytes) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd < 0) throw ansor::UserError("cannot open corpus file " + path + " for appending");
    size_t written = 0;
    while (written < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
        if (n <= 0) {
            ::close(fd);
            throw ansor::UserError("cannot write corpus file " + path);
        }
        written += (size_t)n;
    }
    ::fsync(fd);
    ::close(fd);
}

std::string gzip_member(const std::string &text) {
    z_stream z{};
    if (deflateInit2(&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 9, Z_DEFAULT_STRATEGY) != Z_OK) {
        throw ansor::UserError("zlib: cannot start deflating");
    }
    std::string out(deflateBound(&z, (uLong)text.size()), '\0');
    z.next_in = (Bytef *)text.data();
    z.avail_in = (uInt)text.size();
    z.next_out = (Bytef *)out.data();
    z.avail_out = (uInt)out.size();
    const int rc = deflate(&z, Z_FINISH);
    out.resize(out.size() - z.avail_out);
    deflateEnd(&z);
    if (rc != Z_STREAM_END) throw ansor::UserError("zlib: deflate failed");
    return out;
}

}  // namespace

CorpusContents read_corpus(const std::string &path) {
    CorpusContents c;
    const std::string bytes = read_bytes(path);
    c.file_bytes = bytes.size();
    const bool gzip = bytes.size() >= 2 && (unsigned char)bytes[0] == 0x1f && (unsigned char)bytes[1] == 0x8b;
    if (!gzip) {
        c.valid_bytes = parse_entries(path, bytes, c.entries);
        return c;
    }
    const Members m = inflate_members(path, bytes);
    const size_t text_done = parse_entries(path, m.text, c.entries);
    for (const auto &[text_end, file_end] : m.ends) {
        if (text_end <= text_done) c.valid_bytes = file_end;
    }
    return c;
}

std::string entry_lines(const CorpusEntry &e) {
    json params = json::object();
    for (const auto &[name, value] : e.spec.params) params[name] = value;
    json head = {{"generator", e.spec.generator}, {"params", params},       {"key", e.key},
                 {"target", e.target},            {"parallelism", e.parallelism}, {"funcs", e.funcs}};
    if (!e.model.empty()) head["model"] = e.model;
    std::string s = json{{"pipeline", head}}.dump() + "\n";
    for (const CorpusProgram &p : e.programs) {
        json j = {{"steps", p.steps}, {"ok", p.ok}};
        if (!p.ok) j["error"] = p.error.substr(0, 500);
        j["min_ms"] = time_json(p.min_ms);
        j["median_ms"] = time_json(p.median_ms);
        j["seconds"] = std::round(p.seconds * 1000) / 1000;
        s += j.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
    }
    json end = {{"programs", e.programs.size()}, {"seconds", std::round(e.seconds * 10) / 10}};
    if (!e.error.empty()) end["error"] = e.error.substr(0, 500);
    s += json{{"end", end}}.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
    return s;
}

void append_entry(const std::string &path, const CorpusEntry &entry) {
    const CorpusContents existing = read_corpus(path);
    if (existing.cut_short() && ::truncate(path.c_str(), (off_t)existing.valid_bytes) != 0) {
        throw ansor::UserError("cannot cut the unfinished last entry off " + path);
    }
    const std::string text = entry_lines(entry);
    write_all(path, ends_with(path, ".gz") ? gzip_member(text) : text);
}

}  // namespace ansor_corpus
