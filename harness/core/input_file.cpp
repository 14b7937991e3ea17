// The guard every input file crosses; see input_file.hpp.
#include "core/input_file.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace idconform::input {

Fd& Fd::operator=(Fd&& o) noexcept {
    if (this != &o) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = o.release();
    }
    return *this;
}

Fd::~Fd() {
    if (fd_ >= 0) ::close(fd_);
}

std::string size_text(std::size_t bytes) {
    if (bytes < 10000) return std::to_string(bytes) + " bytes";
    constexpr std::size_t mib = std::size_t{1} << 20;
    if (bytes % mib == 0) return std::to_string(bytes / mib) + " MiB";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(bytes) / static_cast<double>(mib));
    return buf;
}

namespace {

namespace fs = std::filesystem;

Diagnostic file_diag(const std::string& path, std::string title, std::string hint) {
    Diagnostic d;
    d.pos.file = path;
    d.title = std::move(title);
    d.hint = std::move(hint);
    return d;
}

// "/proc", "/sys" or "/dev" when the absolute path `p` is one of them or under one.
std::optional<std::string> system_root(const std::string& p) {
    for (const char* root : {"/proc", "/sys", "/dev"}) {
        const std::size_t n = std::strlen(root);
        if (p.compare(0, n, root) == 0 && (p.size() == n || p[n] == '/')) return std::string(root);
    }
    return std::nullopt;
}

// What the path resolves to, "" when it cannot be resolved.
std::string resolved(const std::string& path) {
    char buf[PATH_MAX];
    return ::realpath(path.c_str(), buf) ? std::string(buf) : std::string();
}

// The file an open descriptor reads (its /proc/self/fd link), "" if unknown.
std::string fd_target(int fd) {
    char buf[PATH_MAX];
    const std::string link = "/proc/self/fd/" + std::to_string(fd);
    const ssize_t n = ::readlink(link.c_str(), buf, sizeof buf - 1);
    return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
}

const char* kind_of(mode_t m) {
    return S_ISDIR(m)    ? "a directory"
           : S_ISCHR(m)  ? "a character device"
           : S_ISBLK(m)  ? "a block device"
           : S_ISSOCK(m) ? "a socket"
           : S_ISFIFO(m) ? "a pipe (FIFO)"
                         : "not a regular file";
}

// " (a symlink to T)" when `path` is a symlink.
std::string link_note(const std::string& path) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return {};
    const std::string r = resolved(path);
    return r.empty() ? std::string(" (a symlink)") : " (a symlink to " + r + ")";
}

std::optional<Diagnostic> refuse_system_path(const std::string& path, const Policy& p) {
    const auto root = system_path(path);
    if (!root) return std::nullopt;
    // A path the user gave may be a pipe under /dev (`<(...)` is /dev/fd/63);
    // the type check after opening decides for those.
    if (p.named_by == NamedBy::user && *root == "/dev") return std::nullopt;
    const std::string r = resolved(path);
    const std::string shown = !r.empty() && r != path ? " (it resolves to " + r + ")" : std::string();
    // stat, never open: what it is (a device) without touching it.
    struct stat st {};
    const bool special = ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
    return file_diag(path,
                     "cannot read " + std::string(p.what) + ": '" + path + "' is " +
                         (special ? std::string(kind_of(st.st_mode)) + " " : std::string()) + "under " + *root + shown +
                         ", a system file, not an input",
                     p.named_by == NamedBy::file
                         ? "name a file of your project: files under /proc, /sys and /dev are never read"
                         : "pass " + std::string(p.expected) + ": files under /proc and /sys are never read");
}

}  // namespace

std::optional<std::string> system_path(const std::string& path) {
    std::error_code ec;
    const std::string lexical = fs::absolute(fs::path(path), ec).lexically_normal().string();
    if (auto r = system_root(lexical)) return r;
    const std::string r = resolved(path);
    if (!r.empty()) return system_root(r);
    return std::nullopt;
}

namespace {

Opened open_checked(const std::string& path, const Policy& p);

}  // namespace

Opened open_input(const std::string& path, const Policy& p) {
    Opened out = open_checked(path, p);
    if (out.error && out.reason.empty()) {
        const std::string prefix = "cannot read " + std::string(p.what) + ": ";
        out.reason = out.error->title.rfind(prefix, 0) == 0 ? out.error->title.substr(prefix.size()) : out.error->title;
    }
    return out;
}

namespace {

Opened open_checked(const std::string& path, const Policy& p) {
    Opened out;
    const std::string w(p.what);
    if (auto d = refuse_system_path(path, p)) {
        out.error = std::move(d);
        return out;
    }
    // O_NONBLOCK: opening a FIFO does not wait for a writer; O_NOCTTY: a
    // terminal never becomes ours.
    Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY));
    if (fd.get() < 0) {
        const int err = errno;
        out.reason = std::strerror(err);
        std::error_code ec;
        out.error = file_diag(path, "cannot read " + w + (err == ENOENT ? ": no such file or directory" : ""),
                              err == ENOENT ? "check the path; relative paths are relative to the current directory (" +
                                                  fs::current_path(ec).string() + ")"
                              : err == EACCES ? std::string("check the file's permissions")
                                              : std::string(std::strerror(err)));
        return out;
    }
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) {
        out.error = file_diag(path, "cannot read " + w + ": " + std::strerror(errno), "check the file");
        return out;
    }
    const bool pipe_ok = S_ISFIFO(st.st_mode) && p.pipes && p.named_by == NamedBy::user;
    if (!S_ISREG(st.st_mode) && !pipe_ok) {
        out.error = file_diag(path, "cannot read " + w + ": '" + path + "' is " + kind_of(st.st_mode) + link_note(path),
                              "pass " + std::string(p.expected) +
                                  (p.named_by == NamedBy::user && p.pipes ? " (a pipe such as <(...) works too)"
                                                                          : std::string(" (a regular file)")));
        return out;
    }
    if (S_ISREG(st.st_mode)) {
        // The file itself, whatever path led to it (/dev/fd/N, a bind mount).
        if (const auto root = system_root(fd_target(fd.get())); root && *root != "/dev") {
            out.error = file_diag(path, "cannot read " + w + ": '" + path + "' is under " + *root +
                                            ", a system file, not an input",
                                  "files under /proc and /sys are never read");
            return out;
        }
        // Regular files are read blocking (O_NONBLOCK means nothing for them).
        ::fcntl(fd.get(), F_SETFL, ::fcntl(fd.get(), F_GETFL) & ~O_NONBLOCK);
        out.size = static_cast<std::uint64_t>(st.st_size);
    }
    out.pipe = S_ISFIFO(st.st_mode);
    out.fd = std::move(fd);
    return out;
}

}  // namespace

bool read_all(Opened& f, const std::string& path, const Policy& p, std::string& out, Diagnostic& error) {
    const std::string w(p.what);
    const auto too_big = [&](const std::string& size) {
        return file_diag(path, "cannot read " + w + ": it is " + size + ", over the limit of " +
                                   size_text(p.max_bytes) + " for input files",
                         "split it into several files");
    };
    if (!f.pipe && f.size > p.max_bytes) {
        error = too_big(size_text(static_cast<std::size_t>(f.size)));
        return false;
    }
    out.clear();
    if (!f.pipe) out.reserve(static_cast<std::size_t>(f.size));
    char buf[65536];
    for (;;) {
        const ssize_t n = ::read(f.fd.get(), buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && f.pipe) {
            pollfd pfd{f.fd.get(), POLLIN, 0};
            const int r = ::poll(&pfd, 1, p.pipe_idle_ms);
            if (r < 0 && errno == EINTR) continue;
            if (r == 0) {
                error = file_diag(path, "cannot read " + w + ": the pipe sent nothing for " +
                                            std::to_string(p.pipe_idle_ms / 1000) + " s",
                                  "a pipe is read until its writer closes it; pass a regular file");
                return false;
            }
            continue;
        }
        if (n < 0) {
            error = file_diag(path, "cannot read " + w + ": " + std::strerror(errno), "check the file");
            return false;
        }
        if (n == 0) return true;
        if (out.size() + static_cast<std::size_t>(n) > p.max_bytes) {
            error = too_big("more than " + size_text(p.max_bytes));
            return false;
        }
        out.append(buf, static_cast<std::size_t>(n));
    }
}

InputFile read_input(const std::string& path, const Policy& p) {
    InputFile out;
    Opened f = open_input(path, p);
    if (f.error) {
        out.error = std::move(*f.error);
        return out;
    }
    std::string text;
    if (!read_all(f, path, p, text, out.error)) return out;
    if (auto d = check_text(text, path, p.format)) {
        out.error = std::move(*d);
        return out;
    }
    out.text = std::move(text);
    return out;
}

InputFile read_stdin(const Policy& p) {
    InputFile out;
    const std::string name(stdin_name);
    const std::string w(p.what);
    struct stat st {};
    if (::isatty(STDIN_FILENO) == 1 || ::fstat(STDIN_FILENO, &st) != 0 ||
        !(S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))) {
        const bool closed = errno == EBADF;
        out.error = file_diag(name,
                              "cannot read " + w + " from standard input: it is " +
                                  (::isatty(STDIN_FILENO) == 1 ? std::string("a terminal")
                                   : closed                     ? std::string("closed")
                                                                : std::string(kind_of(st.st_mode))),
                              "'-' reads a pipe or a redirected file, e.g. `idconform run --target - < my.target.yaml`; "
                              "or name the file instead of '-'");
        return out;
    }
    Opened f;
    f.fd = Fd(::fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0));
    if (f.fd.get() < 0) {
        out.error = file_diag(name, "cannot read " + w + " from standard input: " + std::strerror(errno), "check the pipe");
        return out;
    }
    f.pipe = !S_ISREG(st.st_mode);
    f.size = S_ISREG(st.st_mode) ? static_cast<std::uint64_t>(st.st_size) : 0;
    // A pipe is read non-blocking (read_all waits pipe_idle_ms at most); the
    // flag belongs to the open file shared with the shell, so it is put back.
    const int flags = ::fcntl(f.fd.get(), F_GETFL);
    if (f.pipe && flags >= 0) ::fcntl(f.fd.get(), F_SETFL, flags | O_NONBLOCK);
    std::string text;
    const bool ok = read_all(f, name, p, text, out.error);
    if (f.pipe && flags >= 0) ::fcntl(f.fd.get(), F_SETFL, flags);
    if (!ok) return out;
    if (auto d = check_text(text, name, p.format)) {
        out.error = std::move(*d);
        return out;
    }
    out.text = std::move(text);
    return out;
}

namespace {

// Length of the valid UTF-8 sequence at s[i], 0 when it is invalid
// (overlong forms, surrogates and code points past U+10FFFF included).
std::size_t utf8_length(std::string_view s, std::size_t i) {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
    const unsigned char c = b(0);
    if (c < 0x80) return 1;
    std::size_t n = 0;
    unsigned lo = 0x80;
    unsigned hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
    } else {
        return 0;
    }
    if (i + n > s.size()) return 0;
    if (b(1) < lo || b(1) > hi) return 0;
    for (std::size_t k = 2; k < n; ++k)
        if (b(k) < 0x80 || b(k) > 0xBF) return 0;
    return n;
}

}  // namespace

std::optional<Diagnostic> check_text(std::string_view text, const std::string& path, std::string_view format) {
    const std::string fmt(format);
    if (text.substr(0, 2) == "\xFF\xFE" || text.substr(0, 2) == "\xFE\xFF") {
        Diagnostic d;
        d.pos = SourcePos{path, 1, 1};
        d.title = std::string("the file is UTF-16 (byte order mark ") +
                  (text[0] == '\xFF' ? "0xFF 0xFE" : "0xFE 0xFF") + "), not UTF-8 text";
        d.hint = fmt + " files are read as UTF-8: save the file as UTF-8";
        return d;
    }
    std::size_t i = 0;
    if (text.substr(0, 3) == "\xEF\xBB\xBF") i = 3;
    constexpr std::uint64_t ones = 0x0101010101010101ULL;
    constexpr std::uint64_t highs = 0x8080808080808080ULL;
    while (i < text.size()) {
        // Eight ASCII bytes without NUL at a time (the usual case), then one
        // character.
        while (i + 8 <= text.size()) {
            std::uint64_t w = 0;
            std::memcpy(&w, text.data() + i, 8);
            if (((w | ((w - ones) & ~w)) & highs) != 0) break;  // a byte >= 0x80, or a zero byte
            i += 8;
        }
        if (i == text.size()) break;
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x01 && c < 0x80) {
            ++i;
            continue;
        }
        const std::size_t n = c == 0 ? 0 : utf8_length(text, i);
        if (n > 0) {
            i += n;
            continue;
        }
        // No source line: the bytes of a file that is not text are never shown.
        const std::string_view before = text.substr(0, i);
        const std::size_t last_nl = before.rfind('\n');
        const std::size_t line_start = last_nl == std::string_view::npos ? 0 : last_nl + 1;
        const auto line = static_cast<int>(std::count(before.begin(), before.end(), '\n')) + 1;
        Diagnostic d;
        d.pos = SourcePos{path, line, static_cast<int>(i - line_start) + 1};
        if (c == 0) {
            d.title = "NUL byte in the file: it is not text";
            d.hint = "a " + fmt + " file is text; this looks like a binary file, or text saved as UTF-16 (save it as UTF-8)";
        } else {
            char hex[8];
            std::snprintf(hex, sizeof hex, "0x%02X", c);
            d.title = std::string("invalid UTF-8 (byte ") + hex + "): the file is not UTF-8 text";
            d.hint = fmt + " files are read as UTF-8; save the file as UTF-8 (it may be Latin-1 or Windows-1252), "
                           "or write the character as an escape in a double-quoted string, e.g. \"\\u00e9\"";
        }
        return d;
    }
    return std::nullopt;
}

}  // namespace idconform::input
