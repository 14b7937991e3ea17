// Masking of secrets in headers, URLs and free text, for every reporter.
#include "reporters/redact.hpp"

#include <algorithm>
#include <cctype>

namespace idconform::reporters {

namespace {

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

bool iequals(std::string_view a, std::string_view b) {
    return a.size() == b.size() &&
           std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return lower(x) == lower(y); });
}

// Characters allowed in an HTTP header name (RFC 9110 tchar), used to tell
// "Authorization:" from "X-Authorization:" in free text.
bool is_tchar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

// Masks the password of "scheme://user:password@" occurrences in text.
std::string mask_userinfo(std::string_view text) {
    std::string out;
    std::size_t i = 0;
    while (i < text.size()) {
        const std::size_t sep = text.find("://", i);
        if (sep == std::string_view::npos) break;
        const std::size_t auth_begin = sep + 3;
        // The authority ends at the first '/', '?', '#', whitespace or quote.
        std::size_t auth_end = auth_begin;
        while (auth_end < text.size() && std::string_view("/?# \t\r\n'\"").find(text[auth_end]) == std::string_view::npos)
            ++auth_end;
        const std::string_view authority = text.substr(auth_begin, auth_end - auth_begin);
        const std::size_t at = authority.rfind('@');
        const std::size_t colon = at == std::string_view::npos ? std::string_view::npos : authority.find(':');
        out.append(text.substr(i, auth_begin - i));
        if (colon != std::string_view::npos && colon < at) {
            out.append(authority.substr(0, colon + 1));
            out.append(redacted_mark);
            out.append(authority.substr(at));
        } else {
            out.append(authority);
        }
        i = auth_end;
    }
    out.append(text.substr(i));
    return out;
}

}  // namespace

const std::vector<std::string>& default_sensitive_headers() {
    static const std::vector<std::string> names{"Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie"};
    return names;
}

bool is_sensitive_header(std::string_view name, const std::vector<std::string>& extra) {
    const auto match = [&](const std::string& n) { return iequals(n, name); };
    return std::any_of(default_sensitive_headers().begin(), default_sensitive_headers().end(), match) ||
           std::any_of(extra.begin(), extra.end(), match);
}

std::vector<Header> redact_headers(const std::vector<Header>& headers, const std::vector<std::string>& extra) {
    std::vector<Header> out = headers;
    for (auto& h : out)
        if (is_sensitive_header(h.name, extra)) h.value = std::string(redacted_mark);
    return out;
}

std::string redact_url(std::string_view url) { return mask_userinfo(url); }

namespace {

// The [value_begin, value_end) ranges of text that redact_text masks after
// sensitive names: a match is a sensitive name, case-insensitively, right
// before a ':'.
std::vector<std::pair<std::size_t, std::size_t>> secret_ranges(std::string_view text,
                                                               const std::vector<std::string>& extra) {
    std::vector<std::pair<std::size_t, std::size_t>> ranges;
    auto match_names = [&](const std::vector<std::string>& names, std::size_t colon) {
        for (const auto& name : names) {
            if (name.empty() || name.size() > colon) continue;
            const std::size_t pos = colon - name.size();
            if (!iequals(text.substr(pos, name.size()), name)) continue;
            // "Authorization:" inside "X-Authorization:" is another header.
            if (pos > 0 && is_tchar(text[pos - 1]) && text[pos - 1] != '\'') continue;
            std::size_t begin = colon + 1;
            while (begin < text.size() && (text[begin] == ' ' || text[begin] == '\t')) ++begin;
            std::size_t end = begin;
            while (end < text.size() && std::string_view("'\"\r\n").find(text[end]) == std::string_view::npos) ++end;
            if (end > begin) ranges.emplace_back(begin, end);
        }
    };
    for (std::size_t colon = text.find(':'); colon != std::string_view::npos; colon = text.find(':', colon + 1)) {
        match_names(default_sensitive_headers(), colon);
        match_names(extra, colon);
    }
    return ranges;
}

std::string mask_ranges(std::string_view text, std::vector<std::pair<std::size_t, std::size_t>> ranges) {
    std::sort(ranges.begin(), ranges.end());
    std::string out;
    std::size_t at = 0;
    for (const auto& [b, e] : ranges) {
        if (b < at) continue;  // overlapping match (a name that is a suffix of another)
        out.append(text.substr(at, b - at));
        out.append(redacted_mark);
        at = e;
    }
    out.append(text.substr(at));
    return mask_userinfo(out);
}

}  // namespace

std::string redact_text(std::string_view text, const std::vector<std::string>& extra) {
    std::string out;
    append_redacted(out, text, extra);
    return out;
}

void append_redacted(std::string& out, std::string_view text, const std::vector<std::string>& extra) {
    // Every header match ("name:") and every userinfo ("://") has a colon:
    // most report lines are checked with one scan for ':'.
    if (text.find(':') == std::string_view::npos) {
        out.append(text);
        return;
    }
    auto ranges = secret_ranges(text, extra);
    if (ranges.empty() && text.find("://") == std::string_view::npos) {
        out.append(text);  // the common case: nothing to mask, no copy
        return;
    }
    out += mask_ranges(text, std::move(ranges));
}

void append_redacted_url(std::string& out, std::string_view url) {
    if (url.find('@') == std::string_view::npos) {
        out.append(url);  // no userinfo
        return;
    }
    out += mask_userinfo(url);
}

}  // namespace idconform::reporters
