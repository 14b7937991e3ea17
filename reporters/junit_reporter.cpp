// JUnit XML reporter, built with pugixml; every string passes xml_text so
// the document parses whatever bytes the target sent.
#include "reporters/junit_reporter.hpp"

#include "reporters/atomic_file.hpp"
#include "reporters/evidence.hpp"
#include "reporters/redact.hpp"
#include "reporters/text.hpp"

#include <pugixml.hpp>

#include <algorithm>
#include <sstream>

namespace idconform::reporters {

namespace {

void attr(pugi::xml_node n, const char* name, std::string_view value) {
    n.append_attribute(name).set_value(xml_text(value).c_str());
}

void attr(pugi::xml_node n, const char* name, std::size_t value) {
    n.append_attribute(name).set_value(std::to_string(value).c_str());
}

void text(pugi::xml_node n, std::string_view value) {
    n.append_child(pugi::node_pcdata).set_value(xml_text(value).c_str());
}

void add_counts(pugi::xml_node n, std::size_t tests, std::size_t failures, std::size_t errors, std::size_t skipped,
                double seconds) {
    attr(n, "tests", tests);
    attr(n, "failures", failures);
    attr(n, "errors", errors);
    attr(n, "skipped", skipped);
    attr(n, "time", format_seconds(seconds));
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

void add_case(pugi::xml_node suite, const CaseResult& c, const SuiteResult& s, const ReportOptions& opts) {
    auto tc = suite.append_child("testcase");
    // name and classname are required by every JUnit consumer: fall back to
    // something that still identifies the case rather than write "".
    attr(tc, "name", !c.name.empty() ? c.name : !c.pos.file.empty() ? "case at " + c.pos.str() : "unnamed case");
    attr(tc, "classname", !c.classname.empty() ? c.classname : suite_name(s));
    attr(tc, "time", format_seconds(c.seconds));
    const std::string& file = c.pos.file.empty() ? s.file : c.pos.file;
    if (!file.empty()) attr(tc, "file", file);
    if (c.pos.line > 0) attr(tc, "line", std::to_string(c.pos.line));

    const bool any_property = std::any_of(c.properties.begin(), c.properties.end(),
                                          [](const Property& p) { return !p.name.empty(); });
    if (any_property || !c.rules.empty()) {
        auto props = tc.append_child("properties");
        for (const auto& p : c.properties) {
            if (p.name.empty()) continue;  // a nameless property cannot be read back
            auto prop = props.append_child("property");
            attr(prop, "name", p.name);
            attr(prop, "value", redact_text(p.value, opts.redact_headers));
        }
        for (const auto& r : c.rules) {
            auto prop = props.append_child("property");
            attr(prop, "name", "rule");
            attr(prop, "value", r);
        }
    }

    switch (c.outcome) {
        case Outcome::passed: break;
        case Outcome::failed:
        case Outcome::error: {
            const bool failed = c.outcome == Outcome::failed;
            auto el = tc.append_child(failed ? "failure" : "error");
            std::string message = c.message.empty() ? first_failed_check(c) : c.message;
            if (message.empty()) message = failed ? "contract check failed" : "error";
            attr(el, "message", redact_text(message, opts.redact_headers));
            attr(el, "type", failed ? "contract" : "transport");
            text(el, failure_detail(c, opts));
            break;
        }
        case Outcome::skipped: {
            auto el = tc.append_child("skipped");
            if (!c.message.empty()) attr(el, "message", redact_text(c.message, opts.redact_headers));
            break;
        }
    }
    if (!c.steps.empty()) text(tc.append_child("system-out"), transcript(c, opts));
}

}  // namespace

std::string render_junit(const RunSummary& run, const std::string& timestamp, const ReportOptions& opts) {
    pugi::xml_document doc;
    auto decl = doc.append_child(pugi::node_declaration);
    decl.append_attribute("version").set_value("1.0");
    decl.append_attribute("encoding").set_value("UTF-8");

    auto root = doc.append_child("testsuites");
    attr(root, "name", "idconform");
    std::size_t tests = 0;
    for (const auto& s : run.suites) tests += s.cases.size();
    add_counts(root, tests, run.count(Outcome::failed), run.count(Outcome::error), run.count(Outcome::skipped),
               run.seconds);
    if (!timestamp.empty()) attr(root, "timestamp", timestamp);

    for (const auto& s : run.suites) {
        auto suite = root.append_child("testsuite");
        attr(suite, "name", suite_name(s));
        add_counts(suite, s.cases.size(), s.count(Outcome::failed), s.count(Outcome::error), s.count(Outcome::skipped),
                   s.seconds);
        if (!s.timestamp.empty()) attr(suite, "timestamp", s.timestamp);
        if (!s.file.empty()) attr(suite, "file", s.file);
        for (const auto& c : s.cases) add_case(suite, c, s, opts);
    }

    std::ostringstream out;
    doc.save(out, "  ", pugi::format_indent, pugi::encoding_utf8);
    return out.str();
}

JunitReporter::JunitReporter(std::string path, ReportOptions opts) : path_(std::move(path)), opts_(std::move(opts)) {}

void JunitReporter::run_started(const RunInfo&) { started_ = iso8601_utc(Clock::now()); }

bool JunitReporter::run_finished(const RunSummary& run, std::string& error) {
    std::string timestamp = started_;
    if (timestamp.empty() && !run.suites.empty()) timestamp = run.suites.front().timestamp;
    std::string xml;
    try {
        xml = render_junit(run, timestamp, opts_);
    } catch (const std::exception& e) {  // allocation failure: report, do not cross the boundary
        error = std::string("cannot build JUnit report: ") + e.what();
        return false;
    }
    return write_file_atomic(path_, xml, "JUnit report", error);
}

}  // namespace idconform::reporters
