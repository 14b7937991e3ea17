// Judging an id `pattern` by what it accepts, never by its text: the pattern
// is compiled with RE2 (JSON Schema patterns are unanchored searches) and run
// against the RFC 9562 vectors of versions 4 and 7 and every negative form
// the identifier module derives from them (case, hyphens, wrappers, padding,
// other versions, other variants, other encodings), plus Nil, Max and the
// canonical text with junk around it.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace idconform::schema {

struct PatternVerdict {
    bool compiles = true;
    std::string error;                     // RE2's message when it does not
    std::set<int> versions;                // versions whose canonical RFC-variant text it accepts
    bool nil = false, max = false;         // accepts the Nil / Max UUID
    bool empty = false;                    // accepts "" (the empty string, a dummy id)
    bool wrong_variant = false;            // accepts a canonical text with a non-RFC variant
    bool unanchored = false;               // accepts the canonical text with junk before or after
    std::vector<std::string> other_forms;  // names of accepted non-canonical forms ("upper-case", ...)

    // Accepts some canonical UUID at all.
    [[nodiscard]] bool admits_uuid() const { return !versions.empty() || nil || max; }
    // Exactly the DATA-ID-002 pattern of `version` (4 or 7) by behaviour.
    [[nodiscard]] bool exact_for(int version) const;
    // "admits upper-case, no-hyphens; versions 1-8; not anchored", empty when exact for one version.
    [[nodiscard]] std::string faults() const;
};

// Judges `pattern`; results are cached per pattern text (thread-compatible,
// not thread-safe).
[[nodiscard]] const PatternVerdict& judge_pattern(const std::string& pattern);

// Whether `pattern` is exactly the canonical form of the kind of `example`
// when that is a lower-case ULID (db-identifiers) or a viewable id
// (viewable-id): it accepts the example and rejects every negative form the
// identifier module derives from it. "" when not, else "ulid" / "viewable".
[[nodiscard]] std::string other_kind_exact(const std::string& pattern, const std::string& example);

// The DATA-ID-002 pattern for version 4 or 7 (written in fixes): ids::kind_pattern's.
[[nodiscard]] std::string canonical_pattern(int version);

// The probes' base values: the RFC 9562 A.3 (v4) and A.6 (v7) vectors.
[[nodiscard]] const std::vector<std::string>& probe_bases();

}  // namespace idconform::schema
