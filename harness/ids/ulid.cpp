// Crockford base32, ULID parsing/formatting with a case policy, and the
// viewable-id format check.
#include "ids/ids.hpp"
#include "ids/detail.hpp"

namespace idconform::ids {

namespace {
constexpr char upper_alphabet[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
constexpr char lower_alphabet[] = "0123456789abcdefghjkmnpqrstvwxyz";

constexpr std::array<std::int8_t, 256> make_crockford_table() {
    std::array<std::int8_t, 256> t{};
    for (auto& v : t) v = -1;
    for (int i = 0; i < 32; ++i) {
        t[static_cast<unsigned char>(upper_alphabet[i])] = static_cast<std::int8_t>(i);
        t[static_cast<unsigned char>(lower_alphabet[i])] = static_cast<std::int8_t>(i);
    }
    return t;
}
constexpr auto crockford_table = make_crockford_table();
}  // namespace

int crockford_value(char c) noexcept { return crockford_table[static_cast<unsigned char>(c)]; }

std::string crockford_encode(const std::uint8_t* data, std::size_t bytes) {
    const std::size_t bits = bytes * 8;
    const std::size_t symbols = (bits + 4) / 5;
    const std::size_t pad = symbols * 5 - bits;  // leading zero bits
    std::string out(symbols, '0');
    for (std::size_t s = 0; s < symbols; ++s) {
        int v = 0;
        for (std::size_t k = 0; k < 5; ++k) {
            const std::size_t pos = s * 5 + k;  // in the padded stream
            int bit = 0;
            if (pos >= pad) {
                const std::size_t b = pos - pad;
                bit = (data[b / 8] >> (7 - b % 8)) & 1;
            }
            v = (v << 1) | bit;
        }
        out[s] = upper_alphabet[v];
    }
    return out;
}

bool crockford_decode(std::string_view text, std::uint8_t* out, std::size_t out_bytes) {
    for (std::size_t i = 0; i < out_bytes; ++i) out[i] = 0;
    for (char c : text) {
        const int v = crockford_value(c);
        if (v < 0) return false;
        // out = out * 32 + v; fail when a bit falls off the top.
        unsigned carry = static_cast<unsigned>(v);
        for (std::size_t i = out_bytes; i-- > 0;) {
            const unsigned x = (static_cast<unsigned>(out[i]) << 5) | carry;
            out[i] = static_cast<std::uint8_t>(x & 0xff);
            carry = x >> 8;
        }
        if (carry != 0) return false;
    }
    return true;
}

// ----------------------------------------------------------------- ULID

std::uint64_t Ulid::unix_ms() const noexcept {
    std::uint64_t v = 0;
    for (int i = 0; i < 6; ++i) v = (v << 8) | bytes[static_cast<std::size_t>(i)];
    return v;
}

std::string_view to_string(UlidError e) noexcept {
    switch (e) {
        case UlidError::none: return "none";
        case UlidError::wrong_length: return "wrong_length";
        case UlidError::bad_char: return "bad_char";
        case UlidError::overflow: return "overflow";
        case UlidError::wrong_case: return "wrong_case";
    }
    return "bad_char";
}

UlidParse parse_ulid(std::string_view text, CasePolicy policy) noexcept {
    UlidParse r;
    if (text.size() != 26) {
        r.error = UlidError::wrong_length;
        return r;
    }
    for (std::size_t i = 0; i < 26; ++i) {
        const char c = text[i];
        if (crockford_value(c) < 0) {
            r.error = UlidError::bad_char;
            r.position = i;
            return r;
        }
        const bool upper = c >= 'A' && c <= 'Z';
        const bool lower = c >= 'a' && c <= 'z';
        if ((policy == CasePolicy::lower_only && upper) || (policy == CasePolicy::upper_only && lower)) {
            r.error = UlidError::wrong_case;
            r.position = i;
            return r;
        }
    }
    if (crockford_value(text[0]) > 7) {  // 26 symbols carry 130 bits; the top 2 must be 0
        r.error = UlidError::overflow;
        return r;
    }
    Ulid u;
    if (!crockford_decode(text, u.bytes.data(), 16)) {
        r.error = UlidError::overflow;
        return r;
    }
    r.value = u;
    return r;
}

std::string format_ulid(const Ulid& u, bool lower_case) {
    std::string s = crockford_encode(u.bytes.data(), 16);
    if (lower_case)
        for (auto& c : s) c = lower_alphabet[crockford_value(c)];
    return s;
}

// ------------------------------------------------------------- viewable

std::string_view to_string(ViewableError e) noexcept {
    switch (e) {
        case ViewableError::none: return "none";
        case ViewableError::wrong_prefix: return "wrong_prefix";
        case ViewableError::wrong_length: return "wrong_length";
        case ViewableError::lower_case: return "lower_case";
        case ViewableError::excluded_letter: return "excluded_letter";
        case ViewableError::bad_char: return "bad_char";
    }
    return "bad_char";
}

ViewableError check_viewable(std::string_view text, const ViewableFormat& f) noexcept {
    if (text.substr(0, f.prefix.size()) != f.prefix) return ViewableError::wrong_prefix;
    const std::string_view body = text.substr(f.prefix.size());
    if (body.size() != f.length) return ViewableError::wrong_length;
    for (char c : body) {
        const char u = (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
        if (u == 'I' || u == 'L' || u == 'O' || u == 'U') return ViewableError::excluded_letter;
        if (c >= 'a' && c <= 'z') return ViewableError::lower_case;
        if (crockford_value(c) < 0) return ViewableError::bad_char;
    }
    return ViewableError::none;
}

std::string viewable_pattern(const ViewableFormat& f) {
    std::string p = "^";
    for (char c : f.prefix) {  // escape RE2 metacharacters in the prefix
        if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) p += '\\';
        p += c;
    }
    return p + "[0-9A-HJKMNP-TV-Z]{" + std::to_string(f.length) + "}$";
}

}  // namespace idconform::ids
