// What a file scan means as report results, written once for `idconform scan`
// and the runner's `file:` step: the step record of one scan (what was read,
// how far, the malformed-file check), the per-rule tally of one file's
// violations (the first few kept as evidence, the rest counted), the cases
// `idconform scan` reports per file (a read case, then one per rule), and the
// run's totals with the summary line. Pure: no I/O, no clock.
#pragma once

#include "core/result.hpp"
#include "scan/scan.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace idconform::scan {

// Violations kept per (file, rule) as report evidence; the rest are counted.
inline constexpr std::size_t kept_per_rule = 100;

// The rules a scanned file is always reported under (a passed case when clean).
[[nodiscard]] const std::vector<std::string>& base_rules();

// "12 records, 3456 bytes scanned": how far a scan got.
[[nodiscard]] std::string stats_text(const Stats& st);

// A positioned scan error as a failed check under `rule` (may be empty):
// "file F: expected a well-formed ndjson file, actual MESSAGE (nothing after
// this point was checked)", at file:line:col.
[[nodiscard]] CheckResult malformed_check(const std::string& file, Format fmt, const ScanError& e,
                                          const std::string& rule);

// The step record of one scan: request `SCAN file` (transport "file"); a file
// that could not be opened (error without a position) is the exchange's
// error, otherwise the answer says how far the scan got and a malformed file
// adds malformed_check first. Timings are the caller's.
[[nodiscard]] StepRecord file_record(const std::string& name, const std::string& file, Format fmt, const Stats& st,
                                     const std::string& rule);

// One rule's violations in one file.
struct RuleTally {
    std::size_t count = 0;
    std::vector<CheckResult> kept;  // the first kept_per_rule, as checks
};

// One file's violations per rule, in the order they arrive.
class FileTally {
public:
    explicit FileTally(std::string file, std::size_t keep = kept_per_rule) : file_(std::move(file)), keep_(keep) {}
    void add(const Violation& v);
    [[nodiscard]] const std::map<std::string, RuleTally>& rules() const { return rules_; }
    [[nodiscard]] std::size_t violations() const { return violations_; }
    [[nodiscard]] std::map<std::string, RuleTally> take() && { return std::move(rules_); }

private:
    std::string file_;
    std::size_t keep_;
    std::size_t violations_ = 0;
    std::map<std::string, RuleTally> rules_;
};

struct FileCases {
    CaseResult read;                // "read FILE": error when unreadable/malformed
    std::vector<CaseResult> rules;  // base_rules() first, then the others seen, in name order
};

// The cases `idconform scan` reports for one scanned file. `stop_reason`
// names why a rule without violations was not checked to the end when the
// scan stopped (st.stopped).
[[nodiscard]] FileCases file_cases(const std::string& file, Format fmt, const Stats& st, FileTally tally,
                                   const std::string& stop_reason);

// The read case of a file that was not scanned (skipped: the scan stopped
// before it, SkipCause::stopped; or no format).
[[nodiscard]] CaseResult unscanned_case(const std::string& file, Outcome outcome, std::string message);

// The totals of a scan run and its one-line summary.
struct RunTotals {
    std::size_t files = 0;
    std::size_t bad_files = 0;  // unreadable, malformed, or of no known format
    std::size_t violations = 0;
    std::uint64_t bytes = 0;
    std::uint64_t records = 0;
    std::map<std::string, std::size_t> per_rule;
    bool stopped = false;

    void add(const Stats& st, const FileTally& tally);
    // "FAILED scanned 3 files (1.2 MiB, 40 records) in 0.01 s: 6 violations
    // (DATA-ID-002 3, ...); 1 file unreadable or malformed; stopped at
    // --max-violations 5"; OK / FAILED / ERROR first.
    [[nodiscard]] std::string summary_line(double seconds, std::size_t max_violations) const;
};

// 12345 -> "12345 bytes", "1.5 MiB", "2.00 GiB".
[[nodiscard]] std::string human_bytes(std::uint64_t b);

}  // namespace idconform::scan
