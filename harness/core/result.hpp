// Results of a run, as reporters see them. A case ends in exactly one
// outcome: passed, failed (a broken contract), error (transport problem,
// timeout, bad suite data at run time), skipped (with its SkipCause: not
// applicable, not described, precondition not met, run stopped) or
// waived (a failure knowingly accepted by a waiver until its expiry date; the
// runner never produces it, the audit stage turns failed into waived before
// reporters see the case, see harness/audit/).
#pragma once

#include "core/exchange.hpp"

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace idconform {

enum class Outcome { passed, failed, error, skipped, waived };
// Number of Outcome values (the size of per-outcome count arrays).
inline constexpr std::size_t outcome_count = 5;
[[nodiscard]] const char* to_string(Outcome o) noexcept;

// Why a skipped case was not checked: what every summary splits its skipped
// cases by. `none` on every case that was not skipped. Cases a run's
// selection (--filter, --tags, --exclude-tags) left out are not skipped
// cases: they are only counted (RunSummary::filtered_out, "N filtered out",
// as pytest says "N deselected").
enum class SkipCause {
    none,
    not_applicable,  // the API declares something the case does not apply to (a uuidv4 id, cannot_delete)
    not_described,   // the profile (or suite) does not describe what the case needs: "add `update:` to ..."
    precondition,    // what the case needs did not hold at run time (setup failed, an unset env variable)
    stopped,         // the run stopped before it (--max-failures, a signal, --max-violations)
};
// Number of SkipCause values, `none` included (the size of per-cause arrays).
inline constexpr std::size_t skip_cause_count = 5;
// The causes a skipped case can have, in summary order (`none` left out).
inline constexpr SkipCause skip_causes[] = {SkipCause::not_applicable, SkipCause::not_described,
                                            SkipCause::precondition, SkipCause::stopped};
// The name in reports ("not_applicable", ...; "none").
[[nodiscard]] const char* to_string(SkipCause c) noexcept;
// The words of summaries: "not applicable", "not described", "precondition
// not met", "run stopped".
[[nodiscard]] const char* skip_cause_words(SkipCause c) noexcept;
// A name of to_string back; nullopt for any other text.
[[nodiscard]] std::optional<SkipCause> parse_skip_cause(std::string_view name) noexcept;
// The cause a skip message says, for a skipped case that carries none (a
// JSON report written before causes were recorded): "not applicable: ...",
// "not described ...", "not run: the run was interrupted ...", "not run:
// --max-failures ..."; anything else: precondition.
[[nodiscard]] SkipCause skip_cause_of_message(std::string_view message) noexcept;

// Why a case is in error: what exit codes and reports follow from, never
// the message's words. `none` on every case that is not in error.
enum class ErrorCause {
    none,
    suite,           // the suite or profile at run time: an undefined variable, a value it cannot send
    transport,       // the target did not answer as a server does: refused, timed out, reset, bad protocol
    harness_limit,   // the answer could not be judged within the harness's limits (body cap, nesting)
    authentication,  // a principal the profile says is let in was refused, or lacks the permissions
    cleanup,         // entities this run created remain (or may remain) on a target that answers
    input,           // a file the command reads (a document, an export) could not be read
};
inline constexpr std::size_t error_cause_count = 7;
// The name in reports ("suite", "transport", ...; "none").
[[nodiscard]] const char* to_string(ErrorCause c) noexcept;
// A name of to_string back; nullopt for any other text.
[[nodiscard]] std::optional<ErrorCause> parse_error_cause(std::string_view name) noexcept;
// Whether an error of this cause says the target (or what stands between)
// could not be tested, rather than that the suite is wrong: exit 3, where a
// suite or input error exits 2 and a cleanup error alone exits as the
// verdicts say (cli/exit_codes.hpp).
[[nodiscard]] bool target_error(ErrorCause c) noexcept;

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
    SkipCause skip_cause = SkipCause::none;  // set with skip(); none unless skipped
    ErrorCause error_cause = ErrorCause::none;  // set with set_error(); none unless in error
    std::string message;             // one line: why failed / error / skipped
    std::string detail;              // multi-line evidence for failure/error
    std::vector<Property> properties;
    std::vector<StepRecord> steps;
    double seconds = 0.0;
    SourcePos pos;
};

// Marks `c` skipped for `cause`, saying why: every skip site calls this, so
// no skipped case lacks a cause.
void skip(CaseResult& c, SkipCause cause, std::string message);
// Marks `c` in error for `cause`, saying why: every error site calls this,
// so no case in error lacks a cause.
void set_error(CaseResult& c, ErrorCause cause, std::string message);
// The cause a skipped case counts under in summaries: its own, else the one
// its message says (skip_cause_of_message); none for any other outcome.
[[nodiscard]] SkipCause counted_skip_cause(const CaseResult& c) noexcept;

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
    // Of the skipped cases in `streamed`, how many per SkipCause (indexed by
    // its value): they add up to streamed[skipped].
    std::array<std::size_t, skip_cause_count> skipped_streamed{};
    double seconds = 0.0;
    std::string timestamp;           // ISO-8601 start time
    // Counts a case that is not kept in `cases` (a skipped one under its cause).
    void count_streamed(const CaseResult& c) noexcept;
    [[nodiscard]] std::size_t count(Outcome o) const;
    // Skipped cases of `cause`, kept or streamed.
    [[nodiscard]] std::size_t skipped(SkipCause cause) const;
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
    // Cases the selection (--filter, --tags, --exclude-tags) left out: not
    // run, not reported as cases, not in total(); a suite none of whose cases
    // was selected ran no setup and is not in `suites`.
    std::size_t filtered_out = 0;
    [[nodiscard]] std::size_t count(Outcome o) const;
    [[nodiscard]] std::size_t skipped(SkipCause cause) const;
    [[nodiscard]] std::size_t total() const;
};

}  // namespace idconform
