// Masking the password of a connection string (conninfo.hpp).
#include "db/conninfo.hpp"

#include "core/redact.hpp"
#include "core/strings.hpp"

#include <cctype>

namespace idconform::db {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }



// One keyword=value pair of a key/value conninfo, as libpq reads it: the
// value is a run of non-space characters or a single-quoted string with \'
// and \\ escapes. Calls f(key, value, value_begin, value_end) per pair.
template <class F>
void each_pair(std::string_view s, F&& f) {
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && is_space(s[i])) ++i;
        const std::size_t key_begin = i;
        while (i < s.size() && s[i] != '=' && !is_space(s[i])) ++i;
        const std::string_view key = s.substr(key_begin, i - key_begin);
        while (i < s.size() && is_space(s[i])) ++i;
        if (i >= s.size() || s[i] != '=') {  // not a pair: libpq rejects the string; mask nothing more
            if (key.empty()) return;
            continue;
        }
        ++i;
        while (i < s.size() && is_space(s[i])) ++i;
        const std::size_t vb = i;
        std::string value;
        if (i < s.size() && s[i] == '\'') {
            ++i;
            while (i < s.size() && s[i] != '\'') {
                if (s[i] == '\\' && i + 1 < s.size()) ++i;
                value += s[i++];
            }
            if (i < s.size()) ++i;  // the closing quote
        } else {
            while (i < s.size() && !is_space(s[i])) {
                if (s[i] == '\\' && i + 1 < s.size()) ++i;
                value += s[i++];
            }
        }
        f(key, value, vb, i);
    }
}

// The URI's userinfo password (between "://", the first ':' and the last
// '@' before the path).
std::string_view uri_userinfo_password(std::string_view uri) {
    const std::size_t scheme = uri.find("://");
    if (scheme == std::string_view::npos) return {};
    const std::size_t start = scheme + 3;
    std::size_t end = uri.find_first_of("/?", start);
    if (end == std::string_view::npos) end = uri.size();
    const std::string_view authority = uri.substr(start, end - start);
    const std::size_t at = authority.rfind('@');
    if (at == std::string_view::npos) return {};
    const std::string_view userinfo = authority.substr(0, at);
    const std::size_t colon = userinfo.find(':');
    if (colon == std::string_view::npos) return {};
    return userinfo.substr(colon + 1);
}

}  // namespace

bool is_uri(std::string_view c) noexcept { return c.starts_with("postgresql://") || c.starts_with("postgres://"); }

std::string redact_conninfo(std::string_view conninfo) {
    if (is_uri(conninfo)) {
        std::string out = redact::redact_url(conninfo);
        // redact_url masks a userinfo password and sensitive query parameters;
        // mask the userinfo password here as well in case it held a '@' or '/'
        // the URL reading stopped at.
        const std::string_view pw = uri_userinfo_password(conninfo);
        if (!pw.empty()) {
            redact::Secrets s;
            s.add(pw);
            s.mask(out);
        }
        return out;
    }
    std::string out;
    std::size_t copied = 0;  // conninfo[0, copied) is in out
    each_pair(conninfo, [&](std::string_view key, const std::string&, std::size_t vb, std::size_t ve) {
        if (key != "password") return;
        out.append(conninfo.substr(copied, vb - copied));
        out.append(redact::mark);
        copied = ve;
    });
    out.append(conninfo.substr(copied));
    return out;
}

std::string password_in(std::string_view conninfo) {
    std::string found;
    if (is_uri(conninfo)) {
        found = percent_decode(uri_userinfo_password(conninfo));
        const std::size_t q = conninfo.find('?');
        if (q != std::string_view::npos) {
            std::string_view query = conninfo.substr(q + 1);
            while (!query.empty()) {
                const std::size_t amp = query.find('&');
                const std::string_view item = query.substr(0, amp);
                if (item.starts_with("password=")) found = percent_decode(item.substr(9));
                if (amp == std::string_view::npos) break;
                query.remove_prefix(amp + 1);
            }
        }
        return found;
    }
    each_pair(conninfo, [&](std::string_view key, const std::string& value, std::size_t, std::size_t) {
        if (key == "password") found = value;
    });
    return found;
}

}  // namespace idconform::db
