// Shared text writers: UTF-8 repair, XML/terminal/JSON escaping, excerpts.
#include "reporters/text.hpp"

#include <boost/json/serialize.hpp>
#include <boost/json/string.hpp>
#include <boost/json/value.hpp>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <ctime>

namespace idconform::reporters {

namespace {

constexpr std::string_view replacement = "\xEF\xBF\xBD";  // U+FFFD

// Length of the valid UTF-8 sequence starting at s[i] and its code point, or
// 0 when the byte at i does not start a valid sequence (RFC 3629 table).
std::size_t decode_one(std::string_view s, std::size_t i, char32_t& cp) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char b0 = byte(i);
    if (b0 < 0x80) { cp = b0; return 1; }
    std::size_t len = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
    if (b0 >= 0xC2 && b0 <= 0xDF) { len = 2; cp = b0 & 0x1F; }
    else if (b0 == 0xE0) { len = 3; lo = 0xA0; cp = b0 & 0x0F; }
    else if (b0 >= 0xE1 && b0 <= 0xEC) { len = 3; cp = b0 & 0x0F; }
    else if (b0 == 0xED) { len = 3; hi = 0x9F; cp = b0 & 0x0F; }  // no surrogates
    else if (b0 >= 0xEE && b0 <= 0xEF) { len = 3; cp = b0 & 0x0F; }
    else if (b0 == 0xF0) { len = 4; lo = 0x90; cp = b0 & 0x07; }
    else if (b0 >= 0xF1 && b0 <= 0xF3) { len = 4; cp = b0 & 0x07; }
    else if (b0 == 0xF4) { len = 4; hi = 0x8F; cp = b0 & 0x07; }
    else return 0;
    if (i + len > s.size()) return 0;
    for (std::size_t k = 1; k < len; ++k) {
        const unsigned char b = byte(i + k);
        const unsigned char min = k == 1 ? lo : 0x80, max = k == 1 ? hi : 0xBF;
        if (b < min || b > max) return 0;
        cp = (cp << 6) | (b & 0x3F);
    }
    return len;
}

void append_escape(std::string& out, char32_t cp) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\u%04X", static_cast<unsigned>(cp));
    out += buf;
}

enum class Mode { xml, terminal, terminal_multiline, html };

// Whether visible() would return `s` unchanged without decoding it: printable
// ASCII and the whitespace the mode keeps (the common case, cheap to check).
bool kept_as_is(std::string_view s, Mode mode) {
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        if (c >= 0x20 && c < 0x7F) continue;
        if (c == '\t') continue;
        if (c == '\n' && mode != Mode::terminal) continue;
        if (c == '\r' && mode == Mode::xml) continue;
        return false;
    }
    return true;
}

std::string visible(std::string_view s, Mode mode) {
    if (kept_as_is(s, mode)) return std::string(s);
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        char32_t cp = 0;
        const std::size_t len = decode_one(s, i, cp);
        if (len == 0) { out += replacement; ++i; continue; }
        const bool c0 = cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r';
        const bool c1_or_del = cp >= 0x7F && cp <= 0x9F;
        const bool nonchar = cp == 0xFFFE || cp == 0xFFFF;
        if (mode == Mode::terminal && cp == '\n') out += "\\n";
        else if (mode != Mode::xml && cp == '\r') out += "\\r";  // html too: a CR would vanish
        else if (c0 || c1_or_del || nonchar) append_escape(out, cp);
        else out.append(s.substr(i, len));
        i += len;
    }
    return out;
}

}  // namespace

void append_html(std::string& out, std::string_view s) {
    const std::string v = visible(s, Mode::html);
    for (const char ch : v) {
        switch (ch) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&#39;"; break;
            default: out += ch;
        }
    }
}

std::string html_text(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    append_html(out, s);
    return out;
}

std::string valid_utf8(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        char32_t cp = 0;
        const std::size_t len = decode_one(s, i, cp);
        if (len == 0) { out += replacement; ++i; continue; }
        out.append(s.substr(i, len));
        i += len;
    }
    return out;
}

std::string xml_text(std::string_view s) { return visible(s, Mode::xml); }

std::string terminal_line(std::string_view s) { return visible(s, Mode::terminal); }

std::string terminal_text(std::string_view s) { return visible(s, Mode::terminal_multiline); }

std::string json_quote(std::string_view s) {
    return boost::json::serialize(boost::json::value(boost::json::string(valid_utf8(s))));
}

std::string body_excerpt(std::string_view body, std::size_t max_bytes, std::uint64_t total_bytes,
                         bool transport_truncated) {
    std::size_t cut = body.size();
    if (cut > max_bytes) {
        cut = max_bytes;
        // Step back over continuation bytes so no character is split; at most
        // three, so invalid data cannot make the excerpt vanish.
        for (int k = 0; k < 3 && cut > 0 && (static_cast<unsigned char>(body[cut]) & 0xC0) == 0x80; ++k) --cut;
    }
    std::string out(body.substr(0, cut));
    const std::uint64_t total =
        transport_truncated && total_bytes > body.size() ? total_bytes : static_cast<std::uint64_t>(body.size());
    const std::uint64_t more = total - cut;
    if (more == 0) return out;
    out += "... (" + std::to_string(more) + " more bytes";
    if (transport_truncated && total_bytes > body.size())
        out += ", " + std::to_string(total_bytes) + " received in total; body truncated by the transport";
    out += ")";
    return out;
}

std::string format_seconds(double seconds) {
    if (!std::isfinite(seconds) || seconds < 0) seconds = 0;
    // to_chars: printf's "%.3f" digits without printf's cost (one call per case).
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, seconds, std::chars_format::fixed, 3);
    if (r.ec == std::errc{}) return std::string(buf, r.ptr);
    std::string big(400, '\0');  // DBL_MAX has 309 digits
    big.resize(static_cast<std::size_t>(std::snprintf(big.data(), big.size(), "%.3f", seconds)));
    return big;
}

std::string iso8601_utc(Clock::time_point t) {
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
    std::time_t secs = static_cast<std::time_t>(ms / 1000);
    long frac = static_cast<long>(ms % 1000);
    if (frac < 0) { frac += 1000; --secs; }
    std::tm tm{};
    gmtime_r(&secs, &tm);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ", tm.tm_year + 1900, tm.tm_mon + 1,
                  tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, frac);
    return buf;
}

double seconds_between(Clock::time_point from, Clock::time_point to) {
    if (from == Clock::time_point{} || to == Clock::time_point{} || to < from) return 0.0;
    return std::chrono::duration<double>(to - from).count();
}

}  // namespace idconform::reporters
