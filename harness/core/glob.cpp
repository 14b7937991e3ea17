// Glob matching (glob.hpp).
#include "core/glob.hpp"

namespace idconform {

namespace {

// Bytes of the character starting at t[i]: a lead byte with its continuation
// bytes (at most 3); anything else is a character of one byte.
std::size_t char_length(std::string_view t, std::size_t i) noexcept {
    const auto lead = static_cast<unsigned char>(t[i]);
    const std::size_t want = lead >= 0xF0 && lead <= 0xF4 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 && lead < 0xE0 ? 2 : 1;
    if (lead >= 0xF5) return 1;
    std::size_t n = 1;
    while (n < want && i + n < t.size() && (static_cast<unsigned char>(t[i + n]) & 0xC0) == 0x80) ++n;
    return n == want ? n : 1;
}

}  // namespace

namespace {

// The matcher of both: with `prefix`, reaching the end of `t` is enough
// (whatever is left of the pattern, some text matches it).
bool match(std::string_view p, std::string_view t, bool prefix) noexcept {
    // Greedy with one backtrack point: on a mismatch after a '*', let that
    // '*' swallow one more character and retry. Enough because a later '*'
    // can absorb whatever an earlier one would have. A '*' in the pattern is
    // always a wildcard, even facing a '*' in the text.
    std::size_t pi = 0, ti = 0, star = std::string_view::npos, mark = 0;
    while (ti < t.size()) {
        if (pi < p.size() && p[pi] == '?') {
            ++pi;
            ti += char_length(t, ti);
        } else if (pi < p.size() && p[pi] != '*' && p[pi] == t[ti]) {
            ++pi;
            ++ti;
        } else if (pi < p.size() && p[pi] == '*') {
            star = pi++;
            mark = ti;
        } else if (star != std::string_view::npos) {
            pi = star + 1;
            mark += char_length(t, mark);
            ti = mark;
        } else {
            return false;
        }
    }
    if (prefix) return true;
    while (pi < p.size() && p[pi] == '*') ++pi;
    return pi == p.size();
}

}  // namespace

bool glob_match(std::string_view p, std::string_view t) noexcept { return match(p, t, false); }

bool glob_match_prefix(std::string_view p, std::string_view prefix) noexcept { return match(p, prefix, true); }

}  // namespace idconform
