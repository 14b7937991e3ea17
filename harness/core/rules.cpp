// The rules' one-line statements (rules.hpp), from ../shared/RULES.md in
// the project's words.
#include "core/rules.hpp"

#include <map>

namespace idconform {

std::string_view rule_statement(std::string_view rule) {
    static const std::map<std::string_view, std::string_view> statements = {
        {"DATA-ID-001", "New technical ids are UUIDv7 with the RFC 9562 variant."},
        {"DATA-ID-002", "Ids travel as lower-case 8-4-4-4-12 hex of the field's version; bad spellings are rejected, never repaired."},
        {"DATA-ID-003", "Fields that must not reveal creation time hold UUIDv4; one field, one version."},
        {"DATA-ID-004", "Knowing an id grants nothing."},
        {"DATA-ID-005", "The v7 time is not business time (advisory)."},
        {"DATA-ID-006", "An id is assigned once, never changes, is never shared or reused."},
        {"DATA-ID-007", "Absent is null or omitted, never \"\", 0, Nil or another dummy."},
        {"nil-max", "Nil and Max are named special values, not ids."},
        {"R1", "One key kind per repository: ULIDs everywhere once anything is addressed from outside."},
        {"R2", "The application generates the id: it is known before the insert."},
        {"R3", "One module generates and parses ids."},
        {"R4", "The canonical form is lower-case (the ULID spec prints upper-case)."},
        {"R5.1", "A malformed id from a URL path or query is \"not found\"."},
        {"R5.2", "A malformed id from the application's own form is \"invalid input\"."},
        {"R6", "Detail tables may use natural keys (MAY)."},
        {"R7", "Job, batch and correlation ids come from the same module in the same form."},
        {"ULID order", "ULID order is creation order to the millisecond (informative)."},
        {"LEGACY-VERSION", "Ids are canonical UUIDv8 with the RFC variant."},
        {"LEGACY-FLAG", "The legacy flag marks migrated entities."},
        {"LEGACY-DECODE", "The id carries the legacy id and the entity type."},
        {"LEGACY-STABLE", "One legacy id, one UUID, on every call and every re-migration."},
        {"LEGACY-HASH", "The remaining bits are SHA-256(id, type, salt)."},
        {"VIEWABLE-FORMAT", "TR- and 7 upper-case Crockford symbols (configurable)."},
        {"VIEWABLE-LOOKUP", "Either id reads the same entity."},
        {"VIEWABLE-IMMUTABLE", "Fixed at create."},
        {"VIEWABLE-DISTINCT", "Unique."},
        {"VIEWABLE-RANDOM", "Not enumerable (crypto RNG)."},
        {"VIEWABLE-MALFORMED", "Malformed viewable ids are not found."},
    };
    const auto it = statements.find(rule);
    return it == statements.end() ? std::string_view() : it->second;
}

}  // namespace idconform
