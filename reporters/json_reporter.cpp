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
    json::object out{{"name", str(c.name)},
                     {"classname", str(c.classname)},
                     {"rules", std::move(rules)},
                     {"outcome", to_string(c.outcome)}};
    // why a skipped case was not checked (core/result.hpp's SkipCause); only
    // on skipped cases
    if (c.outcome == Outcome::skipped) out["skip_cause"] = to_string(counted_skip_cause(c));
    // why a case in error is (ErrorCause): what merge's exit code follows
    if (c.outcome == Outcome::error && c.error_cause != ErrorCause::none) out["error_cause"] = to_string(c.error_cause);
    out["message"] = str(redact_text(c.message, opts.redact_headers));
    out["detail"] = str(redact_text(c.detail, opts.redact_headers));
    out["properties"] = std::move(props);
    out["time"] = seconds_value(c.seconds);
    out["position"] = position(c.pos);
    out["steps"] = std::move(steps);
    return out;
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

// The report in pieces, so that pretty_json(json_report(...)) and the
// streaming reporter write the same bytes: the head (tool, version, summary)
// and each suite's members are printed with `pretty`, each case is printed at
// its depth (4: root, suites, suite, cases) and the brackets are written here
// exactly where `pretty` would put them.

void newline(std::string& out, std::size_t depth) {
    out += '\n';
    out.append(2 * depth, ' ');
}

// Members of a non-empty object without its closing brace.
void open_members(std::string& out, const json::object& o, std::size_t depth) {
    out += '{';
    bool first = true;
    for (const auto& kv : o) {
        if (!first) out += ',';
        first = false;
        newline(out, depth + 1);
        out += json::serialize(json::string(kv.key()));
        out += ": ";
        pretty(out, kv.value(), depth + 1);
    }
}

void tally(RuleTotals& t, const CaseResult& c) {
    for (const auto& [rule, n] : rule_counts(c)) t[rule][static_cast<std::size_t>(c.outcome)] += n;
}

// The run's totals, and per rule (core/result.hpp's rule_counts: a failure
// under the rule of each failing check, as the console table and the HTML
// matrix count it).
json::object summary_json(std::size_t passed, std::size_t failed, std::size_t errors, std::size_t skipped,
                          std::size_t waived, double seconds, const RuleTotals& rules, const SkipTotals& causes,
                          std::size_t filtered_out) {
    // skipped_by_cause adds up to skipped; filtered_out cases are not tests
    json::object by_cause;
    for (const SkipCause k : skip_causes) by_cause[to_string(k)] = causes[static_cast<std::size_t>(k)];
    json::object out{{"tests", passed + failed + errors + skipped + waived},
                     {"passed", passed},
                     {"failed", failed},
                     {"errors", errors},
                     {"skipped", skipped},
                     {"skipped_by_cause", std::move(by_cause)},
                     {"filtered_out", filtered_out},
                     {"waived", waived},
                     {"time", seconds_value(seconds)}};
    if (!rules.empty()) {
        json::object per;
        for (const auto& [rule, n] : rules) {
            json::object row;
            for (std::size_t o = 0; o < outcome_count; ++o)
                row[o == static_cast<std::size_t>(Outcome::error) ? "errors" : to_string(static_cast<Outcome>(o))] = n[o];
            per[rule] = std::move(row);
        }
        out["rules"] = std::move(per);
    }
    return out;
}

// `run`: null (no member) when nothing is known about the run beyond its cases.
std::string report_head(const std::string& tool_version, json::object summary, bool has_suites,
                        const json::value& run = nullptr) {
    std::string out;
    json::object head{{"tool", "idconform"}, {"version", str(tool_version)}};
    if (!run.is_null()) head["run"] = run;
    head["summary"] = std::move(summary);
    open_members(out, head, 0);
    out += ',';
    newline(out, 1);
    out += "\"suites\": ";
    out += has_suites ? "[" : "[]";
    return out;
}

// Closes the suites array (when it was opened) and the document, with the
// audit member in between when there is one.
std::string report_tail(bool has_suites, const json::object* audit, const std::vector<std::string>& notes,
                        const ReportOptions& opts) {
    std::string out = has_suites ? "\n  ]" : "";
    if (!notes.empty()) {
        // The run's notes (what it left on the target and why): neither
        // failures nor errors; only in runs that have some.
        json::array a;
        for (const auto& n : notes) a.push_back(str(redact_text(n, opts.redact_headers)));
        out += ',';
        newline(out, 1);
        out += "\"notes\": ";
        pretty(out, a, 1);
    }
    if (audit != nullptr) {
        out += ',';
        newline(out, 1);
        out += "\"audit\": ";
        pretty(out, *audit, 1);
    }
    return out + "\n}\n";
}

std::string suite_open(const SuiteResult& s, bool first_suite, bool has_cases) {
    std::string out = first_suite ? "" : ",";
    newline(out, 2);
    open_members(out, json::object{{"name", str(s.name)},
                                   {"file", str(s.file)},
                                   {"time", seconds_value(s.seconds)},
                                   {"timestamp", str(s.timestamp)}},
                 2);
    out += ',';
    newline(out, 3);
    out += "\"cases\": ";
    out += has_cases ? "[" : "[]";
    return out;
}

std::string suite_close(bool has_cases) { return has_cases ? "\n      ]\n    }" : "\n    }"; }

std::string case_text(const CaseResult& c, bool first_case, const ReportOptions& opts) {
    std::string out = first_case ? "" : ",";
    newline(out, 4);
    pretty(out, case_json(c, opts), 4);
    return out;
}

}  // namespace

json::object audit_json(const AuditSummary& a) {
    json::object out;
    if (!a.waivers_file.empty()) {
        json::array ws;
        for (const auto& w : a.waivers)
            ws.push_back(json::object{{"rule", str(w.rule)},
                                      {"covers", str(w.covers)},
                                      {"owner", str(w.owner)},
                                      {"reason", str(w.reason)},
                                      {"expires", str(w.expires)},
                                      {"position", str(w.position)},
                                      {"state", str(w.state)},
                                      {"waived", w.waived},
                                      {"matched_expired", w.matched_expired}});
        out["waivers_file"] = str(a.waivers_file);
        out["waivers"] = std::move(ws);
    }
    if (!a.baseline_file.empty()) {
        json::array rows;
        for (const auto& r : a.baseline)
            rows.push_back(json::object{{"rule", str(r.rule)}, {"new", r.added}, {"fixed", r.fixed}, {"still_failing", r.still}});
        json::array gone;
        for (const auto& g : a.gone_cases) gone.push_back(str(g));
        out["baseline"] = json::object{{"file", str(a.baseline_file)},
                                       {"new", a.added},
                                       {"fixed", a.fixed},
                                       {"still_failing", a.still},
                                       {"fail_on_new", a.fail_on_new},
                                       {"rules", std::move(rows)},
                                       {"gone", a.gone},
                                       {"gone_cases", std::move(gone)}};
    }
    return out;
}

json::value run_json(const RunInfo& info) {
    if (info.plan.empty()) return nullptr;
    json::object run{{"profile", str(info.profile)}, {"plan", str(info.plan)}};
    if (info.shard_count > 0) {
        json::array units;
        for (std::size_t u : info.units) units.push_back(u);
        json::object shard{{"index", info.shard_index},
                           {"count", info.shard_count},
                           {"units", std::move(units)},
                           {"total_units", info.total_units}};
        if (!info.every_shard.empty()) {
            json::array every;
            for (std::size_t u : info.every_shard) every.push_back(u);
            shard["every_shard"] = std::move(every);
        }
        run["shard"] = std::move(shard);
    }
    return run;
}

std::string pretty_json(const json::value& v) {
    std::string out;
    pretty(out, v, 0);
    out += '\n';
    return out;
}

JsonReporter::JsonReporter(std::string path, ReportOptions opts)
    : CumulativeReporter(std::move(path), std::move(opts), "JSON") {}

JsonReporter::~JsonReporter() = default;

void JsonReporter::render_case(std::string& out, const CaseResult& c, std::size_t suite_index) {
    out = case_text(c, suites()[suite_index].suite.total() == 0, opts());
    tally(rules_, c);
}

void JsonReporter::write_report(AtomicFileWriter& out, const RunSummary& run) {
    const auto n = totals();
    SkipTotals causes{};
    for (const auto& e : suites())
        for (std::size_t k = 0; k < skip_cause_count; ++k) causes[k] += e.suite.skipped_streamed[k];
    // one "run" object: what merge needs (plan, shard) and what an
    // audit needs (start, end, metadata)
    json::value run_info = run_json(info());
    if (!info().metadata.empty()) {
        if (run_info.is_null()) run_info = json::object{};
        json::array meta;
        for (const auto& p : info().metadata)
            meta.push_back(json::object{{"name", str(p.name)}, {"value", str(redact_text(p.value, opts().redact_headers))}});
        auto& o = run_info.as_object();
        o["started"] = str(started_at());
        o["finished"] = str(iso8601_utc(Clock::now()));
        o["metadata"] = std::move(meta);
    }
    json::object summary = summary_json(n[0], n[1], n[2], n[3], n[4], run.seconds, rules_, causes, run.filtered_out);
    if (!run.interrupted.empty()) summary["interrupted"] = str(run.interrupted);  // the verdict is incomplete
    out.write(report_head(info().tool_version, std::move(summary), !suites().empty(), run_info));
    for (std::size_t i = 0; i < suites().size(); ++i) {
        const bool has_cases = suites()[i].suite.total() > 0;
        out.write(suite_open(suites()[i].suite, i == 0, has_cases));
        copy_cases(i, out);
        out.write(suite_close(has_cases));
    }
    const std::optional<json::object> audit = this->audit() ? std::optional(audit_json(*this->audit())) : std::nullopt;
    out.write(report_tail(!suites().empty(), audit ? &*audit : nullptr, run.notes, opts()));
}

}  // namespace idconform::reporters
