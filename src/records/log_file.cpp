#include "records/log_file.h"

#include "util/errors.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace ansor {

namespace {

std::string system_error(const std::string &what, const std::string &path) {
    return what + " tuning log '" + path + "': " + std::strerror(errno);
}

// Closes the descriptor (and so drops its lock) on every path out.
class Descriptor {
public:
    explicit Descriptor(int fd) : fd_(fd) {}
    ~Descriptor() {
        if (fd_ >= 0) ::close(fd_);
    }
    Descriptor(const Descriptor &) = delete;
    Descriptor &operator=(const Descriptor &) = delete;
    int get() const { return fd_; }

private:
    int fd_;
};

void lock(int fd, int how, const std::string &path) {
    while (::flock(fd, how) != 0) {
        if (errno != EINTR) throw UserError(system_error("cannot lock", path));
    }
}

void write_all(int fd, const std::string &data, const std::string &path) {
    size_t done = 0;
    while (done < data.size()) {
        ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) throw UserError(system_error("cannot write to", path));
        done += (size_t)n;
    }
}

// Whether the file's last byte is something other than a newline.
bool ends_mid_line(int fd) {
    struct stat st {};
    if (::fstat(fd, &st) != 0 || st.st_size == 0) return false;
    char last = '\n';
    return ::pread(fd, &last, 1, st.st_size - 1) == 1 && last != '\n';
}

}  // namespace

void append_log_line(const std::string &path, const std::string &line) {
    // O_APPEND: every write goes to the end; no O_TRUNC: what is there stays
    // byte for byte. Read access only to look at the last byte.
    int raw = ::open(path.c_str(), O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    const bool readable = raw >= 0;
    if (raw < 0 && errno == EACCES) raw = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (raw < 0) throw UserError(system_error("cannot open", path));
    Descriptor fd(raw);
    // Held until the descriptor closes: the tail check and the write are one
    // step for every other appender.
    lock(fd.get(), LOCK_EX, path);
    std::string bytes = line + "\n";
    if (readable && ends_mid_line(fd.get())) bytes = "\n" + bytes;
    write_all(fd.get(), bytes, path);
    if (::fsync(fd.get()) != 0) throw UserError(system_error("cannot flush", path));
}

std::optional<std::string> read_log_file(const std::string &path) {
    int raw = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (raw < 0) {
        if (errno == ENOENT) return std::nullopt;  // created by the first append
        throw UserError(system_error("cannot read", path));
    }
    Descriptor fd(raw);
    lock(fd.get(), LOCK_SH, path);
    std::string text;
    char buffer[1 << 16];
    for (;;) {
        ssize_t n = ::read(fd.get(), buffer, sizeof(buffer));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw UserError(system_error("cannot read", path));
        if (n == 0) break;
        text.append(buffer, (size_t)n);
    }
    return text;
}

std::vector<LogLine> split_log_lines(const std::string &bytes) {
    std::vector<LogLine> lines;
    size_t pos = 0;
    int number = 0;
    while (pos < bytes.size()) {
        size_t end = bytes.find('\n', pos);
        LogLine l;
        l.offset = pos;
        l.number = ++number;
        l.terminated = end != std::string::npos;
        if (!l.terminated) end = bytes.size();
        l.text = bytes.substr(pos, end - pos);
        if (!l.text.empty() && l.text.back() == '\r') l.text.pop_back();
        pos = l.terminated ? end + 1 : end;
        lines.push_back(std::move(l));
    }
    return lines;
}

}  // namespace ansor
