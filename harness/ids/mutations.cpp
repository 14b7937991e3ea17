// Negative forms derived from one valid id. Names are stable: they become
// JUnit testcase names and appear in reports, so never rename one.
#include "ids/ids.hpp"
#include "ids/detail.hpp"

namespace idconform::ids {

namespace {

std::string base32_rfc4648(const std::uint8_t* data, std::size_t n) {
    static constexpr char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    std::string out;
    const int bits = static_cast<int>(n * 8);
    for (int pos = 0; pos < bits; pos += 5) {
        const int take = std::min(5, bits - pos);
        const auto v = static_cast<int>(detail::get_bits(data, pos, take) << (5 - take));
        out += alphabet[v];
    }
    return out;  // no '=' padding
}

std::string base64(const std::uint8_t* data, std::size_t n, bool url) {
    const char* alphabet = url ? "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
                               : "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    std::size_t i = 0;
    for (; i + 3 <= n; i += 3) {
        const unsigned v = (static_cast<unsigned>(data[i]) << 16) | (static_cast<unsigned>(data[i + 1]) << 8) | data[i + 2];
        for (int k = 18; k >= 0; k -= 6) out += alphabet[(v >> k) & 63];
    }
    if (n - i == 1) {
        const unsigned v = static_cast<unsigned>(data[i]) << 16;
        out += alphabet[(v >> 18) & 63];
        out += alphabet[(v >> 12) & 63];
        if (!url) out += "==";
    } else if (n - i == 2) {
        const unsigned v = (static_cast<unsigned>(data[i]) << 16) | (static_cast<unsigned>(data[i + 1]) << 8);
        out += alphabet[(v >> 18) & 63];
        out += alphabet[(v >> 12) & 63];
        out += alphabet[(v >> 6) & 63];
        if (!url) out += '=';
    }
    return out;
}

std::string decimal(std::array<std::uint8_t, 16> n) {
    std::string digits;
    bool zero = false;
    while (!zero) {
        unsigned rem = 0;
        zero = true;
        for (auto& b : n) {  // n /= 10, rem = n % 10
            const unsigned cur = (rem << 8) | b;
            b = static_cast<std::uint8_t>(cur / 10);
            rem = cur % 10;
            zero = zero && b == 0;
        }
        digits.insert(digits.begin(), static_cast<char>('0' + rem));
    }
    return digits;
}

std::string with_version(const Uuid& u, int v) {
    Uuid m = u;
    m.bytes[6] = static_cast<std::uint8_t>((m.bytes[6] & 0x0f) | (v << 4));
    return format(m);
}

std::string with_variant_bits(const Uuid& u, std::uint8_t top, std::uint8_t mask) {
    Uuid m = u;
    m.bytes[8] = static_cast<std::uint8_t>((m.bytes[8] & ~mask) | top);
    return format(m);
}

}  // namespace

std::vector<Mutation> mutations(const Uuid& u) {
    const std::string s = format(u);
    std::vector<Mutation> out;
    auto add = [&out](std::string name, std::string text, std::string breaks) {
        out.push_back({std::move(name), std::move(text), std::move(breaks)});
    };

    std::size_t letters = 0;
    for (char c : s) letters += (c >= 'a' && c <= 'f');
    if (letters > 0) {
        std::string upper = s;
        for (auto& c : upper) if (c >= 'a' && c <= 'f') c = static_cast<char>(c - 'a' + 'A');
        add("upper-case", upper, "case: the wire form is lower-case hex");
        std::string mixed = s;
        std::size_t k = 0;
        for (auto& c : mixed)
            if (c >= 'a' && c <= 'f' && (k++ % 2 == 0)) c = static_cast<char>(c - 'a' + 'A');
        if (mixed != upper)
            add("mixed-case", mixed, "case: some hex letters upper-case");
    }
    std::string nohyph;
    for (char c : s) if (c != '-') nohyph += c;
    add("no-hyphens", nohyph, "form: 32 hex digits without the 8-4-4-4-12 hyphens");
    add("misplaced-hyphens", nohyph.substr(0, 7) + "-" + nohyph.substr(7, 5) + "-" + nohyph.substr(12, 4) + "-" +
                                 nohyph.substr(16, 4) + "-" + nohyph.substr(20),
        "form: hyphens not at 8-4-4-4-12");
    add("braces", "{" + s + "}", "form: Microsoft registry braces around the id");
    add("urn-uuid", "urn:uuid:" + s, "form: urn:uuid: prefix");
    add("padded-spaces", " " + s + " ", "form: surrounding whitespace");
    add("trailing-newline", s + "\n", "form: trailing newline");
    add("one-char-short", s.substr(0, 35), "length: 35 characters");
    add("one-char-long", s + "0", "length: 37 characters");
    {
        std::string t = s;
        t[24] = 'g';
        add("non-hex-char", t, "alphabet: 'g' is not a hex digit");
    }
    {
        std::string t;
        bool done = false;
        for (char c : s) {
            if (!done && c >= '0' && c <= '9') {
                // U+FF10 + digit as UTF-8: EF BC 90+d
                t += "\xEF\xBC";
                t += static_cast<char>(0x90 + (c - '0'));
                done = true;
            } else {
                t += c;
            }
        }
        if (done) add("fullwidth-digit", t, "alphabet: a full-width Unicode digit looks like ASCII but is not");
    }
    {
        const auto pos = s.find_first_of("ace");
        if (pos != std::string::npos) {
            const char* cyr = s[pos] == 'a' ? "\xD0\xB0" : s[pos] == 'c' ? "\xD1\x81" : "\xD0\xB5";
            add("cyrillic-letter", s.substr(0, pos) + cyr + s.substr(pos + 1),
                "alphabet: a Cyrillic letter that looks like a hex letter");
        }
    }
    const int v = version(u);
    for (int other = 0; other < 16; ++other) {
        if (other == v) continue;
        add("version-" + std::to_string(other), with_version(u, other),
            "version: nibble " + std::to_string(other) + " instead of " + std::to_string(v));
    }
    if (variant(u) != Variant::ncs)
        add("variant-ncs", with_variant_bits(u, 0x00, 0x80), "variant: NCS (0xxx) instead of RFC 9562 (10xx)");
    if (variant(u) != Variant::microsoft)
        add("variant-microsoft", with_variant_bits(u, 0xc0, 0xe0), "variant: Microsoft (110x) instead of RFC 9562 (10xx)");
    if (variant(u) != Variant::reserved)
        add("variant-reserved", with_variant_bits(u, 0xe0, 0xe0), "variant: reserved (111x) instead of RFC 9562 (10xx)");
    add("base32", base32_rfc4648(u.bytes.data(), 16), "encoding: RFC 4648 base32 of the 16 bytes");
    {
        std::string c = crockford_encode(u.bytes.data(), 16);
        for (auto& ch : c) if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
        add("crockford-base32", c, "encoding: Crockford base32 (ULID-style) of the 16 bytes");
    }
    add("base64", base64(u.bytes.data(), 16, false), "encoding: base64 of the 16 bytes");
    add("base64url", base64(u.bytes.data(), 16, true), "encoding: base64url of the 16 bytes");
    add("decimal-integer", decimal(u.bytes), "encoding: the 128 bits as a decimal integer");
    return out;
}

std::vector<Mutation> ulid_mutations(const Ulid& u) {
    const std::string s = format_ulid(u, true);
    std::vector<Mutation> out;
    std::string upper = s;
    for (auto& c : upper) if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    if (upper != s) out.push_back({"upper-case", upper, "case: the wire form is lower-case"});
    out.push_back({"one-char-short", s.substr(0, 25), "length: 25 characters"});
    out.push_back({"one-char-long", s + "0", "length: 27 characters"});
    std::string overflow = s;
    overflow[0] = '8';
    out.push_back({"overflow", std::move(overflow), "range: first char above 7 exceeds 128 bits"});
    for (char bad : {'i', 'l', 'o', 'u'}) {
        std::string t = s;
        t[10] = bad;
        out.push_back({std::string("excluded-letter-") + bad, t, "alphabet: Crockford base32 excludes I L O U"});
    }
    out.push_back({"uuid-form", format(Uuid{u.bytes}), "form: the 16 bytes printed as a UUID"});
    return out;
}

std::optional<ViewableFormat> infer_viewable_format(std::string_view text) {
    const std::size_t dash = text.rfind('-');
    if (dash == std::string_view::npos || dash + 1 >= text.size()) return std::nullopt;
    ViewableFormat f;
    f.prefix = std::string(text.substr(0, dash + 1));
    f.length = text.size() - dash - 1;
    if (check_viewable(text, f) != ViewableError::none) return std::nullopt;
    return f;
}

std::vector<Mutation> viewable_mutations(std::string_view text, const ViewableFormat& f) {
    std::vector<Mutation> out;
    if (check_viewable(text, f) != ViewableError::none) return out;
    const std::string s(text);
    const std::size_t body = f.prefix.size();
    auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    std::string all_lower = s;
    for (char& c : all_lower) c = lower(c);
    if (all_lower != s) out.push_back({"lower-case", all_lower, "case: viewable ids are upper-case"});
    for (std::size_t i = body; i < s.size(); ++i) {
        if (s[i] < 'A' || s[i] > 'Z') continue;
        std::string t = s;
        t[i] = lower(t[i]);
        out.push_back({"mixed-case", t, "case: one symbol lower-case"});
        break;
    }
    for (char bad : {'I', 'L', 'O', 'U'}) {
        std::string t = s;
        t.back() = bad;
        out.push_back({std::string("excluded-letter-") + lower(bad), t, "alphabet: Crockford base32 excludes I L O U"});
    }
    out.push_back({"one-symbol-short", s.substr(0, s.size() - 1),
                   "length: " + std::to_string(f.length - 1) + " symbols after the prefix"});
    out.push_back({"one-symbol-long", s + "0", "length: " + std::to_string(f.length + 1) + " symbols after the prefix"});
    if (!f.prefix.empty()) {
        std::string t = s;
        t[0] = t[0] == 'X' ? 'Y' : 'X';
        out.push_back({"wrong-prefix", t, "prefix: not " + f.prefix});
        out.push_back({"no-prefix", s.substr(body), "prefix: missing"});
    }
    return out;
}

}  // namespace idconform::ids
