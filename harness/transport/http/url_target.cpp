// URL parsing (Boost.URL), request validation and redirect computation for
// the HTTP transport; no sockets here.
#include "transport/http/url_target.hpp"

#include "core/redact.hpp"

#include <boost/url/parse.hpp>
#include <boost/url/url.hpp>
#include <boost/url/url_view.hpp>

#include <openssl/evp.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <vector>

namespace idconform::transport::http {

namespace {

bool iequals(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

std::string lower(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// RFC 9110 tchar.
bool is_tchar(char c) {
    if (std::isalnum(static_cast<unsigned char>(c))) return true;
    constexpr std::string_view extra = "!#$%&'*+-.^_`|~";
    return extra.find(c) != std::string_view::npos;
}

bool is_token(std::string_view s) { return !s.empty() && std::all_of(s.begin(), s.end(), is_tchar); }

void erase_header(std::vector<Header>& headers, std::string_view name) {
    std::erase_if(headers, [&](const Header& h) { return iequals(h.name, name); });
}

}  // namespace

std::string Target::pool_key() const { return pool.empty() ? scheme + "://" + lower(authority()) : pool; }

std::string Target::authority() const {
    const bool v6 = host_is_ip && host.find(':') != std::string::npos;
    return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

ParsedTarget parse_target(std::string_view url) {
    ParsedTarget out;
    auto parsed = boost::urls::parse_uri(url);
    if (!parsed) {
        out.error = "invalid URL '" + std::string(url) + "': " + parsed.error().message();
        return out;
    }
    const boost::urls::url_view& u = *parsed;
    Target t;
    t.scheme = lower(std::string(u.scheme()));
    if (t.scheme != "http" && t.scheme != "https") {
        out.error = "unsupported URL scheme '" + std::string(u.scheme()) + "' in '" + std::string(url) +
                    "' (the HTTP transport takes http and https)";
        return out;
    }
    const std::uint16_t default_port = t.scheme == "https" ? 443 : 80;
    switch (u.host_type()) {
        case boost::urls::host_type::ipv4:
            t.host = std::string(u.encoded_host());
            t.host_is_ip = true;
            t.host_header = t.host;
            break;
        case boost::urls::host_type::ipv6:
            t.host = u.host_address();
            t.host_is_ip = true;
            t.host_header = "[" + t.host + "]";
            break;
        case boost::urls::host_type::name:
            t.host = lower(u.host_name());  // DNS names are case-insensitive; SNI wants lower case
            t.host_header = std::string(u.encoded_host());
            break;
        default:
            break;
    }
    if (t.host.empty()) {
        out.error = "URL '" + std::string(url) + "' has no host";
        return out;
    }
    t.port = default_port;
    if (u.has_port()) {
        const std::string_view p = u.port();
        unsigned value = 0;
        auto [end, ec] = std::from_chars(p.data(), p.data() + p.size(), value);
        if (p.empty() || ec != std::errc{} || end != p.data() + p.size() || value == 0 || value > 65535) {
            out.error = "URL '" + std::string(url) + "' has a bad port '" + std::string(p) + "'";
            return out;
        }
        t.port = static_cast<std::uint16_t>(value);
    }
    if (t.port != default_port) t.host_header += ":" + std::to_string(t.port);
    t.target = std::string(u.encoded_path());
    if (t.target.empty()) t.target = "/";
    if (u.has_query()) t.target += "?" + std::string(u.encoded_query());
    if (u.has_userinfo()) t.userinfo = u.userinfo();
    t.pool = t.pool_key();
    out.target = std::move(t);
    return out;
}

namespace {

// Path and query characters (RFC 3986 pchar, '/' and '?'), '%' aside.
constexpr bool plain_char(unsigned char c) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
    return std::string_view("-._~!$&'()*+,;=:@/?").find(static_cast<char>(c)) != std::string_view::npos;
}

bool hex_digit(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }

// Whether rest (what follows the authority) is a path and query that Boost.URL
// would take as written: plain characters and valid %XX escapes, no fragment.
bool plain_path_and_query(std::string_view rest) {
    static constexpr auto table = [] {
        std::array<bool, 256> t{};
        for (int c = 0; c < 256; ++c) t[static_cast<std::size_t>(c)] = plain_char(static_cast<unsigned char>(c));
        return t;
    }();
    for (std::size_t i = 0; i < rest.size(); ++i) {
        const auto c = static_cast<unsigned char>(rest[i]);
        if (table[c]) continue;
        if (c != '%' || i + 2 >= rest.size() || !hex_digit(rest[i + 1]) || !hex_digit(rest[i + 2])) return false;
        i += 2;
    }
    return true;
}

}  // namespace

ParsedTarget TargetCache::parse(std::string_view url) {
    const std::size_t sep = url.find("://");
    std::size_t end = std::string_view::npos;
    if (sep != std::string_view::npos) {
        end = url.find_first_of("/?#", sep + 3);
        if (end == std::string_view::npos) end = url.size();
        const std::string_view rest = url.substr(end);
        if (!origin_.empty() && url.substr(0, end) == origin_ && plain_path_and_query(rest)) {
            ParsedTarget out;
            out.target = proto_;
            // Boost.URL: an empty path is "/", a query keeps its '?'.
            if (rest.empty() || rest.front() == '?') out.target->target = "/";
            out.target->target.append(rest);
            return out;
        }
    }
    ParsedTarget out = parse_target(url);
    if (out.target && end != std::string_view::npos) {
        origin_ = std::string(url.substr(0, end));
        proto_ = *out.target;
        proto_.target.clear();
    }
    return out;
}

std::string validate_request(const Request& request) {
    if (!is_token(request.method)) return "invalid HTTP method '" + request.method + "'";
    for (const auto& h : request.headers) {
        if (!is_token(h.name)) return "invalid header name '" + h.name + "'";
        if (h.value.find_first_of(std::string_view("\r\n\0", 3)) != std::string::npos)
            return "header '" + h.name + "' has a CR, LF or NUL in its value";
    }
    return {};
}

std::string basic_auth(std::string_view userinfo) {
    std::string out(4 * ((userinfo.size() + 2) / 3) + 1, '\0');
    const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                  reinterpret_cast<const unsigned char*>(userinfo.data()),
                                  static_cast<int>(userinfo.size()));
    out.resize(static_cast<std::size_t>(n));
    return "Basic " + out;
}

bool is_redirect(int status) noexcept {
    return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

RedirectStep next_redirect(const Request& current, int status, std::string_view location) {
    RedirectStep out;
    auto base = boost::urls::parse_uri(current.url);
    if (!base) {
        out.error = "cannot follow redirect from invalid URL '" + current.url + "'";
        return out;
    }
    auto ref = boost::urls::parse_uri_reference(location);
    if (!ref) {
        out.error = "redirect Location '" + std::string(location) + "' is not a URL: " + ref.error().message();
        return out;
    }
    boost::urls::url resolved;
    if (auto r = boost::urls::resolve(*base, *ref, resolved); !r) {
        out.error = "cannot resolve redirect Location '" + std::string(location) + "': " + r.error().message();
        return out;
    }
    resolved.remove_fragment();
    Request next = current;
    next.url = std::string(resolved.buffer());

    auto from = parse_target(current.url);
    auto to = parse_target(next.url);
    if (!to.target) {
        out.error = "redirect to unusable URL: " + to.error;
        return out;
    }

    bool drop_body = false;
    if (status == 303) {
        if (next.method != "HEAD") next.method = "GET";
        drop_body = true;
    } else if ((status == 301 || status == 302) && next.method == "POST") {
        next.method = "GET";
        drop_body = true;
    }
    if (drop_body) {
        next.body.clear();
        for (auto name : {"Content-Length", "Content-Type", "Transfer-Encoding"}) erase_header(next.headers, name);
    }
    erase_header(next.headers, "Host");
    if (!from.target || from.target->pool_key() != to.target->pool_key()) {
        // Credentials (the one list of core/redact.hpp: Authorization,
        // Cookie, X-Api-Key, ...) and every header holding a secret value
        // stay with the origin they were meant for.
        std::erase_if(next.headers, [&](const Header& h) {
            return redact::is_sensitive_header(h.name, next.secret_headers);
        });
    }
    out.next = std::move(next);
    return out;
}

}  // namespace idconform::transport::http
