// Internals shared by the NDJSON/JSON and CSV readers: the buffered input,
// positions, the first-error rule, the version-per-field tracker (DATA-ID-003)
// and delivery of violations to the sink. Not part of the public API.
#pragma once

#include "scan/scan.hpp"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <thread>
#include <unordered_map>

namespace idconform::scan::detail {

// Bytes of a file or pipe in one reusable buffer. refill() discards what
// lies before `keep_from` and appends the next read; data() may move.
class Input {
public:
    Input(int fd, std::size_t chunk);
    explicit Input(std::string_view text);  // in memory, no copy
    // Positional reads (pread) of a regular file, so that two threads can
    // share the descriptor; reading stops at `limit` until at_limit has
    // been called once (it decides nothing: the input then goes on to EOF).
    Input(int fd, std::size_t chunk, std::uint64_t limit, std::function<void()> at_limit);
    // Positional input: drops the buffer, the next refill reads from `offset`.
    void seek(std::uint64_t offset) noexcept {
        base_ = offset;
        end_ = 0;
    }
    // Positional input: no limit any more.
    void unlimit() noexcept {
        limit_ = UINT64_MAX;
        at_limit_ = nullptr;
    }
    [[nodiscard]] const char* data() const noexcept { return data_; }
    [[nodiscard]] std::size_t end() const noexcept { return end_; }
    [[nodiscard]] std::uint64_t base() const noexcept { return base_; }  // file offset of data()[0]
    // Returns false at EOF or on a read error (see error()).
    [[nodiscard]] bool refill(std::size_t keep_from);
    [[nodiscard]] int error() const noexcept { return errno_; }
private:
    int fd_ = -1;
    bool positional_ = false;
    std::uint64_t limit_ = UINT64_MAX;
    std::function<void()> at_limit_;
    std::unique_ptr<char[]> owned_;
    std::size_t capacity_ = 0;
    const char* data_ = nullptr;
    std::size_t end_ = 0;
    std::uint64_t base_ = 0;
    int errno_ = 0;
};

// The first UUID version seen per field; a different one later is DATA-ID-003.
struct VersionSeen {
    int version = -1;
    std::uint64_t line = 0;
    std::string where;
    std::uint16_t reported = 0;  // bit per version already reported
};

// A first UUID version of a field seen after the split: replayed against
// the first half's state when the halves are joined.
struct VersionEvent {
    std::string key;  // the field (JSON shape or CSV column index)
    int version = 0;
    std::string value;
    std::uint64_t line = 0, column = 0;
    std::string where;
    std::size_t at = 0;  // number of the second half's violations before it
};

// A regular file scanned as two halves: the second half (from `at`, a line
// start, to EOF) runs on `worker` and buffers its results; the reader of the
// first half, arriving at `at` between two records, joins it (handoff()).
// When the split turns out not to be a record boundary (a CSV quoted field
// spanning it, a blank line) or the buffered results cannot be replayed
// exactly, the first reader abandons the second half and goes on alone.
struct Split {
    std::uint64_t at = 0;
    std::uint64_t line = 1;  // the worker's number for the line at `at` (handoff() shifts to the real one)
    std::thread worker;
    std::atomic<bool> cancel{false};
    bool joined = false;
    // the second half's results
    std::vector<Violation> violations;
    std::vector<VersionEvent> events;
    Stats stats;
    std::size_t tracked = 0;  // fields whose versions it tracked
    bool overflow = false;    // too many violations to buffer
    bool failed = false;      // could not count lines or read
    bool no_records = false;  // NDJSON: only blank lines (an error only if the first half has none either)
    bool line_too_long = false;  // the error is line_ok()'s, whose message holds the worker's line number
    static constexpr std::size_t max_buffered = 8192;

    void finish() {
        if (!joined && worker.joinable()) worker.join();
        joined = true;
    }
    void abandon() {
        cancel.store(true, std::memory_order_relaxed);
        finish();
    }
};

class Scanner {
public:
    Scanner(Input& in, const Options& o, const Sink& sink) : in_(in), o_(o), sink_(sink) {
        d_ = in_.data();
        end_ = in_.end();
        scratch_.reserve(scratch_cap + 8);
    }
    Scanner(const Scanner&) = delete;
    Scanner& operator=(const Scanner&) = delete;

    // Two-thread scan: `s` is the split; second = this reader scans the half after it.
    void set_split(Split* s, bool second) noexcept {
        split_ = s;
        second_ = second;
    }

protected:
    virtual ~Scanner() = default;
    static constexpr std::size_t scratch_cap = 257;  // longer strings cannot be ids: only a prefix is kept
    static constexpr std::size_t max_tracked_fields = 4096;

    Split* split_ = nullptr;
    bool second_ = false;
    bool merged_ = false;         // handoff() joined the second half: the stats are complete
    std::uint64_t suppress_ = 0;  // violations already delivered by handoff(); the last one stopped the sink

    Input& in_;
    const Options& o_;
    const Sink& sink_;
    const char* d_ = nullptr;
    std::size_t pos_ = 0, end_ = 0;
    std::uint64_t line_ = 1, line_start_ = 0;  // line_start_: file offset of the line's first byte
    bool line_limit_ = false;                  // NDJSON/CSV: lines longer than max_line_bytes are errors
    Stats st_;
    std::string scratch_;
    std::size_t scratch_total_ = 0;

    [[nodiscard]] std::uint64_t abs() const noexcept { return in_.base() + pos_; }
    [[nodiscard]] std::uint64_t col() const noexcept { return abs() - line_start_ + 1; }
    [[nodiscard]] bool done() const noexcept { return st_.error.has_value() || st_.stopped; }

    // First half, between two records: at the split?
    [[nodiscard]] bool at_split() const noexcept { return split_ != nullptr && !second_ && abs() == split_->at; }
    // Second half, between two records: told to give up?
    [[nodiscard]] bool cancelled() noexcept {
        if (!second_ || !split_->cancel.load(std::memory_order_relaxed)) return false;
        st_.stopped = true;
        return true;
    }
    // At the split: joins the second half and delivers its results in file
    // order; true when the scan is complete, false to go on reading alone.
    bool handoff();
    // Second half: continue at `offset` (a line start) as line `line`.
    void jump(std::uint64_t offset, std::uint64_t line) {
        in_.seek(offset);
        d_ = in_.data();
        pos_ = 0;
        end_ = 0;
        line_ = line;
        line_start_ = offset;
    }
    // The version state of a field by key (nullptr: not tracked, the limit
    // is reached); a copy of all of them, and its restoration.
    virtual VersionSeen* version_slot(const std::string& key) = 0;
    virtual void save_versions() = 0;
    virtual void restore_versions() = 0;

    // Reads more, discarding everything before pos_ (or before `keep`).
    bool more(std::size_t keep);
    bool more() { return more(pos_); }
    // -1 at EOF.
    int peek() {
        if (pos_ == end_ && !more()) return -1;
        return static_cast<unsigned char>(d_[pos_]);
    }
    // At a '\n': steps over it; false (error set) when the line was too long.
    bool newline() {
        const bool ok = line_ok();
        ++pos_;
        ++line_;
        line_start_ = abs();
        return ok;
    }
    // The current line is within max_line_bytes (when lines are limited).
    bool line_ok();
    [[nodiscard]] std::string line_too_long(std::uint64_t line) const;
    void error_at(std::uint64_t line, std::uint64_t column, std::uint64_t offset, std::string message);
    // Whether the reader is past the current line's byte limit.
    [[nodiscard]] bool past_line_limit() const;
    // Records "line N is longer than ..." for the current line (unless an error is set).
    void limit_line();
    void error(std::string message) { error_at(line_, col(), abs(), std::move(message)); }
    // "'x'", "byte 0xff", "end of file"
    static std::string describe_char(int c);
    // Common start: BOM skipped, gzip and emptiness recognised. False when
    // there is nothing to scan (error set).
    bool start(const char* format_name);

    void append_scratch(const char* p, std::size_t n) {
        scratch_total_ += n;
        if (scratch_.size() < scratch_cap) scratch_.append(p, std::min(n, scratch_cap - scratch_.size()));
    }
    // Validates one UTF-8 sequence at pos_ (lead byte >= 0x80) and steps
    // over it; needs the whole sequence in the buffer (caller refills).
    bool utf8_step();

    // Moves pos_ over whole 16-byte blocks in which `specials` (an SSE2
    // classifier: a bit per byte that needs a look) finds nothing, and then
    // to the first such byte; stops at the last whole block of the buffer.
    template <class Specials>
    void skip_plain(Specials specials) noexcept {
        while (pos_ + 16 <= end_) {
            const std::uint32_t m = specials(d_ + pos_);
            if (m != 0) {
                pos_ += static_cast<std::size_t>(__builtin_ctz(m));
                return;
            }
            pos_ += 16;
        }
    }

    void report(std::string rule, std::uint64_t line, std::uint64_t column, std::string where, std::string expected,
                std::string actual);
    void report(Finding&& f, std::uint64_t line, std::uint64_t column, const std::string& where) {
        report(std::move(f.rule), line, column, where, std::move(f.expected), std::move(f.actual));
    }
    // Records the version of a conforming UUID for a field; reports a second version.
    // `key` names the field for version_slot().
    void track_version(VersionSeen& seen, int version, std::string_view value, std::uint64_t line,
                       std::uint64_t column, const std::string& where, std::string_view key);
};

Stats scan_json(Input& in, const Options& o, const Sink& sink, bool ndjson, Split* split = nullptr,
                bool second = false);
Stats scan_csv(Input& in, const Options& o, const Sink& sink, Split* split = nullptr, bool second = false);


}  // namespace idconform::scan::detail
