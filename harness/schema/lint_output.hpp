// The machine-readable outputs of `idconform lint`: a JSON findings document
// and SARIF 2.1.0 (GitHub code scanning, GitLab), both built with Boost.JSON
// so every string is escaped by one writer.
#pragma once

#include "schema/lint.hpp"

#include <string>
#include <vector>

namespace idconform::schema {

// One linted document (or .proto path) as given on the command line.
struct LintedSpec {
    std::string path;
    LintResult result;
};

// {"tool": ..., "specs": [{"path", "format", "files", "id_fields", "errors": [...],
//  "warnings": [...], "findings": [{"rule","kind","file","line","column","pointer","message","expected"}]}],
//  "summary": {"findings": N, "by_rule": {...}}}
[[nodiscard]] std::string lint_json(const std::vector<LintedSpec>& specs, const std::string& tool_version);
// Where SARIF's links point: `lint_doc` is the absolute URI of docs/lint.md
// (each rule's `helpUri` is it plus `#<kind>`), `tool` the tool's
// `informationUri`. Either may be empty (the property is then left out).
struct SarifLinks {
    std::string lint_doc, tool;
};

// SARIF 2.1.0: one run, every finding kind a reportingDescriptor with its
// `help` (text and markdown: what it is, the fix, the rule), each finding a
// result with a physical location (uri as given, relative paths kept
// relative to %SRCROOT%) and the pointer as a logical location; errors
// reading a document are toolExecutionNotifications.
[[nodiscard]] std::string lint_sarif(const std::vector<LintedSpec>& specs, const std::string& tool_version,
                                     const SarifLinks& links = {});

}  // namespace idconform::schema
