// Atomic report writing: temp file + fsync + rename, POSIX calls so every
// failure has an errno to explain it.
#include "reporters/atomic_file.hpp"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace idconform::reporters {

namespace {

std::string fail(std::string_view what, const std::string& path, const char* step, int err) {
    return "cannot write " + std::string(what) + " '" + path + "': " + step + ": " + std::strerror(err);
}

}  // namespace

bool write_file_atomic(const std::string& path, std::string_view content, std::string_view what,
                       std::string& error) noexcept {
    try {
        static std::atomic<unsigned> counter{0};
        // Same directory as the target, so rename() stays on one file system.
        const std::string tmp = path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
        const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd < 0) { error = fail(what, path, "create", errno); return false; }
        std::size_t done = 0;
        while (done < content.size()) {
            const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
            if (n < 0) {
                if (errno == EINTR) continue;
                const int err = errno;
                ::close(fd);
                ::unlink(tmp.c_str());
                error = fail(what, path, "write", err);
                return false;
            }
            done += static_cast<std::size_t>(n);
        }
        if (::fsync(fd) != 0 && errno != EINVAL) {  // EINVAL: a file system without fsync (e.g. a pipe-like target)
            const int err = errno;
            ::close(fd);
            ::unlink(tmp.c_str());
            error = fail(what, path, "sync", err);
            return false;
        }
        if (::close(fd) != 0) {
            const int err = errno;
            ::unlink(tmp.c_str());
            error = fail(what, path, "close", err);
            return false;
        }
        if (std::rename(tmp.c_str(), path.c_str()) != 0) {
            const int err = errno;
            ::unlink(tmp.c_str());
            error = fail(what, path, "rename", err);
            return false;
        }
        return true;
    } catch (...) {  // std::string allocation only; keep the noexcept promise
        error = "cannot write report: out of memory";
        return false;
    }
}

}  // namespace idconform::reporters
