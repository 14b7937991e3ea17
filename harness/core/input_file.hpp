// The one guard every file the tool reads crosses: suites and their
// includes, target profiles, waivers, baselines and JSON reports read back,
// OpenAPI documents and their `$ref` targets, `.proto` files, scan inputs
// and the source lines diagnostics quote.
//
// Policy (docs/suite-format.md, "Limits on input files"):
// - Only regular files are read, and pipes (FIFOs, `<(...)`) where the user
//   named the file on the command line. A pipe is read without ever
//   blocking for ever: opened O_NONBLOCK (a FIFO with no writer is an empty
//   file) and given up after `pipe_idle_ms` without data.
// - Directories, devices and sockets are refused with what they are, also
//   through a symlink (a `.proto` linked to /dev/zero is "a character
//   device", never read).
// - /proc and /sys are refused (after resolving symlinks, and by the opened
//   file itself), so `/proc/self/environ` is never read; a path named inside
//   another file (an include, a `$ref`, an import) may not be under /dev
//   either, nor be a pipe.
// - Documents are read up to a cap (whole text in memory); data that is
//   streamed (reports, scan inputs) only crosses open_input().
// - The text check gives the first NUL byte, invalid UTF-8 sequence or
//   UTF-16 byte order mark at line:col and never quotes the bytes of a file
//   that is not text.
#pragma once

#include "core/diagnostic.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace idconform::input {

struct Limits {
    // A document read whole into memory (YAML, OpenAPI, .proto).
    static constexpr std::size_t document_bytes = std::size_t{64} << 20;
    // Idle time after which a pipe that sends nothing is given up.
    static constexpr int pipe_idle_ms = 30000;
};

// Who named the path: the user on the command line, or a file (an include,
// a `$ref`, a `.proto` import), which may name neither a pipe nor anything
// under /proc, /sys or /dev.
enum class NamedBy { user, file };

struct Policy {
    std::string_view what = "file";  // "suite file", "profile", ...: in every message
    NamedBy named_by = NamedBy::user;
    std::size_t max_bytes = Limits::document_bytes;  // read_input only
    bool pipes = true;                               // for NamedBy::user
    int pipe_idle_ms = Limits::pipe_idle_ms;
    std::string_view format = "YAML";                // the text check's hints: "a YAML file is text"
    std::string_view expected = "a YAML file";       // "pass ..." in the hint of a refused kind of file
};

// An open file descriptor, closed with the object.
class Fd {
public:
    Fd() = default;
    explicit Fd(int fd) : fd_(fd) {}
    Fd(Fd&& o) noexcept : fd_(o.release()) {}
    Fd& operator=(Fd&& o) noexcept;
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    ~Fd();
    [[nodiscard]] int get() const { return fd_; }
    int release() {
        const int f = fd_;
        fd_ = -1;
        return f;
    }

private:
    int fd_ = -1;
};

struct Opened {
    Fd fd;                       // valid when !error
    bool pipe = false;           // a FIFO: non-blocking, read with read_all
    std::uint64_t size = 0;      // of a regular file
    std::optional<Diagnostic> error;
    std::string reason;          // the error's title after "cannot read WHAT: " (strerror of a failed open)
};

// Opens `path` for reading under `p` (no size check: for streamed data).
[[nodiscard]] Opened open_input(const std::string& path, const Policy& p);

// The text of an input file, or why it cannot be had.
struct InputFile {
    std::optional<std::string> text;
    Diagnostic error;  // when !text
};

// open_input, then the whole file up to p.max_bytes, then check_text.
[[nodiscard]] InputFile read_input(const std::string& path, const Policy& p);

// The name standard input goes by in diagnostics ("<stdin>:3:5").
inline constexpr std::string_view stdin_name = "<stdin>";

// Standard input as read_input reads a file (`--target -`): a redirected
// file or a pipe (never blocking for ever, as a named pipe), up to
// p.max_bytes, then check_text. A terminal is refused (nothing would end the
// read); so are devices and anything else.
[[nodiscard]] InputFile read_stdin(const Policy& p);

// Everything from an opened file up to `max_bytes`; false with `error`
// (a read error, the cap, a pipe idle for too long).
[[nodiscard]] bool read_all(Opened& f, const std::string& path, const Policy& p, std::string& out, Diagnostic& error);

// The first NUL byte, invalid UTF-8 sequence or UTF-16 byte order mark of
// `text`, as a diagnostic at its line and column, without a source line (a
// UTF-8 byte order mark at the start is fine). `format` names the text in
// the hint ("YAML", "OpenAPI", ".proto").
[[nodiscard]] std::optional<Diagnostic> check_text(std::string_view text, const std::string& path,
                                                   std::string_view format = "YAML");

// "/proc", "/sys" or "/dev" when `path` (as written, or once its symlinks
// are resolved) is under it; nullopt otherwise.
[[nodiscard]] std::optional<std::string> system_path(const std::string& path);

// Human size: "42.9 MiB", "512 bytes".
[[nodiscard]] std::string size_text(std::size_t bytes);

}  // namespace idconform::input
