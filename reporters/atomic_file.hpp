// Writing a report file atomically: readers (CI uploaders, a previous run's
// viewer) see either the old file or the complete new one, never half of it.
#pragma once

#include <string>
#include <string_view>

namespace idconform::reporters {

// Writes content to a temporary file beside path, flushes it to disk and
// renames it over path. On failure removes the temporary file, sets error to
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
    // Syncs, closes and renames. Returns false and sets error on any failure
    // since construction.
    [[nodiscard]] bool commit(std::string& error) noexcept;

private:
    void fail(const char* step, int err) noexcept;

    std::string path_;
    std::string what_;
    std::string tmp_;
    int fd_ = -1;
    std::string error_;
};

}  // namespace idconform::reporters
