// JSON reporter: builds a Boost.JSON value from the RunSummary and writes it
// with a small deterministic pretty printer.
#include "reporters/json_reporter.hpp"

#include "reporters/atomic_file.hpp"
#include "reporters/redact.hpp"
#include "reporters/text.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <cmath>

namespace idconform::reporters {

namespace json = boost::json;

namespace {

// Every string from a result goes through here: Boost.JSON escapes control
// characters but writes invalid UTF-8 through unchanged, which would make
// the document unparseable.
json::string str(std::string_view s) { return json::string(valid_utf8(s)); }

// Times are printed with three decimals by pretty_json; here only values
// that cannot be printed as a duration are cleaned up.
double seconds_value(double seconds) { return std::isfinite(seconds) && seconds > 0 ? seconds : 0.0; }

json::value position(const SourcePos& p) {
    if (p.file.empty() && p.line == 0) return nullptr;
    return json::object{{"file", str(p.file)}, {"line", p.line}, {"column", p.column}};
}

json::array headers(const std::vector<Header>& hs, const ReportOptions& opts) {
    json::array out;
    for (const auto& h : redact_headers(hs, opts.redact_headers))
        out.push_back(json::object{{"name", str(h.name)}, {"value", str(h.value)}});
    return out;
}

json::value step_json(const StepRecord& s, const ReportOptions& opts) {
    const Exchange& x = s.exchange;
    json::object step;
    step["name"] = str(s.name);
    step["request"] = json::object{{"transport", str(x.request.transport)},
                                   {"method", str(x.request.method)},
                                   {"url", str(redact_url(x.request.url))},
                                   {"headers", headers(x.request.headers, opts)},
                                   {"body", str(redact_text(x.request.body, opts.redact_headers))}};
    if (x.response) {
        const Response& r = *x.response;
        step["response"] = json::object{{"status", r.status},
                                        {"reason", str(r.reason)},
                                        {"headers", headers(r.headers, opts)},
                                        {"body", str(r.body)},
                                        {"body_bytes", std::max<std::uint64_t>(r.body_bytes, r.body.size())},
                                        {"truncated", r.body_truncated}};
    } else {
        step["response"] = nullptr;
    }
    if (x.error) {
        step["error"] = json::object{{"kind", to_string(x.error->kind)},
                                     {"message", str(redact_text(x.error->message, opts.redact_headers))}};
    } else {
        step["error"] = nullptr;
    }
    step["attempts"] = x.attempts;
    step["time"] = seconds_value(seconds_between(x.sent, x.received));
    json::array checks;
    for (const auto& c : s.checks) {
        checks.push_back(json::object{{"rule", str(c.rule)},
                                      {"what", str(c.what)},
                                      {"expected", str(redact_text(c.expected, opts.redact_headers))},
                                      {"actual", str(redact_text(c.actual, opts.redact_headers))},
                                      {"ok", c.ok},
                                      {"warning", c.warning},
                                      {"position", position(c.pos)}});
    }
    step["checks"] = std::move(checks);
    step["reproduce"] = str(redact_text(s.reproduce, opts.redact_headers));
    return step;
}

json::value case_json(const CaseResult& c, const ReportOptions& opts) {
    json::array rules;
    for (const auto& r : c.rules) rules.push_back(str(r));
    json::array props;
    for (const auto& p : c.properties)
        props.push_back(json::object{{"name", str(p.name)}, {"value", str(redact_text(p.value, opts.redact_headers))}});
    json::array steps;
    for (const auto& s : c.steps) steps.push_back(step_json(s, opts));
    return json::object{{"name", str(c.name)},
                        {"classname", str(c.classname)},
                        {"rules", std::move(rules)},
                        {"outcome", to_string(c.outcome)},
                        {"message", str(redact_text(c.message, opts.redact_headers))},
                        {"detail", str(redact_text(c.detail, opts.redact_headers))},
                        {"properties", std::move(props)},
                        {"time", seconds_value(c.seconds)},
                        {"position", position(c.pos)},
                        {"steps", std::move(steps)}};
}

void pretty(std::string& out, const json::value& v, std::size_t depth) {
    const auto newline = [&](std::size_t d) { out += '\n'; out.append(2 * d, ' '); };
    switch (v.kind()) {
        case json::kind::object: {
            const auto& o = v.get_object();
            if (o.empty()) { out += "{}"; return; }
            out += '{';
            bool first = true;
            for (const auto& kv : o) {
                if (!first) out += ',';
                first = false;
                newline(depth + 1);
                out += json::serialize(json::string(kv.key()));
                out += ": ";
                pretty(out, kv.value(), depth + 1);
            }
            newline(depth);
            out += '}';
            return;
        }
        case json::kind::array: {
            const auto& a = v.get_array();
            if (a.empty()) { out += "[]"; return; }
            out += '[';
            bool first = true;
            for (const auto& e : a) {
                if (!first) out += ',';
                first = false;
                newline(depth + 1);
                pretty(out, e, depth + 1);
            }
            newline(depth);
            out += ']';
            return;
        }
        case json::kind::double_:
            // Boost.JSON 1.81 would print 1.5 as 1.5E0.
            out += format_seconds(v.get_double());
            return;
        default:
            out += json::serialize(v);
            return;
    }
}

}  // namespace

json::value json_report(const RunSummary& run, const std::string& tool_version, const ReportOptions& opts) {
    std::size_t tests = 0;
    for (const auto& s : run.suites) tests += s.cases.size();
    json::array suites;
    for (const auto& s : run.suites) {
        json::array cases;
        for (const auto& c : s.cases) cases.push_back(case_json(c, opts));
        suites.push_back(json::object{{"name", str(s.name)},
                                      {"file", str(s.file)},
                                      {"time", seconds_value(s.seconds)},
                                      {"timestamp", str(s.timestamp)},
                                      {"cases", std::move(cases)}});
    }
    return json::object{{"tool", "idconform"},
                        {"version", str(tool_version)},
                        {"summary", json::object{{"tests", tests},
                                                 {"passed", run.count(Outcome::passed)},
                                                 {"failed", run.count(Outcome::failed)},
                                                 {"errors", run.count(Outcome::error)},
                                                 {"skipped", run.count(Outcome::skipped)},
                                                 {"time", seconds_value(run.seconds)}}},
                        {"suites", std::move(suites)}};
}

std::string pretty_json(const json::value& v) {
    std::string out;
    pretty(out, v, 0);
    out += '\n';
    return out;
}

JsonReporter::JsonReporter(std::string path, ReportOptions opts) : path_(std::move(path)), opts_(std::move(opts)) {}

void JsonReporter::run_started(const RunInfo& info) { tool_version_ = info.tool_version; }

bool JsonReporter::run_finished(const RunSummary& run, std::string& error) {
    std::string text;
    try {
        text = pretty_json(json_report(run, tool_version_, opts_));
    } catch (const std::exception& e) {
        error = std::string("cannot build JSON report: ") + e.what();
        return false;
    }
    return write_file_atomic(path_, text, "JSON report", error);
}

}  // namespace idconform::reporters
