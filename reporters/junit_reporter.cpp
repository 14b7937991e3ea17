// JUnit XML reporter, built with pugixml; every string passes xml_text so
// the document parses whatever bytes the target sent.
#include "reporters/junit_reporter.hpp"

#include "reporters/atomic_file.hpp"
#include "reporters/evidence.hpp"
#include "reporters/redact.hpp"
#include "reporters/text.hpp"
#include "reporters/unreachable.hpp"

#include <pugixml.hpp>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <sstream>
#include <system_error>
#include <vector>

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

void add_case(pugi::xml_node suite, const CaseResult& c, const SuiteResult& s, const ReportOptions& opts,
              const JunitLayout& layout) {
    auto tc = suite.append_child("testcase");
    // name and classname are required by every JUnit consumer: fall back to
    // something that still identifies the case rather than write "".
    attr(tc, "name", !c.name.empty() ? c.name : !c.pos.file.empty() ? "case at " + c.pos.str() : "unnamed case");
    attr(tc, "classname", !c.classname.empty() ? c.classname : suite_name(s));
    attr(tc, "time", format_seconds(c.seconds));
    if (!strict(layout)) {
        const JunitLayout::File file = reported_file(layout, c.pos.file.empty() ? s.file : c.pos.file);
        if (!file.file.empty()) attr(tc, "file", file.file);
        if (c.pos.line > 0 && file.line) attr(tc, "line", std::to_string(c.pos.line));
    }

    const bool any_property = std::any_of(c.properties.begin(), c.properties.end(),
                                          [](const Property& p) { return !p.name.empty(); });
    // The testcase's name and classname never depend on its outcome (CI
    // keys test history on them): the rules a failure broke are properties.
    const std::vector<std::string> broke =
        c.outcome == Outcome::failed || c.outcome == Outcome::waived ? failed_rules(c) : std::vector<std::string>{};
    const bool skipped = c.outcome == Outcome::skipped;
    if (!strict(layout) && (any_property || !c.rules.empty() || !broke.empty() || skipped)) {
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
        for (const auto& r : broke) {
            auto prop = props.append_child("property");
            attr(prop, "name", "failed_rule");
            attr(prop, "value", r);
        }
        if (skipped) {  // why it was not checked (core/result.hpp's SkipCause)
            auto prop = props.append_child("property");
            attr(prop, "name", "idconform.skip_cause");
            attr(prop, "value", to_string(counted_skip_cause(c)));
        }
    }

    switch (c.outcome) {
        case Outcome::passed: break;
        case Outcome::failed:
        case Outcome::error: {
            const bool failed = c.outcome == Outcome::failed;
            auto el = tc.append_child(failed ? "failure" : "error");
            // An unreachable target: the short form of the cause (the detail keeps the request).
            const auto unreachable = failed ? std::nullopt : unreachable_cause(c);
            std::string message = unreachable ? "target unreachable: " + *unreachable
                                  : c.message.empty() ? first_failed_check(c) : c.message;
            if (message.empty()) message = failed ? "contract check failed" : "error";
            attr(el, "message", redact_text(message, opts.redact_headers));
            // an error's type is its cause (suite, transport, authentication, ...)
            attr(el, "type", failed                                 ? "contract"
                             : c.error_cause == ErrorCause::none ? "transport"
                                                                 : to_string(c.error_cause));
            text(el, failure_detail(c, opts));
            break;
        }
        case Outcome::skipped:
        case Outcome::waived: {
            // A waiver is a <skipped> whose message says "waived until DATE
            // by OWNER: REASON" (the audit stage writes it into message).
            auto el = tc.append_child("skipped");
            if (!c.message.empty()) attr(el, "message", redact_text(c.message, opts.redact_headers));
            break;
        }
    }
    // Strict: the Ant schema has no system-out in a testcase; a failure's
    // text keeps its evidence.
    if (!c.steps.empty() && !strict(layout)) text(tc.append_child("system-out"), transcript(c, opts));
}

// The report is assembled from pieces so that the whole-run renderer and
// the streaming reporter write the same bytes: the opening of the document
// (with run totals), the opening of a suite (with its totals), each testcase
// as pugixml prints it at its depth, and the closing tags. An element with no
// children is printed self-closed, as pugixml does for the whole document.

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

// `text` is an element printed with format_no_empty_element_tags: drop its
// closing tag to keep the opening one.
std::string opening_only(std::string text, std::string_view element) {
    const std::string close = "</" + std::string(element) + ">\n";
    if (text.size() >= close.size() && text.compare(text.size() - close.size(), close.size(), close) == 0)
        text.resize(text.size() - close.size());
    return text + "\n";
}

// The opening tag of `node` at `depth` and the children it already has (a
// testsuite's properties), as pugixml prints them in the whole document: the
// rest of its children follow, then its closing tag.
std::string opening_of(pugi::xml_node node, unsigned depth) {
    std::ostringstream out;
    if (!node.first_child()) {
        node.print(out, "  ", pugi::format_indent | pugi::format_no_empty_element_tags, pugi::encoding_utf8, depth);
        return opening_only(out.str(), node.name());
    }
    node.print(out, "  ", pugi::format_indent, pugi::encoding_utf8, depth);
    std::string text = out.str();
    // drop the closing tag's line
    const std::size_t last = text.rfind('\n', text.size() >= 2 ? text.size() - 2 : 0);
    text.resize(last == std::string::npos ? 0 : last + 1);
    return text;
}

std::string junit_head(const Totals& t, double seconds, const std::string& timestamp, bool has_suites,
                       const JunitLayout& layout) {
    pugi::xml_document doc;
    auto decl = doc.append_child(pugi::node_declaration);
    decl.append_attribute("version").set_value("1.0");
    decl.append_attribute("encoding").set_value("UTF-8");
    auto root = doc.append_child("testsuites");
    if (!strict(layout)) {  // the Ant schema's testsuites has no attributes
        attr(root, "name", "idconform");
        add_counts(root, t.tests, t.failures, t.errors, t.skipped, seconds);
        if (!timestamp.empty()) attr(root, "timestamp", timestamp);
    }
    std::ostringstream out;
    const unsigned flags = pugi::format_indent | (has_suites ? pugi::format_no_empty_element_tags : 0u);
    doc.save(out, "  ", flags, pugi::encoding_utf8);
    return has_suites ? opening_only(out.str(), "testsuites") : out.str();
}

std::string junit_tail() { return "</testsuites>\n"; }

// What the Ant schema requires of a testsuite besides its counts: when
// (UTC, whole seconds, no zone: its pattern has neither), where, and its
// place in the document.
void add_strict_identity(pugi::xml_node suite, const std::string& name, const std::string& timestamp,
                         const JunitLayout& layout, std::size_t id) {
    // "2024-05-01T12:00:00.000Z" -> "2024-05-01T12:00:00"
    attr(suite, "timestamp", (timestamp.empty() ? layout.timestamp : timestamp).substr(0, 19));
    attr(suite, "hostname", layout.hostname);
    attr(suite, "package", name);
    attr(suite, "id", id);
}

// The run's notes (what it left on the target and why) as a testsuite of no
// tests: a property each and the text in system-out, where CI pages show
// them; never a failure or an error. "" without notes.
std::string notes_suite(const std::vector<std::string>& notes, const ReportOptions& opts, const JunitLayout& layout,
                        std::size_t id) {
    if (notes.empty()) return {};
    pugi::xml_document doc;
    auto suite = doc.append_child("testsuite");
    attr(suite, "name", "idconform notes");
    add_counts(suite, 0, 0, 0, 0, 0.0);
    if (strict(layout)) add_strict_identity(suite, "idconform notes", layout.timestamp, layout, id);
    auto props = suite.append_child("properties");
    std::string lines;
    for (const auto& n : notes) {
        const std::string note = redact_text(n, opts.redact_headers);
        auto p = props.append_child("property");
        attr(p, "name", "note");
        attr(p, "value", note);
        lines += note + "\n";
    }
    text(suite.append_child("system-out"), lines);
    if (strict(layout)) suite.append_child("system-err");
    std::ostringstream out;
    suite.print(out, "  ", pugi::format_indent, pugi::encoding_utf8, 1);
    return out.str();
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
// requires it.
void add_suite_properties(pugi::xml_node suite, const SuiteAudit& a, const JunitLayout& layout) {
    static constexpr const char* kinds[3] = {"new", "fixed", "still_failing"};
    if (a.waivers_file == nullptr && a.baseline_file == nullptr && layout.target.empty() && !strict(layout)) return;
    auto props = suite.append_child("properties");
    const auto add = [&](const std::string& name, std::string_view value) {
        auto p = props.append_child("property");
        attr(p, "name", name);
        attr(p, "value", value);
    };
    if (!layout.target.empty()) add("target", layout.target);
    if (a.waivers_file != nullptr) {
        add("waivers", *a.waivers_file);
        add("waived", std::to_string(a.waived));
    }
    if (a.baseline_file == nullptr) return;
    add("baseline", *a.baseline_file);
    for (std::size_t k = 0; k < 3; ++k) add(std::string("baseline.") + kinds[k], std::to_string(a.baseline->all[k]));
    for (const auto& [rule, n] : a.baseline->rules)
        for (std::size_t k = 0; k < 3; ++k)
            if (n[k] > 0) add("baseline." + rule + "." + kinds[k], std::to_string(n[k]));
}

std::string suite_open(const SuiteResult& s, const Totals& t, const JunitLayout& layout, std::size_t id,
                       const SuiteAudit& audit = {}) {
    pugi::xml_document doc;
    auto suite = doc.append_child("testsuite");
    attr(suite, "name", suite_name(s));
    add_counts(suite, t.tests, t.failures, t.errors, t.skipped, s.seconds);
    if (strict(layout)) {
        add_strict_identity(suite, suite_name(s), s.timestamp, layout, id);
    } else {
        if (!s.timestamp.empty()) attr(suite, "timestamp", s.timestamp);
        if (const JunitLayout::File f = reported_file(layout, s.file); !f.file.empty()) attr(suite, "file", f.file);
    }
    add_suite_properties(suite, audit, layout);
    if (strict(layout) && t.tests == 0) {  // else suite_close writes them
        suite.append_child("system-out");
        suite.append_child("system-err");
    }
    if (t.tests > 0) return opening_of(suite, 1);
    std::ostringstream out;
    suite.print(out, "  ", pugi::format_indent, pugi::encoding_utf8, 1);
    return out.str();
}

std::string suite_close(const Totals& t, const JunitLayout& layout) {
    if (t.tests == 0) return "";
    return strict(layout) ? "    <system-out />\n    <system-err />\n  </testsuite>\n" : "  </testsuite>\n";
}

// pugixml output straight into a string (an ostringstream costs a locale,
// a buffer and a copy per testcase).
struct StringWriter final : pugi::xml_writer {
    std::string out;
    void write(const void* data, std::size_t size) override { out.append(static_cast<const char*>(data), size); }
};

// A passed testcase printed directly, byte for byte as pugixml prints it
// (add_case below), without building a document: most testcases of a large
// run pass, and the DOM was a fifth of the run's CPU. Only for text made of
// printable ASCII (and line feeds in the transcript), whose escaping is
// simple; anything else (a failure, a control character, UTF-8) returns
// false and goes through pugixml.
bool append_escaped(std::string& out, std::string_view v, bool attribute) {
    static constexpr auto plain = [] {
        std::array<bool, 256> t{};
        for (int ch = 0x20; ch <= 0x7e; ++ch) t[ch] = ch != '&' && ch != '<' && ch != '>' && ch != '"' && ch != '\'';
        return t;
    }();
    for (std::size_t i = 0; i < v.size(); ++i) {
        std::size_t j = i;
        while (j < v.size() && plain[static_cast<unsigned char>(v[j])]) ++j;
        out.append(v.data() + i, j - i);  // runs of plain text in one go
        if (j == v.size()) break;
        i = j;
        const char ch = v[i];
        switch (ch) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>':
                if (attribute) return false;
                out += "&gt;";
                break;
            case '"':
                if (attribute) out += "&quot;";
                else out += ch;
                break;
            case '\'':
                if (attribute) return false;
                out += ch;
                break;
            case '\n':
                if (attribute) return false;
                out += ch;
                break;
            default:
                if (static_cast<unsigned char>(ch) < 0x20 || static_cast<unsigned char>(ch) > 0x7e) return false;
                out += ch;
        }
    }
    return true;
}

bool append_attr(std::string& out, const char* name, std::string_view value) {
    out += ' ';
    out += name;
    out += "=\"";
    if (!append_escaped(out, value, true)) return false;
    out += '"';
    return true;
}

bool passed_testcase_text(const CaseResult& c, const SuiteResult& s, const ReportOptions& opts,
                          const JunitLayout& layout, std::string& out) {
    if (c.outcome != Outcome::passed) return false;
    out.reserve(1024);
    out += "    <testcase";
    if (!append_attr(out, "name", !c.name.empty() ? c.name : !c.pos.file.empty() ? "case at " + c.pos.str() : "unnamed case") ||
        !append_attr(out, "classname", !c.classname.empty() ? c.classname : suite_name(s)) ||
        !append_attr(out, "time", format_seconds(c.seconds)))
        return false;
    if (strict(layout)) {  // neither file, line, properties nor system-out
        out += " />\n";
        return true;
    }
    const JunitLayout::File file = reported_file(layout, c.pos.file.empty() ? s.file : c.pos.file);
    if (!file.file.empty() && !append_attr(out, "file", file.file)) return false;
    if (c.pos.line > 0 && file.line && !append_attr(out, "line", std::to_string(c.pos.line))) return false;
    const bool any_property = std::any_of(c.properties.begin(), c.properties.end(),
                                          [](const Property& p) { return !p.name.empty(); });
    const bool children = any_property || !c.rules.empty() || !c.steps.empty();
    if (!children) {
        out += " />\n";
        return true;
    }
    out += ">\n";
    if (any_property || !c.rules.empty()) {
        out += "      <properties>\n";
        std::string value;
        for (const auto& p : c.properties) {
            if (p.name.empty()) continue;
            out += "        <property";
            value.clear();
            append_redacted(value, p.value, opts.redact_headers);
            if (!append_attr(out, "name", p.name) || !append_attr(out, "value", value)) return false;
            out += " />\n";
        }
        for (const auto& r : c.rules) {
            out += "        <property name=\"rule\"";
            if (!append_attr(out, "value", r)) return false;
            out += " />\n";
        }
        out += "      </properties>\n";
    }
    if (!c.steps.empty()) {
        thread_local std::string t;
        t.clear();
        append_transcript(t, c, opts);
        // pugixml prints an element holding one empty text node self-closed.
        if (t.empty()) return false;
        out += "      <system-out>";
        if (!append_escaped(out, t, false)) return false;
        out += "</system-out>\n";
    }
    out += "    </testcase>\n";
    return true;
}

// The testcase element, replacing out's content.
void testcase_into(std::string& out, const CaseResult& c, const SuiteResult& s, const ReportOptions& opts,
                   const JunitLayout& layout) {
    out.clear();
    if (passed_testcase_text(c, s, opts, layout, out)) return;
    out.clear();
    pugi::xml_document doc;
    add_case(doc, c, s, opts, layout);
    StringWriter w;
    doc.first_child().print(w, "  ", pugi::format_indent, pugi::encoding_utf8, 2);
    out = std::move(w.out);
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
    testcase_into(out, c, suites()[suite_index].suite, opts(), layout_);
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
