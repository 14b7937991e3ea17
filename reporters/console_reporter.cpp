// Console reporter: progress line on a TTY, plain lines in logs, a per-rule
// table at the end. All text from results passes terminal_line/terminal_text,
// so a response cannot inject escape sequences into the user's terminal.
#include "reporters/console_reporter.hpp"

#include "reporters/evidence.hpp"
#include "reporters/redact.hpp"
#include "reporters/text.hpp"
#include "reporters/unreachable.hpp"

#include <algorithm>
#include <cstdlib>
#include <vector>

namespace idconform::reporters {

namespace {

constexpr const char* red = "1;31";
constexpr const char* magenta = "1;35";
constexpr const char* green = "32";
constexpr const char* yellow = "33";
constexpr const char* cyan = "36";
constexpr const char* bold = "1";
constexpr std::string_view erase_line = "\r\x1b[2K";

std::string pad_left(const std::string& s, std::size_t width) {
    return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

std::string pad_right(const std::string& s, std::size_t width) {
    return s.size() >= width ? s : s + std::string(width - s.size(), ' ');
}

}  // namespace

bool color_wanted(bool is_tty, ColorMode mode) {
    if (mode != ColorMode::automatic) return mode == ColorMode::always;
    const char* no_color = std::getenv("NO_COLOR");
    const char* term = std::getenv("TERM");
    return is_tty && (no_color == nullptr || *no_color == '\0') && !(term && std::string_view(term) == "dumb");
}

std::optional<ColorMode> parse_color_mode(std::string_view text) {
    if (text == "auto") return ColorMode::automatic;
    if (text == "always") return ColorMode::always;
    if (text == "never") return ColorMode::never;
    return std::nullopt;
}

ConsoleReporter::ConsoleReporter(std::ostream& out, bool tty, bool color, ConsoleOptions opts)
    : out_(out), tty_(tty), color_(color), opts_(std::move(opts)) {}

std::string ConsoleReporter::paint(std::string_view text, const char* sgr) const {
    if (!color_) return std::string(text);
    return "\x1b[" + std::string(sgr) + "m" + std::string(text) + "\x1b[0m";
}

std::string short_duration(ProgressClock::duration d) {
    const auto s = std::max<long long>(0, std::chrono::duration_cast<std::chrono::seconds>(d).count());
    auto two = [](long long v) { return (v < 10 ? "0" : "") + std::to_string(v); };
    if (s < 60) return std::to_string(s) + "s";
    if (s < 3600) return std::to_string(s / 60) + "m" + two(s % 60) + "s";
    return std::to_string(s / 3600) + "h" + two(s / 60 % 60) + "m";
}

ProgressClock::time_point ConsoleReporter::now() const { return opts_.now ? opts_.now() : ProgressClock::now(); }

void ConsoleReporter::run_started(const RunInfo& info) {
    total_ = info.total_cases;
    done_ = 0;
    counts_.clear();
    started_ = last_logged_ = now();
    if (tty_) draw_progress();
}

std::string ConsoleReporter::progress_counts() const {
    auto count = [&](Outcome o) {
        auto it = counts_.find(o);
        return std::to_string(it == counts_.end() ? 0 : it->second);
    };
    std::string text = "passed " + count(Outcome::passed) + " failed " + count(Outcome::failed) + " errors " +
                       count(Outcome::error) + " skipped " + count(Outcome::skipped);
    if (counts_.count(Outcome::waived) > 0) text += " waived " + count(Outcome::waived);
    return text;
}

// The cases left at the mean pace so far. Said once a second has passed and
// a case has finished (before that the pace is noise), never past the end.
std::string ConsoleReporter::time_left() const {
    const ProgressClock::duration elapsed = now() - started_;
    if (done_ == 0 || total_ <= done_ || elapsed < std::chrono::seconds(1)) return "";
    const auto left = elapsed / static_cast<ProgressClock::rep>(done_) * static_cast<ProgressClock::rep>(total_ - done_);
    return "about " + short_duration(left) + " left";
}

void ConsoleReporter::draw_progress() {
    std::string line = "[" + std::to_string(done_);
    if (total_ > 0) line += "/" + std::to_string(total_);
    line += "] " + progress_counts();
    if (const std::string left = time_left(); !left.empty()) line += ", " + left;
    out_ << erase_line << line << std::flush;
    progress_shown_ = true;
}

// CI logs get no carriage returns: a line of its own every progress_every,
// written when a case finishes (the runner bounds how long one can take).
void ConsoleReporter::log_progress() {
    if (opts_.progress_every <= ProgressClock::duration::zero() || done_ == total_) return;
    const ProgressClock::time_point t = now();
    if (t - last_logged_ < opts_.progress_every) return;
    last_logged_ = t;
    std::string line = "progress: " + std::to_string(done_);
    if (total_ > 0) line += "/" + std::to_string(total_) + " cases (" + std::to_string(done_ * 100 / total_) + "%)";
    else line += " cases";
    line += ", " + progress_counts() + ", " + short_duration(t - started_) + " elapsed";
    if (const std::string left = time_left(); !left.empty()) line += ", " + left;
    out_ << line << '\n';
}

void ConsoleReporter::clear_progress() {
    if (!progress_shown_) return;
    out_ << erase_line;
    progress_shown_ = false;
}

void ConsoleReporter::case_finished(const CaseResult& c) {
    ++done_;
    ++counts_[c.outcome];
    tally_rules(c);
    const bool problem = c.outcome == Outcome::failed || c.outcome == Outcome::error;
    bool repeated = false;  // an unreachable target already said
    if (auto cause = unreachable_cause(c)) {
        auto it = std::find_if(unreachable_.begin(), unreachable_.end(), [&](const auto& u) { return u.first == *cause; });
        repeated = it != unreachable_.end();
        if (repeated) ++it->second;
        else unreachable_.emplace_back(std::move(*cause), 1);
    }
    // With a baseline the lines are the diff: each finding says whether it
    // is new or was failing before, and a case that passes now but failed in
    // the baseline is named too.
    const std::string* state = nullptr;
    for (const auto& p : c.properties)
        if (p.name == "baseline") state = &p.value;
    const bool fixed = state != nullptr && *state == "fixed";
    // A waived failure is always named: it is a broken contract someone
    // accepted, and the log of an audit run must say so.
    if ((problem && !repeated) || c.outcome == Outcome::waived || fixed || opts_.verbose) {
        clear_progress();
        const char* word = "PASS";
        const char* sgr = green;
        switch (c.outcome) {
            case Outcome::passed: break;
            case Outcome::failed: word = "FAIL"; sgr = red; break;
            case Outcome::error: word = "ERROR"; sgr = magenta; break;
            case Outcome::skipped: word = "SKIP"; sgr = yellow; break;
            case Outcome::waived: word = "WAIVED"; sgr = cyan; break;
        }
        if (fixed) word = "FIXED";
        std::string line = paint(word, sgr);
        if (state != nullptr && !fixed)
            line += *state == "new" ? " (new)" : *state == "still-failing" ? " (still failing)" : " (" + terminal_line(*state) + ")";
        line += " " + terminal_line(c.suite) + " \xE2\x80\xBA " + terminal_line(c.name);
        // A failure is shown under the rules its failing checks broke.
        const auto shown_rules = reported_rules(c);
        if (!shown_rules.empty()) line += " [" + terminal_line(join_rules(shown_rules)) + "]";
        if (!c.message.empty() && c.outcome != Outcome::passed)
            line += " " + terminal_line(redact_text(c.message, opts_.report.redact_headers));
        out_ << line << '\n';
        if (!opts_.verbose && (c.outcome == Outcome::failed || c.outcome == Outcome::waived)) more_failures(c);
        if (opts_.verbose && problem) {
            // The evidence, indented under the case line.
            std::string text = terminal_text(failure_detail(c, opts_.report));
            std::string indented = "    ";
            for (std::size_t i = 0; i < text.size(); ++i) {
                indented += text[i];
                if (text[i] == '\n' && i + 1 < text.size()) indented += "    ";
            }
            out_ << indented;
            if (!indented.empty() && indented.back() != '\n') out_ << '\n';
        }
    }
    if (tty_) {
        draw_progress();
        return;
    }
    log_progress();
    out_ << std::flush;
}

// The case line says the first broken check; the others are listed under
// it (a few, then how many more), so one failure does not hide the rest of
// what a step broke. --verbose prints them all with the evidence.
void ConsoleReporter::more_failures(const CaseResult& c) {
    constexpr std::size_t shown_max = 4;
    std::size_t failed = 0, shown = 0;
    for (const auto& st : c.steps)
        for (const auto& chk : st.checks) {
            if (chk.ok || chk.warning) continue;
            if (++failed == 1) continue;  // the case line's message
            if (shown == shown_max) continue;
            ++shown;
            out_ << "    and " << terminal_line(redact_text(check_line(chk), opts_.report.redact_headers)) << '\n';
        }
    if (failed > shown + 1)
        out_ << "    and " << failed - shown - 1 << " more failed check" << (failed - shown - 1 == 1 ? "" : "s")
             << " (--verbose lists them)\n";
}

// The per-rule table is counted here, case by case, because the runner does
// not keep the cases until the end.
void ConsoleReporter::tally_rules(const CaseResult& c) {
    for (const auto& [rule, n] : rule_counts(c)) {
        RuleRow& row = rows_[rule];
        switch (c.outcome) {
            case Outcome::passed: row.passed += n; break;
            case Outcome::failed: row.failed += n; break;
            case Outcome::error: row.errors += n; break;
            case Outcome::skipped: row.skipped += n; break;
            case Outcome::waived: row.waived += n; any_waived_ += n; break;
        }
    }
    for (const auto& st : c.steps) {
        for (const auto& chk : st.checks) {
            if (chk.ok || !chk.warning) continue;
            ++warnings_;
            // A warning counts for the rule it gives evidence for, else for
            // the case's first rule.
            ++rows_[counted_rule(chk, c)].warnings;
        }
    }
}

void ConsoleReporter::audit_finished(const AuditSummary& a) {
    clear_progress();
    only_new_fail_ = a.fail_on_new && a.added == 0;
    if (!a.waivers_file.empty()) {
        std::size_t active = 0, expired = 0, stale = 0, waived = 0;
        for (const auto& w : a.waivers) {
            active += w.state == "active";
            expired += w.state == "expired";
            stale += w.state == "stale";
            waived += w.waived;
        }
        out_ << "waivers " << terminal_line(a.waivers_file) << ": " << active << " active (" << waived << " failure"
             << (waived == 1 ? "" : "s") << " waived), " << expired << " expired, " << stale << " stale\n";
        for (const auto& w : a.waivers) {
            if (w.state == "active") continue;
            const bool bad = w.state == "expired" && w.matched_expired > 0;
            out_ << "  " << paint(w.state == "expired" ? "EXPIRED" : "STALE", bad ? red : yellow) << " "
                 << terminal_line(w.position) << " " << terminal_line(w.rule) << " (" << terminal_line(w.covers)
                 << "), owner " << terminal_line(w.owner) << ", expires " << terminal_line(w.expires);
            if (w.state == "expired")
                out_ << (w.matched_expired > 0 ? ": covers " + std::to_string(w.matched_expired) + " failure(s), waives nothing"
                                               : ": covers no failure");
            else out_ << ": covers no failure of this run";
            out_ << '\n';
        }
    }
    if (!a.baseline_file.empty()) {
        out_ << "baseline " << terminal_line(a.baseline_file) << ": " << a.added << " new, " << a.fixed << " fixed, "
             << a.still << " still failing";
        if (a.gone > 0) out_ << ", " << a.gone << " not run this time";
        if (a.fail_on_new) out_ << " (--fail-on new: only new failures fail the run)";
        out_ << '\n';
        // the baseline's failures that did not run: named, the first ten
        const std::size_t shown = std::min<std::size_t>(a.gone_cases.size(), 10);
        for (std::size_t i = 0; i < shown; ++i) out_ << "  NOT RUN " << terminal_line(a.gone_cases[i]) << '\n';
        if (a.gone > shown)
            out_ << "  ... and " << a.gone - shown << " more not run this time (see the JSON and HTML reports)\n";
        if (!a.baseline.empty()) {
            std::size_t width = 4;
            for (const auto& r : a.baseline) width = std::max(width, terminal_line(r.rule).size());
            out_ << "  " << pad_right("rule", width) << "  new  fixed  still\n";
            for (const auto& r : a.baseline)
                out_ << "  " << pad_right(terminal_line(r.rule), width) << "  " << pad_left(std::to_string(r.added), 3)
                     << "  " << pad_left(std::to_string(r.fixed), 5) << "  " << pad_left(std::to_string(r.still), 5) << '\n';
        }
    }
    out_ << std::flush;
}

bool ConsoleReporter::run_finished(const RunSummary& run, std::string&) {
    clear_progress();
    const auto& rows = rows_;
    const std::size_t warnings = warnings_;

    if (!rows.empty()) {
        // The waived column only in runs that waived something, so the
        // table of every other run stays as it was.
        std::vector<std::string> head{"rule", "passed", "failed", "errors", "skipped", "warnings"};
        if (any_waived_ > 0) head.emplace_back("waived");
        std::size_t rule_width = head[0].size();
        for (const auto& [rule, row] : rows) rule_width = std::max(rule_width, terminal_line(rule).size());
        std::string line = pad_right(head[0], rule_width);
        for (std::size_t i = 1; i < head.size(); ++i) line += "  " + head[i];
        out_ << paint(line, bold) << '\n';
        for (const auto& [rule, row] : rows) {
            const auto cell = [&](std::size_t value, std::size_t column, const char* sgr) {
                std::string text = pad_left(std::to_string(value), head[column].size());
                return "  " + (value > 0 && sgr != nullptr ? paint(text, sgr) : text);
            };
            out_ << pad_right(terminal_line(rule), rule_width) << cell(row.passed, 1, nullptr) << cell(row.failed, 2, red)
                 << cell(row.errors, 3, magenta) << cell(row.skipped, 4, nullptr) << cell(row.warnings, 5, yellow);
            if (any_waived_ > 0) out_ << cell(row.waived, 6, cyan);
            out_ << '\n';
        }
    }

    for (const auto& [cause, count] : unreachable_) {
        if (count < 2 || opts_.verbose) continue;  // nothing was left out
        out_ << paint("UNREACHABLE", magenta) << " " << count << " cases are errors (the first is listed above): "
             << terminal_line(redact_text(cause, opts_.report.redact_headers)) << '\n';
    }

    // The run's notes (what it left on the target and why), once, just
    // above the verdict: neither failures nor errors.
    for (const auto& note : run.notes)
        out_ << paint("NOTE", cyan) << " " << terminal_line(redact_text(note, opts_.report.redact_headers)) << '\n';

    const std::size_t tests = run.total();
    const std::size_t failed = run.count(Outcome::failed), errors = run.count(Outcome::error);
    // Nothing failed but cases could not be checked: say that, not FAILED
    // (exit 3 is "unreachable or transport errors, nothing broken").
    std::size_t unreachable = 0;
    for (const auto& [cause, count] : unreachable_) unreachable += count;
    std::string verdict = failed + errors == 0            ? paint("OK", green)
                          : failed == 0                   ? paint(unreachable == errors ? "UNREACHABLE" : "ERROR", magenta)
                          : only_new_fail_ && errors == 0 ? paint("OK (no new failures)", green)
                                                          : paint("FAILED", red);
    // A selection that picked nothing ran nothing: not a pass.
    if (tests == 0 && run.filtered_out > 0) verdict = paint("NOTHING SELECTED", magenta);
    if (!run.interrupted.empty()) verdict = paint("INTERRUPTED (" + run.interrupted + ")", magenta) + " " + verdict;
    const std::size_t skipped = run.count(Outcome::skipped);
    out_ << verdict << " " << tests << " tests: passed " << run.count(Outcome::passed) << ", failed " << failed
         << ", errors " << errors << ", skipped " << skipped;
    if (skipped > 0) {
        // Skipped cases by cause (they add up to the number skipped).
        std::string causes;
        for (const SkipCause k : skip_causes)
            if (const std::size_t n = run.skipped(k); n > 0)
                causes += (causes.empty() ? "" : ", ") + std::to_string(n) + " " + skip_cause_words(k);
        out_ << " (" << causes << ")";
    }
    out_ << ", warnings " << warnings;
    if (const std::size_t waived = run.count(Outcome::waived); waived > 0) out_ << ", waived " << waived;
    if (run.filtered_out > 0) out_ << ", " << run.filtered_out << " filtered out";
    out_ << " in " << format_seconds(run.seconds) << " s\n" << std::flush;
    return true;
}

}  // namespace idconform::reporters
