// Atomic report writing: temp file + rename, POSIX calls so every failure
// has an errno to explain it. Readers see the old report or the whole new
// one, never a part. No fsync: a report is rewritten by the next run, and
// forcing it to disk cost more than writing it (6 ms for a 7 MB JUnit file).
#include "reporters/atomic_file.hpp"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace idconform::reporters {

AtomicFileWriter::AtomicFileWriter(std::string path, std::string_view what) noexcept {
    try {
        path_ = std::move(path);
        what_ = std::string(what);
        static std::atomic<unsigned> counter{0};
        // Same directory as the target, so rename() stays on one file system.
        tmp_ = path_ + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
        fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd_ < 0) fail("create", errno);
    } catch (...) {  // std::string allocation only; keep the noexcept promise
        error_ = "cannot write report: out of memory";
    }
}

AtomicFileWriter::~AtomicFileWriter() {
    if (fd_ >= 0) {
        ::close(fd_);
        ::unlink(tmp_.c_str());
    }
}

void AtomicFileWriter::fail(const char* step, int err) noexcept {
    if (!error_.empty()) return;
    try {
        error_ = "cannot write " + what_ + " '" + path_ + "': " + step + ": " + std::strerror(err);
    } catch (...) {
        error_ = "cannot write report: out of memory";
    }
}

void AtomicFileWriter::write(std::string_view data) noexcept {
    if (fd_ < 0 || !error_.empty()) return;
    std::size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(fd_, data.data() + done, data.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            fail("write", errno);
            return;
        }
        done += static_cast<std::size_t>(n);
    }
}

bool AtomicFileWriter::commit(std::string& error) noexcept {
    if (fd_ >= 0) {
        const int rc = ::close(fd_);
        fd_ = -1;
        if (rc != 0) fail("close", errno);
        if (error_.empty() && std::rename(tmp_.c_str(), path_.c_str()) != 0) fail("rename", errno);
        if (!error_.empty()) ::unlink(tmp_.c_str());
    }
    if (!error_.empty()) {
        try {
            error = error_;
        } catch (...) {
        }
        return false;
    }
    return true;
}

bool write_file_atomic(const std::string& path, std::string_view content, std::string_view what,
                       std::string& error) noexcept {
    AtomicFileWriter out(path, what);
    out.write(content);
    return out.commit(error);
}

}  // namespace idconform::reporters
