// JUnit XML reporter: every element through the one XML writer
// (xml_writer.hpp), whose escaping makes the document parse whatever bytes
// the target sent.
#include "reporters/junit_reporter.hpp"

#include "reporters/atomic_file.hpp"
#include "reporters/evidence.hpp"
#include "reporters/redact.hpp"
#include "reporters/text.hpp"
#include "reporters/unreachable.hpp"
#include "reporters/xml_writer.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <system_error>
#include <vector>

namespace idconform::reporters {

namespace {

void add_counts(XmlWriter& w, std::size_t tests, std::size_t failures, std::size_t errors, std::size_t skipped,
                double seconds) {
    w.attr("tests", tests).attr("failures", failures).attr("errors", errors).attr("skipped", skipped);
    w.attr("time", format_seconds(seconds));
}

// First failed check's summary, for a failure without a runner message: the
// `message` attribute is what CI lists show, so it must never be empty.
std::string first_failed_check(const CaseResult& c) {
    for (const auto& s : c.steps)
        for (const auto& chk : s.checks)
            if (!chk.ok && !chk.warning) return check_line(chk).substr(5);  // drop the "FAIL " verdict
    return {};
}

std::string suite_name(const SuiteResult& s) {
    if (!s.name.empty()) return s.name;
    return s.file.empty() ? "unnamed suite" : s.file;
}

bool strict(const JunitLayout& l) { return l.flavor == JunitFlavor::strict; }

JunitLayout::File reported_file(const JunitLayout& l, const std::string& file) {
    namespace fs = std::filesystem;
    if (file.empty()) return {};
    if (const auto it = l.files.find(file); it != l.files.end()) return it->second;
    // Inside the root: the path from it. "" when the file is outside.
    const auto inside = [&l](const std::string& f) -> std::string {
        const fs::path p(f);
        fs::path rel = p.is_relative() ? p.lexically_normal() : p.lexically_normal().lexically_relative(l.root);
        if (p.is_absolute() && (rel.empty() || *rel.begin() == "..")) {
            std::error_code ec;  // through a symbolic link: compare the real paths
            const fs::path real = fs::weakly_canonical(p, ec);
            if (!ec) rel = real.lexically_relative(l.root);
        }
        if (rel.empty() || *rel.begin() == "..") return {};
        return rel.generic_string();
    };
    JunitLayout::File out;
    if (std::string rel = inside(file); !rel.empty()) out.file = std::move(rel);
    else if (std::string profile = l.profile.empty() ? std::string() : inside(l.profile); !profile.empty())
        out = {std::move(profile), false};  // an installed pack: the profile that asked for its cases
    else out.file = file;  // outside the root and no profile inside it: the path as given
    l.files.emplace(file, out);
    return out;
}

// The testcase element of `c` at depth 2, appended to `out`. Its name and
// classname never depend on its outcome (CI keys test history on them): the
// rules a failure broke are properties.
void write_case(std::string& out, const CaseResult& c, const SuiteResult& s, const ReportOptions& opts,
                const JunitLayout& layout) {
    XmlWriter w(out, 2);
    // name and classname are required by every JUnit consumer: fall back to
    // something that still identifies the case rather than write "".
    w.open("testcase");
    w.attr("name", !c.name.empty() ? c.name : !c.pos.file.empty() ? "case at " + c.pos.str() : "unnamed case");
    w.attr("classname", !c.classname.empty() ? c.classname : suite_name(s));
    w.attr("time", format_seconds(c.seconds));
    if (!strict(layout)) {
        const JunitLayout::File file = reported_file(layout, c.pos.file.empty() ? s.file : c.pos.file);
        if (!file.file.empty()) w.attr("file", file.file);
        if (c.pos.line > 0 && file.line) w.attr("line", std::to_string(c.pos.line));
    }
    const bool any_property = std::any_of(c.properties.begin(), c.properties.end(),
                                          [](const Property& p) { return !p.name.empty(); });
    const std::vector<std::string> broke =
        c.outcome == Outcome::failed || c.outcome == Outcome::waived ? failed_rules(c) : std::vector<std::string>{};
    const bool skipped = c.outcome == Outcome::skipped;
    const bool properties = !strict(layout) && (any_property || !c.rules.empty() || !broke.empty() || skipped);
    // Strict: the Ant schema has no system-out in a testcase; a failure's
    // text keeps its evidence.
    const bool system_out = !c.steps.empty() && !strict(layout);
    if (!properties && c.outcome == Outcome::passed && !system_out) {
        w.empty();
        return;
    }
    w.children();
    if (properties) {
        w.open("properties").children();
        const auto property = [&w](std::string_view name, std::string_view value) {
            w.open("property").attr("name", name).attr("value", value).empty();
        };
        std::string value;
        for (const auto& p : c.properties) {
            if (p.name.empty()) continue;  // a nameless property cannot be read back
            value.clear();
            append_redacted(value, p.value, opts.redact_headers);
            property(p.name, value);
        }
        for (const auto& r : c.rules) property("rule", r);
        for (const auto& r : broke) property("failed_rule", r);
        if (skipped) property("idconform.skip_cause", to_string(counted_skip_cause(c)));  // why it was not checked
        w.close();
    }
    switch (c.outcome) {
        case Outcome::passed: break;
        case Outcome::failed:
        case Outcome::error: {
            const bool failed = c.outcome == Outcome::failed;
            // An unreachable target: the short form of the cause (the detail keeps the request).
            const auto unreachable = failed ? std::nullopt : unreachable_cause(c);
            std::string message = unreachable ? "target unreachable: " + *unreachable
                                  : c.message.empty() ? first_failed_check(c) : c.message;
            if (message.empty()) message = failed ? "contract check failed" : "error";
            w.open(failed ? "failure" : "error");
            w.attr("message", redact_text(message, opts.redact_headers));
            // an error's type is its cause (suite, transport, authentication, ...)
            w.attr("type", failed                                 ? "contract"
                           : c.error_cause == ErrorCause::none ? "transport"
                                                               : to_string(c.error_cause));
            w.text(failure_detail(c, opts));
            break;
        }
        case Outcome::skipped:
        case Outcome::waived:
            // A waiver is a <skipped> whose message says "waived until DATE
            // by OWNER: REASON" (the audit stage writes it into message).
            w.open("skipped");
            if (!c.message.empty()) w.attr("message", redact_text(c.message, opts.redact_headers));
            w.empty();
            break;
    }
    if (system_out) {
        thread_local std::string t;  // keeps its capacity from case to case
        t.clear();
        append_transcript(t, c, opts);
        w.text_element("system-out", t);
    }
    w.close();
}

// The report is written in pieces: the opening of the document (with run
// totals), the opening of each suite (with its totals), its testcases as
// they were rendered, and the closing tags.

struct Totals {
    std::size_t tests = 0, failures = 0, errors = 0, skipped = 0;
    void add(Outcome o) {
        ++tests;
        if (o == Outcome::failed) ++failures;
        if (o == Outcome::error) ++errors;
        if (o == Outcome::skipped || o == Outcome::waived) ++skipped;
    }
    void add(const Totals& t) {
        tests += t.tests;
        failures += t.failures;
        errors += t.errors;
        skipped += t.skipped;
    }
};

std::string junit_head(const Totals& t, double seconds, const std::string& timestamp, bool has_suites,
                       const JunitLayout& layout) {
    std::string out;
    XmlWriter w(out);
    w.declaration();
    w.open("testsuites");
    if (!strict(layout)) {  // the Ant schema's testsuites has no attributes
        w.attr("name", "idconform");
        add_counts(w, t.tests, t.failures, t.errors, t.skipped, seconds);
        if (!timestamp.empty()) w.attr("timestamp", timestamp);
    }
    if (has_suites) out += ">\n";  // its suites follow, then junit_tail
    else w.empty();
    return out;
}

std::string junit_tail() { return "</testsuites>\n"; }

// What the Ant schema requires of a testsuite besides its counts: when
// (UTC, whole seconds, no zone: its pattern has neither), where, and its
// place in the document.
void add_strict_identity(XmlWriter& w, const std::string& name, const std::string& timestamp,
                         const JunitLayout& layout, std::size_t id) {
    // "2024-05-01T12:00:00.000Z" -> "2024-05-01T12:00:00"
    w.attr("timestamp", (timestamp.empty() ? layout.timestamp : timestamp).substr(0, 19));
    w.attr("hostname", layout.hostname).attr("package", name).attr("id", id);
}

// The run's notes (what it left on the target and why) as a testsuite of no
// tests: a property each and the text in system-out, where CI pages show
// them; never a failure or an error. "" without notes.
std::string notes_suite(const std::vector<std::string>& notes, const ReportOptions& opts, const JunitLayout& layout,
                        std::size_t id) {
    if (notes.empty()) return {};
    std::string out;
    XmlWriter w(out, 1);
    w.open("testsuite").attr("name", "idconform notes");
    add_counts(w, 0, 0, 0, 0, 0.0);
    if (strict(layout)) add_strict_identity(w, "idconform notes", layout.timestamp, layout, id);
    w.children();
    w.open("properties").children();
    std::string lines;
    for (const auto& n : notes) {
        const std::string note = redact_text(n, opts.redact_headers);
        w.open("property").attr("name", "note").attr("value", note).empty();
        lines += note + "\n";
    }
    w.close();
    w.text_element("system-out", lines);
    if (strict(layout)) w.open("system-err").empty();
    w.close();
    return out;
}

// What an audit adds to a testsuite (JunitReporter's header comment): the
// waived count JUnit's attributes cannot hold, the baseline summary.
struct SuiteAudit {
    const std::string* waivers_file = nullptr;  // set: a run with --waivers
    std::size_t waived = 0;
    const std::string* baseline_file = nullptr;  // set: a run with --baseline
    const BaselineCounts* baseline = nullptr;
};

// The testsuite's properties: what the run tested (the target and its base
// URL, credentials masked, as the JSON and HTML metadata say it), then the
// audit's. Strict writes the element even when empty: the Ant schema
// requires it. Whether there are any.
bool has_suite_properties(const SuiteAudit& a, const JunitLayout& layout) {
    return a.waivers_file != nullptr || a.baseline_file != nullptr || !layout.target.empty() || strict(layout);
}

void write_suite_properties(XmlWriter& w, const SuiteAudit& a, const JunitLayout& layout) {
    static constexpr const char* kinds[3] = {"new", "fixed", "still_failing"};
    w.open("properties");
    const bool any = !layout.target.empty() || a.waivers_file != nullptr || a.baseline_file != nullptr;
    if (!any) {
        w.empty();
        return;
    }
    w.children();
    const auto add = [&](const std::string& name, std::string_view value) {
        w.open("property").attr("name", name).attr("value", value).empty();
    };
    if (!layout.target.empty()) add("target", layout.target);
    if (a.waivers_file != nullptr) {
        add("waivers", *a.waivers_file);
        add("waived", std::to_string(a.waived));
    }
    if (a.baseline_file != nullptr) {
        add("baseline", *a.baseline_file);
        for (std::size_t k = 0; k < 3; ++k)
            add(std::string("baseline.") + kinds[k], std::to_string(a.baseline->all[k]));
        for (const auto& [rule, n] : a.baseline->rules)
            for (std::size_t k = 0; k < 3; ++k)
                if (n[k] > 0) add("baseline." + rule + "." + kinds[k], std::to_string(n[k]));
    }
    w.close();
}

// The opening of a testsuite with its totals; a suite of no tests whole.
std::string suite_open(const SuiteResult& s, const Totals& t, const JunitLayout& layout, std::size_t id,
                       const SuiteAudit& audit = {}) {
    std::string out;
    XmlWriter w(out, 1);
    w.open("testsuite").attr("name", suite_name(s));
    add_counts(w, t.tests, t.failures, t.errors, t.skipped, s.seconds);
    if (strict(layout)) {
        add_strict_identity(w, suite_name(s), s.timestamp, layout, id);
    } else {
        if (!s.timestamp.empty()) w.attr("timestamp", s.timestamp);
        if (const JunitLayout::File f = reported_file(layout, s.file); !f.file.empty()) w.attr("file", f.file);
    }
    const bool properties = has_suite_properties(audit, layout);
    if (!properties && t.tests == 0 && !strict(layout)) {
        w.empty();
        return out;
    }
    w.children();
    if (properties) write_suite_properties(w, audit, layout);
    if (t.tests > 0) return out;  // its testcases follow, then suite_close
    if (strict(layout)) {
        w.open("system-out").empty();
        w.open("system-err").empty();
    }
    w.close();
    return out;
}

std::string suite_close(const Totals& t, const JunitLayout& layout) {
    if (t.tests == 0) return "";
    return strict(layout) ? "    <system-out />\n    <system-err />\n  </testsuite>\n" : "  </testsuite>\n";
}

std::string this_host() {
    char name[256] = {};
    if (::gethostname(name, sizeof name - 1) != 0 || name[0] == '\0') return "localhost";  // Ant's fallback
    return name;
}

JunitLayout junit_layout(const ReportOptions& opts, const RunInfo& info, const std::string& timestamp) {
    JunitLayout l;
    l.flavor = opts.junit_flavor;
    l.root = opts.junit_root;
    if (l.root.empty()) {
        std::error_code ec;
        l.root = std::filesystem::current_path(ec).string();  // "" on error: every absolute path stays absolute
    }
    l.profile = info.profile;
    for (const auto& p : info.metadata)
        if (p.name == "target") l.target = p.value;
    l.hostname = opts.junit_hostname.empty() ? this_host() : opts.junit_hostname;
    l.timestamp = timestamp.empty() ? iso8601_utc(Clock::now()) : timestamp;
    return l;
}

}  // namespace

void BaselineCounts::add(const CaseResult& c) {
    for (const auto& p : c.properties) {
        if (p.name != "baseline") continue;
        const std::size_t k = p.value == "new" ? 0 : p.value == "fixed" ? 1 : p.value == "still-failing" ? 2 : 3;
        if (k == 3) return;
        ++all[k];
        const std::vector<std::string> named = reported_rules(c);
        if (named.empty()) ++rules[std::string(no_rule)][k];
        for (const auto& r : named) ++rules[r][k];
        return;
    }
}

JunitReporter::JunitReporter(std::string path, ReportOptions opts)
    : CumulativeReporter(std::move(path), std::move(opts), "JUnit"), layout_(junit_layout(this->opts(), RunInfo{}, "")) {}

JunitReporter::~JunitReporter() = default;

void JunitReporter::started(const RunInfo& info) { layout_ = junit_layout(opts(), info, started_at()); }

void JunitReporter::render_case(std::string& out, const CaseResult& c, std::size_t suite_index) {
    if (baseline_.size() <= suite_index) baseline_.resize(suite_index + 1);
    baseline_[suite_index].add(c);
    write_case(out, c, suites()[suite_index].suite, opts(), layout_);
}

void JunitReporter::write_report(AtomicFileWriter& out, const RunSummary& run) {
    std::string timestamp = started_at();
    if (timestamp.empty() && !suites().empty()) timestamp = suites().front().suite.timestamp;
    Totals all;
    std::vector<Totals> per_suite;
    for (const auto& e : suites()) {
        const auto n = [&e](Outcome o) { return e.suite.streamed[static_cast<std::size_t>(o)]; };
        const Totals t{n(Outcome::passed) + n(Outcome::failed) + n(Outcome::error) + n(Outcome::skipped) +
                           n(Outcome::waived),
                       n(Outcome::failed), n(Outcome::error), n(Outcome::skipped) + n(Outcome::waived)};
        per_suite.push_back(t);
        all.add(t);
    }
    out.write(junit_head(all, run.seconds, timestamp, !suites().empty(), layout_));
    baseline_.resize(suites().size());
    for (std::size_t i = 0; i < suites().size(); ++i) {
        SuiteAudit audit;
        if (this->audit() && !this->audit()->waivers_file.empty()) {
            audit.waivers_file = &this->audit()->waivers_file;
            audit.waived = suites()[i].suite.streamed[static_cast<std::size_t>(Outcome::waived)];
        }
        if (this->audit() && !this->audit()->baseline_file.empty()) {
            audit.baseline_file = &this->audit()->baseline_file;
            audit.baseline = &baseline_[i];
        }
        out.write(suite_open(suites()[i].suite, per_suite[i], layout_, i, audit));
        copy_cases(i, out);
        out.write(suite_close(per_suite[i], layout_));
    }
    if (!suites().empty()) out.write(notes_suite(run.notes, opts(), layout_, suites().size()) + junit_tail());
}

}  // namespace idconform::reporters
