// JSON and SARIF outputs of the lint. See lint_output.hpp.
#include "schema/lint_output.hpp"

#include "core/strings.hpp"

#include <boost/json.hpp>

#include <map>

namespace idconform::schema {

namespace json = boost::json;

namespace {

json::object diag_json(const Diagnostic& d) {
    return json::object{{"file", d.pos.file}, {"line", d.pos.line}, {"column", d.pos.column}, {"message", d.title}, {"hint", d.hint}};
}

// A rule's help, as GitHub code scanning shows it beside an alert.
json::object rule_help(const FindingKind& k, const std::string& help_uri) {
    std::string md = "**" + k.rule + "** (`" + k.kind + "`): " + k.summary + "\n\n**Fix:** " + k.fix;
    if (!help_uri.empty()) md += "\n\n[More about `" + k.kind + "`](" + help_uri + ")";
    return json::object{{"text", k.summary + " Fix: " + k.fix}, {"markdown", std::move(md)}};
}

}  // namespace

std::string lint_json(const std::vector<LintedSpec>& specs, const std::string& tool_version) {
    json::array arr;
    std::map<std::string, std::size_t> by_rule;
    std::size_t total = 0;
    for (const auto& s : specs) {
        json::array findings, errors, warnings;
        for (const auto& f : s.result.findings) {
            json::array also;
            for (const auto& a : f.also) also.push_back(json::object{{"file", a.file}, {"line", a.line}, {"column", a.column}});
            findings.push_back(json::object{{"rule", f.rule},          {"kind", f.kind},         {"file", f.pos.file},
                                            {"line", f.pos.line},      {"column", f.pos.column}, {"pointer", f.pointer},
                                            {"message", f.what},       {"expected", f.expected}, {"also", std::move(also)}});
            ++by_rule[f.rule];
            ++total;
        }
        for (const auto& d : s.result.errors) errors.push_back(diag_json(d));
        for (const auto& d : s.result.warnings) warnings.push_back(diag_json(d));
        arr.push_back(json::object{{"path", s.path},
                                   {"format", s.result.format},
                                   {"files", s.result.files},
                                   {"id_fields", s.result.id_fields},
                                   {"errors", std::move(errors)},
                                   {"warnings", std::move(warnings)},
                                   {"findings", std::move(findings)}});
    }
    json::object rules;
    for (const auto& [r, n] : by_rule) rules[r] = n;
    json::object doc{{"tool", json::object{{"name", "idconform lint"}, {"version", tool_version}}},
                     {"specs", std::move(arr)},
                     {"summary", json::object{{"findings", total}, {"by_rule", std::move(rules)}}}};
    return json::serialize(doc) + "\n";
}

std::string lint_sarif(const std::vector<LintedSpec>& specs, const std::string& tool_version, const SarifLinks& links) {
    json::array rules;
    std::map<std::string, std::size_t> index;
    for (const auto& k : finding_kinds()) {
        index[k.kind] = rules.size();
        const std::string help_uri = links.lint_doc.empty() ? "" : links.lint_doc + "#" + k.kind;
        json::object rule{{"id", k.rule + "/" + k.kind},
                          {"name", k.kind},
                          {"shortDescription", json::object{{"text", k.summary}}},
                          {"fullDescription", json::object{{"text", k.rule + ": " + k.summary}}},
                          {"help", rule_help(k, help_uri)},
                          {"defaultConfiguration", json::object{{"level", "error"}}},
                          {"properties", json::object{{"tags", json::array{"identifiers", k.rule}}}}};
        if (!help_uri.empty()) rule["helpUri"] = help_uri;
        rules.push_back(std::move(rule));
    }
    json::array results, notes;
    bool ok = true;
    for (const auto& s : specs) {
        for (const auto& f : s.result.findings) {
            json::object region{{"startLine", std::max(f.pos.line, 1)}, {"startColumn", std::max(f.pos.column, 1)}};
            json::object phys{{"artifactLocation", json::object{{"uri", file_uri(f.pos.file)}}}, {"region", std::move(region)}};
            if (!f.pos.file.empty() && f.pos.file[0] != '/') phys["artifactLocation"].as_object()["uriBaseId"] = "%SRCROOT%";
            json::object result{{"ruleId", f.rule + "/" + f.kind},
                                {"level", "error"},
                                {"message", json::object{{"text", f.what + (f.expected.empty() ? "" : " (expected " + f.expected + ")")}}},
                                {"locations", json::array{json::object{
                                                  {"physicalLocation", std::move(phys)},
                                                  {"logicalLocations", json::array{json::object{{"fullyQualifiedName", f.pointer.empty() ? "/" : f.pointer}}}}}}}};
            if (const auto it = index.find(f.kind); it != index.end()) result["ruleIndex"] = it->second;
            if (!f.also.empty()) {
                json::array related;
                for (const auto& a : f.also) {
                    json::object loc{{"physicalLocation",
                                      json::object{{"artifactLocation", json::object{{"uri", file_uri(a.file)}}},
                                                   {"region", json::object{{"startLine", std::max(a.line, 1)},
                                                                           {"startColumn", std::max(a.column, 1)}}}}},
                                     {"message", json::object{{"text", "the same " + also_noun(f)}}}};
                    if (!a.file.empty() && a.file[0] != '/')
                        loc["physicalLocation"].as_object()["artifactLocation"].as_object()["uriBaseId"] = "%SRCROOT%";
                    related.push_back(std::move(loc));
                }
                result["relatedLocations"] = std::move(related);
            }
            results.push_back(std::move(result));
        }
        for (const auto& d : s.result.errors) {
            ok = false;
            json::object region{{"startLine", std::max(d.pos.line, 1)}, {"startColumn", std::max(d.pos.column, 1)}};
            json::object phys{{"artifactLocation", json::object{{"uri", file_uri(d.pos.file)}}}, {"region", std::move(region)}};
            json::object loc{{"physicalLocation", std::move(phys)}};
            json::object note{{"level", "error"},
                              {"message", json::object{{"text", d.title + (d.hint.empty() ? "" : " (" + d.hint + ")")}}}};
            note["locations"] = json::array{std::move(loc)};
            notes.push_back(std::move(note));
        }
        for (const auto& d : s.result.warnings)
            notes.push_back(json::object{{"level", "warning"},
                                         {"message", json::object{{"text", d.pos.str() + ": " + d.title}}}});
    }
    json::object driver{{"name", "idconform"},
                        {"version", tool_version},
                        {"rules", std::move(rules)}};
    if (!links.tool.empty()) driver["informationUri"] = links.tool;
    json::object run{{"tool", json::object{{"driver", std::move(driver)}}},
                     {"invocations", json::array{json::object{{"executionSuccessful", ok},
                                                              {"toolExecutionNotifications", std::move(notes)}}}},
                     {"columnKind", "unicodeCodePoints"},
                     {"results", std::move(results)}};
    json::object doc{{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                     {"version", "2.1.0"},
                     {"runs", json::array{std::move(run)}}};
    return json::serialize(doc) + "\n";
}

}  // namespace idconform::schema
