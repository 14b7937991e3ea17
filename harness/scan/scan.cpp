// The scan entry points: format choice, input buffering, positions and
// errors shared by the readers, violation rendering.
#include "scan/detail.hpp"
#include "core/input_file.hpp"

#include "ids/ids.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <system_error>
#include <thread>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <unistd.h>

namespace idconform::scan {

namespace detail {

Input::Input(int fd, std::size_t chunk) : fd_(fd), capacity_(std::max<std::size_t>(chunk, 64)) {
    // 64 spare bytes: the SSE2 loops may load 16 bytes past the last one read.
    owned_ = std::make_unique<char[]>(capacity_ + 64);
    std::memset(owned_.get() + capacity_, 0, 64);
    data_ = owned_.get();
}

Input::Input(int fd, std::size_t chunk, std::uint64_t limit, std::function<void()> at_limit)
    : Input(fd, chunk) {
    positional_ = true;
    limit_ = limit;
    at_limit_ = std::move(at_limit);
}

Input::Input(std::string_view text) : data_(text.data()), end_(text.size()) {}

bool Input::refill(std::size_t keep_from) {
    if (fd_ < 0) return false;
    char* buf = owned_.get();
    const std::size_t kept = end_ - keep_from;
    if (kept > 0 && keep_from > 0) std::memmove(buf, buf + keep_from, kept);
    base_ += keep_from;
    end_ = kept;
    for (;;) {
        ssize_t n;
        if (positional_) {
            const std::uint64_t at = base_ + end_;
            if (at >= limit_) {
                if (at_limit_) at_limit_();
                unlimit();
            }
            const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(capacity_ - end_, limit_ - at));
            n = ::pread(fd_, buf + end_, want, static_cast<off_t>(at));
        } else {
            n = ::read(fd_, buf + end_, capacity_ - end_);
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            errno_ = errno;
            return false;
        }
        end_ += static_cast<std::size_t>(n);
        return n > 0;
    }
}

bool Scanner::more(std::size_t keep) {
    if (done()) return false;
    const std::uint64_t old_base = in_.base();
    const bool got = in_.refill(keep);
    pos_ -= static_cast<std::size_t>(in_.base() - old_base);
    d_ = in_.data();
    end_ = in_.end();
    if (in_.error() != 0) {
        error("read error: " + std::string(std::strerror(in_.error())));
        st_.error->io = true;
        return false;
    }
    if (!line_ok()) return false;
    return got;
}

bool Scanner::line_ok() {
    if (!line_limit_ || abs() - line_start_ <= o_.max_line_bytes) return true;
    limit_line();
    return false;
}

std::string Scanner::line_too_long(std::uint64_t line) const {
    return "line " + std::to_string(line) + " is longer than " + std::to_string(o_.max_line_bytes) +
           " bytes (raise --max-line-bytes if records really are this long; is this the right format?)";
}

void Scanner::error_at(std::uint64_t line, std::uint64_t column, std::uint64_t offset, std::string message) {
    if (st_.error) return;  // the first error is the one that explains
    // Once the reader is past the current line's limit, the line being too
    // long is the error, whatever else it found there: the length is also
    // checked at every refill, so without this the answer depended on where
    // the buffer happened to end.
    if (line == line_ && past_line_limit()) {
        limit_line();
        return;
    }
    st_.error = ScanError{line, column, offset, std::move(message)};
}

bool Scanner::past_line_limit() const { return line_limit_ && abs() - line_start_ > o_.max_line_bytes; }

void Scanner::limit_line() {
    if (st_.error) return;
    if (second_) split_->line_too_long = true;  // its message names the line: see handoff()
    st_.error = ScanError{line_, o_.max_line_bytes + 1, line_start_ + o_.max_line_bytes, line_too_long(line_)};
}

std::string Scanner::describe_char(int c) {
    if (c < 0) return "end of file";
    if (c == 0) return "a NUL byte (this looks like a binary file)";
    if (c == '\n') return "end of line";
    if (c >= 0x21 && c < 0x7f) return std::string("'") + static_cast<char>(c) + "'";
    char b[16];
    std::snprintf(b, sizeof b, "byte 0x%02x", c);
    return b;
}

bool Scanner::start(const char* format_name) {
    if (peek() < 0) {
        if (!st_.error) error_at(1, 1, 0, std::string("empty file: no ") + format_name + " records");
        return false;
    }
    // a UTF-8 byte order mark (spreadsheet exports write one) is skipped
    if (end_ - pos_ < 3) (void)more(pos_);
    if (end_ - pos_ >= 3 && std::memcmp(d_ + pos_, "\xEF\xBB\xBF", 3) == 0) {
        pos_ += 3;
        line_start_ = 3;
    } else if (end_ - pos_ >= 2 && static_cast<unsigned char>(d_[pos_]) == 0x1f &&
               static_cast<unsigned char>(d_[pos_ + 1]) == 0x8b) {
        error_at(1, 1, 0, "gzip-compressed file: decompress it first, e.g. zcat FILE | idconform scan --format " +
                              std::string(format_name) + " -");
        return false;
    }
    return true;
}

bool Scanner::utf8_step() {
    const auto* p = reinterpret_cast<const unsigned char*>(d_ + pos_);
    const std::size_t avail = end_ - pos_;
    const unsigned char c = p[0];
    std::size_t n;
    unsigned lo = 0x80, hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) n = 2;
    else if (c == 0xe0) { n = 3; lo = 0xa0; }
    else if (c == 0xed) { n = 3; hi = 0x9f; }  // no UTF-16 surrogates
    else if (c >= 0xe1 && c <= 0xef) n = 3;
    else if (c == 0xf0) { n = 4; lo = 0x90; }
    else if (c == 0xf4) { n = 4; hi = 0x8f; }  // nothing above U+10FFFF
    else if (c >= 0xf1 && c <= 0xf3) n = 4;
    else {
        error("invalid UTF-8: " + describe_char(c) + " cannot start a character (the file must be UTF-8)");
        return false;
    }
    for (std::size_t i = 1; i < n; ++i) {
        const unsigned char b = i < avail ? p[i] : 0;
        const unsigned l = i == 1 ? lo : 0x80, h = i == 1 ? hi : 0xbf;
        if (i >= avail || b < l || b > h) {
            error("invalid UTF-8: a " + std::to_string(n) + "-byte sequence starting with " + describe_char(c) +
                  (i >= avail ? " is cut off by the end of the file" : " continues with " + describe_char(b)));
            return false;
        }
    }
    pos_ += n;
    return true;
}

bool Scanner::handoff() {
    Split& s = *split_;
    split_ = nullptr;
    s.finish();
    const bool usable = !s.overflow && !s.failed && !s.stats.stopped && s.tracked < max_tracked_fields &&
                        !(s.no_records && st_.records == 0);
    if (usable) {
        // Replay in file order: the buffered violations, and between them the
        // first value of each version per field, judged against this half's
        // version state exactly as one pass would have judged it.
        // The second half counted its lines from s.line at the split; this
        // reader is at the split's real line now.
        const std::uint64_t shift = line_ - s.line;
        save_versions();
        const std::uint64_t before = st_.violations;
        std::size_t ei = 0;
        for (std::size_t vi = 0;; ++vi) {
            for (; ei < s.events.size() && s.events[ei].at <= vi && !st_.stopped; ++ei) {
                const VersionEvent& e = s.events[ei];
                if (VersionSeen* seen = version_slot(e.key))
                    track_version(*seen, e.version, e.value, e.line + shift, e.column, e.where, e.key);
            }
            if (st_.stopped || vi == s.violations.size()) break;
            Violation& v = s.violations[vi];
            report(std::move(v.rule), v.line + shift, v.column, std::move(v.where), std::move(v.expected),
                   std::move(v.actual));
        }
        if (!st_.stopped) {
            st_.records += s.stats.records;
            st_.values += s.stats.values;
            st_.fast_records += s.stats.fast_records;
            st_.bytes = s.stats.bytes;
            if (s.stats.error) {
                st_.error = s.stats.error;
                st_.error->line += shift;
                if (s.line_too_long) st_.error->message = line_too_long(st_.error->line);
            }
            st_.halves = true;
            merged_ = true;
            return true;
        }
        // The sink stopped inside the second half: read it again here (without
        // delivering again) so that the scan stops where one pass stops and
        // the counts say so.
        restore_versions();
        suppress_ = st_.violations - before;
        st_.violations = before;
        st_.stopped = false;
    }
    in_.unlimit();
    return false;
}

void Scanner::report(std::string rule, std::uint64_t line, std::uint64_t column, std::string where,
                     std::string expected, std::string actual) {
    if (st_.stopped) return;
    // Found past the limit of a too-long line: the line is the error (see
    // error_at), and nothing after it is reported. Also for a value that
    // began on an earlier line (a CSV field quoted across lines): a buffer
    // refilled inside it stops at the limit before the value ends.
    if (past_line_limit()) {
        limit_line();
        return;
    }
    if (suppress_ > 0) {
        ++st_.violations;
        if (--suppress_ == 0) st_.stopped = true;
        return;
    }
    Violation v{std::move(rule), line, column, std::move(where), std::move(expected), std::move(actual)};
    ++st_.violations;
    if (!sink_(v)) st_.stopped = true;
}

void Scanner::track_version(VersionSeen& seen, int version, std::string_view value, std::uint64_t line,
                            std::uint64_t column, const std::string& where, std::string_view key) {
    if (second_) {  // judged at the handoff: remember the first value of each version
        if (seen.version < 0) seen.version = version;
        if ((seen.reported >> version) & 1u) return;
        seen.reported = static_cast<std::uint16_t>(seen.reported | (1u << version));
        if (split_->events.size() >= Split::max_buffered) {
            split_->overflow = true;
            st_.stopped = true;
            return;
        }
        split_->events.push_back(VersionEvent{std::string(key), version, std::string(value), line, column, where,
                                              static_cast<std::size_t>(st_.violations)});
        return;
    }
    if (seen.version < 0) {
        seen.version = version;
        seen.line = line;
        seen.where = where;
        return;
    }
    if (version == seen.version || (seen.reported >> version) & 1u) return;
    seen.reported = static_cast<std::uint16_t>(seen.reported | (1u << version));
    report("DATA-ID-003", line, column, where,
           "one UUID version per field (v" + std::to_string(seen.version) + " first, at line " +
               std::to_string(seen.line) + " " + seen.where + ")",
           "'" + std::string(value) + "': a UUIDv" + std::to_string(version) +
               " (only the first value of each other version is reported)");
}

}  // namespace detail

std::string_view to_string(Format f) noexcept {
    switch (f) {
        case Format::ndjson: return "ndjson";
        case Format::json: return "json";
        case Format::csv: return "csv";
    }
    return "ndjson";
}

std::optional<Format> format_from_name(std::string_view n) noexcept {
    if (n == "ndjson" || n == "jsonl") return Format::ndjson;
    if (n == "json") return Format::json;
    if (n == "csv") return Format::csv;
    return std::nullopt;
}

std::optional<Format> format_from_path(std::string_view path) noexcept {
    auto ends = [&](std::string_view ext) {
        if (path.size() < ext.size()) return false;
        for (std::size_t i = 0; i < ext.size(); ++i) {
            char c = path[path.size() - ext.size() + i];
            if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
            if (c != ext[i]) return false;
        }
        return true;
    };
    if (ends(".ndjson") || ends(".jsonl")) return Format::ndjson;
    if (ends(".json")) return Format::json;
    if (ends(".csv")) return Format::csv;
    return std::nullopt;
}

namespace {
Stats dispatch(detail::Input& in, const Options& o, const Sink& sink) {
    switch (o.format) {
        case Format::ndjson: return detail::scan_json(in, o, sink, true);
        case Format::json: return detail::scan_json(in, o, sink, false);
        case Format::csv: return detail::scan_csv(in, o, sink);
    }
    return {};
}
}  // namespace

namespace {

// The first line start at or after the middle of a `size`-byte file; 0: none.
std::uint64_t split_point(int fd, std::uint64_t size) {
    char buf[4096];
    for (std::uint64_t at = size / 2; at < size;) {
        const ssize_t got = ::pread(fd, buf, sizeof buf, static_cast<off_t>(at));
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return 0;
        if (const void* nl = std::memchr(buf, '\n', static_cast<std::size_t>(got))) {
            const std::uint64_t s = at + static_cast<std::uint64_t>(static_cast<const char*>(nl) - buf) + 1;
            return s < size ? s : 0;
        }
        at += static_cast<std::uint64_t>(got);
    }
    return 0;
}

Stats scan_halves(int fd, std::uint64_t at, const Options& o, const Sink& sink) {
    detail::Split s;
    s.at = at;
    const bool ndjson = o.format == Format::ndjson;
    try {
        s.worker = std::thread([&s, fd, &o, ndjson] {
            // Line numbers count from the split (s.line = 1): the first
            // reader knows the split's line when it arrives and shifts them
            // (handoff), so nobody reads the first half twice to count lines.
            detail::Input in(fd, o.buffer_bytes, UINT64_MAX, nullptr);
            const Sink buffer = [&s](const Violation& v) {
                if (s.violations.size() >= detail::Split::max_buffered) {
                    s.overflow = true;
                    return false;
                }
                s.violations.push_back(v);
                return true;
            };
            s.stats = ndjson ? detail::scan_json(in, o, buffer, true, &s, true) : detail::scan_csv(in, o, buffer, &s, true);
            if (s.stats.error && s.stats.error->io) s.failed = true;
        });
    } catch (const std::system_error&) {  // no thread: one pass
        detail::Input in(fd, o.buffer_bytes);
        return dispatch(in, o, sink);
    }
    detail::Input in(fd, o.buffer_bytes, at, [&s] { s.abandon(); });
    Stats st = ndjson ? detail::scan_json(in, o, sink, true, &s, false) : detail::scan_csv(in, o, sink, &s, false);
    s.abandon();  // the first half stopped early (error, sink): the second is not needed
    return st;
}

}  // namespace

Stats scan_fd(int fd, const Options& o, const Sink& sink) {
    const unsigned threads = o.threads != 0 ? o.threads : std::thread::hardware_concurrency();
    struct stat sb {};
    if (threads >= 2 && (o.format == Format::ndjson || o.format == Format::csv) && ::fstat(fd, &sb) == 0 &&
        S_ISREG(sb.st_mode) && static_cast<std::uint64_t>(sb.st_size) >= std::max<std::uint64_t>(o.split_min_bytes, 2) &&
        ::lseek(fd, 0, SEEK_CUR) == 0) {
        if (const std::uint64_t at = split_point(fd, static_cast<std::uint64_t>(sb.st_size)); at > 0)
            return scan_halves(fd, at, o, sink);
    }
    detail::Input in(fd, o.buffer_bytes);
    return dispatch(in, o, sink);
}

Stats scan_text(std::string_view text, const Options& o, const Sink& sink) {
    detail::Input in(text);
    return dispatch(in, o, sink);
}

Stats scan_path(const std::string& path, const Options& o, const Sink& sink) {
    if (path == "-") return scan_fd(STDIN_FILENO, o, sink);
    // Only the guard's open and type check (no copy: the file is streamed):
    // no device, socket or file under /proc or /sys; a FIFO never waits
    // for a writer to open it.
    input::Opened in = input::open_input(path, {.what = "file", .expected = "an NDJSON, JSON or CSV file"});
    if (in.error) {
        Stats s;
        s.error = ScanError{0, 0, 0, "cannot open: " + in.reason};
        return s;
    }
    if (in.pipe) ::fcntl(in.fd.get(), F_SETFL, ::fcntl(in.fd.get(), F_GETFL) & ~O_NONBLOCK);
    const int fd = in.fd.release();
#if defined(POSIX_FADV_SEQUENTIAL)
    (void)::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
    Stats s = scan_fd(fd, o, sink);
    ::close(fd);
    return s;
}

std::string format_violation(const std::string& file, const Violation& v) {
    return file + ":" + std::to_string(v.line) + ":" + std::to_string(v.column) + ": " + v.rule + ": " + v.where +
           ": " + v.actual + " (expected " + v.expected + ")";
}

std::string format_error(const std::string& file, const ScanError& e) {
    if (e.line == 0) return file + ": error: " + e.message;
    return file + ":" + std::to_string(e.line) + ":" + std::to_string(e.column) + ": error: " + e.message;
}

CheckResult to_check(const std::string& file, const Violation& v) {
    CheckResult c;
    c.rule = v.rule;
    c.what = v.where;
    c.expected = v.expected;
    c.actual = v.actual;
    c.ok = false;
    c.pos = SourcePos{file, static_cast<int>(v.line), static_cast<int>(v.column)};
    return c;
}

}  // namespace idconform::scan
