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
#include <string_view>
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

// Per-rule counting, shared by every per-rule table (console, HTML matrix,
// JSON totals, JUnit properties, the baseline's rows, waivers): a failure is
// counted under the rule of the check that failed, never under the case's
// other rules, so the sum of per-rule failures is the number of failing
// checks and one defect is never counted under a rule it did not break.
inline constexpr std::string_view no_rule = "(no rule)";
// The rule a failed check counts under: its own; a check without a rule or
// naming several ("A,B", a case of several rules) counts under the case's
// first rule ("(no rule)" for a case without one).
[[nodiscard]] std::string counted_rule(const CheckResult& chk, const CaseResult& c);
// The distinct rules of a case's failing checks (not warnings), in order of
// first failure; empty when no check failed.
[[nodiscard]] std::vector<std::string> failed_rules(const CaseResult& c);
// The rules a report names beside a case: a failed or waived case's failed
// rules (its declared rules when no check explains the failure), any other
// case's declared rules.
[[nodiscard]] std::vector<std::string> reported_rules(const CaseResult& c);
// What one case adds to a per-rule table, rule by rule: a failed or waived
// case adds one per failing check under that check's rule (a failure no
// check explains, one under each of the case's rules); any other outcome
// adds one under each of the case's rules ("(no rule)" for none).
struct RuleCount {
    std::string rule;
    std::size_t count = 0;
};
[[nodiscard]] std::vector<RuleCount> rule_counts(const CaseResult& c);

struct RunSummary {
    std::vector<SuiteResult> suites;
    double seconds = 0.0;
    // What the run says once, beside the cases: neither failures nor errors
    // (e.g. entities left on a target that cannot delete them, and why).
    std::vector<std::string> notes;
    // The signal that interrupted the run ("SIGINT", "SIGTERM"); empty for
    // a run that ran to its end. An interrupted run started no case after
    // the signal, deleted what it had created and says so in its notes.
    std::string interrupted;
    [[nodiscard]] std::size_t count(Outcome o) const;
    [[nodiscard]] std::size_t total() const;
};

}  // namespace idconform
