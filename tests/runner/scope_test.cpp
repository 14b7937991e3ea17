// Unit tests of variables and template interpolation: every placeholder form,
// errors that name the variable, path and query percent-encoding, JSON
// whole-leaf replacement and deferred template variables.
#include "test_support.hpp"

#include "ids/kind.hpp"

#include <boost/json/serialize.hpp>
#include <doctest/doctest.h>

#include <cstdlib>

using namespace idconform;
using namespace idconform::runner;
using namespace idconform::runner::test;
namespace json = boost::json;

namespace {
std::string ok_text(std::string_view tmpl, const Scope& s, Encoding enc = Encoding::raw) {
    auto r = interpolate(tmpl, s, enc);
    REQUIRE_MESSAGE(r.has_value(), r.error());
    return *r;
}
std::string error_text(std::string_view tmpl, const Scope& s, Encoding enc = Encoding::raw) {
    auto r = interpolate(tmpl, s, enc);
    REQUIRE_FALSE(r.has_value());
    return r.error();
}
json::value ok_json(const json::value& tmpl, const Scope& s) {
    auto r = interpolate_json(tmpl, s);
    REQUIRE_MESSAGE(r.has_value(), r.error());
    return *r;
}
}  // namespace

TEST_CASE("variables: set, find, overwrite") {
    Scope s;
    CHECK(s.find("a") == nullptr);
    s.set("a", "one");
    REQUIRE(s.find("a") != nullptr);
    CHECK(*s.find("a") == json::value("one"));
    s.set("a", 2);
    CHECK(*s.find("a") == json::value(2));
}

TEST_CASE("secrets are remembered, empty ones are not") {
    Scope s;
    s.set("token", "s3cret", true);
    s.set("plain", "visible");
    s.set("empty", "", true);
    s.set("number", 42, true);  // only string values can be found in text
    s.add_secret("other");
    s.add_secret("");
    CHECK(s.secrets() == std::set<std::string>{"other", "s3cret"});
}

TEST_CASE("to_text: strings as is, everything else as JSON") {
    CHECK(to_text(json::value("a b")) == "a b");
    CHECK(to_text(json::value(42)) == "42");
    CHECK(to_text(json::value(nullptr)) == "null");
    CHECK(to_text(json::value(true)) == "true");
    CHECK(to_text(js(R"({"k":[1,"x"]})")) == R"({"k":[1,"x"]})");
}

TEST_CASE("interpolate: ${name} and ${name.field}") {
    Scope s;
    s.set("id", json::value(v7_text));
    s.set("n", 42);
    s.set("nothing", nullptr);
    s.set("res", js(R"({"path":"/items","id_at":"/data/id","nested":{"a":1}})"));
    s.set("item.value", "explicit dotted name wins");
    s.set("item", js(R"({"value":"field"})"));
    CHECK(ok_text("/items/${id}", s) == "/items/" + v7_text);
    CHECK(ok_text("n=${n};", s) == "n=42;");
    CHECK(ok_text("${nothing}", s) == "null");
    CHECK(ok_text("${res.path}/${res.id_at}", s) == "/items//data/id");
    CHECK(ok_text("${res.nested}", s) == R"({"a":1})");
    CHECK(ok_text("${item.value}", s) == "explicit dotted name wins");
    CHECK(ok_text("${res}", s) == R"({"path":"/items","id_at":"/data/id","nested":{"a":1}})");
    CHECK(ok_text("${id}${n}", s) == v7_text + "42");
    CHECK(ok_text("no placeholders $ at all {x}", s) == "no placeholders $ at all {x}");
    CHECK(ok_text("trailing $", s) == "trailing $");
    CHECK(ok_text("", s) == "");
}

TEST_CASE("interpolate: undefined variables are errors naming the variable") {
    Scope s;
    s.set("res", js(R"({"path":"/items"})"));
    s.set("scalar", "x");
    CHECK(error_text("/items/${missing}", s) == "undefined variable ${missing}");
    CHECK(error_text("${res.nope}", s) == "undefined variable ${res.nope}");
    CHECK(error_text("${scalar.field}", s) == "undefined variable ${scalar.field}");
    CHECK(error_text("${}", s) == "undefined variable ${}");
    // the first undefined one is named, even after good ones
    CHECK(error_text("${res.path}/${a}/${b}", s) == "undefined variable ${a}");
    CHECK(error_text("/items/{missing}", s, Encoding::path_segment) == "undefined variable ${missing}");
}

TEST_CASE("interpolate: unclosed placeholders are errors quoting the template") {
    Scope s;
    s.set("name", "x");
    CHECK(error_text("abc ${name", s) == "unclosed placeholder in 'abc ${name'");
    CHECK(error_text("${", s) == "unclosed placeholder in '${'");
    CHECK(error_text("/items/{name", s, Encoding::path_segment) == "unclosed placeholder in '/items/{name'");
    // in raw mode a lone '{' is just text
    CHECK(ok_text("/items/{name", s) == "/items/{name");
}

TEST_CASE("interpolate: ${env:NAME} and ${env:NAME:-default}") {
    REQUIRE(::setenv("IDCONFORM_RUNNER_TEST_SET", "from-env", 1) == 0);
    REQUIRE(::setenv("IDCONFORM_RUNNER_TEST_EMPTY", "", 1) == 0);
    REQUIRE(::unsetenv("IDCONFORM_RUNNER_TEST_UNSET") == 0);
    Scope s;
    CHECK(ok_text("${env:IDCONFORM_RUNNER_TEST_SET}", s) == "from-env");
    CHECK(ok_text("${env:IDCONFORM_RUNNER_TEST_SET:-fallback}", s) == "from-env");
    CHECK(ok_text("${env:IDCONFORM_RUNNER_TEST_UNSET:-fallback}", s) == "fallback");
    CHECK(ok_text("${env:IDCONFORM_RUNNER_TEST_UNSET:-}", s) == "");
    // a default may itself hold colons (a URL)
    CHECK(ok_text("${env:IDCONFORM_RUNNER_TEST_UNSET:-http://127.0.0.1:8080}/x", s) == "http://127.0.0.1:8080/x");
    // set but empty: the default applies (shell `:-` semantics); without one, "" is the value
    CHECK(ok_text("${env:IDCONFORM_RUNNER_TEST_EMPTY:-fallback}", s) == "fallback");
    CHECK(ok_text("[${env:IDCONFORM_RUNNER_TEST_EMPTY}]", s) == "[]");
    CHECK(error_text("${env:IDCONFORM_RUNNER_TEST_UNSET}", s) ==
          "environment variable IDCONFORM_RUNNER_TEST_UNSET is not set (use "
          "${env:IDCONFORM_RUNNER_TEST_UNSET:-default} for a default)");
    // env values are strings, even when they look like JSON
    REQUIRE(::setenv("IDCONFORM_RUNNER_TEST_NUM", "42", 1) == 0);
    CHECK(ok_json(json::value("${env:IDCONFORM_RUNNER_TEST_NUM}"), s) == json::value("42"));
}

TEST_CASE("interpolate: ${gen:...} gives a fresh id on every use") {
    Scope s;
    const std::string a = ok_text("${gen:uuidv7}", s);
    const std::string b = ok_text("${gen:uuidv7}", s);
    CHECK(ids::is_canonical_version(a, 7));
    CHECK(ids::is_canonical_version(b, 7));
    CHECK(a != b);
    const std::string v4 = ok_text("${gen:uuidv4}", s);
    CHECK(ids::is_canonical_version(v4, 4));
    CHECK(v4 != ok_text("${gen:uuidv4}", s));
    const std::string u = ok_text("${gen:ulid}", s);
    CHECK(u.size() == 26);
    CHECK(ids::parse_ulid(u, ids::CasePolicy::lower_only).error == ids::UlidError::none);
    CHECK(u != ok_text("${gen:ulid}", s));
    const auto j = ok_json(json::value("${gen:uuidv7}"), s);
    REQUIRE(j.is_string());
    CHECK(ids::is_canonical_version(j.as_string(), 7));
    CHECK(error_text("${gen:uuidv9}", s) == "unknown generator ${gen:uuidv9} (" + std::string(generator_forms) + ")");
    CHECK(error_text("${gen:existing}", s).rfind("unknown generator ${gen:existing}", 0) == 0);  // no pattern, no value
    // every kind with a generator
    for (const char* k : {"uuid", "uuidv1", "uuidv3", "uuidv5", "uuidv6", "uuidv8"}) {
        const std::string t = ok_text(std::string("${gen:") + k + "}", s);
        CHECK_MESSAGE(ids::is_valid(t, *ids::parse_kind(k)), k, " ", t);
    }
}

TEST_CASE("interpolate: ${gen:match:VAR} gives a fresh text of the pattern VAR holds") {
    Scope s;
    s.set("pat", json::value("^ord_[0-9a-z]{12}$"));
    s.set("odd", json::value("^(?i)x$"));
    s.set("bad", json::value("(["));
    const std::string a = ok_text("${gen:match:pat}", s);
    CHECK(a.size() == 16);
    CHECK(a.rfind("ord_", 0) == 0);
    CHECK(a != ok_text("${gen:match:pat}", s));
    CHECK(error_text("${gen:match:odd}", s).find("idconform cannot make a text matching '^(?i)x$'") !=
          std::string::npos);
    CHECK(error_text("${gen:match:bad}", s).find("bad pattern '(['") != std::string::npos);
    CHECK(error_text("${gen:match:none}", s).find("undefined variable ${none}") != std::string::npos);
}

TEST_CASE("percent_encode: unreserved kept, everything else %XX upper-case") {
    CHECK(percent_encode("AZaz09-._~", false) == "AZaz09-._~");
    CHECK(percent_encode("a b", false) == "a%20b");
    CHECK(percent_encode("{x}", false) == "%7Bx%7D");
    CHECK(percent_encode("a/b", false) == "a%2Fb");
    CHECK(percent_encode("a/b", true) == "a/b");
    CHECK(percent_encode("é", false) == "%C3%A9");
    CHECK(percent_encode("１", false) == "%EF%BC%91");  // full-width digit one
    CHECK(percent_encode("?&=#%+", false) == "%3F%26%3D%23%25%2B");
    CHECK(percent_encode(std::string_view("\0\x7f", 2), false) == "%00%7F");
    CHECK(percent_encode("", false) == "");
}

TEST_CASE("interpolate path: {name} percent-encoded as one segment, ${name} as is") {
    Scope s;
    s.set("id", " {017f22e2-79b0-7cc3-98c4-dc0c0c07398f}/é ");
    s.set("base", "/v1/items");
    s.set("n", 7);
    CHECK(ok_text("/items/{id}", s, Encoding::path_segment) ==
          "/items/%20%7B017f22e2-79b0-7cc3-98c4-dc0c0c07398f%7D%2F%C3%A9%20");
    CHECK(ok_text("${base}/{n}/x", s, Encoding::path_segment) == "/v1/items/7/x");
    CHECK(ok_text("/items/${id}", s, Encoding::path_segment) == "/items/ {017f22e2-79b0-7cc3-98c4-dc0c0c07398f}/é ");
    // literal text of the template is not encoded
    CHECK(ok_text("/a b/{n}", s, Encoding::path_segment) == "/a b/7");
    // raw mode leaves {name} alone
    CHECK(ok_text("/items/{id}", s) == "/items/{id}");
}

TEST_CASE("interpolate query: placeholder values percent-encoded, literal text kept") {
    Scope s;
    s.set("q", "a b&c=d/é");
    CHECK(ok_text("${q}", s, Encoding::query) == "a%20b%26c%3Dd%2F%C3%A9");
    CHECK(ok_text("x-${q}", s, Encoding::query) == "x-a%20b%26c%3Dd%2F%C3%A9");
    CHECK(ok_text("{q}", s, Encoding::query) == "{q}");
}

TEST_CASE("interpolate_json: a whole-leaf placeholder keeps the variable's JSON type") {
    Scope s;
    s.set("null_v", nullptr);
    s.set("zero", 0);
    s.set("empty", "");
    s.set("obj", js(R"({"a":[1,2]})"));
    s.set("flag", false);
    s.set("ref", json::value(v7_text));
    const auto out = ok_json(js(R"({
        "n": "${null_v}", "z": "${zero}", "e": "${empty}", "o": "${obj}", "f": "${flag}",
        "text": "id-${zero}", "two": "${zero}${empty}", "list": ["${ref}", "${zero}", 1.5, true, null],
        "nested": {"deep": {"ref": "${ref}"}}, "plain": "no placeholder", "num": 3
    })"), s);
    const auto want = js(R"({
        "n": null, "z": 0, "e": "", "o": {"a":[1,2]}, "f": false,
        "text": "id-0", "two": "0", "list": [")" + v7_text + R"(", 0, 1.5, true, null],
        "nested": {"deep": {"ref": ")" + v7_text + R"("}}, "plain": "no placeholder", "num": 3
    })");
    CHECK(out == want);
    CHECK(out.at("z").is_int64());
    CHECK(out.at("e").is_string());
    // a whole-leaf placeholder at the root
    CHECK(ok_json(json::value("${zero}"), s) == json::value(0));
    // "${a}${b}" is two placeholders, so text; "${x" is not a placeholder at all
    CHECK(ok_json(json::value("${zero}${zero}"), s) == json::value("00"));
}

TEST_CASE("interpolate_json: errors from any depth name the variable") {
    Scope s;
    auto r = interpolate_json(js(R"({"a":{"b":["ok","${missing}"]}})"), s);
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error() == "undefined variable ${missing}");
    auto r2 = interpolate_json(js(R"({"a":"x ${unclosed"})"), s);
    REQUIRE_FALSE(r2.has_value());
    CHECK(r2.error() == "unclosed placeholder in 'x ${unclosed'");
    auto r3 = interpolate_json(json::value("${gone}"), s);
    REQUIRE_FALSE(r3.has_value());
    CHECK(r3.error() == "undefined variable ${gone}");
}

TEST_CASE("deferred variables are filled at each use") {
    Scope s;
    s.set_deferred("body", js(R"({"ref":"${res_id}","count":"${n}","label":"item ${n}"})"));
    s.set_deferred("greeting", json::value("hello ${who}"));
    // not yet resolvable: the error names the missing inner variable
    auto early = s.resolve("body");
    REQUIRE_FALSE(early.has_value());
    CHECK(early.error() == "undefined variable ${res_id}");

    s.set("res_id", json::value(v7_text));
    s.set("n", 3);
    s.set("who", "world");
    auto b = s.resolve("body");
    REQUIRE(b.has_value());
    CHECK(*b == js(R"({"ref":")" + v7_text + R"(","count":3,"label":"item 3"})"));
    CHECK(ok_text("say ${greeting}!", s) == "say hello world!");
    CHECK(ok_json(json::value("${body}"), s) == *b);

    // a later value shows at the next use
    s.set("res_id", json::value(v4_text));
    CHECK(s.resolve("body")->at("ref") == json::value(v4_text));

    // setting a plain value ends the deferral: the text is taken literally
    s.set("greeting", "hello ${who}");
    CHECK(ok_text("${greeting}", s) == "hello ${who}");
}

TEST_CASE("deferred variables: self-reference is stopped with an error") {
    Scope s;
    s.set_deferred("loop", json::value("${loop}"));
    auto r = s.resolve("loop");
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error() == "template variable ${loop} refers to itself");
    s.set_deferred("a", json::value("x${b}"));
    s.set_deferred("b", js(R"({"k":"${a}"})"));
    auto r2 = s.resolve("a");
    REQUIRE_FALSE(r2.has_value());
    CHECK(r2.error().find("refers to itself") != std::string::npos);
    // the scope still works afterwards (depth was unwound)
    s.set_deferred("fine", json::value("${plain}"));
    s.set("plain", 5);
    auto r3 = s.resolve("fine");
    REQUIRE(r3.has_value());
    CHECK(*r3 == json::value(5));
}

TEST_CASE("deferred object variable: ${name.field} is filled too") {
    Scope s;
    s.set_deferred("tmpl", js(R"({"path":"/items/${id}"})"));
    s.set("id", "abc");
    CHECK(ok_text("${tmpl.path}", s) == "/items/abc");
    s.set("id", "def");
    CHECK(ok_text("${tmpl.path}", s) == "/items/def");
    s.set_deferred("self", js(R"({"f":"${self.f}"})"));
    auto r = s.resolve("self.f");
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error() == "template variable ${self.f} refers to itself");
}
