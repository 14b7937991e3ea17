// The identifier rules applied to one value found in a file or an answer:
// the shape rules of the shape-based scan (shared with the HTTP shape scan in
// runner/checks.cpp, so an id is judged the same wherever it was seen) and
// the check of a declared id field or column against its kind.
#pragma once

#include "ids/kind.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace idconform::scan {

// A broken rule for one value; `rule` is empty when the value is fine.
struct Finding {
    std::string rule;      // DATA-ID-002, DATA-ID-003, DATA-ID-007, nil-max, R4
    std::string expected;
    std::string actual;
    explicit operator bool() const noexcept { return !rule.empty(); }
};

// An id-named member or column: "id", "ID", "*_id" (also "_id"), "*Id".
[[nodiscard]] bool id_named(std::string_view key) noexcept;

// Shape rules for a string value (the HTTP shape scan's rules):
// - "" under an id-named key: a dummy id (DATA-ID-007);
// - an id-looking string that is Nil or Max: a placeholder (DATA-ID-007
//   under an id-named key, else nil-max);
// - an id-looking string that is not a canonical RFC 9562 UUID or a
//   lower-case ULID: DATA-ID-002.
// `*uuid_version` gets the version of a conforming UUID, else -1.
// The common case (a canonical UUID with the RFC variant) costs one SSE2 check.
[[nodiscard]] Finding shape_string(std::string_view s, bool id_named_key, int* uuid_version);
// Shape rule for the number 0: a dummy id under an id-named key (DATA-ID-007).
[[nodiscard]] Finding shape_zero(bool id_named_key);

// Id kinds a field can be declared as (the suite language's `id: kind`):
// ids::kind_names(), kept here for existing callers.
[[nodiscard]] const std::vector<std::string>& id_kinds();
[[nodiscard]] bool known_kind(std::string_view kind) noexcept;

// A declared id field or column: its name (JSON pointer with array indices
// written '*', or CSV column name), kind, and whether null/absent is allowed.
struct FieldSpec {
    std::string name;
    std::string kind = "uuid";
    bool nullable = false;
    ids::IdKind kind_id = ids::IdKind::uuid;  // `kind` parsed (parse_kind_spec sets both)
};
// "KIND" or "KIND,nullable"; false with `error` set when malformed.
[[nodiscard]] bool parse_kind_spec(std::string_view text, FieldSpec& out, std::string& error);
// "NAME=KIND[,nullable]" (command line form).
[[nodiscard]] bool parse_field_spec(std::string_view text, FieldSpec& out, std::string& error);
// "uuidv7" or "uuidv7 (or null/absent)": what the field must hold.
[[nodiscard]] std::string expected_text(const FieldSpec& f);

// Value of a declared field, judged by ids::judge (the one verdict): not a
// valid id of the kind is DATA-ID-002, except a v7 in a v4 field
// (DATA-ID-003) and an upper-case ULID in a ULID field (R4); "", "0", Nil or
// Max is a placeholder (DATA-ID-007).
[[nodiscard]] Finding check_declared_string(const FieldSpec& f, std::string_view s);
// A declared field that is absent or null (DATA-ID-007 unless nullable), or
// holds a non-string JSON value (`json_text`: "0", "true", "{...}").
[[nodiscard]] Finding check_declared_missing(const FieldSpec& f, bool is_null);
[[nodiscard]] Finding check_declared_non_string(const FieldSpec& f, std::string_view json_text, bool is_zero);

// Text for reports: at most `max` bytes of `s`, cut on a UTF-8 boundary, "..." appended.
[[nodiscard]] std::string excerpt(std::string_view s, std::size_t max = 200);

}  // namespace idconform::scan
