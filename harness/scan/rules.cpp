// Identifier rules for one value: the shape rules and declared-field checks.
#include "scan/rules.hpp"

#include "ids/ids.hpp"

#include <algorithm>
#include <optional>

namespace idconform::scan {

namespace {

const char* const dummy_expected = "null or an omitted field for an absent id";

bool canonical_rfc_uuid(std::string_view s, int* version) noexcept {
    if (!ids::is_canonical(s)) return false;
    const char var = s[19];
    if (var != '8' && var != '9' && var != 'a' && var != 'b') return false;
    const char v = s[14];
    *version = v <= '9' ? v - '0' : v - 'a' + 10;
    return true;
}

}  // namespace

bool id_named(std::string_view key) noexcept { return ids::data_id_named(key); }

std::string excerpt(std::string_view s, std::size_t max) {
    if (s.size() <= max) return std::string(s);
    std::size_t cut = max;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xc0) == 0x80) --cut;
    return std::string(s.substr(0, cut)) + "...";
}

Finding shape_string(std::string_view s, bool id_named_key, int* uuid_version) {
    *uuid_version = -1;
    if (canonical_rfc_uuid(s, uuid_version)) return {};  // hot path: nothing else to say
    if (s.empty()) {
        if (id_named_key) return {"DATA-ID-007", dummy_expected, "\"\" (empty string as a dummy id)"};
        return {};
    }
    if (!ids::looks_like_id(s)) return {};
    const ids::Recognition r = ids::recognize(s);
    if (r.special != ids::Special::none)
        return {id_named_key ? "DATA-ID-007" : "nil-max", "a real id, or null/omitted when absent",
                "'" + std::string(s) + "': " + r.describe() + " used as a placeholder"};
    const bool uuid_ok = r.kind == ids::Kind::uuid && r.canonical && r.variant == ids::Variant::rfc9562;
    const bool ulid_ok = r.kind == ids::Kind::ulid && r.canonical;
    if (!uuid_ok && !ulid_ok)
        return {"DATA-ID-002", "ids on the wire in canonical lower-case form", "'" + std::string(s) + "': " + r.describe()};
    if (uuid_ok) *uuid_version = r.version;
    return {};
}

Finding shape_zero(bool id_named_key) {
    if (!id_named_key) return {};
    return {"DATA-ID-007", dummy_expected, "0 (a dummy id)"};
}

const std::vector<std::string>& id_kinds() { return ids::kind_names(); }

bool known_kind(std::string_view kind) noexcept { return ids::parse_kind(kind).has_value(); }

bool parse_kind_spec(std::string_view text, FieldSpec& out, std::string& error) {
    std::string_view kind = text;
    out.nullable = false;
    if (const auto comma = text.find(','); comma != std::string_view::npos) {
        const std::string_view flag = text.substr(comma + 1);
        if (flag != "nullable") {
            error = "unknown flag '" + std::string(flag) + "' after the kind (the only flag is 'nullable', e.g. uuidv7,nullable)";
            return false;
        }
        out.nullable = true;
        kind = text.substr(0, comma);
    }
    const auto parsed = ids::parse_kind(kind);
    if (!parsed) {
        error = "unknown id kind '" + std::string(kind) + "' (kinds: " + ids::kind_list() + ")";
        return false;
    }
    out.kind = std::string(kind);
    out.kind_id = *parsed;
    return true;
}

bool parse_field_spec(std::string_view text, FieldSpec& out, std::string& error) {
    const auto eq = text.rfind('=');
    if (eq == std::string_view::npos || eq == 0) {
        error = "'" + std::string(text) + "' is not NAME=KIND (examples: /id=uuidv7, owner_id=uuidv7,nullable)";
        return false;
    }
    out.name = std::string(text.substr(0, eq));
    if (!parse_kind_spec(text.substr(eq + 1), out, error)) {
        error = "'" + std::string(text) + "': " + error;
        return false;
    }
    return true;
}

std::string expected_text(const FieldSpec& f) {
    std::string s = "canonical " + f.kind;
    if (f.nullable) s += " (or null/absent)";
    return s;
}

Finding check_declared_string(const FieldSpec& f, std::string_view s) {
    // kind_id is what parse_kind_spec read; a FieldSpec built by hand may carry only `kind`.
    const std::optional<ids::IdKind> kind =
        ids::kind_name(f.kind_id) == f.kind ? std::optional<ids::IdKind>(f.kind_id) : ids::parse_kind(f.kind);
    if (!kind) return {"DATA-ID-002", expected_text(f), "unknown id kind '" + excerpt(f.kind) + "'"};
    if (ids::is_valid(s, *kind)) return {};  // one SSE2 check for a canonical UUID
    if (s.empty()) return {"DATA-ID-007", expected_text(f), "\"\" (empty string as a dummy id)"};
    if (s == "0") return {"DATA-ID-007", expected_text(f), "\"0\" (a dummy id)"};
    const ids::Recognition r = ids::recognize(s);
    const std::string shown = "'" + excerpt(s) + "': " + r.describe();
    if (r.special != ids::Special::none) return {"DATA-ID-007", expected_text(f), shown + " used as a placeholder"};
    const char* rule = "DATA-ID-002";
    if (*kind == ids::IdKind::ulid && r.kind == ids::Kind::ulid && !r.canonical) rule = "R4";
    // a v7 where policy asks for v4 leaks creation time
    if (*kind == ids::IdKind::uuidv4 && r.kind == ids::Kind::uuid && r.canonical && r.version == 7 &&
        r.variant == ids::Variant::rfc9562)
        rule = "DATA-ID-003";
    return {rule, expected_text(f), shown};
}

Finding check_declared_missing(const FieldSpec& f, bool is_null) {
    if (f.nullable) return {};
    return {"DATA-ID-007", expected_text(f).substr(0) + " (the field is required)",
            is_null ? "null" : "(absent)"};
}

Finding check_declared_non_string(const FieldSpec& f, std::string_view json_text, bool is_zero) {
    if (is_zero) return {"DATA-ID-007", expected_text(f), "0 (a dummy id)"};
    return {"DATA-ID-002", expected_text(f), excerpt(json_text) + " (not a string: ids travel as strings)"};
}

}  // namespace idconform::scan
