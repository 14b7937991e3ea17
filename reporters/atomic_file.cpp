// Atomic report writing: temp file + rename, POSIX calls so every failure
// has an errno to explain it. Readers see the old report or the whole new
// one, never a part. No fsync: a report is rewritten by the next run, and
// forcing it to disk cost more than writing it (6 ms for a 7 MB JUnit file).
// What is at the path decides how: a symlink is followed (the file it names
// is written, the link stays); a regular file or a new path gets temp file +
// rename (keeping an existing file's permission bits); anything else (a
// device such as /dev/null, a FIFO) is opened and written in place, never
// replaced; a directory is refused.
#include "reporters/atomic_file.hpp"

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>

namespace idconform::reporters {

AtomicFileWriter::AtomicFileWriter(std::string path, std::string_view what) noexcept {
    try {
        path_ = std::move(path);
        what_ = std::string(what);
        open_target();
    } catch (...) {  // std::string allocation only; keep the noexcept promise
        error_ = "cannot write report: out of memory";
    }
}

void AtomicFileWriter::open_target() {
    std::string target = path_;
    struct stat st {};
    if (::lstat(path_.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
        // Followed explicitly: the rename below must replace the file the
        // link names, not the link.
        const std::unique_ptr<char, decltype(&std::free)> real(::realpath(path_.c_str(), nullptr), &std::free);
        if (!real) return fail("follow the symbolic link", errno);
        target = real.get();
    }
    if (::stat(target.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode)) return fail("open", EISDIR);
        if (!S_ISREG(st.st_mode)) {
            // A device or a FIFO: written where it is (O_NOCTTY: a terminal
            // given as the path must not become the controlling one).
            in_place_ = true;
            fd_ = ::open(target.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
            if (fd_ < 0) fail("open", errno);
            return;
        }
    }
    target_ = target;
    static std::atomic<unsigned> counter{0};
    // Same directory as the target, so rename() stays on one file system.
    tmp_ = target_ + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
    const mode_t mode = S_ISREG(st.st_mode) ? (st.st_mode & 07777) : 0644;
    fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd_ < 0) return fail("create", errno);
    // the new file keeps an existing report's permission bits (umask aside for a new one)
    if (S_ISREG(st.st_mode) && ::fchmod(fd_, mode) != 0) fail("chmod", errno);
}

AtomicFileWriter::~AtomicFileWriter() {
    if (fd_ >= 0) {
        ::close(fd_);
        if (!in_place_) ::unlink(tmp_.c_str());
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
        if (!in_place_) {
            if (error_.empty() && std::rename(tmp_.c_str(), target_.c_str()) != 0) fail("rename", errno);
            if (!error_.empty()) ::unlink(tmp_.c_str());
        }
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

bool same_file(const std::string& a, const std::string& b) noexcept {
    struct stat sa {}, sb {};
    if (::stat(a.c_str(), &sa) != 0 || ::stat(b.c_str(), &sb) != 0) return false;
    return S_ISREG(sa.st_mode) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

std::string output_overwrites_input(const std::vector<std::string>& outputs, const std::vector<std::string>& inputs) {
    for (const auto& out : outputs) {
        if (out.empty()) continue;
        for (const auto& in : inputs)
            if (!in.empty() && same_file(out, in))
                return "the output '" + out + "' is the input '" + in +
                       "' (the same file): writing it would destroy what is read; give another output path";
    }
    return {};
}

bool write_file_atomic(const std::string& path, std::string_view content, std::string_view what,
                       std::string& error) noexcept {
    AtomicFileWriter out(path, what);
    out.write(content);
    return out.commit(error);
}

}  // namespace idconform::reporters
