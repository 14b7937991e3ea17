// Console reporter (streaming). On a terminal it keeps one live progress line
// (done/total, counts, time left) and prints failures above it; in a CI log it
// prints one plain line per failed or errored case and, every few seconds, a
// plain progress line. At the end it prints a per-rule summary table and
// a total line. An unreachable target is said once: its first error case is
// listed, later ones with the same cause only counted (a line at the end).
// ANSI colour only when asked for.
#pragma once

#include "reporters/options.hpp"
#include "reporters/reporter.hpp"

#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <ostream>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace idconform::reporters {

// `--color auto|always|never`. auto: colour on a terminal unless the
// NO_COLOR environment variable is set to a non-empty value
// (https://no-color.org) or TERM is "dumb"; always and never say so
// whatever the terminal and the environment (CI log viewers render ANSI).
enum class ColorMode { automatic, always, never };
[[nodiscard]] bool color_wanted(bool is_tty, ColorMode mode = ColorMode::automatic);
// "auto", "always", "never" -> the mode; nullopt for anything else.
[[nodiscard]] std::optional<ColorMode> parse_color_mode(std::string_view text);

using ProgressClock = std::chrono::steady_clock;

struct ConsoleOptions {
    bool verbose = false;  // also a line per passed/skipped case, and evidence under failures
    ReportOptions report;  // redaction and excerpt size for verbose evidence
    // Not a terminal: a plain "progress:" line when a case finishes at least
    // this long after the last one (zero: never, `--no-progress`).
    ProgressClock::duration progress_every{};
    // The time source of the progress lines' elapsed and left times (tests
    // pass their own; empty: the steady clock).
    std::function<ProgressClock::time_point()> now;
};

// "42s", "3m05s", "1h02m": elapsed and remaining times in progress lines.
[[nodiscard]] std::string short_duration(ProgressClock::duration d);

class ConsoleReporter final : public Reporter {
public:
    // tty: draw the live progress line (\r + erase line); color: ANSI colours.
    ConsoleReporter(std::ostream& out, bool tty, bool color, ConsoleOptions opts = {});
    void run_started(const RunInfo& info) override;
    void case_finished(const CaseResult& c) override;
    // Waiver states (expired and stale ones named) and the baseline diff per rule.
    void audit_finished(const AuditSummary& a) override;
    bool run_finished(const RunSummary& run, std::string& error) override;

private:
    struct RuleRow {
        std::size_t passed = 0, failed = 0, errors = 0, skipped = 0, warnings = 0, waived = 0;
    };
    void tally_rules(const CaseResult& c);
    void more_failures(const CaseResult& c);
    void draw_progress();
    void clear_progress();
    void log_progress();  // the plain line for logs, when it is due
    [[nodiscard]] std::string progress_counts() const;
    [[nodiscard]] std::string time_left() const;  // "" until an estimate can be made
    [[nodiscard]] ProgressClock::time_point now() const;
    [[nodiscard]] std::string paint(std::string_view text, const char* sgr) const;

    std::ostream& out_;
    bool tty_;
    bool color_;
    ConsoleOptions opts_;
    std::size_t total_ = 0;
    std::size_t done_ = 0;
    std::map<Outcome, std::size_t> counts_;
    bool progress_shown_ = false;
    ProgressClock::time_point started_{};
    ProgressClock::time_point last_logged_{};
    std::map<std::string, RuleRow> rows_;  // per-rule table, counted at case_finished
    std::size_t warnings_ = 0;
    // Unreachable-target causes in the order first seen, with the number of
    // error cases each caused: the first case is listed, the rest counted.
    std::vector<std::pair<std::string, std::size_t>> unreachable_;
    std::size_t any_waived_ = 0;  // waived cases seen: the table gets a waived column
    bool only_new_fail_ = false;  // --fail-on new and nothing new: failures do not fail the run
};

}  // namespace idconform::reporters
