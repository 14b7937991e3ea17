// The SARIF report of `idconform db` (sarif_report.hpp).
#include "db/sarif_report.hpp"

#include "reporters/atomic_file.hpp"
#include "core/redact.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <set>

namespace idconform::db {

namespace json = boost::json;

namespace {

std::string property(const CaseResult& c, std::string_view name) {
    for (const auto& p : c.properties)
        if (p.name == name) return p.value;
    return "";
}

// "the first failed (or warning) check: what: actual (expected ...)", else the case's message.
std::string finding_text(const CaseResult& c) {
    for (const auto& s : c.steps)
        for (const auto& ch : s.checks)
            if (!ch.ok)
                return ch.what + ": " + ch.actual + (ch.expected.empty() ? "" : " (expected " + ch.expected + ")");
    return c.message;
}

std::string_view logical_kind(std::string_view object) {
    if (object.starts_with("database ")) return "module";
    return std::count(object.begin(), object.end(), '.') >= 2 ? "column" : "table";
}

}  // namespace

void SarifReporter::case_finished(const CaseResult& c) {
    const std::string object = property(c, "object");
    if (c.outcome == Outcome::error) {
        errors_.push_back({object, redact::redact_text(c.message)});
        return;
    }
    bool warning = false;
    for (const auto& s : c.steps)
        for (const auto& ch : s.checks)
            if (!ch.ok && ch.warning) warning = true;
    const bool failed = c.outcome == Outcome::failed || c.outcome == Outcome::waived;
    if (!failed && !warning) return;
    Result r;
    r.rule = c.rules.empty() ? "db" : c.rules.front();
    r.level = failed ? "error" : "warning";
    r.object = object;
    r.message = redact::redact_text(finding_text(c));
    r.file = c.pos.file;
    r.line = c.pos.line;
    r.column = c.pos.column;
    if (c.outcome == Outcome::waived) r.suppression = c.message;
    results_.push_back(std::move(r));
}

std::string SarifReporter::document() const {
    std::set<std::string> rule_ids;
    for (const auto& r : results_) rule_ids.insert(r.rule);
    json::array rules;
    for (const auto& id : rule_ids)
        rules.push_back(json::object{{"id", id}, {"shortDescription", json::object{{"text", "idconform rule " + id}}}});
    json::array results;
    for (const auto& r : results_) {
        json::object loc{{"logicalLocations", json::array{json::object{{"fullyQualifiedName", r.object},
                                                                       {"kind", logical_kind(r.object)}}}}};
        if (!r.file.empty() && r.line > 0)
            loc["physicalLocation"] =
                json::object{{"artifactLocation", json::object{{"uri", r.file}}},
                             {"region", json::object{{"startLine", r.line}, {"startColumn", std::max(r.column, 1)}}}};
        json::object res{{"ruleId", r.rule},
                         {"level", r.level},
                         {"message", json::object{{"text", r.message}}},
                         {"locations", json::array{std::move(loc)}}};
        if (!r.suppression.empty())
            res["suppressions"] = json::array{json::object{
                {"kind", "external"}, {"status", "accepted"}, {"justification", redact::redact_text(r.suppression)}}};
        results.push_back(std::move(res));
    }
    json::array notes;
    for (const auto& e : errors_)
        notes.push_back(
            json::object{{"level", "error"},
                         {"message", json::object{{"text", (e.object.empty() ? "" : e.object + ": ") + e.message}}}});
    json::object invocation{{"executionSuccessful", errors_.empty()}, {"toolExecutionNotifications", std::move(notes)}};
    json::object run{
        {"tool",
         json::object{
             {"driver", json::object{{"name", "idconform"}, {"version", tool_version_}, {"rules", std::move(rules)}}}}},
        {"invocations", json::array{std::move(invocation)}},
        {"results", std::move(results)}};
    json::object doc{{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                     {"version", "2.1.0"},
                     {"runs", json::array{std::move(run)}}};
    return json::serialize(doc) + "\n";
}

bool SarifReporter::run_finished(const RunSummary&, std::string& error) {
    return reporters::write_file_atomic(path_, document(), "SARIF report", error);
}

}  // namespace idconform::db
