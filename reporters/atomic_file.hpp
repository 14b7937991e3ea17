// Writing a report file atomically: readers (CI uploaders, a previous run's
// viewer) see either the old file or the complete new one, never half of it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace idconform::reporters {

// What is at path decides how it is written. A symbolic link is followed:
// the file it names is written (a link to nothing is refused). A regular
// file (its permission bits kept) or a new path: content goes to a temporary
// file beside it, renamed over it. A device (/dev/null) or a FIFO: opened
// and written in place, never replaced. A directory: refused.
// Writes content to a temporary file beside path and renames it over path. On failure removes the temporary file, sets error to
// "cannot write <what> '<path>': <reason>" and returns false. Never throws.
[[nodiscard]] bool write_file_atomic(const std::string& path, std::string_view content, std::string_view what,
                                     std::string& error) noexcept;

// The same, written in pieces: a report too large to build in memory is
// streamed into the temporary file and renamed over path by commit(). The
// first failure is kept and reported by commit(); later writes do nothing.
// Destroyed without a successful commit, it removes the temporary file.
class AtomicFileWriter {
public:
    AtomicFileWriter(std::string path, std::string_view what) noexcept;
    ~AtomicFileWriter();
    AtomicFileWriter(const AtomicFileWriter&) = delete;
    AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

    void write(std::string_view data) noexcept;
    // Closes and renames (in place: closes). Returns false and sets error on any failure
    // since construction.
    [[nodiscard]] bool commit(std::string& error) noexcept;

private:
    void fail(const char* step, int err) noexcept;
    void open_target();

    std::string path_;
    std::string what_;
    std::string target_;     // the regular file renamed over (path_, or what its link names)
    std::string tmp_;
    bool in_place_ = false;  // a device or FIFO, written where it is
    int fd_ = -1;
    std::string error_;
};

// True when a and b are the same existing regular file (device and inode:
// also through a symbolic or hard link). Devices and FIFOs are never "the
// same" (report /dev/stdin --html /dev/stdout may share a terminal).
[[nodiscard]] bool same_file(const std::string& a, const std::string& b) noexcept;
// Empty when no output (empty ones ignored) is one of the inputs, else the
// error to print (exit 2, before anything is written).
[[nodiscard]] std::string output_overwrites_input(const std::vector<std::string>& outputs,
                                                  const std::vector<std::string>& inputs);

}  // namespace idconform::reporters
