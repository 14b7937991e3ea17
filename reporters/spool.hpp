// A scratch file for the parts of a cumulative report (JUnit, JSON) that are
// rendered case by case while the run goes on: the report's opening tags need
// totals known only at the end, and holding 100,000 rendered cases in memory
// is what this avoids. The first memory_limit bytes stay in memory (a typical
// run's whole report: no file round trip); beyond that everything goes to an
// anonymous file (tmpfile) that vanishes with the process, whatever happens.
#pragma once

#include "reporters/atomic_file.hpp"

#include <cstdio>
#include <string>
#include <string_view>

namespace idconform::reporters {

class Spool {
public:
    Spool() = default;
    ~Spool();
    Spool(const Spool&) = delete;
    Spool& operator=(const Spool&) = delete;

    // Appends data; the first failure is kept in error() and later calls do
    // nothing. Never throws.
    void append(std::string_view data) noexcept;
    // Bytes appended so far: the offsets that delimit one suite's cases.
    [[nodiscard]] std::size_t size() const noexcept { return size_; }
    // Copies bytes [begin, end) into out. Returns false (error() set) when
    // the scratch file cannot be read back.
    [[nodiscard]] bool copy_to(std::size_t begin, std::size_t end, AtomicFileWriter& out) noexcept;
    [[nodiscard]] const std::string& error() const noexcept { return error_; }

private:
    void fail(const char* step) noexcept;

    static constexpr std::size_t memory_limit = 8u << 20;

    std::string memory_;  // everything appended, until it outgrows memory_limit
    std::FILE* file_ = nullptr;
    std::size_t size_ = 0;
    std::string error_;
};

}  // namespace idconform::reporters
