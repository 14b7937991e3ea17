// Occurrences of a text inside a quoted sent value (echo.hpp). The body is
// read through layers of decoding, each byte of a decoded view remembering
// the raw bytes it came from, so a sent value found in any view marks a raw
// span; an occurrence of the needle inside such a span is an echo. Only the
// bytes around occurrences of the needle are decoded: a large answer costs
// nothing unless it holds the needle.
#include "runner/echo.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>

namespace idconform::runner {

namespace {

// Text decoded from the body, each byte with the raw span [from, to) it came from.
struct View {
    std::string bytes;
    std::vector<std::size_t> from, to;
    void push(char c, std::size_t f, std::size_t t) {
        bytes.push_back(c);
        from.push_back(f);
        to.push_back(t);
    }
};

// The ways a server quotes what it was sent: backslash escapes (JSON, C,
// Python, Go's %q), percent-encoding (an URL as it came), the same with `+`
// for a space (a query string), HTML character references (an error page).
enum class Decoder { backslash, percent, form, html };
constexpr std::array<Decoder, 4> decoders = {Decoder::backslash, Decoder::percent, Decoder::form, Decoder::html};

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// `count` hex digits at `at` as a number, or -1.
long hex_at(std::string_view s, std::size_t at, std::size_t count) {
    if (at + count > s.size()) return -1;
    long v = 0;
    for (std::size_t i = at; i < at + count; ++i) {
        const int h = hex_value(s[i]);
        if (h < 0) return -1;
        v = v * 16 + h;
    }
    return v;
}

bool utf8(std::uint32_t cp, std::string& out) {
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
    return true;
}

// `\n`, `\"`, `\\`, `\/`, `\u007b` (with surrogate pairs), `\x7b`, and a
// backslash before any other punctuation (`\{`, `\ `).
std::size_t backslash_escape(std::string_view s, std::size_t i, std::string& out) {
    if (s[i] != '\\' || i + 1 >= s.size()) return 0;
    const char c = s[i + 1];
    switch (c) {
        case 'n': out += '\n'; return 2;
        case 't': out += '\t'; return 2;
        case 'r': out += '\r'; return 2;
        case 'b': out += '\b'; return 2;
        case 'f': out += '\f'; return 2;
        case 'v': out += '\v'; return 2;
        case 'x': {
            const long v = hex_at(s, i + 2, 2);
            if (v < 0) return 0;
            out += static_cast<char>(v);
            return 4;
        }
        case 'u': {
            const long hi = hex_at(s, i + 2, 4);
            if (hi < 0) return 0;
            if (hi >= 0xD800 && hi <= 0xDBFF && i + 12 <= s.size() && s[i + 6] == '\\' && s[i + 7] == 'u') {
                const long lo = hex_at(s, i + 8, 4);
                if (lo >= 0xDC00 && lo <= 0xDFFF) {
                    const auto cp = static_cast<std::uint32_t>(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00));
                    return utf8(cp, out) ? 12 : 0;
                }
            }
            return utf8(static_cast<std::uint32_t>(hi), out) ? 6 : 0;
        }
        default: break;
    }
    const auto u = static_cast<unsigned char>(c);
    const bool punct =
        u > 0x20 && u < 0x7F && !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));
    if (!punct && c != ' ') return 0;
    out += c;
    return 2;
}

std::size_t percent_escape(std::string_view s, std::size_t i, std::string& out, bool plus_is_space) {
    if (plus_is_space && s[i] == '+') {
        out += ' ';
        return 1;
    }
    if (s[i] != '%') return 0;
    const long v = hex_at(s, i + 1, 2);
    if (v < 0) return 0;
    out += static_cast<char>(v);
    return 3;
}

// `&quot;`, `&#123;`, `&#x7B;` and the named references of the characters
// servers escape or mutations hold.
std::size_t html_reference(std::string_view s, std::size_t i, std::string& out) {
    if (s[i] != '&') return 0;
    const std::size_t semi = s.find(';', i + 1);
    if (semi == std::string_view::npos || semi - i > 12 || semi == i + 1) return 0;
    const std::string_view name = s.substr(i + 1, semi - i - 1);
    const std::size_t len = semi - i + 1;
    if (name[0] == '#') {
        const bool hex = name.size() > 1 && (name[1] == 'x' || name[1] == 'X');
        const std::string_view digits = name.substr(hex ? 2 : 1);
        if (digits.empty() || digits.size() > 8) return 0;
        std::uint32_t cp = 0;
        for (char c : digits) {
            const int d = hex ? hex_value(c) : (c >= '0' && c <= '9' ? c - '0' : -1);
            if (d < 0) return 0;
            cp = cp * (hex ? 16 : 10) + static_cast<std::uint32_t>(d);
        }
        return utf8(cp, out) ? len : 0;
    }
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 30> named = {{
        {"quot", "\""},  {"amp", "&"},    {"lt", "<"},       {"gt", ">"},     {"apos", "'"},   {"nbsp", "\xC2\xA0"},
        {"lbrace", "{"}, {"lcub", "{"},   {"rbrace", "}"},   {"rcub", "}"},   {"colon", ":"},  {"sol", "/"},
        {"bsol", "\\"},  {"period", "."}, {"NewLine", "\n"}, {"Tab", "\t"},   {"num", "#"},    {"percnt", "%"},
        {"plus", "+"},   {"equals", "="}, {"comma", ","},    {"excl", "!"},   {"quest", "?"},  {"lpar", "("},
        {"rpar", ")"},   {"lsqb", "["},   {"rsqb", "]"},     {"dollar", "$"}, {"commat", "@"}, {"ast", "*"},
    }};
    for (const auto& [n, text] : named)
        if (n == name) {
            out += text;
            return len;
        }
    return 0;
}

// One decoding layer over `in`; `changed` tells whether anything was decoded.
View decode(const View& in, Decoder d, bool& changed) {
    View out;
    out.bytes.reserve(in.bytes.size());
    out.from.reserve(in.bytes.size());
    out.to.reserve(in.bytes.size());
    const std::string_view s = in.bytes;
    changed = false;
    std::string produced;
    for (std::size_t i = 0; i < s.size();) {
        produced.clear();
        std::size_t len = 0;
        switch (d) {
            case Decoder::backslash: len = backslash_escape(s, i, produced); break;
            case Decoder::percent: len = percent_escape(s, i, produced, false); break;
            case Decoder::form: len = percent_escape(s, i, produced, true); break;
            case Decoder::html: len = html_reference(s, i, produced); break;
        }
        if (len == 0) {
            out.push(s[i], in.from[i], in.to[i]);
            ++i;
            continue;
        }
        changed = true;
        for (char c : produced) out.push(c, in.from[i], in.to[i + len - 1]);
        i += len;
    }
    return out;
}

std::string_view trim(std::string_view s) {
    const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; };
    while (!s.empty() && space(s.front())) s.remove_prefix(1);
    while (!s.empty() && space(s.back())) s.remove_suffix(1);
    return s;
}

struct Form {
    std::string text;
    std::size_t sent = 0;  // index into the sent values
};

struct Span {
    std::size_t begin = 0, end = 0;
    std::size_t sent = 0;
};

void find_forms(const View& v, const std::vector<Form>& forms, std::vector<Span>& spans) {
    const std::string_view b = v.bytes;
    for (const auto& f : forms)
        for (std::size_t at = b.find(f.text); at != std::string_view::npos; at = b.find(f.text, at + 1))
            spans.push_back({v.from[at], v.to[at + f.text.size() - 1], f.sent});
}

}  // namespace

EchoSearch find_outside_echoes(std::string_view body, std::string_view needle, const std::vector<std::string>& sent) {
    EchoSearch r;
    if (needle.empty()) return r;
    std::vector<std::size_t> at;
    for (std::size_t p = body.find(needle); p != std::string_view::npos; p = body.find(needle, p + 1)) at.push_back(p);
    r.occurrences = at.size();

    // Every sent value but the needle itself is a form, also one that does
    // not hold the needle: its quote may still make it (a full-width digit
    // percent-encoded, %EF%BC%90, ends in the '0' a live id starts with).
    // The same value trimmed is a second form (a server that quotes the input
    // after stripping its whitespace).
    std::vector<Form> forms;
    std::size_t longest = 0;
    for (std::size_t i = 0; i < sent.size(); ++i) {
        const std::string_view s = sent[i];
        for (std::string_view f : {s, trim(s)}) {
            if (f == needle) {
                r.sent_is_needle = true;
                continue;
            }
            if (f.empty()) continue;
            if (std::none_of(forms.begin(), forms.end(), [&](const Form& x) { return x.text == f; })) {
                forms.push_back({std::string(f), i});
                longest = std::max(longest, f.size());
            }
        }
    }
    if (at.empty() || forms.empty()) {
        if (!at.empty()) r.first_outside = at.front();
        return r;
    }

    // Windows around the occurrences, wide enough for the longest form with
    // every byte escaped twice over (`&#92;u007b` is ten bytes for one).
    const std::size_t reach = 16 * longest + 16;
    std::vector<std::pair<std::size_t, std::size_t>> windows;
    for (std::size_t p : at) {
        const std::size_t b = p > reach ? p - reach : 0, e = std::min(body.size(), p + needle.size() + reach);
        if (!windows.empty() && b <= windows.back().second) windows.back().second = std::max(windows.back().second, e);
        else windows.emplace_back(b, e);
    }
    std::vector<Span> spans;
    for (const auto& [wb, we] : windows) {
        View raw;
        for (std::size_t i = wb; i < we; ++i) raw.push(body[i], i, i + 1);
        find_forms(raw, forms, spans);
        for (Decoder d1 : decoders) {
            bool changed = false;
            const View v1 = decode(raw, d1, changed);
            if (!changed) continue;  // the same as the raw text, and its second layers are first layers
            find_forms(v1, forms, spans);
            for (Decoder d2 : decoders) {
                const View v2 = decode(v1, d2, changed);
                if (changed) find_forms(v2, forms, spans);
            }
        }
    }
    std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.begin < b.begin; });

    // An occurrence is inside an echo when a span starting at or before it
    // ends at or after its end: sweep both in order, keeping the furthest end.
    std::size_t next = 0, furthest = 0, furthest_sent = 0;
    bool any = false;
    for (std::size_t p : at) {
        for (; next < spans.size() && spans[next].begin <= p; ++next)
            if (!any || spans[next].end > furthest) {
                furthest = spans[next].end;
                furthest_sent = spans[next].sent;
                any = true;
            }
        if (any && furthest >= p + needle.size()) {
            if (r.inside_echo++ == 0) r.echoed = sent[furthest_sent];
        } else if (r.first_outside == EchoSearch::npos) {
            r.first_outside = p;
        }
    }
    return r;
}

}  // namespace idconform::runner
