// Text helpers shared by the components (strings.hpp).
#include "core/strings.hpp"

#include <algorithm>
#include <array>

namespace idconform {

namespace {

constexpr char ascii_lower(char c) noexcept { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

constexpr bool unreserved(unsigned char c) noexcept {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
           c == '_' || c == '~';
}

// unreserved() as a table: percent_encode runs over every path parameter and
// query value of every request, and ids are unreserved through and through.
constexpr auto unreserved_byte = [] {
    std::array<bool, 256> t{};
    for (int c = 0; c < 256; ++c) t[static_cast<std::size_t>(c)] = unreserved(static_cast<unsigned char>(c));
    return t;
}();

}  // namespace

bool iequals(std::string_view a, std::string_view b) noexcept {
    return a.size() == b.size() &&
           std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return ascii_lower(x) == ascii_lower(y); });
}

std::string file_uri(std::string_view path) {
    std::string p(path);
    for (auto& c : p)
        if (c == '\\') c = '/';
    return (!p.empty() && p[0] == '/' ? "file://" : "") + percent_encode(p, "/");
}

namespace {

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

}  // namespace

std::string unescape_pointer_token(std::string_view t) {
    std::string out;
    for (std::size_t i = 0; i < t.size(); ++i) {
        if (t[i] == '~' && i + 1 < t.size() && (t[i + 1] == '0' || t[i + 1] == '1')) {
            out += t[i + 1] == '0' ? '~' : '/';
            ++i;
        } else {
            out += t[i];
        }
    }
    return out;
}

std::string percent_decode(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        const int h = s[i] == '%' && i + 2 < s.size() ? hex_digit(s[i + 1]) : -1;
        const int l = h >= 0 ? hex_digit(s[i + 2]) : -1;
        if (l >= 0) {
            out += static_cast<char>(h * 16 + l);
            i += 2;
        } else {
            out += s[i];
        }
    }
    return out;
}

std::string percent_encode(std::string_view s, std::string_view keep) {
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        const std::size_t from = i;
        while (i < s.size() && unreserved_byte[static_cast<unsigned char>(s[i])]) ++i;
        out.append(s.data() + from, i - from);  // runs of unreserved bytes in one go
        if (i == s.size()) break;
        const auto c = static_cast<unsigned char>(s[i]);
        if (c != 0 && keep.find(static_cast<char>(c)) != std::string_view::npos) {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

std::string shell_quote(std::string_view s) {
    std::string out = "'";
    for (char c : s) {
        if (c == '\'')
            out += "'\\''";
        else
            out += c;
    }
    return out + "'";
}

}  // namespace idconform
