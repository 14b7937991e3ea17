// Streaming scan of exported files (NDJSON, JSON arrays of objects, CSV with a
// header) for identifier violations: declared id fields/columns against their
// kind, and every id-looking value against the shape rules (scan/rules.hpp).
// Memory stays constant whatever the file size: input is read in fixed
// buffers, values are checked in place, only short strings are ever copied.
#pragma once

#include "core/result.hpp"
#include "scan/rules.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace idconform::scan {

enum class Format { ndjson, json, csv };
[[nodiscard]] std::string_view to_string(Format f) noexcept;
// "ndjson" (also "jsonl"), "json", "csv".
[[nodiscard]] std::optional<Format> format_from_name(std::string_view name) noexcept;
// From the extension: .ndjson/.jsonl -> ndjson, .json -> json, .csv -> csv.
[[nodiscard]] std::optional<Format> format_from_path(std::string_view path) noexcept;

struct Options {
    Format format = Format::ndjson;
    // Declared fields: for JSON formats the name is a JSON pointer relative
    // to the record, array indices written '*' (/items/*/id); for CSV a
    // column name of the header.
    std::vector<FieldSpec> fields;
    bool shape = true;                      // shape-scan every value
    std::size_t max_line_bytes = 8u << 20;  // NDJSON/CSV: a longer line is an error
    std::size_t buffer_bytes = 1u << 20;    // read size
    // Regular NDJSON/CSV files of at least split_min_bytes are scanned as two
    // halves on two threads (split at a line break) with results identical
    // to one pass; threads 0 = as many as the machine has (at most 2), 1 = one pass.
    unsigned threads = 0;
    std::uint64_t split_min_bytes = 32u << 20;
    // NDJSON: lines are first tried by the fast path (a record with no
    // escape, no finding, no error is accepted without the scalar reader);
    // every other line goes to the scalar reader. false = the scalar reader
    // only: the reference the fast path is tested against (results are
    // identical either way).
    bool fast_path = true;
};

// One broken rule at one place.
struct Violation {
    std::string rule;
    std::uint64_t line = 0;    // 1-based
    std::uint64_t column = 0;  // 1-based byte column of the value (its opening quote when quoted)
    std::string where;         // JSON pointer in the document, or "column NAME" (CSV)
    std::string expected;
    std::string actual;        // the value and what is wrong with it
};

// Why a file could not be (fully) scanned: unreadable, malformed, not what
// its format says. line 0: no position (cannot open).
struct ScanError {
    std::uint64_t line = 0;
    std::uint64_t column = 0;
    std::uint64_t offset = 0;  // byte offset in the file
    std::string message;
    bool io = false;           // the file could not be read (an I/O error), not a malformed one
};

struct Stats {
    std::uint64_t bytes = 0;
    std::uint64_t records = 0;
    std::uint64_t values = 0;      // strings/fields looked at
    std::uint64_t violations = 0;
    bool stopped = false;          // the sink asked to stop
    bool halves = false;           // scanned as two halves on two threads (Options::threads)
    std::uint64_t fast_records = 0;  // NDJSON records accepted by the fast path (Options::fast_path)
    std::optional<ScanError> error;
};

// Receives each violation in file order; returns false to stop the scan.
using Sink = std::function<bool(const Violation&)>;

// Scans what `fd` delivers until EOF (the descriptor is not closed).
[[nodiscard]] Stats scan_fd(int fd, const Options& opts, const Sink& sink);
// Opens and scans `path`; "-" is stdin.
[[nodiscard]] Stats scan_path(const std::string& path, const Options& opts, const Sink& sink);
// Scans bytes in memory (tests).
[[nodiscard]] Stats scan_text(std::string_view text, const Options& opts, const Sink& sink);

// "file:line:col: RULE: where: actual (expected E)" - the console line.
[[nodiscard]] std::string format_violation(const std::string& file, const Violation& v);
// "file:line:col: error: message".
[[nodiscard]] std::string format_error(const std::string& file, const ScanError& e);
// A violation as a failed check of a report, positioned at file:line:col.
[[nodiscard]] CheckResult to_check(const std::string& file, const Violation& v);

}  // namespace idconform::scan
