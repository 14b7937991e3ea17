// Results of a run, as reporters see them. A case ends in exactly one
// outcome: passed, failed (a broken contract), error (transport problem,
// timeout, bad suite data at run time), skipped (an unmet precondition) or
// waived (a failure knowingly accepted by a waiver until its expiry date; the
// runner never produces it, the audit stage turns failed into waived before
// reporters see the case, see harness/audit/).
#pragma once

#include "core/exchange.hpp"

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace idconform {

enum class Outcome { passed, failed, error, skipped, waived };
// Number of Outcome values (the size of per-outcome count arrays).
inline constexpr std::size_t outcome_count = 5;
[[nodiscard]] const char* to_string(Outcome o) noexcept;

// One expectation applied to one exchange.
struct CheckResult {
    std::string rule;        // rule id the check gives evidence for, may be empty
    std::string what;        // "status", "json /id", "id /id uuidv7", ...
    std::string expected;
    std::string actual;
    bool ok = false;
    bool warning = false;    // advisory: never fails the case
    SourcePos pos;           // where the expectation was written
};

struct StepRecord {
    std::string name;
    Exchange exchange;
    std::vector<CheckResult> checks;
    std::string reproduce;   // e.g. a curl command, secrets redacted
};

struct Property {
    std::string name;
    std::string value;
};

struct CaseResult {
    std::string suite;
    std::string name;                // unique inside its suite
    std::string classname;           // "<suite>.<rule>" for JUnit
    std::vector<std::string> rules;
    Outcome outcome = Outcome::passed;
    std::string message;             // one line: why failed / error / skipped
    std::string detail;              // multi-line evidence for failure/error
    std::vector<Property> properties;
    std::vector<StepRecord> steps;
    double seconds = 0.0;
    SourcePos pos;
};

struct SuiteResult {
    std::string name;
    std::string file;
    // Cases kept in memory, in suite order. The runner keeps none: every case
    // reaches the reporters through case_finished and is only counted in
    // `streamed`, so a run of 100,000 cases does not hold 100,000 results.
    std::vector<CaseResult> cases;
    // Cases reported but not kept in `cases`, per Outcome (indexed by its
    // value). count() adds both, so code that fills `cases` needs no tally.
    std::array<std::size_t, outcome_count> streamed{};
    double seconds = 0.0;
    std::string timestamp;           // ISO-8601 start time
    // Counts a case that is not kept in `cases`.
    void count_streamed(Outcome o) noexcept { ++streamed[static_cast<std::size_t>(o)]; }
    [[nodiscard]] std::size_t count(Outcome o) const;
    [[nodiscard]] std::size_t total() const;  // every case, kept or streamed
};

struct RunSummary {
    std::vector<SuiteResult> suites;
    double seconds = 0.0;
    // What the run says once, beside the cases: neither failures nor errors
    // (e.g. entities left on a target that cannot delete them, and why).
    std::vector<std::string> notes;
    [[nodiscard]] std::size_t count(Outcome o) const;
    [[nodiscard]] std::size_t total() const;
};

}  // namespace idconform
