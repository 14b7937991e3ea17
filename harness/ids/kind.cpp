// The id-kind vocabulary and the one verdict "valid id of kind K" (kind.hpp).
#include "ids/kind.hpp"

#include "ids/canonical.hpp"
#include "ids/detail.hpp"

namespace idconform::ids {

namespace {

struct KindInfo {
    IdKind kind;
    std::string_view name;
    int version;  // uuid_version_of
    std::string_view summary;
};

constexpr std::array<KindInfo, all_kinds.size()> kind_table = {{
    {IdKind::uuid, "uuid", 0, "an RFC 9562 UUID of any defined version (1-8), canonical lower-case, variant 10xx"},
    {IdKind::uuidv1, "uuidv1", 1, "UUIDv1 (Gregorian time, node), canonical, variant 10xx"},
    {IdKind::uuidv3, "uuidv3", 3, "UUIDv3 (MD5 name-based), canonical, variant 10xx"},
    {IdKind::uuidv4, "uuidv4", 4, "UUIDv4 (random), canonical, variant 10xx"},
    {IdKind::uuidv5, "uuidv5", 5, "UUIDv5 (SHA-1 name-based), canonical, variant 10xx"},
    {IdKind::uuidv6, "uuidv6", 6, "UUIDv6 (reordered Gregorian time), canonical, variant 10xx"},
    {IdKind::uuidv7, "uuidv7", 7, "UUIDv7 (Unix ms time), canonical, variant 10xx"},
    {IdKind::uuidv8, "uuidv8", 8, "UUIDv8 (vendor-defined), canonical, variant 10xx"},
    {IdKind::ulid, "ulid", -1, "ULID, 26 Crockford base32 chars, lower-case"},
    {IdKind::viewable, "viewable", -1, "viewable id, prefix + upper-case Crockford symbols (default TR-XXXXXXX)"},
    {IdKind::uuidv8_legacy, "uuidv8-legacy", 8, "UUIDv8 in the legacy layout with the legacy flag set"},
    {IdKind::existing, "existing", -1,
     "an id in a format kept from before the UUID rules (integers, nanoid): any text but \"\", \"0\", Nil and Max"},
    {IdKind::any, "any", -1, "any non-empty text (presence, equality, uniqueness)"},
}};
static_assert([] {
    for (std::size_t i = 0; i < kind_table.size(); ++i)
        if (static_cast<std::size_t>(kind_table[i].kind) != i || all_kinds[i] != kind_table[i].kind) return false;
    return true;
}(), "kind_table and all_kinds follow the enum's order");

const KindInfo& info(IdKind k) noexcept { return kind_table[static_cast<std::size_t>(k)]; }

std::string quoted(std::string_view s) {
    constexpr std::size_t max = 80;
    std::string out = "'";
    if (s.size() <= max) {
        out += s;
    } else {
        std::size_t cut = max;
        while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xc0) == 0x80) --cut;
        out.append(s.substr(0, cut)).append("...");
    }
    return out + "'";
}

// The reasons for the form of a UUID text (one per defect recognize() found).
void form_reasons(const Recognition& r, std::vector<Reason>& out) {
    struct Text {
        Defect defect;
        const char* code;
        const char* text;
    };
    static constexpr Text texts[] = {
        {Defect::empty, "empty", "the text is empty"},
        {Defect::whitespace, "whitespace", "leading or trailing whitespace (recipients must not trim ids)"},
        {Defect::braces, "braces", "wrapped in {braces}; the wire form is the bare 8-4-4-4-12 text"},
        {Defect::urn_prefix, "urn-prefix", "has a urn:uuid: prefix; the wire form is the bare 8-4-4-4-12 text"},
        {Defect::upper_case, "upper-case", "upper-case hex; the canonical text is lower-case"},
        {Defect::mixed_case, "mixed-case", "mixed-case hex; the canonical text is lower-case"},
        {Defect::no_hyphens, "no-hyphens", "32 hex digits without hyphens; the canonical text is 8-4-4-4-12"},
        {Defect::misplaced_hyphens, "misplaced-hyphens", "hyphens not at 8-4-4-4-12 positions"},
        {Defect::wrong_length, "wrong-length", "not 32 hex digits (a canonical UUID has 36 chars)"},
        {Defect::non_hex, "non-hex", "a character that is not a hex digit or a hyphen"},
        {Defect::unicode_lookalike, "unicode-lookalike", "a Unicode look-alike of a hex digit (full-width, Cyrillic, Greek)"},
        {Defect::non_ascii, "non-ascii", "non-ASCII bytes"},
    };
    for (const auto& t : texts)
        if (has(r.defects, t.defect)) out.push_back({t.code, t.text});
}

std::string_view variant_bits(Variant v) noexcept {
    switch (v) {
        case Variant::ncs: return "0xxx";
        case Variant::rfc9562: return "10xx";
        case Variant::microsoft: return "110x";
        case Variant::reserved: return "111x";
    }
    return "?";
}

// Version, variant and Nil/Max of a UUID value (form already judged).
void value_reasons(const Recognition& r, IdKind kind, const JudgeOptions& o, std::vector<Reason>& out) {
    if (r.special == Special::nil) {
        out.push_back({"nil", "the Nil UUID is a named special value, not an id (nil-max, DATA-ID-007)"});
        return;
    }
    if (r.special == Special::max) {
        out.push_back({"max", "the Max UUID is a named special value, not an id (nil-max, DATA-ID-007)"});
        return;
    }
    if (r.variant != Variant::rfc9562)
        out.push_back({"variant", std::string(to_string(r.variant)) + " variant (" + std::string(variant_bits(r.variant)) +
                                      "); RFC 9562 ids have variant 10xx (text index 19 is 8, 9, a or b)"});
    const int want = uuid_version_of(kind);
    if (r.version < 1 || r.version > 8)
        out.push_back({"version-undefined", "version " + std::to_string(r.version) +
                                                " is not one RFC 9562 defines (1-8); text index 14 holds the version"});
    else if (want > 0 && r.version != want)
        out.push_back({"version", "version " + std::to_string(r.version) + ", but " + std::string(kind_name(kind)) +
                                      " is version " + std::to_string(want)});
    if (kind == IdKind::uuidv8_legacy && r.version == 8 && r.variant == Variant::rfc9562 && r.value &&
        !decode_legacy(*r.value, o.legacy).legacy_flag)
        out.push_back({"legacy-flag", "the legacy flag (bit " + std::to_string(o.legacy.flag_bit) +
                                          ") is 0: a new-entity UUIDv8, not a migrated legacy id"});
}

// What the text is instead, when it is not the kind asked for.
std::string what_it_is(const Recognition& r) {
    switch (r.kind) {
        case Kind::uuid: return r.value ? "a UUID" : "broken UUID text";
        case Kind::ulid: return "a ULID";
        case Kind::viewable: return "a viewable id";
        case Kind::integer: return "an integer";
        case Kind::unknown: break;
    }
    return "not an identifier";
}

void judge_uuid(std::string_view text, IdKind kind, const JudgeOptions& o, std::vector<Reason>& out) {
    const Recognition r = recognize(text);
    if (r.kind != Kind::uuid) {
        if (r.kind == Kind::unknown && has(r.defects, Defect::empty)) {
            out.push_back({"empty", "the text is empty"});
            return;
        }
        out.push_back({"not-a-uuid", quoted(text) + " is " + what_it_is(r) + ", not a UUID"});
        return;
    }
    if (!r.value) {  // meant as a UUID, not readable as one
        form_reasons(r, out);
        return;
    }
    if (o.canonical) form_reasons(r, out);
    value_reasons(r, kind, o, out);
}

void judge_ulid(std::string_view text, const JudgeOptions& o, std::vector<Reason>& out) {
    if (text.empty()) {
        out.push_back({"empty", "the text is empty"});
        return;
    }
    const UlidParse p = parse_ulid(text, CasePolicy::any);
    switch (p.error) {
        case UlidError::none: break;
        case UlidError::wrong_length: {
            const Recognition r = recognize(text);
            if (r.kind == Kind::uuid || r.kind == Kind::integer || r.kind == Kind::viewable)
                out.push_back({"not-a-ulid", quoted(text) + " is " + what_it_is(r) + ", not a ULID"});
            else
                out.push_back({"wrong-length", std::to_string(text.size()) + " chars; a ULID has 26"});
            return;
        }
        case UlidError::bad_char:
            out.push_back({"bad-char", "char " + std::to_string(p.position + 1) +
                                           " is not Crockford base32 (0-9 a-z without i l o u)"});
            return;
        case UlidError::overflow:
            out.push_back({"overflow", "the first char is above 7: the value does not fit 128 bits"});
            return;
        case UlidError::wrong_case: break;  // not produced with CasePolicy::any
    }
    if (!o.canonical) return;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] >= 'A' && text[i] <= 'Z') {
            out.push_back({"upper-case", "upper-case at char " + std::to_string(i + 1) +
                                             "; ULIDs travel lower-case (db-identifiers R4)"});
            return;
        }
    }
}

void judge_viewable(std::string_view text, const JudgeOptions& o, std::vector<Reason>& out) {
    const ViewableFormat& f = o.viewable;
    switch (check_viewable(text, f)) {
        case ViewableError::none: return;
        case ViewableError::wrong_prefix: {
            const Recognition r = recognize(text);
            if (r.kind == Kind::uuid || r.kind == Kind::ulid || r.kind == Kind::integer)
                out.push_back({"not-a-viewable-id", quoted(text) + " is " + what_it_is(r) + ", not a viewable id"});
            else
                out.push_back({"wrong-prefix", "does not start with the prefix '" + f.prefix + "'"});
            return;
        }
        case ViewableError::wrong_length:
            out.push_back({"wrong-length", std::to_string(text.size() - std::min(text.size(), f.prefix.size())) +
                                               " symbols after the prefix; the format has " + std::to_string(f.length)});
            return;
        case ViewableError::lower_case:
            out.push_back({"lower-case", "lower-case symbols; viewable ids are upper-case"});
            return;
        case ViewableError::excluded_letter:
            out.push_back({"excluded-letter", "holds I, L, O or U, which Crockford base32 excludes"});
            return;
        case ViewableError::bad_char:
            out.push_back({"bad-char", "a symbol that is not Crockford base32"});
            return;
    }
}

// Canonical text of a UUID kind, judged from its bytes: the SSE2 form test,
// then the version nibble (index 14) and the variant char (index 19).
bool canonical_uuid_valid(std::string_view s, IdKind kind, const JudgeOptions& o) noexcept {
    if (s.size() != 36 || !detail::canonical36(s.data())) return false;
    const char var = s[19];
    if (var != '8' && var != '9' && var != 'a' && var != 'b') return false;  // also rules out Nil and Max
    const char v = s[14];
    if (v < '1' || v > '8') return false;
    const int want = uuid_version_of(kind);
    if (want > 0 && v - '0' != want) return false;
    if (kind == IdKind::uuidv8_legacy) {
        const auto u = parse_canonical(s);
        return u && decode_legacy(*u, o.legacy).legacy_flag;
    }
    return true;
}

}  // namespace

std::string_view kind_name(IdKind k) noexcept { return info(k).name; }

std::optional<IdKind> parse_kind(std::string_view name) noexcept {
    for (const auto& i : kind_table)
        if (i.name == name) return i.kind;
    return std::nullopt;
}

const std::vector<std::string>& kind_names() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> v;
        for (const auto& i : kind_table) v.emplace_back(i.name);
        return v;
    }();
    return names;
}

const std::string& kind_list() {
    static const std::string list = [] {
        std::string s;
        for (const auto& n : kind_names()) s += (s.empty() ? "" : ", ") + n;
        return s;
    }();
    return list;
}

std::string_view kind_summary(IdKind k) noexcept { return info(k).summary; }

int uuid_version_of(IdKind k) noexcept { return info(k).version; }

std::string Verdict::summary() const {
    if (valid) return "valid " + std::string(kind_name(kind));
    std::string s = "not a valid " + std::string(kind_name(kind)) + ": ";
    for (std::size_t i = 0; i < reasons.size(); ++i) s += (i ? "; " : "") + reasons[i].text;
    return s;
}

// The kinds without a format: only the absent-value dummies (DATA-ID-007) are
// not ids of an existing format; `any` wants just some text.
static void judge_unformatted(std::string_view text, IdKind kind, std::vector<Reason>& out) {
    if (text.empty()) {
        out.push_back({"empty", "the text is empty"});
        return;
    }
    if (kind == IdKind::any) return;
    if (text == "0") {
        out.push_back({"zero", "0 is an absent-value dummy, not an id (DATA-ID-007)"});
        return;
    }
    const Recognition r = recognize_uuid(text);
    if (r.special == Special::nil)
        out.push_back({"nil", "the Nil UUID is a named special value, not an id (nil-max, DATA-ID-007)"});
    else if (r.special == Special::max)
        out.push_back({"max", "the Max UUID is a named special value, not an id (nil-max, DATA-ID-007)"});
}

Verdict judge(std::string_view text, IdKind kind, const JudgeOptions& options) {
    Verdict v;
    v.kind = kind;
    if (!has_format(kind)) judge_unformatted(text, kind, v.reasons);
    else if (kind == IdKind::ulid) judge_ulid(text, options, v.reasons);
    else if (kind == IdKind::viewable) judge_viewable(text, options, v.reasons);
    else judge_uuid(text, kind, options, v.reasons);
    v.valid = v.reasons.empty();
    return v;
}

bool is_valid(std::string_view text, IdKind kind, const JudgeOptions& options) {
    if (is_uuid_kind(kind) && canonical_uuid_valid(text, kind, options)) return true;
    return judge(text, kind, options).valid;
}

std::string kind_pattern(IdKind k, const ViewableFormat& viewable) {
    if (!has_format(k)) return "^.+$";
    if (k == IdKind::ulid) return "^[0-7][0-9a-hjkmnp-tv-z]{25}$";
    if (k == IdKind::viewable) return viewable_pattern(viewable);
    const int v = uuid_version_of(k);
    const std::string version = v > 0 ? std::to_string(v) : "[1-8]";
    return "^[0-9a-f]{8}-[0-9a-f]{4}-" + version + "[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$";
}

}  // namespace idconform::ids
