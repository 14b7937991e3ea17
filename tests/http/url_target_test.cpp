// Unit tests of the socket-free half of the HTTP transport: URL -> target,
// request validation, Basic auth and the redirect rules.
#include "transport/http/url_target.hpp"

#include <doctest/doctest.h>

using namespace idconform;
using namespace idconform::transport::http;

namespace {
const Header* find(const Request& r, std::string_view name) {
    for (const auto& h : r.headers)
        if (h.name == name) return &h;
    return nullptr;
}
}  // namespace

TEST_CASE("parse_target: defaults, explicit ports, queries, IPs") {
    auto a = parse_target("http://Example.com");
    REQUIRE(a.target);
    CHECK(a.target->scheme == "http");
    CHECK(a.target->host == "example.com");
    CHECK(a.target->port == 80);
    CHECK(a.target->host_header == "Example.com");
    CHECK(a.target->target == "/");
    CHECK_FALSE(a.target->host_is_ip);
    CHECK_FALSE(a.target->tls());

    auto b = parse_target("HTTPS://api.test:8443/v1/items?id=01%2F&x=1#frag");
    REQUIRE(b.target);
    CHECK(b.target->tls());
    CHECK(b.target->port == 8443);
    CHECK(b.target->host_header == "api.test:8443");
    CHECK(b.target->target == "/v1/items?id=01%2F&x=1");
    CHECK(b.target->pool_key() == "https://api.test:8443");

    auto c = parse_target("https://127.0.0.1:443/");
    REQUIRE(c.target);
    CHECK(c.target->host_is_ip);
    CHECK(c.target->host_header == "127.0.0.1");
    CHECK(c.target->authority() == "127.0.0.1:443");

    auto d = parse_target("http://[::1]:8080/x");
    REQUIRE(d.target);
    CHECK(d.target->host == "::1");
    CHECK(d.target->host_is_ip);
    CHECK(d.target->host_header == "[::1]:8080");
    CHECK(d.target->authority() == "[::1]:8080");

    auto e = parse_target("http://user:p%40ss@h/");
    REQUIRE(e.target);
    CHECK(e.target->userinfo == "user:p@ss");
}

TEST_CASE("parse_target: errors say what is wrong") {
    CHECK(parse_target("ftp://h/").error.find("unsupported URL scheme 'ftp'") != std::string::npos);
    CHECK(parse_target("/relative").error.find("invalid URL") != std::string::npos);
    CHECK(parse_target("http:///path").error.find("no host") != std::string::npos);
    CHECK(parse_target("http://h:0/").error.find("bad port") != std::string::npos);
    CHECK(parse_target("http://h:70000/").error.find("bad port") != std::string::npos);
    CHECK_FALSE(parse_target("http://h:70000/").target);
}

TEST_CASE("TargetCache gives parse_target's answer for every URL, cached origin or not") {
    const char* urls[] = {
        "http://127.0.0.1:8080/v1/products/01a22b3c-bcbc-72db-ad99-321878a2b316",
        "http://127.0.0.1:8080/v1/products/01A22B3C?x=1&y=%2F",
        "http://127.0.0.1:8080",
        "http://127.0.0.1:8080?q=1",
        "http://127.0.0.1:8080/a#frag",            // fragment: full parse, dropped
        "http://127.0.0.1:8080/a%zz",              // bad escape: full parse, error
        "http://127.0.0.1:8080/a%2",               // truncated escape
        "http://127.0.0.1:8080/a b",               // space: error
        "http://127.0.0.1:8080/a\"b",
        "http://127.0.0.1:8080//double/slash",
        "http://127.0.0.1:8080/v1/x?a=/b?c:@!$&'()*+,;=",
        "http://127.0.0.1:8081/other-port",
        "http://user:pw@127.0.0.1:8080/userinfo",
        "http://127.0.0.1:8080/after-userinfo",
        "HTTP://Example.COM/Path",
        "HTTP://Example.COM/Path?Q",
        "https://[::1]:8443/v6",
        "https://[::1]:8443/v6/again",
        "ftp://h/x",
        "ftp://h/y",
        "http://h:0/bad-port",
        "http://h:0/bad-port-again",
        "/relative",
    };
    TargetCache cache;
    for (int round = 0; round < 2; ++round) {
        for (const char* url : urls) {
            CAPTURE(url);
            const ParsedTarget want = parse_target(url);
            const ParsedTarget got = cache.parse(url);
            CHECK(got.error == want.error);
            REQUIRE(got.target.has_value() == want.target.has_value());
            if (!want.target) continue;
            CHECK(got.target->scheme == want.target->scheme);
            CHECK(got.target->host == want.target->host);
            CHECK(got.target->host_is_ip == want.target->host_is_ip);
            CHECK(got.target->port == want.target->port);
            CHECK(got.target->host_header == want.target->host_header);
            CHECK(got.target->target == want.target->target);
            CHECK(got.target->userinfo == want.target->userinfo);
            CHECK(got.target->pool_key() == want.target->pool_key());
        }
    }
}

TEST_CASE("validate_request refuses what could split the message") {
    Request r;
    r.method = "GET";
    r.headers = {{"X-Ok", "fine value"}};
    CHECK(validate_request(r).empty());
    r.method = "GET /x HTTP/1.1\r\n";
    CHECK_FALSE(validate_request(r).empty());
    r.method = "PROPFIND";
    CHECK(validate_request(r).empty());
    r.headers = {{"Bad Name", "v"}};
    CHECK(validate_request(r).find("invalid header name") != std::string::npos);
    r.headers = {{"X", std::string("a\0b", 3)}};
    CHECK_FALSE(validate_request(r).empty());
    r.headers = {{"X", "a\nb"}};
    CHECK_FALSE(validate_request(r).empty());
}

TEST_CASE("basic_auth encodes user:password") {
    CHECK(basic_auth("Aladdin:open sesame") == "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==");
    CHECK(basic_auth("a:") == "Basic YTo=");
}

TEST_CASE("next_redirect applies the method rules and resolves relative locations") {
    Request post;
    post.method = "POST";
    post.url = "http://h:8080/a/b?q=1";
    post.body = "{}";
    post.headers = {{"Content-Type", "application/json"}, {"Authorization", "Bearer t"}, {"Host", "h:8080"}};

    auto s303 = next_redirect(post, 303, "c");
    REQUIRE(s303.next);
    CHECK(s303.next->method == "GET");
    CHECK(s303.next->body.empty());
    CHECK(s303.next->url == "http://h:8080/a/c");
    CHECK_FALSE(find(*s303.next, "Content-Type"));
    CHECK(find(*s303.next, "Authorization"));  // same origin keeps credentials
    CHECK_FALSE(find(*s303.next, "Host"));     // recomputed from the new URL

    auto s302 = next_redirect(post, 302, "/x#frag");
    REQUIRE(s302.next);
    CHECK(s302.next->method == "GET");
    CHECK(s302.next->url == "http://h:8080/x");

    auto s307 = next_redirect(post, 307, "https://other.test/y");
    REQUIRE(s307.next);
    CHECK(s307.next->method == "POST");
    CHECK(s307.next->body == "{}");
    CHECK(find(*s307.next, "Content-Type"));
    CHECK_FALSE(find(*s307.next, "Authorization"));  // another origin: no credentials

    Request head = post;
    head.method = "HEAD";
    head.body.clear();
    auto h303 = next_redirect(head, 303, "/z");
    REQUIRE(h303.next);
    CHECK(h303.next->method == "HEAD");

    Request put = post;
    put.method = "PUT";
    auto p301 = next_redirect(put, 301, "//h:8080/moved");  // network-path reference
    REQUIRE(p301.next);
    CHECK(p301.next->method == "PUT");
    CHECK(p301.next->body == "{}");
    CHECK(p301.next->url == "http://h:8080/moved");

    CHECK_FALSE(next_redirect(post, 302, "ftp://h/").next);
    CHECK(next_redirect(post, 302, "ht tp://bad").error.find("Location") != std::string::npos);
    CHECK(is_redirect(308));
    CHECK_FALSE(is_redirect(304));
}
