// Tests of the one redaction module (core/redact.hpp): the lists, URL
// masking, secret values in their URL forms, and the scrub of whole results.
#include "core/redact.hpp"

#include <doctest/doctest.h>

#include <cctype>
#include <string>

using namespace idconform;
using namespace idconform::redact;

namespace {

bool contains(const std::string& s, std::string_view what) { return s.find(what) != std::string::npos; }

}  // namespace

TEST_CASE("one list: X-Api-Key and other credential headers are sensitive for everyone") {
    for (const char* name : {"Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "X-Api-Key", "x-api-key",
                             "X-Auth-Token"}) {
        CAPTURE(name);
        CHECK(is_sensitive_header(name));
    }
    CHECK_FALSE(is_sensitive_header("X-Request-Id"));
    CHECK(mark == "[REDACTED]");
}

TEST_CASE("redact_url masks sensitive query parameters and keeps the others") {
    CHECK(redact_url("http://h/p?api_key=k1&n=2") == "http://h/p?api_key=[REDACTED]&n=2");
    CHECK(redact_url("http://h/p?n=2&ACCESS_TOKEN=abc#frag") == "http://h/p?n=2&ACCESS_TOKEN=[REDACTED]#frag");
    CHECK(redact_url("http://h/p?token=") == "http://h/p?token=");
    CHECK(redact_url("http://h/p?q=1") == "http://h/p?q=1");
    CHECK(redact_url("https://u:pw@h/p?password=x") == "https://u:[REDACTED]@h/p?password=[REDACTED]");
    CHECK(redact_text("curl -sS -i 'http://h/p?api_key=k1&n=2' -H 'X-Api-Key: k2'") ==
          "curl -sS -i 'http://h/p?api_key=[REDACTED]&n=2' -H 'X-Api-Key: [REDACTED]'");
}

TEST_CASE("a secret value is masked in its percent-encoded URL forms too") {
    Secrets s(std::set<std::string>{"p@ss w/rd"});
    std::string url = "http://h/items?q=p%40ss%20w%2Frd&r=p%40ss+w%2Frd&l=p%40ss%20w%2frd";
    s.mask(url);
    CHECK(url == "http://h/items?q=[REDACTED]&r=[REDACTED]&l=[REDACTED]");
    std::string text = "invalid URL 'http://h/p@ss w/rd'";
    s.mask(text);
    CHECK_FALSE(contains(text, "p@ss w/rd"));
}

TEST_CASE("credentials seen in sensitive headers are masked wherever they are echoed") {
    Secrets s;
    s.add_credential("Bearer tok-0123456789");
    s.add_credential("sid=cookie-abcdefgh; Path=/; HttpOnly");
    s.add_credential("short");  // too short to be told from ordinary words
    std::string body = R"({"seen":"tok-0123456789","sid":"cookie-abcdefgh","word":"short"})";
    s.mask(body);
    CHECK(body == R"({"seen":"[REDACTED]","sid":"[REDACTED]","word":"short"})");
}

TEST_CASE("mark_secret_headers lists the headers holding a secret value") {
    Request r;
    r.headers = {{"X-Tenant", "t1"}, {"X-Signature", "sig=s3cr3t-value"}, {"Accept", "*/*"}};
    mark_secret_headers(r, {"s3cr3t-value"});
    REQUIRE(r.secret_headers.size() == 1);
    CHECK(r.secret_headers[0] == "X-Signature");
}

TEST_CASE("scrub_case masks secrets in expectations, errors, response headers, echoed tokens and the message") {
    const std::string secret = "s3cret-expected-value";
    const std::string token = "bearer-token-0123456789";
    CaseResult r;
    r.name = "case";
    r.message = "header X-Echo: expected " + secret + ", got other";
    r.detail = "detail " + secret;
    r.properties = {{"endpoint", "GET /p?key=" + secret}};
    StepRecord st;
    st.name = "step";
    st.exchange.request.url = "http://h/p?api_key=k&x=" + secret;
    st.exchange.request.headers = {{"Authorization", "Bearer " + token}, {"X-Api-Key", "apikey-0123456789"}};
    Response resp;
    resp.status = 200;
    resp.headers = {{"Set-Cookie", "sid=cookie-value-123; Path=/"}, {"X-Echo-Token", token},
                    {"X-Echo-Key", "apikey-0123456789"}};
    resp.body = R"({"token":")" + token + R"("})";
    st.exchange.response = resp;
    st.exchange.error = TransportError{TransportErrorKind::other, "invalid URL 'http://h/" + secret + "'"};
    CheckResult eq;
    eq.what = "header X-Echo";
    eq.expected = secret;
    eq.actual = "other " + secret;
    CheckResult cookie;
    cookie.what = "header Set-Cookie";
    cookie.expected = "present";
    cookie.actual = "sid=cookie-value-123; Path=/";
    cookie.ok = true;
    st.checks = {eq, cookie};
    st.reproduce = "curl -H 'X-Api-Key: apikey-0123456789' 'http://h/p?x=" + secret + "'";
    r.steps.push_back(st);

    scrub_case(r, {secret});

    std::string all = r.name + r.message + r.detail;
    for (const auto& p : r.properties) all += p.value;
    const auto& s = r.steps[0];
    all += s.name + s.exchange.request.url + s.exchange.response->body + s.exchange.error->message + s.reproduce;
    for (const auto& h : s.exchange.request.headers) all += h.value;
    for (const auto& h : s.exchange.response->headers) all += h.value;
    for (const auto& c : s.checks) all += c.what + c.expected + c.actual;
    CAPTURE(all);
    CHECK_FALSE(contains(all, secret));
    CHECK_FALSE(contains(all, token));
    CHECK_FALSE(contains(all, "apikey-0123456789"));
    CHECK_FALSE(contains(all, "cookie-value-123"));
    CHECK(s.checks[1].actual == "[REDACTED]");
    CHECK(contains(s.exchange.request.url, "api_key=[REDACTED]"));
}

TEST_CASE("scrub_case leaves a result without secrets or credentials as it was") {
    CaseResult r;
    r.name = "plain";
    r.message = "status: expected 200, got 404";
    StepRecord st;
    st.exchange.request.url = "http://h/items/1?page=2";
    st.exchange.request.headers = {{"Accept", "application/json"}};
    r.steps.push_back(st);
    scrub_case(r, {});
    CHECK(r.message == "status: expected 200, got 404");
    CHECK(r.steps[0].exchange.request.url == "http://h/items/1?page=2");
    CHECK(r.steps[0].exchange.request.headers[0].value == "application/json");
}

TEST_CASE("scrub_passed_case masks what a passed case keeps: names, request URLs and checks") {
    const std::string secret = "p4ss word";
    CaseResult r;
    r.name = "passed";
    StepRecord st;
    st.name = "step";
    st.exchange.request.url = "http://h/p?token=abc&q=p4ss%20word";
    st.exchange.request.headers = {{"Authorization", "Bearer echoed-token-123"}};
    CheckResult c;
    c.what = "json /seen";
    c.expected = "present";
    c.actual = "\"echoed-token-123\"";
    c.ok = true;
    CheckResult cookie;
    cookie.what = "header set-cookie";
    cookie.expected = "present";
    cookie.actual = "sid=1";
    cookie.ok = true;
    st.checks = {c, cookie};
    r.steps.push_back(st);
    scrub_passed_case(r, {secret});
    CHECK(r.steps[0].exchange.request.url == "http://h/p?token=[REDACTED]&q=[REDACTED]");
    CHECK(r.steps[0].checks[0].actual == "\"[REDACTED]\"");
    CHECK(r.steps[0].checks[1].actual == "[REDACTED]");
}

TEST_CASE("a Basic credential is masked as base64 (padded or not, percent-encoded), decoded pair and password") {
    Secrets s;
    s.add_credential("Basic YWxpY2U6Y29ycmVjdC1ob3JzZS1iYXR0ZXJ5");  // alice:correct-horse-battery
    s.add_credential("basic Ym9iOnB3");                            // bob:pw (short: the pair only)
    std::string body = "a=YWxpY2U6Y29ycmVjdC1ob3JzZS1iYXR0ZXJ5 b=alice:correct-horse-battery c=correct-horse-battery "
                       "d=bob:pw e=alice f=pw";
    s.mask(body);
    CHECK(body == "a=[REDACTED] b=[REDACTED] c=[REDACTED] d=[REDACTED] e=alice f=pw");
    Secrets t;
    t.add_credential("Basic dXNlcjpwYXNzd29yZC13aXRoLXBhZD8/Pz8+");  // user:password-with-pad????>, '+' and '/'
    std::string url = "http://h/?echo=dXNlcjpwYXNzd29yZC13aXRoLXBhZD8%2FPz8%2B";
    t.mask(url);
    CHECK(url == "http://h/?echo=[REDACTED]");
    Secrets u;
    u.add_credential("Basic not base64!");  // not base64: only the value itself
    std::string text = "Basic not base64!";
    u.mask(text);
    CHECK(text == "[REDACTED]");
}

TEST_CASE("report lines: header names match whatever their case, URLs are masked only for userinfo or a query") {
    // the sensitive-name scan compares a name's last letter first: case must not matter there either
    CHECK(redact_text("AUTHORIZATION: Bearer t0k3n") == "AUTHORIZATION: [REDACTED]");
    CHECK(redact_text("-H 'x-api-KEY: k2'") == "-H 'x-api-KEY: [REDACTED]'");
    CHECK(redact_text("x-tenant-SECRET: s3", {"X-Tenant-Secret"}) == "x-tenant-SECRET: [REDACTED]");
    CHECK(redact_text("X-Tenant-Secrets: s3", {"X-Tenant-Secret"}) == "X-Tenant-Secrets: s3");
    // a line with a URL and no secret name: masked for userinfo or a query, kept as it is otherwise
    CHECK(redact_text("step 1: GET http://u:pw@h/p -> 200 OK") == "step 1: GET http://u:[REDACTED]@h/p -> 200 OK");
    CHECK(redact_text("step 1: GET http://h/p?token=abc -> 200 OK") == "step 1: GET http://h/p?token=[REDACTED] -> 200 OK");
    CHECK(redact_text("step 1: GET http://h/p/01a2 -> 200 OK") == "step 1: GET http://h/p/01a2 -> 200 OK");
}

TEST_CASE("every built-in sensitive name is found in any case, in header lists and in report lines") {
    // both look at a name's last letter first (a table of the built-in names' last letters)
    for (const auto& name : sensitive_headers()) {
        std::string upper = name, lower = name;
        for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        for (const auto& n : {name, upper, lower}) {
            CAPTURE(n);
            CHECK(is_sensitive_header(n));
            CHECK(redact_text(n + ": v4lue") == n + ": [REDACTED]");
            CHECK(redact_text("-H '" + n + ": v4lue'") == "-H '" + n + ": [REDACTED]'");
        }
        CHECK_FALSE(is_sensitive_header(name.substr(0, name.size() - 1)));
        CHECK(redact_text(name + "s: v4lue") == name + "s: v4lue");
    }
    CHECK_FALSE(is_sensitive_header(""));
    CHECK(is_sensitive_header("X-Tenant-Pass", {"x-tenant-pass"}));
}
