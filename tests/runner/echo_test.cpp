// An error that quotes the rejected input is not a leak (issue #22 section
// 3): find_outside_echoes (runner/echo.hpp) and the `not_contains` check
// with `allow_echo`, on answers in the shapes real servers give (JSON with
// escaped quotes, Go's %q inside JSON, a percent-encoded path in plain text,
// HTML error pages), and the answers that still fail: the live id outside
// the quote, a sent value that is the live id itself, no allow_echo at all.
#include "runner/echo.hpp"

#include "test_support.hpp"

#include <doctest/doctest.h>

using namespace idconform;
using namespace idconform::runner;
using namespace idconform::runner::test;

namespace {

const std::string live = v7_text;  // 017f22e2-79b0-7cc3-98c4-dc0c0c07398f

EchoSearch search(const std::string& body, const std::string& sent) { return find_outside_echoes(body, live, {sent}); }

// The quoted forms of one sent value: every occurrence of the live id is inside it.
void quoted(const std::string& body, const std::string& sent) {
    INFO("body: " << body);
    const EchoSearch s = search(body, sent);
    CHECK(s.occurrences >= 1);
    CHECK(s.outside() == 0);
    CHECK(s.first_outside == EchoSearch::npos);
    CHECK(s.echoed == sent);
}

CheckResult not_contains(const std::string& body, std::vector<std::string> allow_echo, Ctx& c, int status = 400) {
    suite::Expect e;
    e.body = suite::BodyExpect{};
    e.body->not_contains = {"${live_id}"};
    e.body->allow_echo = std::move(allow_echo);
    const auto out = evaluate(e, answered(status, body), c.ctx);
    REQUIRE(out.size() == 1);
    CHECK(out[0].what == "body does not contain");
    return out[0];
}

}  // namespace

TEST_CASE("echo: the mutations that hold the live id, quoted the ways servers quote them") {
    SUBCASE("JSON with escaped quotes") {
        quoted(R"({"error": "not a valid UUID: \"{)" + live + R"(}\""})", "{" + live + "}");
        quoted(R"({"error": "invalid id \"urn:uuid:)" + live + R"(\""})", "urn:uuid:" + live);
        quoted(R"({"error": "invalid id \" )" + live + R"( \""})", " " + live + " ");
        quoted(R"({"error": "invalid id \")" + live + R"(0\""})", live + "0");
    }
    SUBCASE("a trailing newline, JSON-escaped once, and twice (Go's %q inside JSON)") {
        quoted(R"({"error": "invalid id \")" + live + R"(\n\""})", live + "\n");
        quoted(R"({"error": "invalid UUID \")" + live + R"(\\n\": invalid length"})", live + "\n");
        quoted("{\"detail\": \"bad \\u0022" + live + "\\u000a\\u0022\"}", live + "\n");
    }
    SUBCASE("every character escaped, or the value trimmed by the server") {
        quoted("{\"error\":\"\\u007b" + live + "\\u007d\"}", "{" + live + "}");
        quoted("{\"error\":\"not a UUID: '{" + live + "}'\"}", "{" + live + "}\n");  // trimmed: "{L}"
        quoted("ValueError('badly formed hexadecimal UUID string: \\'{" + live + "}\\'')", "{" + live + "}");
    }
    SUBCASE("a percent-encoded path or query in plain text") {
        quoted("404 page not found: /v1/notes/%7B" + live + "%7D\n", "{" + live + "}");
        quoted("no route for GET /v1/notes/%7b" + live + "%7d", "{" + live + "}");
        quoted("no such note: /v1/notes/%20" + live + "%20", " " + live + " ");
        quoted("no such note: /v1/notes/" + live + "%0A", live + "\n");
        quoted("bad query id=urn%3Auuid%3A" + live, "urn:uuid:" + live);
        quoted("bad query ?id=+" + live + "+&x=1", " " + live + " ");
    }
    SUBCASE("an HTML error page") {
        quoted("<html><body><h1>400</h1><p>No note matches &quot;&#123;" + live + "&#x7D;&quot;</p></body></html>",
               "{" + live + "}");
        quoted("<p>urn&colon;uuid&colon;" + live + "</p>", "urn:uuid:" + live);
        quoted("<pre>id=" + live + "&#10;</pre>", live + "\n");
        quoted("<p>bad id &lbrace;" + live + "&rbrace;</p>", "{" + live + "}");
    }
    SUBCASE("a long answer: the echo far past any excerpt") {
        quoted(std::string(100000, 'x') + "invalid \"{" + live + "}\"" + std::string(5000, 'y'), "{" + live + "}");
    }
}

TEST_CASE("echo: the live id outside the quote, or a quote that is no echo, is still found") {
    SUBCASE("an error that quotes the input and carries the entity") {
        const std::string body = R"({"error":"not a valid UUID: \"{)" + live + R"(}\"","did_you_mean":{"id":")" + live +
                                 R"(","name":"Widget"}})";
        const EchoSearch s = search(body, "{" + live + "}");
        CHECK(s.occurrences == 2);
        CHECK(s.inside_echo == 1);
        CHECK(s.outside() == 1);
        CHECK(s.first_outside == body.rfind(live));
    }
    SUBCASE("the entity answered under the normalised id beside the requested value") {
        const std::string body = R"({"requested":"urn:uuid:)" + live + R"(","id":")" + live + R"("})";
        const EchoSearch s = search(body, "urn:uuid:" + live);
        CHECK(s.outside() == 1);
        CHECK(s.first_outside == body.rfind(live));
    }
    SUBCASE("half a quote is no quote") {
        const EchoSearch s = search("bad id {" + live + ", see the docs", "{" + live + "}");
        CHECK(s.occurrences == 1);
        CHECK(s.outside() == 1);
        CHECK(s.first_outside == 8);
    }
    SUBCASE("a quote of the value the server normalised is the live id, not the sent value") {
        // the padded mutation trimmed is the live id itself: nothing to tell apart
        const EchoSearch s = search(R"({"error":"no note \")" + live + R"(\""})", " " + live + " ");
        CHECK(s.outside() == 1);
        CHECK(s.sent_is_needle);
    }
    SUBCASE("the sent value is the live id itself") {
        const EchoSearch s = search(R"({"error":"no note )" + live + R"("})", live);
        CHECK(s.occurrences == 1);
        CHECK(s.outside() == 1);
        CHECK(s.sent_is_needle);
        CHECK(s.echoed.empty());
    }
    SUBCASE("a sent value without the live id hides nothing") {
        const EchoSearch s = search(R"({"error":"bad )" + v7_upper + R"(", "id":")" + live + R"("})", v7_upper);
        CHECK(s.outside() == 1);
        CHECK_FALSE(s.sent_is_needle);
        const EchoSearch none = search(R"({"error":"bad"})", "{" + live + "}");
        CHECK(none.occurrences == 0);
        CHECK(none.first_outside == EchoSearch::npos);
    }
}

TEST_CASE("not_contains with allow_echo: the check's verdict and evidence") {
    Ctx c;
    c.scope.set("live_id", boost::json::value(live));
    c.scope.set("m", boost::json::value("{" + live + "}"));
    const std::string echo = R"({"error": "not a valid UUID: \"{)" + live + R"(}\""})";

    SUBCASE("an error that quotes the refused value passes, saying so") {
        const CheckResult r = not_contains(echo, {"${m}"}, c);
        CHECK(r.ok);
        CHECK(r.expected == live + " (outside a quoted sent value)");
        CHECK(r.actual.rfind("the answer quotes the sent value \"{" + live + "}\" (once), and \"" + live +
                                 "\" does not occur outside it: {\"error\"",
                             0) == 0);
    }
    SUBCASE("the same answer without allow_echo fails as before") {
        const CheckResult r = not_contains(echo, {}, c);
        CHECK_FALSE(r.ok);
        CHECK(r.expected == live);
        CHECK(r.actual == "found in " + echo);
    }
    SUBCASE("the live id outside the quote fails, pointing at it") {
        const std::string body = std::string(R"({"error": "not a valid UUID: \"{)") + live +
                                 R"(}\"", "note": {"id": ")" + live + R"(", "name": "Widget"}})";
        const CheckResult r = not_contains(body, {"${m}"}, c);
        CHECK_FALSE(r.ok);
        const std::string at = std::to_string(body.rfind(live));
        CHECK(r.actual.rfind("found outside any quoted sent value, at byte " + at + ": ", 0) == 0);
        CHECK(r.actual.find(R"("name": "Widget")") != std::string::npos);
        CHECK(r.actual.find("(the answer also quotes the sent value \"{" + live + "}\", once)") != std::string::npos);
    }
    SUBCASE("an entity answered for the mutated id fails") {
        const CheckResult r = not_contains(R"({"id": ")" + live + R"(", "name": "Widget"})", {"${m}"}, c, 200);
        CHECK_FALSE(r.ok);
        CHECK(r.actual.rfind("found outside any quoted sent value, at byte 8: ", 0) == 0);
    }
    SUBCASE("a sent value that is the live id hides nothing, and says why") {
        c.scope.set("same", boost::json::value(live));
        const CheckResult r = not_contains(R"({"error":"no order )" + live + R"("})", {"${same}"}, c, 404);
        CHECK_FALSE(r.ok);
        CHECK(r.actual.find("(the sent value is this text itself: its echo cannot be told from the entity's)") !=
              std::string::npos);
    }
    SUBCASE("an answer without the live id passes as before") {
        const CheckResult r = not_contains(R"({"error":"bad id"})", {"${m}"}, c);
        CHECK(r.ok);
        CHECK(r.actual == "not found");
    }
    SUBCASE("an undefined sent value is not checked") {
        const CheckResult r = not_contains(echo, {"${nope}"}, c);
        CHECK_FALSE(r.ok);
        CHECK(r.expected == "undefined variable ${nope}");
    }
    SUBCASE("a pack's trailing-newline mutation in a Go-style answer") {
        c.scope.set("m", boost::json::value(live + "\n"));
        const CheckResult r =
            not_contains(R"({"error":"invalid UUID \")" + live + R"(\\n\": invalid length 37"})", {"${m}"}, c);
        CHECK(r.ok);
        CHECK(r.actual.rfind("the answer quotes the sent value \"" + live + "\\n\" (once)", 0) == 0);
    }
}

TEST_CASE("echo: a quote can make the live id out of a sent value that does not hold it") {
    // The full-width digit mutation replaces the id's first '0' with U+FF10;
    // percent-encoded (%EF%BC%90) or JSON-escaped (\uff10) its last hex digit
    // is a '0' again, and the raw answer holds the live id: inside the quote.
    const std::string fullwidth = "\xEF\xBC\x90" + live.substr(1);
    REQUIRE(live[0] == '0');
    REQUIRE(fullwidth.find(live) == std::string::npos);
    quoted("<pre>Cannot GET /v1/tags/%EF%BC%90" + live.substr(1) + "</pre>", fullwidth);
    quoted("{\"error\":\"invalid id \\\"\\uff10" + live.substr(1) + "\\\"\"}", fullwidth);
    // the same bytes with no quote of the sent value around them are the live id
    const EchoSearch s =
        search("<pre>Cannot GET /v1/tags/%EF%BC%90" + live.substr(1) + "</pre><p>" + live + "</p>", fullwidth);
    CHECK(s.occurrences == 2);
    CHECK(s.outside() == 1);
}
