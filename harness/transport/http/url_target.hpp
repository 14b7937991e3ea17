// The socket-free half of the HTTP transport: turning an absolute URL into
// what a connection needs (scheme, host, port, Host header, request target),
// validating what will be written on the wire, and computing the next request
// of a redirect. Kept apart from the Beast code so it is unit-tested without a
// network and compiles fast.
#pragma once

#include "core/exchange.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace idconform::transport::http {

struct Target {
    std::string scheme;       // "http" or "https"
    std::string host;         // for DNS, SNI and certificate checks: no brackets, no port
    bool host_is_ip = false;  // IPv4 or IPv6 literal (no DNS, no SNI, IP SAN check)
    std::uint16_t port = 0;   // explicit or the scheme's default
    std::string host_header;  // value for Host: host[:port], port only when not the default
    std::string target;       // origin-form request target: path?query, never empty
    std::string userinfo;     // decoded "user:password" from the URL, empty when none

    std::string pool;         // pool_key(), filled by parse_target

    [[nodiscard]] bool tls() const { return scheme == "https"; }
    // Key of the keep-alive pool: connections are shared only within one.
    [[nodiscard]] std::string pool_key() const;
    // "host:port" for messages ("[::1]:8080" for IPv6).
    [[nodiscard]] std::string authority() const;
};

struct ParsedTarget {
    std::optional<Target> target;
    std::string error;  // set when target is empty
};

// Parses an absolute http/https URL. Any other scheme, a relative reference,
// an empty host or a bad port is an error with a message saying which.
[[nodiscard]] ParsedTarget parse_target(std::string_view url);

// parse_target with a memory of the last origin ("scheme://authority" as
// written) it parsed: a URL with the same origin, whose path and query are
// plain RFC 3986 characters (valid %XX escapes, no fragment), is split
// without a full parse. Everything else goes through parse_target. The same
// results either way (tested); not thread-safe.
class TargetCache {
public:
    [[nodiscard]] ParsedTarget parse(std::string_view url);

private:
    std::string origin_;
    Target proto_;  // origin_'s Target; its `target` is filled per URL
};

// Checks that the method is an HTTP token and that no header name or value
// could split the message (CR, LF, NUL; names must be tokens). Returns an
// empty string when fine, else what is wrong.
[[nodiscard]] std::string validate_request(const Request& request);

// The value for "Authorization: Basic ..." from a decoded "user:password".
[[nodiscard]] std::string basic_auth(std::string_view userinfo);

// Status codes that carry a Location to follow.
[[nodiscard]] bool is_redirect(int status) noexcept;

struct RedirectStep {
    std::optional<Request> next;  // the request to send next
    std::string error;            // set when next is empty
};

// Builds the request that follows a redirect answer `status` with `location`
// (as sent, possibly relative) to `current`:
// - 303: GET without body (HEAD stays HEAD);
// - 301/302: POST becomes GET without body (what browsers and curl do), any
//   other method is kept;
// - 307/308: method and body kept.
// When the body is dropped, Content-Length/Content-Type/Transfer-Encoding go
// too. When the origin (scheme, host, port) changes, Authorization, Cookie
// and Proxy-Authorization are dropped so credentials never leak to another
// host. The Host header is always recomputed from the new URL.
[[nodiscard]] RedirectStep next_redirect(const Request& current, int status, std::string_view location);

}  // namespace idconform::transport::http
