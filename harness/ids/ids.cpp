// Recognition: explains what a text meant as an identifier is, and what is
// wrong with it when it is not canonical ("upper-case form of a valid
// UUIDv7"). Also the cheap shape test used to scan every string of a response.
#include "ids/ids.hpp"
#include "ids/canonical.hpp"
#include "ids/detail.hpp"

#include <cctype>

namespace idconform::ids {

std::string_view to_string(Defect d) noexcept {
    switch (d) {
        case Defect::none: return "none";
        case Defect::empty: return "empty";
        case Defect::whitespace: return "whitespace";
        case Defect::braces: return "braces";
        case Defect::urn_prefix: return "urn_prefix";
        case Defect::upper_case: return "upper_case";
        case Defect::mixed_case: return "mixed_case";
        case Defect::no_hyphens: return "no_hyphens";
        case Defect::misplaced_hyphens: return "misplaced_hyphens";
        case Defect::wrong_length: return "wrong_length";
        case Defect::non_hex: return "non_hex";
        case Defect::unicode_lookalike: return "unicode_lookalike";
        case Defect::non_ascii: return "non_ascii";
    }
    return "unknown";
}

std::vector<std::string_view> defect_names(Defect set) {
    std::vector<std::string_view> out;
    for (std::uint32_t bit = 1; bit <= static_cast<std::uint32_t>(Defect::non_ascii); bit <<= 1)
        if (static_cast<std::uint32_t>(set) & bit) out.push_back(to_string(static_cast<Defect>(bit)));
    return out;
}

std::string_view to_string(Kind k) noexcept {
    switch (k) {
        case Kind::uuid: return "uuid";
        case Kind::ulid: return "ulid";
        case Kind::viewable: return "viewable";
        case Kind::integer: return "integer";
        case Kind::unknown: return "unknown";
    }
    return "unknown";
}

namespace {

bool is_space(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

bool istarts_with(std::string_view s, std::string_view prefix) {
    if (s.size() < prefix.size()) return false;
    for (std::size_t i = 0; i < prefix.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(s[i])) != prefix[i]) return false;
    return true;
}

// Decodes one UTF-8 sequence at s[i]; returns the code point (or -1 when
// malformed) and advances i past it.
long decode_utf8(std::string_view s, std::size_t& i) {
    const auto c0 = static_cast<unsigned char>(s[i]);
    int len = 0;
    long cp = 0;
    if (c0 >= 0xf0 && c0 <= 0xf4) { len = 4; cp = c0 & 0x07; }
    else if (c0 >= 0xe0) { len = 3; cp = c0 & 0x0f; }
    else if (c0 >= 0xc2 && c0 < 0xe0) { len = 2; cp = c0 & 0x1f; }
    else { ++i; return -1; }
    if (i + static_cast<std::size_t>(len) > s.size()) { i = s.size(); return -1; }
    for (int k = 1; k < len; ++k) {
        const auto c = static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]);
        if ((c & 0xc0) != 0x80) { ++i; return -1; }
        cp = (cp << 6) | (c & 0x3f);
    }
    i += static_cast<std::size_t>(len);
    return cp;
}

// Hex value of a Unicode look-alike of a hex digit, or -1. Full-width digits
// and letters, Cyrillic and Greek homoglyphs of a-f / A-F.
int lookalike_hex(long cp, bool& upper) {
    upper = false;
    if (cp >= 0xff10 && cp <= 0xff19) return static_cast<int>(cp - 0xff10);          // ０-９
    if (cp >= 0xff41 && cp <= 0xff46) return static_cast<int>(cp - 0xff41 + 10);     // ａ-ｆ
    if (cp >= 0xff21 && cp <= 0xff26) { upper = true; return static_cast<int>(cp - 0xff21 + 10); }  // Ａ-Ｆ
    switch (cp) {
        case 0x0430: return 0xa;                  // Cyrillic а
        case 0x0441: return 0xc;                  // Cyrillic с
        case 0x0435: return 0xe;                  // Cyrillic е
        case 0x0410: upper = true; return 0xa;    // Cyrillic А
        case 0x0412: upper = true; return 0xb;    // Cyrillic В
        case 0x0421: upper = true; return 0xc;    // Cyrillic С
        case 0x0415: upper = true; return 0xe;    // Cyrillic Е
        case 0x0391: upper = true; return 0xa;    // Greek Α
        case 0x0392: upper = true; return 0xb;    // Greek Β
        case 0x0395: upper = true; return 0xe;    // Greek Ε
        case 0x03bf: return 0x0;                  // Greek ο (looks like 0/o)
        case 0x041e: upper = true; return 0x0;    // Cyrillic О
        case 0x043e: return 0x0;                  // Cyrillic о
        default: return -1;
    }
}

// The 128 bits read, and what they say (kind, version, variant, Nil or Max).
void set_value(Recognition& r, const Uuid& u) {
    r.value = u;
    r.kind = Kind::uuid;
    r.version = version(u);
    r.variant = variant(u);
    r.special = special(u);
}

}  // namespace

Recognition recognize_uuid(std::string_view text) {
    // The common case, a canonical UUID (8-4-4-4-12 lower-case hex), in one
    // pass: what the general reading below makes of it (no defect), tested
    // equal on every version and variant.
    if (text.size() == 36 && detail::canonical36(text.data())) {
        Recognition r;
        Uuid u;
        std::size_t d = 0;
        for (std::size_t i = 0; i < 36; ++i) {
            if (i == 8 || i == 13 || i == 18 || i == 23) continue;
            const auto v = static_cast<std::uint8_t>(detail::any_hex_value[static_cast<unsigned char>(text[i])]);
            u.bytes[d / 2] = static_cast<std::uint8_t>(d % 2 == 0 ? v << 4 : u.bytes[d / 2] | v);
            ++d;
        }
        r.canonical = true;
        set_value(r, u);
        return r;
    }
    return detail::recognize_uuid_spelled(text);
}

Recognition detail::recognize_uuid_spelled(std::string_view text) {
    Recognition r;
    if (text.empty()) {
        r.defects = Defect::empty;
        return r;
    }
    std::string_view s = text;
    std::uint32_t defects = 0;
    auto add = [&defects](Defect d) { defects |= static_cast<std::uint32_t>(d); };

    while (!s.empty() && is_space(static_cast<unsigned char>(s.front()))) { s.remove_prefix(1); add(Defect::whitespace); }
    while (!s.empty() && is_space(static_cast<unsigned char>(s.back()))) { s.remove_suffix(1); add(Defect::whitespace); }
    if (istarts_with(s, "urn:uuid:")) { s.remove_prefix(9); add(Defect::urn_prefix); }
    if (s.size() >= 2 && s.front() == '{' && s.back() == '}') {
        s.remove_prefix(1);
        s.remove_suffix(1);
        add(Defect::braces);
    }

    std::array<std::uint8_t, 16> bytes{};
    std::size_t digits = 0;
    std::size_t bad = 0;
    bool saw_upper = false, saw_lower = false;
    std::uint32_t hyphen_at = 0;  // bit k set: a hyphen after k hex digits (k <= 31)
    std::size_t hyphens = 0;
    bool hyphen_out_of_range = false;
    auto push = [&](int v) {
        if (digits < 32) {
            const std::size_t b = digits / 2;
            bytes[b] = static_cast<std::uint8_t>(digits % 2 == 0 ? v << 4 : bytes[b] | v);
        }
        ++digits;
    };
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
            ++i;
            if (c == '-') {
                ++hyphens;
                if (digits < 32) hyphen_at |= 1u << digits; else hyphen_out_of_range = true;
                continue;
            }
            // The case of the text is the case of all its letters, not only
            // of its hex digits: "ABC-xyz" is mixed-case, not upper-case.
            if (c >= 'A' && c <= 'Z') saw_upper = true;
            if (c >= 'a' && c <= 'z') saw_lower = true;
            const int v = detail::any_hex_value[c];
            if (v < 0) { add(Defect::non_hex); ++bad; continue; }
            push(v);
            continue;
        }
        const long cp = decode_utf8(s, i);
        bool upper = false;
        const int v = cp < 0 ? -1 : lookalike_hex(cp, upper);
        if (v < 0) { add(Defect::non_ascii); ++bad; continue; }
        add(Defect::unicode_lookalike);
        if (v >= 10) (upper ? saw_upper : saw_lower) = true;
        push(v);
    }

    constexpr std::uint32_t canonical_hyphens = (1u << 8) | (1u << 12) | (1u << 16) | (1u << 20);
    if (digits != 32) add(Defect::wrong_length);
    if (hyphens == 0) {
        if (digits == 32 && bad == 0) add(Defect::no_hyphens);
    } else if (hyphen_at != canonical_hyphens || hyphens != 4 || hyphen_out_of_range) {
        add(Defect::misplaced_hyphens);
    }
    if (saw_upper) add(saw_lower ? Defect::mixed_case : Defect::upper_case);

    r.defects = static_cast<Defect>(defects);
    r.canonical = defects == 0;
    const bool recoverable = digits == 32 && bad == 0;
    if (recoverable) {
        Uuid u;
        u.bytes = bytes;
        set_value(r, u);
    } else if (digits + bad >= 28 && digits + bad <= 36 && digits >= 20) {
        r.kind = Kind::uuid;  // clearly meant as a UUID, but broken
    }
    return r;
}

Recognition recognize(std::string_view text) {
    Recognition r = recognize_uuid(text);
    if (r.value || text.empty()) return r;
    if (text.size() == 26) {
        const UlidParse p = parse_ulid(text, CasePolicy::any);
        if (p.value) {
            Recognition u;
            u.kind = Kind::ulid;
            bool upper = false;
            for (char c : text) upper = upper || (c >= 'A' && c <= 'Z');
            u.canonical = !upper;  // the project's wire policy: lower-case ULIDs
            u.defects = upper ? Defect::upper_case : Defect::none;
            u.value = Uuid{p.value->bytes};
            return u;
        }
    }
    if (check_viewable(text) == ViewableError::none) {
        Recognition v;
        v.kind = Kind::viewable;
        v.canonical = true;
        return v;
    }
    bool all_digits = !text.empty() && text.size() <= 40;
    for (std::size_t i = 0; i < text.size() && all_digits; ++i)
        all_digits = std::isdigit(static_cast<unsigned char>(text[i])) || (i == 0 && text[i] == '-' && text.size() > 1);
    if (all_digits) {
        Recognition n;
        n.kind = Kind::integer;
        n.canonical = false;
        return n;
    }
    return r;
}

std::string Recognition::describe() const {
    auto version_name = [this]() -> std::string {
        if (special == Special::nil) return "Nil UUID (special value, not a v4 or v7 identifier)";
        if (special == Special::max) return "Max UUID (special value, not a v4 or v7 identifier)";
        if (variant == Variant::rfc9562) {
            if (version >= 1 && version <= 8) return "valid UUIDv" + std::to_string(version);
            return "UUID with unassigned version " + std::to_string(version) + " (RFC 9562 variant)";
        }
        return "UUID with version " + std::to_string(version) + " and " + std::string(to_string(variant)) +
               " variant (not RFC 9562)";
    };
    auto defect_words = [this]() {
        std::string w;
        for (auto name : defect_names(defects)) {
            if (!w.empty()) w += ", ";
            std::string n(name);
            for (auto& c : n) if (c == '_') c = ' ';
            if (name == "upper_case") n = "upper-case";
            if (name == "mixed_case") n = "mixed-case";
            if (name == "no_hyphens") n = "hyphen-less";
            if (name == "urn_prefix") n = "urn:uuid:";
            if (name == "whitespace") n = "whitespace-padded";
            if (name == "unicode_lookalike") n = "Unicode look-alike";
            w += n;
        }
        return w;
    };
    switch (kind) {
        case Kind::uuid:
            if (!value) return "broken UUID text (" + defect_words() + ")";
            if (canonical) {
                if (special != Special::none) return version_name();
                return "canonical " + version_name();
            }
            return defect_words() + " form of a " + version_name();
        case Kind::ulid:
            return canonical ? "lower-case ULID" : "upper-case ULID (the wire form is lower-case)";
        case Kind::viewable: return "viewable id";
        case Kind::integer: return "integer, not a UUID";
        case Kind::unknown: break;
    }
    if (has(defects, Defect::empty)) return "empty text";
    return "not an identifier (" + defect_words() + ")";
}

bool id_named_field(std::string_view n) noexcept {
    auto ends = [&](std::string_view suffix) { return n.size() >= suffix.size() && n.substr(n.size() - suffix.size()) == suffix; };
    if (n == "id" || n == "ID" || n == "uuid") return true;
    if (ends("_id") || ends("Id") || ends("_uuid") || ends("Uuid") || ends("-id") || ends("-uuid")) return true;
    // Go style (orderID, ownerUUID): the capitals follow a lower-case letter
    // or a digit, so an upper-case word (PAID, VALID, ANDROID) is not one.
    for (std::string_view suffix : {std::string_view("ID"), std::string_view("UUID")})
        if (n.size() > suffix.size() && ends(suffix)) {
            const char before = n[n.size() - suffix.size() - 1];
            if ((before >= 'a' && before <= 'z') || (before >= '0' && before <= '9')) return true;
        }
    return false;
}

std::string_view id_name_stem(std::string_view n) noexcept {
    if (!id_named_field(n) || n == "id" || n == "ID" || n == "uuid") return {};
    for (std::string_view suffix : {"_uuid", "-uuid", "Uuid", "UUID", "_id", "-id", "Id", "ID"})
        if (n.size() >= suffix.size() && n.substr(n.size() - suffix.size()) == suffix)
            return n.substr(0, n.size() - suffix.size());
    return {};
}

bool out_of_scope_id_name(std::string_view n) noexcept {
    static constexpr std::string_view scoped_out[] = {"request", "correlation", "trace",      "span",
                                                      "event",   "external",    "idempotency"};
    // The longest word that can match: "idempotency" + "uuids". A longer
    // word is never out of scope, so words are lower-cased into a fixed
    // buffer (no allocation: the file scan asks this for every id-named key).
    constexpr std::size_t longest = 16;
    auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    auto is_upper = [](char c) { return c >= 'A' && c <= 'Z'; };
    auto is_lower = [](char c) { return c >= 'a' && c <= 'z'; };
    auto out = [&](std::string_view word) {
        for (std::string_view w : scoped_out) {
            if (word.size() < w.size() || word.substr(0, w.size()) != w) continue;
            const std::string_view rest = word.substr(w.size());  // requestid, eventids, traceuuid
            if (rest.empty() || rest == "s" || rest == "id" || rest == "ids" || rest == "uuid" || rest == "uuids") return true;
        }
        return false;
    };
    char word[longest];
    std::size_t len = 0;  // > longest: the word is too long to match
    for (std::size_t i = 0; i <= n.size(); ++i) {
        const char c = i < n.size() ? n[i] : '_';
        // a word ends at a separator, before an upper-case letter after a
        // lower-case one (traceId), and before the last capital of a run
        // followed by a lower-case letter (HTTPRequest -> http, request)
        const bool sep = !(is_upper(c) || is_lower(c) || (c >= '0' && c <= '9'));
        const bool camel = i > 0 && is_upper(c) && i < n.size() &&
                           (is_lower(n[i - 1]) || (is_upper(n[i - 1]) && i + 1 < n.size() && is_lower(n[i + 1])));
        if ((sep || camel) && len > 0) {
            if (len <= longest && out(std::string_view(word, len))) return true;
            len = 0;
        }
        if (!sep) {
            if (len < longest) word[len] = lower(c);
            ++len;
        }
    }
    return false;
}

bool looks_like_id(std::string_view t) noexcept {
    while (!t.empty() && is_space(static_cast<unsigned char>(t.front()))) t.remove_prefix(1);
    while (!t.empty() && is_space(static_cast<unsigned char>(t.back()))) t.remove_suffix(1);
    if (istarts_with(t, "urn:uuid:")) t.remove_prefix(9);
    if (t.size() == 38 && t.front() == '{' && t.back() == '}') t = t.substr(1, 36);
    if (t.size() == 36) {
        for (std::size_t i = 0; i < 36; ++i) {
            const auto c = static_cast<unsigned char>(t[i]);
            if (i == 8 || i == 13 || i == 18 || i == 23) {
                if (c != '-') return false;
            } else if (detail::any_hex_value[c] < 0) {
                return false;
            }
        }
        return true;
    }
    if (t.size() == 32) {
        for (char c : t)
            if (detail::any_hex_value[static_cast<unsigned char>(c)] < 0) return false;
        return true;
    }
    if (t.size() == 26) {
        bool digit = false;
        for (char c : t) {
            if (crockford_value(c) < 0) return false;
            digit = digit || (c >= '0' && c <= '9');
        }
        return digit && crockford_value(t[0]) <= 7;
    }
    return false;
}

}  // namespace idconform::ids
