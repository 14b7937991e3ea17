// The report scratch space: memory up to memory_limit, then stdio's tmpfile,
// appended to while the run goes on and read back once when the report is
// assembled.
#include "reporters/spool.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace idconform::reporters {

Spool::~Spool() {
    if (file_ != nullptr) std::fclose(file_);
}

void Spool::fail(const char* step) noexcept {
    if (!error_.empty()) return;
    const int err = errno;
    try {
        error_ = std::string("report scratch file: ") + step + ": " + std::strerror(err);
    } catch (...) {
        error_ = "report scratch file: out of memory";
    }
}

void Spool::append(std::string_view data) noexcept {
    if (!error_.empty() || data.empty()) return;
    if (file_ == nullptr && memory_.size() + data.size() <= memory_limit) {
        try {
            // The whole allowance at once: growing by doubling copied the
            // report again and again (5% of a 10,000-case run's CPU); pages
            // are only touched as they fill.
            if (memory_.capacity() < memory_limit) memory_.reserve(memory_limit);
            memory_.append(data);
            size_ += data.size();
            return;
        } catch (...) {  // no memory for it: the file takes it
        }
    }
    if (file_ == nullptr) {
        file_ = std::tmpfile();
        if (file_ == nullptr) { fail("create"); return; }
        if (std::fwrite(memory_.data(), 1, memory_.size(), file_) != memory_.size()) { fail("write"); return; }
        std::string().swap(memory_);
    }
    if (std::fwrite(data.data(), 1, data.size(), file_) != data.size()) { fail("write"); return; }
    size_ += data.size();
}

bool Spool::copy_to(std::size_t begin, std::size_t end, AtomicFileWriter& out) noexcept {
    if (!error_.empty()) return false;
    if (begin >= end) return true;
    if (file_ == nullptr) {
        out.write(std::string_view(memory_).substr(begin, end - begin));
        return true;
    }
    if (std::fflush(file_) != 0) { fail("flush"); return false; }
    if (std::fseek(file_, static_cast<long>(begin), SEEK_SET) != 0) { fail("seek"); return false; }
    char buffer[64 * 1024];
    std::size_t left = end - begin;
    while (left > 0) {
        const std::size_t n = std::fread(buffer, 1, std::min(left, sizeof buffer), file_);
        if (n == 0) { fail("read"); return false; }
        out.write(std::string_view(buffer, n));
        left -= n;
    }
    // Later appends go to the end again.
    if (std::fseek(file_, 0, SEEK_END) != 0) { fail("seek"); return false; }
    return true;
}

}  // namespace idconform::reporters
