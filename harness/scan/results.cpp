// Report results of a file scan, shared by `idconform scan` and the runner's
// file step (results.hpp).
#include "scan/results.hpp"

#include <algorithm>
#include <cstdio>

namespace idconform::scan {

const std::vector<std::string>& base_rules() {
    static const std::vector<std::string> rules = {"DATA-ID-002", "DATA-ID-003", "DATA-ID-007", "nil-max"};
    return rules;
}

std::string stats_text(const Stats& st) {
    return std::to_string(st.records) + " records, " + std::to_string(st.bytes) + " bytes scanned";
}

CheckResult malformed_check(const std::string& file, Format fmt, const ScanError& e, const std::string& rule) {
    CheckResult c;
    c.rule = rule;
    c.what = "file " + file;
    c.expected = std::string("a well-formed ") + std::string(to_string(fmt)) + " file";
    c.actual = e.message + " (nothing after this point was checked)";
    c.pos = SourcePos{file, static_cast<int>(e.line), static_cast<int>(e.column)};
    return c;
}

StepRecord file_record(const std::string& name, const std::string& file, Format fmt, const Stats& st,
                       const std::string& rule) {
    StepRecord rec;
    rec.name = name;
    Exchange& x = rec.exchange;
    x.request.transport = "file";
    x.request.method = "SCAN";
    x.request.url = file;
    if (st.error && st.error->line == 0) {
        x.error = TransportError{TransportErrorKind::other, format_error(file, *st.error)};
        return rec;
    }
    Response r;
    r.reason = stats_text(st);
    x.response = std::move(r);
    if (st.error) rec.checks.push_back(malformed_check(file, fmt, *st.error, rule));
    return rec;
}

void FileTally::add(const Violation& v) {
    RuleTally& t = rules_[v.rule];
    if (t.kept.size() < keep_) t.kept.push_back(to_check(file_, v));
    ++t.count;
    ++violations_;
}

CaseResult unscanned_case(const std::string& file, Outcome outcome, std::string message) {
    CaseResult read;
    read.suite = file;
    read.name = "read " + file;
    read.classname = file + ".read";
    read.pos = SourcePos{file, 0, 0};
    read.outcome = outcome;
    read.message = std::move(message);
    // A file not scanned at all: the scan stopped before it (--max-violations).
    if (outcome == Outcome::skipped) read.skip_cause = SkipCause::stopped;
    if (outcome == Outcome::error) read.error_cause = ErrorCause::input;  // a file that could not be read
    return read;
}

FileCases file_cases(const std::string& file, Format fmt, const Stats& st, FileTally tally,
                     const std::string& stop_reason) {
    FileCases out;
    // the read case: malformed or unreadable files are errors
    out.read = unscanned_case(file, Outcome::passed, stats_text(st));
    out.read.steps.push_back(file_record("scan " + file, file, fmt, st, ""));
    out.read.properties.push_back({"format", std::string(to_string(fmt))});
    if (st.error) {
        set_error(out.read, ErrorCause::input, format_error(file, *st.error));
    }

    std::map<std::string, RuleTally> tallies = std::move(tally).take();
    std::vector<std::string> rules = base_rules();
    for (const auto& [r, t] : tallies)
        if (std::find(rules.begin(), rules.end(), r) == rules.end()) rules.push_back(r);
    for (const auto& rule : rules) {
        CaseResult c;
        c.suite = file;
        c.name = rule;
        c.classname = file + "." + rule;
        c.rules = {rule};
        c.pos = SourcePos{file, 0, 0};
        const auto it = tallies.find(rule);
        if (it != tallies.end()) {
            RuleTally& t = it->second;
            const CheckResult& first = t.kept.front();
            c.outcome = Outcome::failed;
            c.pos = first.pos;  // CI links the testcase to the first violation's line
            c.message = std::to_string(t.count) + " violation" + (t.count == 1 ? "" : "s") + " of " + rule +
                        "; first at " + first.pos.str() + ": " + first.what + ": " + first.actual;
            if (t.count > t.kept.size())
                c.detail = "the first " + std::to_string(t.kept.size()) + " are listed below; " +
                           std::to_string(t.count - t.kept.size()) +
                           " more are in the console output (idconform scan prints every violation)";
            StepRecord rec = file_record("scan " + file, file, fmt, st, rule);
            rec.checks = std::move(t.kept);  // (the malformed-file check belongs to the read case)
            c.steps.push_back(std::move(rec));
        } else if (st.error || st.stopped) {
            if (st.error)
                skip(c, SkipCause::precondition,
                     "not checked past " + std::to_string(st.error->line) + ":" + std::to_string(st.error->column) +
                         ": the file could not be read on");
            else skip(c, SkipCause::stopped, stop_reason);
        } else {
            c.message = "no violation in " + std::to_string(st.records) + " records";
        }
        out.rules.push_back(std::move(c));
    }
    return out;
}

void RunTotals::add(const Stats& st, const FileTally& tally) {
    bytes += st.bytes;
    records += st.records;
    violations += tally.violations();
    for (const auto& [rule, t] : tally.rules()) per_rule[rule] += t.count;
    if (st.error) ++bad_files;
    if (st.stopped) stopped = true;
}

std::string human_bytes(std::uint64_t b) {
    char buf[32];
    if (b >= (1ull << 30)) std::snprintf(buf, sizeof buf, "%.2f GiB", static_cast<double>(b) / (1ull << 30));
    else if (b >= (1ull << 20)) std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(b) / (1ull << 20));
    else std::snprintf(buf, sizeof buf, "%llu bytes", static_cast<unsigned long long>(b));
    return buf;
}

std::string RunTotals::summary_line(double seconds, std::size_t max_violations) const {
    std::string rules_text;
    for (const auto& [r, n] : per_rule) rules_text += (rules_text.empty() ? "" : ", ") + r + " " + std::to_string(n);
    char secs[32];
    std::snprintf(secs, sizeof secs, "%.2f", seconds);
    std::string s = violations ? "FAILED" : bad_files ? "ERROR" : "OK";
    s += " scanned " + std::to_string(files) + " file" + (files == 1 ? "" : "s") + " (" + human_bytes(bytes) + ", " +
         std::to_string(records) + " records) in " + secs + " s: " + std::to_string(violations) + " violation" +
         (violations == 1 ? "" : "s") + (rules_text.empty() ? "" : " (" + rules_text + ")");
    if (bad_files)
        s += "; " + std::to_string(bad_files) + " file" + (bad_files == 1 ? "" : "s") + " unreadable or malformed";
    if (stopped) s += "; stopped at --max-violations " + std::to_string(max_violations);
    return s;
}

}  // namespace idconform::scan
