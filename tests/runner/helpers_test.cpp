// Unit tests of the runner's small helpers: JSON pointer edits of request
// bodies, ISO-8601 parsing for the time-field check, the curl
// reproduction command (checked by a real shell) and Location id extraction.
#include "test_support.hpp"

#include "runner/expansion.hpp"
#include "runner/scope.hpp"
#include "runner/runner.hpp"
#include "runner/steps/grpc.hpp"
#include "runner/steps/http.hpp"

#include <boost/json/serialize.hpp>
#include <doctest/doctest.h>

#include <array>
#include <cstdio>

using namespace idconform;
using namespace idconform::runner;
using namespace idconform::runner::test;
using namespace idconform::runner::steps;
namespace json = boost::json;

// ---------------------------------------------------------- JSON pointers

TEST_CASE("set_at_pointer: an array index is digits without a leading zero (found by fuzz_json_pointer)") {
    json::value v = js(R"({"items":[]})");
    CHECK_FALSE(set_at_pointer(v, "/items/", 1));  // "" named element 0 and appended it
    CHECK_FALSE(set_at_pointer(v, "/items/00", 1));
    CHECK_FALSE(set_at_pointer(v, "/items/99999999999999999999", 1));
    CHECK(v == js(R"({"items":[]})"));
    CHECK(set_at_pointer(v, "/items/0", 1));
    CHECK(set_at_pointer(v, "/items/-", 2));
    CHECK(v == js(R"({"items":[1,2]})"));
}

TEST_CASE("set_at_pointer: members, nested creation, escapes") {
    json::value v = js(R"({"a":1})");
    CHECK(set_at_pointer(v, "/b", "x"));
    CHECK(set_at_pointer(v, "/a", nullptr));
    CHECK(set_at_pointer(v, "/n/e/w", 0));
    CHECK(set_at_pointer(v, "/a~1b", "slash"));
    CHECK(set_at_pointer(v, "/m~0n", "tilde"));
    CHECK(set_at_pointer(v, "/~01", "tilde-one"));  // "~01" is "~1" literally, not "/"
    CHECK(set_at_pointer(v, "/", "empty key"));
    CHECK(v == js(R"({"a":null,"b":"x","n":{"e":{"w":0}},"a/b":"slash","m~n":"tilde","~1":"tilde-one","":"empty key"})"));
    // a scalar on the way is replaced by an object
    CHECK(set_at_pointer(v, "/b/c", true));
    CHECK(v.at("b") == js(R"({"c":true})"));
    // the whole document
    CHECK(set_at_pointer(v, "", js("[1]")));
    CHECK(v == js("[1]"));
    // not a pointer
    json::value w = js("{}");
    CHECK_FALSE(set_at_pointer(w, "a", 1));
    CHECK(w == js("{}"));
}

TEST_CASE("set_at_pointer: arrays, '-' append, bounds") {
    json::value v = js(R"({"arr":[0,1],"objs":[{"id":"a"}]})");
    CHECK(set_at_pointer(v, "/arr/0", "zero"));
    CHECK(set_at_pointer(v, "/arr/2", 2));    // one past the end appends
    CHECK(set_at_pointer(v, "/arr/-", 3));    // '-' appends
    CHECK(set_at_pointer(v, "/objs/0/id", "b"));
    CHECK(set_at_pointer(v, "/objs/-/id", "c"));  // append, then create the member
    CHECK(v == js(R"({"arr":["zero",1,2,3],"objs":[{"id":"b"},{"id":"c"}]})"));
    CHECK_FALSE(set_at_pointer(v, "/arr/9", 9));
    CHECK_FALSE(set_at_pointer(v, "/arr/x", 9));
    CHECK_FALSE(set_at_pointer(v, "/arr/-1", 9));
    CHECK(v.at("arr").as_array().size() == 4);
    json::value top = js("[]");
    CHECK(set_at_pointer(top, "/-", "a"));
    CHECK(set_at_pointer(top, "/0", "b"));
    CHECK(top == js(R"(["b"])"));
}

TEST_CASE("erase_at_pointer: members, nested, escapes, missing") {
    json::value v = js(R"({"a":1,"b":{"c":2,"d":3},"a/b":4,"m~n":5})");
    CHECK(erase_at_pointer(v, "/a"));
    CHECK(erase_at_pointer(v, "/b/c"));
    CHECK(erase_at_pointer(v, "/a~1b"));
    CHECK(erase_at_pointer(v, "/m~0n"));
    CHECK(v == js(R"({"b":{"d":3}})"));
    CHECK_FALSE(erase_at_pointer(v, "/a"));
    CHECK_FALSE(erase_at_pointer(v, "/x/y"));
    CHECK_FALSE(erase_at_pointer(v, "/b/d/e"));
    CHECK_FALSE(erase_at_pointer(v, ""));
    CHECK_FALSE(erase_at_pointer(v, "b/d"));  // not a pointer
    CHECK(v == js(R"({"b":{"d":3}})"));
}

TEST_CASE("erase_at_pointer: through arrays and array elements") {
    json::value v = js(R"({"items":[{"id":"a","ref_id":"x"},{"id":"b"},{"id":"c"}]})");
    CHECK(erase_at_pointer(v, "/items/0/ref_id"));
    CHECK(v == js(R"({"items":[{"id":"a"},{"id":"b"},{"id":"c"}]})"));
    CHECK(erase_at_pointer(v, "/items/1"));
    CHECK(v == js(R"({"items":[{"id":"a"},{"id":"c"}]})"));
    CHECK_FALSE(erase_at_pointer(v, "/items/2"));
    CHECK_FALSE(erase_at_pointer(v, "/items/-"));
    CHECK_FALSE(erase_at_pointer(v, "/items/x/id"));
    CHECK_FALSE(erase_at_pointer(v, "/items/5/id"));
    CHECK(v == js(R"({"items":[{"id":"a"},{"id":"c"}]})"));
}

TEST_CASE("resolve_pointer: a pointer written as a variable") {
    Scope s;
    s.set("res", js(R"({"id_at":"/data/id"})"));
    CHECK(resolve_pointer("/plain/ptr", s) == "/plain/ptr");
    CHECK(resolve_pointer("${res.id_at}", s) == "/data/id");
    CHECK(resolve_pointer("${res.id_at}/x", s) == "/data/id/x");
    CHECK(resolve_pointer("${undefined}", s) == "${undefined}");  // left as written: finds nothing
}

// --------------------------------------------------------------- ISO-8601

TEST_CASE("parse_iso8601_ms: whole seconds and fractions of 1..9 digits") {
    bool exact = false;
    CHECK(parse_iso8601_ms("2022-02-22T19:22:22Z", &exact) == v7_ms);
    CHECK(exact);
    struct Row {
        const char* text;
        std::int64_t ms;
        bool exact;
    };
    const Row rows[] = {
        {"2022-02-22T19:22:22.1Z", v7_ms + 100, true},
        {"2022-02-22T19:22:22.12Z", v7_ms + 120, true},
        {"2022-02-22T19:22:22.123Z", v7_ms + 123, true},
        {"2022-02-22T19:22:22.1234Z", v7_ms + 123, false},
        {"2022-02-22T19:22:22.1230Z", v7_ms + 123, true},
        {"2022-02-22T19:22:22.12345Z", v7_ms + 123, false},
        {"2022-02-22T19:22:22.123456Z", v7_ms + 123, false},
        {"2022-02-22T19:22:22.000001Z", v7_ms, false},
        {"2022-02-22T19:22:22.1234567Z", v7_ms + 123, false},
        {"2022-02-22T19:22:22.12345678Z", v7_ms + 123, false},
        {"2022-02-22T19:22:22.123456789Z", v7_ms + 123, false},
        {"2022-02-22T19:22:22.999000000Z", v7_ms + 999, true},
        {"2022-02-22T19:22:22.000+00:00", v7_ms, true},
        {"2022-02-22T19:22:22.5z", v7_ms + 500, true},
        {"2022-02-22 19:22:22.007Z", v7_ms + 7, true},
    };
    for (const auto& r : rows) {
        const std::string text = r.text;
        CAPTURE(text);
        exact = !r.exact;
        CHECK(parse_iso8601_ms(r.text, &exact) == r.ms);
        CHECK(exact == r.exact);
    }
    CHECK(parse_iso8601_ms("2022-02-22T19:22:22.123Z") == v7_ms + 123);  // exact_ms is optional
}

TEST_CASE("parse_iso8601_ms: calendar arithmetic") {
    CHECK(parse_iso8601_ms("1970-01-01T00:00:00Z") == 0);
    CHECK(parse_iso8601_ms("1969-12-31T23:59:59.999Z") == -1);
    CHECK(parse_iso8601_ms("2000-03-01T00:00:00Z") == 951868800000);
    CHECK(parse_iso8601_ms("2024-02-29T12:00:00Z") == 1709208000000);
    CHECK(parse_iso8601_ms("2100-01-01T00:00:00Z") == 4102444800000);
    CHECK(parse_iso8601_ms("1600-01-01T00:00:00Z") == -11676096000000);
}

TEST_CASE("parse_iso8601_ms: bad input is rejected") {
    for (const char* bad : {"", "2022", "2022-02-22", "2022-02-22T19:22", "2022-02-22T19:22:22",
                            "2022-02-22T19:22:22+01:00", "2022-02-22T19:22:22-00:00", "2022-02-22T19:22:22ZZ",
                            "2022-02-22T19:22:22Z ", " 2022-02-22T19:22:22Z", "2022/02/22T19:22:22Z",
                            "2022-02-22X19:22:22Z", "2022-02-22T19-22-22Z", "20x2-02-22T19:22:22Z",
                            "2022-02-22T19:22:22,123Z", "2022-02-22T19:22:22.12a3Z", "2022-02-22T19:22:22.Z",
                            "2022-13-22T19:22:22Z", "2022-00-22T19:22:22Z", "2022-02-32T19:22:22Z",
                            "2022-02-00T19:22:22Z", "2022-02-22T24:22:22Z", "2022-02-22T19:60:22Z",
                            "2022-02-22T19:22:61Z", "1645557742000", "not a time at all, not at all"}) {
        const std::string text = bad;
        CAPTURE(text);
        bool exact = true;
        CHECK_FALSE(parse_iso8601_ms(bad, &exact).has_value());
    }
    // a leap second is written as :60
    CHECK(parse_iso8601_ms("2016-12-31T23:59:60Z") == parse_iso8601_ms("2017-01-01T00:00:00Z"));
}

// ------------------------------------------------------------ last segment

TEST_CASE("last_path_segment: the id in a Location-like value") {
    CHECK(last_path_segment("http://127.0.0.1:8080/v1/items/" + v7_text) == v7_text);
    CHECK(last_path_segment("/items/abc") == "abc");
    CHECK(last_path_segment("/items/abc/") == "abc");
    CHECK(last_path_segment("/items/abc//") == "abc");
    CHECK(last_path_segment("/items/abc?expand=a/b") == "abc");
    CHECK(last_path_segment("/items/abc#frag/x") == "abc");
    CHECK(last_path_segment("abc") == "abc");
    CHECK(last_path_segment("") == "");
    CHECK(last_path_segment("/") == "");
    CHECK(last_path_segment("/a/b/c") == "c");
    CHECK(last_path_segment("/items/a%20b") == "a%20b");  // not decoded: the wire text is checked
}

// ------------------------------------------------------------------- curl

namespace {
// What a POSIX shell makes of `cmd` when `curl` is a function printing its
// arguments one per line between < and >.
std::string shell_args(const std::string& cmd) {
    const std::string script = "curl() { for a in \"$@\"; do printf '<%s>\\n' \"$a\"; done; }; " + cmd;
    std::string quoted = "'";
    for (char ch : script) quoted += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    quoted += "'";
    FILE* p = ::popen(("/bin/sh -c " + quoted).c_str(), "r");
    REQUIRE(p != nullptr);
    std::string out;
    std::array<char, 512> buf{};
    while (std::size_t n = std::fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
    CHECK(::pclose(p) == 0);
    return out;
}
}  // namespace

TEST_CASE("curl_command: GET is the default, URL quoted") {
    Request r;
    r.method = "GET";
    r.url = "http://127.0.0.1:8080/items?a=1&b=2";
    CHECK(curl_command(r) == "curl -sS -i 'http://127.0.0.1:8080/items?a=1&b=2'");
}

TEST_CASE("curl_command: a run that follows redirects reproduces with -L and the same limit") {
    Request r;
    r.method = "GET";
    r.url = "http://h/loop";
    CHECK(curl_command(r, 5) == "curl -sS -i -L --max-redirs 5 'http://h/loop'");
    CHECK(curl_command(r) == "curl -sS -i 'http://h/loop'");
}

TEST_CASE("curl_command: method, headers, body - single quotes survive the shell") {
    Request r;
    r.method = "POST";
    r.url = "http://h/it'ems";
    r.headers = {{"Content-Type", "application/json"}, {"X-Note", "it's $HOME `x` \"q\""}};
    r.body = R"j({"name":"O'Brien","path":"$(rm -rf /)"})j";
    const std::string cmd = curl_command(r);
    CHECK(cmd == "curl -sS -i -X POST 'http://h/it'\\''ems' -H 'Content-Type: application/json' "
                 "-H 'X-Note: it'\\''s $HOME `x` \"q\"' --data-raw '{\"name\":\"O'\\''Brien\",\"path\":\"$(rm -rf /)\"}'");
    CHECK(shell_args(cmd) == "<-sS>\n<-i>\n<-X>\n<POST>\n<http://h/it'ems>\n<-H>\n<Content-Type: application/json>\n"
                             "<-H>\n<X-Note: it's $HOME `x` \"q\">\n<--data-raw>\n<{\"name\":\"O'Brien\",\"path\":\"$(rm -rf /)\"}>\n");
    r.body.clear();
    r.method = "DELETE";
    r.headers.clear();
    CHECK(curl_command(r) == "curl -sS -i -X DELETE 'http://h/it'\\''ems'");
}
