// `idconform lint`: the identifier rules checked on a machine schema. Finds
// every id field of an OpenAPI 3.0/3.1 or Swagger 2.0 document (properties,
// path/query/header parameters, array items, by the one naming rule
// ids::id_named_field or by a uuid `format`, through `$ref`, allOf, oneOf
// and anyOf) or of .proto files, and reports what DATA-ID-002/003/007 ask of
// the schema, each finding with its file:line:col, JSON pointer and fix.
#pragma once

#include "core/diagnostic.hpp"

#include <string>
#include <vector>

namespace idconform::schema {

struct Finding {
    std::string rule;      // DATA-ID-002, DATA-ID-003, DATA-ID-007
    std::string kind;      // stable short name of what was found ("format-only", "integer-id", ...)
    SourcePos pos;         // where it is written (1-based)
    std::string pointer;   // JSON pointer into pos.file (OpenAPI) or the field's full name (.proto)
    std::string what;      // what is wrong
    std::string expected;  // the fix
    std::vector<SourcePos> also;  // the same finding for the same field elsewhere (a parameter or an inline property repeated per operation)
};

struct LintResult {
    std::vector<Finding> findings;    // in document order per file
    std::vector<Diagnostic> errors;   // the document could not be read: nothing (or not all) was linted
    std::vector<Diagnostic> warnings; // read on regardless (unresolved $ref, ...)
    std::size_t id_fields = 0;        // id fields (schema sites) examined
    std::size_t files = 0;            // files read
    std::string format;               // "OpenAPI 3.0", "Swagger 2.0", "proto", ...
};

// Lints one OpenAPI/Swagger document (YAML or JSON) and every file its
// `$ref`s reach.
[[nodiscard]] LintResult lint_openapi(const std::string& path);
// The same for a document in memory (named `name`); references to other files are not followed.
[[nodiscard]] LintResult lint_openapi_text(const std::string& name, const std::string& text);
// Lints .proto files or directories of them (recursively, in name order).
[[nodiscard]] LintResult lint_proto(const std::string& path);
// The text of one .proto file (already read; `path` names it in findings):
// what lint_proto does after the input guard, for the fuzz target.
[[nodiscard]] LintResult lint_proto_text(const std::string& text, const std::string& path);
// By the path: a directory or *.proto goes to lint_proto, anything else to lint_openapi.
[[nodiscard]] LintResult lint_path(const std::string& path);

// What a finding's `also` places are the same of: "property" (of inline
// schemas) or "parameter".
[[nodiscard]] std::string also_noun(const Finding& f);

// "file:line:col: RULE: pointer: what (expected ...)"
[[nodiscard]] std::string format_finding(const Finding& f);

// The finding kinds, each with its rule, a one-line description and what
// to do about it: SARIF's rule metadata (`help`, and `helpUri` at the kind's
// section of docs/lint.md, which a test keeps in step with this list).
struct FindingKind {
    std::string kind, rule, summary, fix;
};
[[nodiscard]] const std::vector<FindingKind>& finding_kinds();

}  // namespace idconform::schema
