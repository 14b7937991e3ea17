// The one redaction module (see redact.hpp): header and query names that
// carry credentials, secret values, and the masking of requests, responses,
// results and free text.
#include "core/redact.hpp"
#include "core/strings.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <optional>

namespace idconform::redact {

namespace {

// ASCII only, as header names are (and as the C locale's tolower is).
constexpr char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }


// Characters allowed in an HTTP header name (RFC 9110 tchar), used to tell
// "Authorization:" from "X-Authorization:" in free text.
bool is_tchar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

// Where a URL inside free text ends.
bool ends_url(char c) { return std::string_view(" \t\r\n'\"<>").find(c) != std::string_view::npos; }

// Appends the query (without '?', up to its end) with sensitive values masked.
void append_masked_query(std::string& out, std::string_view query) {
    std::size_t i = 0;
    while (i <= query.size()) {
        std::size_t amp = query.find('&', i);
        if (amp == std::string_view::npos) amp = query.size();
        const std::string_view param = query.substr(i, amp - i);
        const std::size_t eq = param.find('=');
        if (eq != std::string_view::npos && eq + 1 < param.size() && is_sensitive_query_param(param.substr(0, eq))) {
            out.append(param.substr(0, eq + 1));
            out.append(mark);
        } else {
            out.append(param);
        }
        if (amp < query.size()) out += '&';
        i = amp + 1;
    }
}

// One URL starting at `scheme_end` ("://" position) and ending at `end`:
// userinfo password and sensitive query values masked.
void append_masked_url(std::string& out, std::string_view url) {
    const std::size_t sep = url.find("://");
    std::size_t at = 0;
    if (sep != std::string_view::npos) {
        const std::size_t auth_begin = sep + 3;
        std::size_t auth_end = auth_begin;
        while (auth_end < url.size() && std::string_view("/?#").find(url[auth_end]) == std::string_view::npos) ++auth_end;
        const std::string_view authority = url.substr(auth_begin, auth_end - auth_begin);
        const std::size_t amp = authority.rfind('@');
        const std::size_t colon = amp == std::string_view::npos ? std::string_view::npos : authority.find(':');
        out.append(url.substr(0, auth_begin));
        if (colon != std::string_view::npos && colon < amp) {
            out.append(authority.substr(0, colon + 1));
            out.append(mark);
            out.append(authority.substr(amp));
        } else {
            out.append(authority);
        }
        at = auth_end;
    }
    const std::size_t q = url.find('?', at);
    if (q == std::string_view::npos) {
        out.append(url.substr(at));
        return;
    }
    out.append(url.substr(at, q + 1 - at));
    std::size_t qend = url.find('#', q);
    if (qend == std::string_view::npos) qend = url.size();
    append_masked_query(out, url.substr(q + 1, qend - q - 1));
    out.append(url.substr(qend));
}

// Every "scheme://..." in text masked as a URL.
std::string mask_urls(std::string_view text) {
    std::string out;
    std::size_t i = 0;
    while (i < text.size()) {
        const std::size_t sep = text.find("://", i);
        if (sep == std::string_view::npos) break;
        std::size_t begin = sep;
        while (begin > i && (std::isalnum(static_cast<unsigned char>(text[begin - 1])) || text[begin - 1] == '+' ||
                             text[begin - 1] == '-' || text[begin - 1] == '.'))
            --begin;
        std::size_t end = sep + 3;
        while (end < text.size() && !ends_url(text[end])) ++end;
        out.append(text.substr(i, begin - i));
        append_masked_url(out, text.substr(begin, end - begin));
        i = end;
    }
    out.append(text.substr(i));
    return out;
}

bool url_may_need_mask(std::string_view url) {
    return url.find('@') != std::string_view::npos || url.find('?') != std::string_view::npos;
}

// Whether c (lower-cased) is the last letter of a built-in sensitive name:
// most colons in a report line and most header names follow none of them and
// are passed over with one look-up.
bool may_end_builtin_name(char c) {
    static const std::array<bool, 256> last = [] {
        std::array<bool, 256> t{};
        for (const auto& name : sensitive_headers())
            if (!name.empty()) t[static_cast<unsigned char>(lower(name.back()))] = true;
        return t;
    }();
    return last[static_cast<unsigned char>(lower(c))];
}

// The [value_begin, value_end) ranges of text masked after sensitive names:
// a match is a sensitive name, case-insensitively, right before a ':'.
std::vector<std::pair<std::size_t, std::size_t>> secret_ranges(std::string_view text,
                                                               const std::vector<std::string>& extra) {
    std::vector<std::pair<std::size_t, std::size_t>> ranges;
    const std::vector<std::string>& builtin = sensitive_headers();  // once: its guard is not free per colon
    auto match_names = [&](const std::vector<std::string>& names, std::size_t colon) {
        if (colon == 0) return;
        const char before = lower(text[colon - 1]);  // a name's last letter: most names fail on it
        if (&names == &builtin && !may_end_builtin_name(before)) return;
        for (const auto& name : names) {
            if (name.empty() || name.size() > colon || lower(name.back()) != before) continue;
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
        match_names(builtin, colon);
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
        out.append(mark);
        at = e;
    }
    out.append(text.substr(at));
    return mask_urls(out);
}

constexpr std::size_t min_credential_bytes = 8;

// RFC 4648 base64 (standard or URL-safe alphabet, padding optional) ->
// bytes; nullopt when s is not base64.
std::optional<std::string> base64_decode(std::string_view s) {
    while (!s.empty() && s.back() == '=') s.remove_suffix(1);
    if (s.size() % 4 == 1) return std::nullopt;
    std::string out;
    std::uint32_t acc = 0;
    int bits = 0;
    for (const char ch : s) {
        int v;
        if (ch >= 'A' && ch <= 'Z') v = ch - 'A';
        else if (ch >= 'a' && ch <= 'z') v = ch - 'a' + 26;
        else if (ch >= '0' && ch <= '9') v = ch - '0' + 52;
        else if (ch == '+' || ch == '-') v = 62;
        else if (ch == '/' || ch == '_') v = 63;
        else return std::nullopt;
        acc = (acc << 6) | static_cast<std::uint32_t>(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += static_cast<char>((acc >> bits) & 0xFF);
        }
    }
    return out;
}

}  // namespace

const std::vector<std::string>& sensitive_headers() {
    static const std::vector<std::string> names{"Authorization", "Proxy-Authorization", "Cookie",     "Set-Cookie",
                                                "X-Api-Key",     "Api-Key",             "X-Auth-Token", "X-Access-Token",
                                                "X-Csrf-Token",  "X-Xsrf-Token"};
    return names;
}

bool is_sensitive_header(std::string_view name, const std::vector<std::string>& extra) {
    const auto match = [&](const std::string& n) { return iequals(n, name); };
    return (!name.empty() && may_end_builtin_name(name.back()) &&
            std::any_of(sensitive_headers().begin(), sensitive_headers().end(), match)) ||
           std::any_of(extra.begin(), extra.end(), match);
}

bool is_sensitive_query_param(std::string_view name) {
    static const std::vector<std::string_view> names{
        "access_token", "api_key", "apikey",   "api-key",   "x-api-key", "token",        "auth",
        "id_token",     "password", "passwd",  "secret",    "client_secret", "refresh_token", "signature",
        "sig",          "session",  "sessionid", "jwt"};
    return std::any_of(names.begin(), names.end(), [&](std::string_view n) { return iequals(n, name); });
}

std::vector<Header> redact_headers(const std::vector<Header>& headers, const std::vector<std::string>& extra) {
    std::vector<Header> out = headers;
    for (auto& h : out)
        if (is_sensitive_header(h.name, extra)) h.value = std::string(mark);
    return out;
}

std::string redact_url(std::string_view url) {
    std::string out;
    append_redacted_url(out, url);
    return out;
}

std::string redact_text(std::string_view text, const std::vector<std::string>& extra) {
    std::string out;
    append_redacted(out, text, extra);
    return out;
}

void append_redacted(std::string& out, std::string_view text, const std::vector<std::string>& extra) {
    // Every header match ("name:") and every URL ("://") has a colon: most
    // report lines are checked with one scan for ':'.
    if (text.find(':') == std::string_view::npos) {
        out.append(text);
        return;
    }
    auto ranges = secret_ranges(text, extra);
    // A URL is masked only for its userinfo ('@') or its query ('?'): a text
    // with neither keeps every URL it holds as it is.
    if (ranges.empty() && (text.find("://") == std::string_view::npos || !url_may_need_mask(text))) {
        out.append(text);  // the common case: nothing to mask, no copy
        return;
    }
    out += mask_ranges(text, std::move(ranges));
}

void append_redacted_url(std::string& out, std::string_view url) {
    if (!url_may_need_mask(url)) {
        out.append(url);  // no userinfo, no query
        return;
    }
    append_masked_url(out, url);
}

Secrets::Secrets(const std::set<std::string>& values) {
    for (const auto& v : values) add(v);
}

void Secrets::insert(std::string v) {
    if (v.empty() || v == mark) return;
    const auto pos = std::lower_bound(values_.begin(), values_.end(), v, [](const std::string& a, const std::string& b) {
        return a.size() != b.size() ? a.size() > b.size() : a < b;
    });
    if (pos != values_.end() && *pos == v) return;
    values_.insert(pos, std::move(v));
}

void Secrets::add(std::string_view value) {
    if (value.empty()) return;
    insert(std::string(value));
    std::string enc = percent_encode(value);  // upper-case hex, as the runner's interpolation encodes
    if (enc != value) {
        // A URL may carry it with '+' for spaces (forms) or lower-case hex.
        std::string plus;
        for (std::size_t i = 0; i < enc.size(); ++i) {
            if (enc.compare(i, 3, "%20") == 0) { plus += '+'; i += 2; }
            else plus += enc[i];
        }
        std::string lower_hex = enc;
        for (std::size_t i = 0; i + 2 < lower_hex.size(); ++i)
            if (lower_hex[i] == '%') {
                lower_hex[i + 1] = lower(lower_hex[i + 1]);
                lower_hex[i + 2] = lower(lower_hex[i + 2]);
            }
        insert(std::move(plus));
        insert(std::move(lower_hex));
        insert(std::move(enc));
    }
}

void Secrets::add_credential(std::string_view v) {
    while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
    while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
    if (v.size() < min_credential_bytes || v == mark) return;
    // As sent and echoed (a header value is not percent-encoded): no URL forms.
    insert(std::string(v));
    // "Bearer abc": the token alone; "sid=abc; Path=/": each cookie value.
    if (const std::size_t sp = v.find(' '); sp != std::string_view::npos && v.size() - sp - 1 >= min_credential_bytes)
        insert(std::string(v.substr(sp + 1)));
    add_basic_credential(v);
    std::size_t i = 0;
    while (i < v.size()) {
        std::size_t end = v.find(';', i);
        if (end == std::string_view::npos) end = v.size();
        std::string_view part = v.substr(i, end - i);
        if (const std::size_t eq = part.find('='); eq != std::string_view::npos) {
            std::string_view val = part.substr(eq + 1);
            if (val.size() >= min_credential_bytes) insert(std::string(val));
        }
        i = end + 1;
    }
}

void Secrets::add_basic_credential(std::string_view v) {
    // "Basic dXNlcjpwYXNzd29yZA==": a server that echoes it may echo it
    // decoded (user:password), the password alone, or base64 without its
    // padding or percent-encoded (a URL).
    const std::size_t sp = v.find(' ');
    if (sp == std::string_view::npos || !iequals(v.substr(0, sp), "Basic")) return;
    std::string_view token = v.substr(sp + 1);
    while (!token.empty() && token.front() == ' ') token.remove_prefix(1);
    const auto pair = base64_decode(token);
    if (!pair) return;
    const std::size_t colon = pair->find(':');
    if (colon == std::string::npos) return;
    // The pair holds a colon: not an ordinary word, masked from 4 bytes on.
    if (pair->size() >= 4) insert(*pair);
    if (pair->size() - colon - 1 >= min_credential_bytes) insert(pair->substr(colon + 1));
    std::string_view unpadded = token;
    while (!unpadded.empty() && unpadded.back() == '=') unpadded.remove_suffix(1);
    if (unpadded.size() >= min_credential_bytes) insert(std::string(unpadded));
    if (token.size() >= min_credential_bytes) {
        insert(std::string(token));
        if (std::string enc = percent_encode(token); enc != token) insert(std::move(enc));
    }
}

void Secrets::add_credentials_of(const Exchange& x) {
    for (const auto& h : x.request.headers)
        if (is_sensitive_header(h.name)) add_credential(h.value);
    if (x.response)
        for (const auto& h : x.response->headers)
            if (is_sensitive_header(h.name)) add_credential(h.value);
}

namespace {
// "header Set-Cookie": a check on a sensitive header.
bool checks_sensitive_header(std::string_view what) {
    constexpr std::string_view prefix = "header ";
    return what.size() > prefix.size() && what.substr(0, prefix.size()) == prefix &&
           is_sensitive_header(what.substr(prefix.size()));
}
}  // namespace

void Secrets::mask(std::string& s) const {
    if (s.empty()) return;
    for (const auto& v : values_) {
        if (v.size() > s.size()) continue;
        for (std::size_t p = s.find(v); p != std::string::npos; p = s.find(v, p + mark.size())) s.replace(p, v.size(), mark);
    }
}

void mark_secret_headers(Request& r, const std::set<std::string>& secret_values) {
    if (secret_values.empty()) return;
    for (const auto& h : r.headers)
        for (const auto& v : secret_values)
            if (!v.empty() && h.value.find(v) != std::string::npos) {
                r.secret_headers.push_back(h.name);
                break;
            }
}

void redact_request(Request& r, const Secrets& secrets) {
    for (auto& h : r.headers) {
        if (is_sensitive_header(h.name)) h.value = std::string(mark);
        else secrets.mask(h.value);
    }
    if (url_may_need_mask(r.url)) r.url = redact_url(r.url);
    secrets.mask(r.url);
    secrets.mask(r.body);
}

void redact_response(Response& r, const Secrets& secrets) {
    for (auto& h : r.headers) {
        if (is_sensitive_header(h.name)) h.value = std::string(mark);
        else secrets.mask(h.value);
    }
    secrets.mask(r.reason);
    secrets.mask(r.body);
}

void scrub_step(StepRecord& s, const Secrets& secrets) {
    secrets.mask(s.name);
    redact_request(s.exchange.request, secrets);
    if (s.exchange.response) redact_response(*s.exchange.response, secrets);
    if (s.exchange.error) secrets.mask(s.exchange.error->message);
    for (auto& f : s.exchange.findings) {
        secrets.mask(f.what);
        secrets.mask(f.actual);
    }
    for (auto& c : s.checks) {
        if (checks_sensitive_header(c.what) && c.actual != "(absent)") c.actual = std::string(mark);
        secrets.mask(c.what);
        secrets.mask(c.expected);
        secrets.mask(c.actual);
    }
    secrets.mask(s.reproduce);
}

void Secrets::add_credentials_of(const StepRecord& s) {
    add_credentials_of(s.exchange);
    // A check on a sensitive header quotes its value (in the case message too).
    for (const auto& c : s.checks)
        if (checks_sensitive_header(c.what) && c.actual != "(absent)" && c.actual != mark && c.actual.size() >= 4)
            add(c.actual);
}

void scrub_step(StepRecord& s, const std::set<std::string>& secret_values) {
    Secrets secrets(secret_values);
    secrets.add_credentials_of(s);
    scrub_step(s, secrets);
}

void scrub_passed_case(CaseResult& r, const std::set<std::string>& secret_values) {
    Secrets secrets(secret_values);
    for (const auto& s : r.steps) secrets.add_credentials_of(s);
    for (auto& s : r.steps) {
        auto& url = s.exchange.request.url;
        if (url_may_need_mask(url)) url = redact_url(url);
        for (auto& c : s.checks)
            if (checks_sensitive_header(c.what) && c.actual != "(absent)") c.actual = std::string(mark);
        if (secrets.empty()) continue;
        secrets.mask(s.name);
        secrets.mask(url);
        for (auto& c : s.checks) {
            secrets.mask(c.what);
            secrets.mask(c.expected);
            secrets.mask(c.actual);
        }
    }
    if (secrets.empty()) return;
    secrets.mask(r.name);
    secrets.mask(r.message);
    secrets.mask(r.detail);
    for (auto& p : r.properties) secrets.mask(p.value);
}

void scrub_case(CaseResult& r, const std::set<std::string>& secret_values) {
    Secrets secrets(secret_values);
    for (const auto& s : r.steps) secrets.add_credentials_of(s);
    for (auto& s : r.steps) scrub_step(s, secrets);
    if (secrets.empty()) return;
    secrets.mask(r.name);
    secrets.mask(r.message);
    secrets.mask(r.detail);
    for (auto& p : r.properties) secrets.mask(p.value);
}

}  // namespace idconform::redact
