// The shared id vocabulary: the one enum of id kinds the suite language, the
// profiles, `scan --field` and `inspect --kind` know, with its names, and the
// one verdict "is this text a valid id of kind K" with the reasons when it is
// not. Every place that asks that question (packs, scan, lint, inspect) calls
// judge()/is_valid(); nobody keeps a second list of kinds or a second rule.
#pragma once

#include "ids/ids.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace idconform::ids {

// Every kind, in the order the suite language documents them.
enum class IdKind : std::uint8_t {
    uuid,           // any RFC 9562 UUID: canonical, variant 10xx, a version RFC 9562 defines (1-8)
    uuidv1,
    uuidv3,
    uuidv4,
    uuidv5,
    uuidv6,
    uuidv7,
    uuidv8,
    ulid,           // 26 Crockford base32 chars, lower-case on the wire (db-identifiers R4)
    viewable,       // prefix + Crockford symbols, upper-case (viewable-id; default TR-XXXXXXX)
    uuidv8_legacy,  // a uuidv8 in the legacy layout whose legacy flag is set (uuidv8-legacy pack)
    // Kinds without a format of their own:
    existing,       // a format kept from before the UUID rules (integers, nanoid; DATA-ID-001's
                    // exception): any text but the dummies DATA-ID-007 names ("", "0", Nil, Max)
    any,            // any non-empty text: checks of presence, equality or uniqueness only
};

inline constexpr std::array<IdKind, 13> all_kinds = {
    IdKind::uuid,   IdKind::uuidv1, IdKind::uuidv3, IdKind::uuidv4,   IdKind::uuidv5,        IdKind::uuidv6,  IdKind::uuidv7,
    IdKind::uuidv8, IdKind::ulid,   IdKind::viewable, IdKind::uuidv8_legacy, IdKind::existing, IdKind::any};

// The name written in suites, profiles and on the command line: "uuidv7",
// "uuidv8-legacy".
[[nodiscard]] std::string_view kind_name(IdKind k) noexcept;
// Exact, case-sensitive (suites are case-sensitive everywhere); nullopt for
// an unknown name. Callers offer did_you_mean(word, kind_names()).
[[nodiscard]] std::optional<IdKind> parse_kind(std::string_view name) noexcept;
// Every name, in all_kinds order: candidates for did_you_mean and hints.
[[nodiscard]] const std::vector<std::string>& kind_names();
// "uuid, uuidv1, ..., uuidv8-legacy" for messages and --help.
[[nodiscard]] const std::string& kind_list();
// One line saying what the kind demands, for --help and reports.
[[nodiscard]] std::string_view kind_summary(IdKind k) noexcept;

// The UUID version a kind fixes: 1..8; 0 for `uuid` (any version RFC 9562
// defines); -1 for kinds that are not UUIDs (ulid, viewable).
[[nodiscard]] int uuid_version_of(IdKind k) noexcept;
[[nodiscard]] inline bool is_uuid_kind(IdKind k) noexcept { return uuid_version_of(k) >= 0; }
// false for `existing` and `any`: kinds that fix no format (no pattern, no
// mutations of their own; a profile or suite may add an RE2 `pattern`).
[[nodiscard]] inline bool has_format(IdKind k) noexcept { return k != IdKind::existing && k != IdKind::any; }

// ------------------------------------------------------------------ verdict

// One reason a text is not a valid id of a kind. `code` is stable (reports
// and JSON consumers may switch on it); `text` explains it to a person.
//   form:     empty, not-an-id, upper-case, mixed-case, no-hyphens, braces,
//             urn-prefix, whitespace, misplaced-hyphens, wrong-length,
//             non-hex, unicode-lookalike, non-ascii
//   UUID:     nil, max, variant, version-undefined, version, legacy-flag
//   kind:     not-a-uuid, not-a-ulid, not-a-viewable-id
//   ULID:     bad-char, overflow (plus upper-case, wrong-length)
//   viewable: wrong-prefix, lower-case, excluded-letter (plus bad-char, wrong-length)
//   existing: empty, zero, nil, max;  any: empty
struct Reason {
    std::string code;
    std::string text;
    friend bool operator==(const Reason&, const Reason&) = default;
};

struct JudgeOptions {
    // false = the suite's `canonical: false`: any spelling recognize() can
    // read back to 128 bits passes the form test (version, variant and
    // Nil/Max still count). ULIDs then pass in upper case too.
    bool canonical = true;
    ViewableFormat viewable{};  // a profile's viewable format
    LegacyLayout legacy{};      // a profile's legacy layout (where the flag bit is)
};

struct Verdict {
    IdKind kind = IdKind::uuid;
    bool valid = false;
    std::vector<Reason> reasons;  // empty exactly when valid
    [[nodiscard]] explicit operator bool() const noexcept { return valid; }
    // "not a valid uuidv7: upper-case letters (...); version 4 ..." or "valid uuidv7".
    [[nodiscard]] std::string summary() const;
};

// The verdict by the rules (docs/rules.md):
// - UUID kinds (DATA-ID-002): canonical text (36 chars, lower-case hex,
//   8-4-4-4-12), RFC 9562 variant (10xx: text index 19 is 8, 9, a or b) and a
//   version RFC 9562 defines (1-8; `uuidvN` wants exactly N). Nil and Max are
//   named special values and never valid ids of any kind (nil-max): they get
//   the reason nil/max alone, not their version and variant as well.
// - uuidv8-legacy: a valid uuidv8 whose legacy flag (layout.flag_bit) is 1.
//   The rules' layout says "flag: 1 = legacy id, 0 = new entity": an id
//   with the flag clear is a valid uuidv8 but not a legacy id.
// - ulid: 26 Crockford base32 symbols (no I L O U), first at most 7, and
//   lower-case (the db-identifiers pack's wire form, R4).
// - viewable: check_viewable() with the configured format.
// - existing: any text but "", "0" and the Nil/Max UUID in any spelling.
// - any: any non-empty text.
[[nodiscard]] Verdict judge(std::string_view text, IdKind kind, const JudgeOptions& options = {});
// judge(...).valid, without building reasons; canonical UUIDs of a UUID kind
// (the common case of every scan) cost one SSE2 check and two byte tests.
[[nodiscard]] bool is_valid(std::string_view text, IdKind kind, const JudgeOptions& options = {});

// The RE2 pattern a machine contract (OpenAPI/JSON Schema) should use for a
// kind, e.g. ^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$
// for uuidv7 (DATA-ID-002). For uuidv8-legacy it is uuidv8's (the flag bit
// position depends on the layout and is not a pattern's business). For the
// kinds without a format (has_format false) it is "^.+$".
[[nodiscard]] std::string kind_pattern(IdKind k, const ViewableFormat& viewable = {});

}  // namespace idconform::ids
