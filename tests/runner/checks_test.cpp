// Unit tests of expectation evaluation on hand-made exchanges: status,
// headers, JSON pointer operations, body substrings, bad bodies, the rule
// override and advisory expectations. Each kind is shown passing and failing.
#include "test_support.hpp"

#include <doctest/doctest.h>

using namespace idconform;
using namespace idconform::runner;
using namespace idconform::runner::test;
namespace json = boost::json;

namespace {

suite::Expect status_expect(std::vector<int> exact, std::vector<int> classes = {}, bool negate = false) {
    suite::Expect e;
    suite::StatusExpect s;
    s.exact = std::move(exact);
    s.classes = std::move(classes);
    s.negate = negate;
    s.pos = {"suite.yaml", 12, 7};
    e.status = s;
    return e;
}

CheckResult one(const suite::Expect& e, const Exchange& x, const CheckContext& ctx) {
    auto out = evaluate(e, x, ctx);
    REQUIRE(out.size() == 1);
    return out[0];
}

suite::Expect json_expect(std::string pointer, suite::JsonOp op, json::value operand = nullptr) {
    suite::Expect e;
    suite::JsonExpect j;
    j.pointer = std::move(pointer);
    j.op = op;
    j.operand = std::move(operand);
    e.json.push_back(std::move(j));
    return e;
}

suite::Expect header_expect(suite::HeaderExpect h) {
    suite::Expect e;
    e.headers.push_back(std::move(h));
    return e;
}

const std::string body = R"({"id":")" + v7_text + R"(","count":1,"ratio":1.5,"whole":2.0,"big":18446744073709551615,
    "name":"Widget","none":null,"flag":true,"tags":["a","b"],"owner":{"id":"u1","roles":[]},"a/b":"slash","m~n":"tilde"})";

}  // namespace

TEST_CASE("a transport error gives no checks at all") {
    Ctx c;
    Exchange x;
    x.error = TransportError{TransportErrorKind::timeout, "no answer"};
    auto e = status_expect({200});
    e.json.push_back({});
    CHECK(evaluate(e, x, c.ctx).empty());
}

TEST_CASE("status: exact, list, class, negated") {
    Ctx c;
    SUBCASE("exact passes") {
        const auto r = one(status_expect({201}), answered(201, ""), c.ctx);
        CHECK(r.ok);
        CHECK(r.what == "status");
        CHECK(r.expected == "201");
        CHECK(r.actual == "201");
        CHECK(r.rule == "TEST-RULE");
        CHECK_FALSE(r.warning);
        CHECK(r.pos.str() == "suite.yaml:12:7");
    }
    SUBCASE("exact fails") {
        const auto r = one(status_expect({201}), answered(200, ""), c.ctx);
        CHECK_FALSE(r.ok);
        CHECK(r.expected == "201");
        CHECK(r.actual == "200");
    }
    SUBCASE("list") {
        const auto e = status_expect({200, 201});
        CHECK(one(e, answered(200, ""), c.ctx).ok);
        CHECK(one(e, answered(201, ""), c.ctx).ok);
        const auto r = one(e, answered(204, ""), c.ctx);
        CHECK_FALSE(r.ok);
        CHECK(r.expected == "200 or 201");
    }
    SUBCASE("class") {
        const auto e = status_expect({}, {4});
        CHECK(one(e, answered(400, ""), c.ctx).ok);
        CHECK(one(e, answered(404, ""), c.ctx).ok);
        CHECK(one(e, answered(499, ""), c.ctx).ok);
        CHECK_FALSE(one(e, answered(500, ""), c.ctx).ok);
        CHECK_FALSE(one(e, answered(399, ""), c.ctx).ok);
        CHECK(one(e, answered(500, ""), c.ctx).expected == "4xx");
    }
    SUBCASE("exact and class together") {
        const auto e = status_expect({409}, {2});
        CHECK(one(e, answered(409, ""), c.ctx).ok);
        CHECK(one(e, answered(204, ""), c.ctx).ok);
        CHECK_FALSE(one(e, answered(404, ""), c.ctx).ok);
        CHECK(one(e, answered(404, ""), c.ctx).expected == "409 or 2xx");
    }
    SUBCASE("negated") {
        const auto e = status_expect({200}, {5}, true);
        CHECK(one(e, answered(404, ""), c.ctx).ok);
        CHECK(one(e, answered(201, ""), c.ctx).ok);
        const auto r = one(e, answered(503, ""), c.ctx);
        CHECK_FALSE(r.ok);
        CHECK(r.expected == "not 200 or 5xx");
        CHECK(r.actual == "503");
        CHECK_FALSE(one(e, answered(200, ""), c.ctx).ok);
    }
}

TEST_CASE("headers: equals, regex, absent, present - names case-insensitive") {
    Ctx c;
    c.scope.set("loc", json::value("/items/" + v7_text));
    const auto x = answered(201, "{}", {{"Content-Type", "application/json"}, {"Location", "/items/" + v7_text}});
    SUBCASE("equals") {
        suite::HeaderExpect h;
        h.name = "content-type";
        h.equals = "application/json";
        auto r = one(header_expect(h), x, c.ctx);
        CHECK(r.ok);
        CHECK(r.what == "header content-type");
        CHECK(r.actual == "application/json");
        h.equals = "application/problem+json";
        r = one(header_expect(h), x, c.ctx);
        CHECK_FALSE(r.ok);
        CHECK(r.expected == "application/problem+json");
        CHECK(r.actual == "application/json");
        // values are compared exactly (case matters in values)
        h.equals = "Application/JSON";
        CHECK_FALSE(one(header_expect(h), x, c.ctx).ok);
    }
    SUBCASE("equals a template") {
        suite::HeaderExpect h;
        h.name = "LOCATION";
        h.equals = "${loc}";
        CHECK(one(header_expect(h), x, c.ctx).ok);
        h.equals = "${undefined_loc}";
        const auto r = one(header_expect(h), x, c.ctx);
        CHECK_FALSE(r.ok);
        CHECK(r.expected == "undefined variable ${undefined_loc}");
    }
    SUBCASE("equals on a missing header fails") {
        suite::HeaderExpect h;
        h.name = "ETag";
        h.equals = "x";
        const auto r = one(header_expect(h), x, c.ctx);
        CHECK_FALSE(r.ok);
        CHECK(r.actual == "(absent)");
    }
    SUBCASE("regex is a full match") {
        suite::HeaderExpect h;
        h.name = "location";
        h.regex = "/items/[0-9a-f-]{36}";
        auto r = one(header_expect(h), x, c.ctx);
        CHECK(r.ok);
        CHECK(r.expected == "matches /items/[0-9a-f-]{36}");
        h.regex = "items";  // found inside, but not a full match
        CHECK_FALSE(one(header_expect(h), x, c.ctx).ok);
        h.regex = "/ITEMS/.*";
        CHECK_FALSE(one(header_expect(h), x, c.ctx).ok);
        h.regex = "(unclosed";  // a bad pattern fails the check, never crashes
        CHECK_FALSE(one(header_expect(h), x, c.ctx).ok);
        h.name = "X-Missing";
        h.regex = ".*";
        CHECK_FALSE(one(header_expect(h), x, c.ctx).ok);
    }
    SUBCASE("absent") {
        suite::HeaderExpect h;
        h.name = "x-powered-by";
        h.absent = true;
        auto r = one(header_expect(h), x, c.ctx);
        CHECK(r.ok);
        CHECK(r.expected == "absent");
        CHECK(r.actual == "(absent)");
        h.name = "CONTENT-TYPE";
        r = one(header_expect(h), x, c.ctx);
        CHECK_FALSE(r.ok);
        CHECK(r.actual == "application/json");
    }
    SUBCASE("present") {
        suite::HeaderExpect h;
        h.name = "location";
        h.present = true;
        auto r = one(header_expect(h), x, c.ctx);
        CHECK(r.ok);
        CHECK(r.actual == "/items/" + v7_text);
        h.name = "etag";
        r = one(header_expect(h), x, c.ctx);
        CHECK_FALSE(r.ok);
        CHECK(r.actual == "(absent)");
    }
    SUBCASE("present and regex give two checks") {
        suite::HeaderExpect h;
        h.name = "Location";
        h.present = true;
        h.regex = "/other/.*";
        const auto out = evaluate(header_expect(h), x, c.ctx);
        REQUIRE(out.size() == 2);
        CHECK(out[0].ok);
        CHECK_FALSE(out[1].ok);
    }
}

TEST_CASE("json equals: numeric-aware, by value, templates") {
    Ctx c;
    c.scope.set("want_id", json::value(v7_text));
    c.scope.set("one", 1);
    const auto x = answered(200, body);
    auto check = [&](std::string ptr, json::value want) {
        return one(json_expect(std::move(ptr), suite::JsonOp::equals, std::move(want)), x, c.ctx);
    };
    CHECK(check("/count", 1).ok);
    CHECK(check("/count", 1.0).ok);
    CHECK(check("/count", std::uint64_t{1}).ok);
    CHECK(check("/whole", 2).ok);
    CHECK(check("/ratio", 1.5).ok);
    CHECK(check("/big", std::uint64_t{18446744073709551615ull}).ok);
    CHECK_FALSE(check("/count", 2).ok);
    CHECK_FALSE(check("/count", "1").ok);
    CHECK_FALSE(check("/count", true).ok);
    CHECK_FALSE(check("/ratio", 1).ok);
    CHECK(check("/name", "Widget").ok);
    CHECK_FALSE(check("/name", "widget").ok);
    CHECK(check("/none", nullptr).ok);
    CHECK_FALSE(check("/missing", nullptr).ok);
    CHECK(check("/tags", js(R"(["a","b"])")).ok);
    CHECK_FALSE(check("/tags", js(R"(["b","a"])")).ok);
    CHECK(check("/owner", js(R"({"roles":[],"id":"u1"})")).ok);  // member order does not matter
    CHECK_FALSE(check("/owner", js(R"({"id":"u1"})")).ok);
    CHECK(check("/id", "${want_id}").ok);
    CHECK(check("/count", "${one}").ok);  // whole-leaf template keeps the number type
    CHECK(check("/a~1b", "slash").ok);
    CHECK(check("/m~0n", "tilde").ok);
    CHECK(check("/tags/1", "b").ok);
    const auto r = check("/count", 2);
    CHECK(r.what == "json /count");
    CHECK(r.expected == "2");
    CHECK(r.actual == "1");
    const auto missing = check("/nope", "x");
    CHECK_FALSE(missing.ok);
    CHECK(missing.actual == "(absent)");
    const auto bad = check("/id", "${undefined_var}");
    CHECK_FALSE(bad.ok);
    CHECK(bad.expected == "undefined variable ${undefined_var}");
}

TEST_CASE("json pointer written as a variable, and the root pointer") {
    Ctx c;
    c.scope.set("res", js(R"({"id_at":"/owner/id"})"));
    const auto x = answered(200, body);
    auto r = one(json_expect("${res.id_at}", suite::JsonOp::equals, "u1"), x, c.ctx);
    CHECK(r.ok);
    CHECK(r.what == "json /owner/id");
    auto root = one(json_expect("", suite::JsonOp::type, "object"), x, c.ctx);
    CHECK(root.ok);
    CHECK(root.what == "json (root)");
}

TEST_CASE("json absent, present, null") {
    Ctx c;
    const auto x = answered(200, body);
    auto check = [&](std::string ptr, suite::JsonOp op) { return one(json_expect(std::move(ptr), op), x, c.ctx); };
    CHECK(check("/deleted_at", suite::JsonOp::absent).ok);
    const auto a = check("/name", suite::JsonOp::absent);
    CHECK_FALSE(a.ok);
    CHECK(a.expected == "absent");
    CHECK(a.actual == R"("Widget")");
    CHECK_FALSE(check("/none", suite::JsonOp::absent).ok);  // null is present
    CHECK(check("/none", suite::JsonOp::present).ok);
    CHECK(check("/tags/0", suite::JsonOp::present).ok);
    CHECK_FALSE(check("/tags/2", suite::JsonOp::present).ok);
    const auto p = check("/owner/email", suite::JsonOp::present);
    CHECK_FALSE(p.ok);
    CHECK(p.actual == "(absent)");
    CHECK(check("/none", suite::JsonOp::null).ok);
    CHECK_FALSE(check("/missing", suite::JsonOp::null).ok);
    CHECK_FALSE(check("/count", suite::JsonOp::null).ok);
    CHECK_FALSE(check("/name", suite::JsonOp::null).ok);
}

TEST_CASE("json type: every type name, passing and failing") {
    Ctx c;
    const auto x = answered(200, body);
    auto is = [&](std::string ptr, std::string type) {
        return one(json_expect(std::move(ptr), suite::JsonOp::type, json::value(type)), x, c.ctx).ok;
    };
    CHECK(is("/name", "string"));
    CHECK_FALSE(is("/count", "string"));
    CHECK(is("/count", "integer"));
    CHECK(is("/whole", "integer"));  // 2.0 is an integer value
    CHECK(is("/big", "integer"));
    CHECK_FALSE(is("/ratio", "integer"));
    CHECK_FALSE(is("/name", "integer"));
    CHECK(is("/ratio", "number"));
    CHECK(is("/count", "number"));
    CHECK(is("/big", "number"));
    CHECK_FALSE(is("/flag", "number"));
    CHECK(is("/flag", "boolean"));
    CHECK_FALSE(is("/count", "boolean"));
    CHECK(is("/owner", "object"));
    CHECK_FALSE(is("/tags", "object"));
    CHECK(is("/tags", "array"));
    CHECK_FALSE(is("/owner", "array"));
    CHECK(is("/none", "null"));
    CHECK_FALSE(is("/missing", "null"));
    CHECK_FALSE(is("/name", "null"));
    CHECK_FALSE(is("/name", "uuid"));  // an unknown type name never passes
    CHECK_FALSE(is("/missing", "string"));
    const auto r = one(json_expect("/count", suite::JsonOp::type, "string"), x, c.ctx);
    CHECK(r.expected == "of type string");
    CHECK(r.actual == "1");
    // a non-string operand is reported, never crashes
    CHECK_FALSE(one(json_expect("/count", suite::JsonOp::type, 5), x, c.ctx).ok);
}

TEST_CASE("json_has_type and json_equal directly") {
    CHECK(json_has_type(json::value(-3), "integer"));
    CHECK(json_has_type(json::value(-3.0), "integer"));
    CHECK_FALSE(json_has_type(json::value(-3.5), "integer"));
    CHECK(json_has_type(json::value(std::uint64_t{1}), "integer"));
    CHECK_FALSE(json_has_type(json::value("1"), "number"));
    CHECK_FALSE(json_has_type(json::value(nullptr), "object"));
    CHECK(json_equal(json::value(1), json::value(1.0)));
    CHECK(json_equal(json::value(std::uint64_t{7}), json::value(std::int64_t{7})));
    CHECK(json_equal(json::value(std::int64_t{7}), json::value(std::uint64_t{7})));
    CHECK_FALSE(json_equal(json::value(std::int64_t{-1}), json::value(std::uint64_t{18446744073709551615ull})));
    CHECK_FALSE(json_equal(json::value(std::uint64_t{18446744073709551615ull}), json::value(std::int64_t{-1})));
    CHECK(json_equal(js(R"({"a":[1,{"b":2.0}]})"), js(R"({"a":[1.0,{"b":2}]})")));
    CHECK_FALSE(json_equal(js(R"({"a":1})"), js(R"({"a":1,"b":2})")));
    CHECK_FALSE(json_equal(js(R"({"a":1})"), js(R"({"b":1})")));
    CHECK_FALSE(json_equal(js(R"([1,2])"), js(R"([1,2,3])")));
    CHECK_FALSE(json_equal(json::value(nullptr), json::value(0)));
    CHECK_FALSE(json_equal(json::value(""), json::value(nullptr)));
    CHECK(json_equal(json::value(nullptr), json::value(nullptr)));
    CHECK_FALSE(json_equal(json::value(false), json::value(0)));
}

TEST_CASE("json regex: full match on strings only") {
    Ctx c;
    const auto x = answered(200, body);
    auto match = [&](std::string ptr, std::string pattern) {
        return one(json_expect(std::move(ptr), suite::JsonOp::regex, json::value(pattern)), x, c.ctx);
    };
    CHECK(match("/id", "[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}").ok);
    CHECK_FALSE(match("/id", "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}").ok);
    CHECK(match("/name", "W.*t").ok);
    CHECK_FALSE(match("/name", "idge").ok);  // a substring is not enough
    CHECK_FALSE(match("/count", "[0-9]+").ok);  // not a string
    CHECK_FALSE(match("/missing", ".*").ok);
    CHECK_FALSE(match("/name", "(bad").ok);  // a bad pattern fails, never crashes
    const auto r = match("/name", "x");
    CHECK(r.expected == "matches x");
    CHECK(r.actual == R"("Widget")");
}

TEST_CASE("json one_of") {
    Ctx c;
    c.scope.set("alt", "Gadget");
    const auto x = answered(200, body);
    auto in = [&](std::string ptr, json::value options) {
        return one(json_expect(std::move(ptr), suite::JsonOp::one_of, std::move(options)), x, c.ctx);
    };
    CHECK(in("/count", js(R"([0, 1.0, "x"])")).ok);
    CHECK(in("/name", js(R"(["${alt}", "Widget"])")).ok);
    CHECK(in("/none", js(R"([null])")).ok);
    CHECK_FALSE(in("/count", js(R"([2, 3, "1"])")).ok);
    CHECK_FALSE(in("/missing", js(R"([null])")).ok);
    CHECK_FALSE(in("/count", js(R"([])")).ok);
    CHECK_FALSE(in("/count", json::value(1)).ok);  // not a list: nothing to be one of
    const auto r = in("/name", js(R"(["${alt}", "Thing"])"));
    CHECK_FALSE(r.ok);
    CHECK(r.expected == R"(one of ["Gadget","Thing"])");
    CHECK(r.actual == R"("Widget")");
}

TEST_CASE("body contains / not_contains") {
    Ctx c;
    c.scope.set("name", "Widget");
    const auto x = answered(200, body);
    suite::Expect e;
    e.body = suite::BodyExpect{};
    e.body->contains = {"Widget", "${name}", "Gizmo"};
    e.body->not_contains = {"password", "${name}", ""};
    const auto out = evaluate(e, x, c.ctx);
    REQUIRE(out.size() == 6);
    CHECK(out[0].ok);
    CHECK(out[0].what == "body contains");
    CHECK(out[1].ok);
    CHECK_FALSE(out[2].ok);
    CHECK(out[2].expected == "Gizmo");
    CHECK(out[3].ok);
    CHECK(out[3].what == "body does not contain");
    CHECK(out[3].actual == "not found");
    CHECK_FALSE(out[4].ok);
    CHECK(out[4].actual.rfind("found in ", 0) == 0);
    CHECK(out[5].ok);  // the empty string is never "found"

    suite::Expect bad;
    bad.body = suite::BodyExpect{};
    bad.body->contains = {"${nope}"};
    bad.body->not_contains = {"${nope2}"};
    const auto errs = evaluate(bad, x, c.ctx);
    REQUIRE(errs.size() == 2);
    CHECK_FALSE(errs[0].ok);
    CHECK(errs[0].expected == "undefined variable ${nope}");
    CHECK_FALSE(errs[1].ok);
    CHECK(errs[1].expected == "undefined variable ${nope2}");
}

TEST_CASE("a non-JSON body gives clear failing checks, never a crash") {
    Ctx c;
    const auto x = answered(200, "<html>oops</html>");
    suite::Expect e = json_expect("/id", suite::JsonOp::present);
    e.json.push_back({});  // second json expectation: root equals null
    e.ids.push_back(id_at("/id", "uuidv7"));
    e.body = suite::BodyExpect{};
    e.body->contains = {"oops"};
    const auto out = evaluate(e, x, c.ctx);
    REQUIRE(out.size() == 4);
    for (std::size_t i : {0u, 1u}) {
        CHECK_FALSE(out[i].ok);
        CHECK(out[i].expected == "a JSON body");
        CHECK(out[i].actual.rfind("body is not JSON (", 0) == 0);
    }
    CHECK(out[0].what == "json /id");
    CHECK(out[1].what == "json (root)");
    CHECK(out[2].ok);  // body checks do not need JSON
    CHECK_FALSE(out[3].ok);
    CHECK(out[3].what == "id /id");
    CHECK(out[3].actual.rfind("body is not JSON (", 0) == 0);

    const auto empty = evaluate(json_expect("/id", suite::JsonOp::absent), answered(204, ""), c.ctx);
    REQUIRE(empty.size() == 1);
    CHECK_FALSE(empty[0].ok);  // no body is not "absent": there is nothing to look in
    // An empty body is said to be empty, not "incomplete JSON" (issue #13).
    CHECK(empty[0].actual == "the body is empty (no JSON at all)");

    // An id check of a pack names the pointer and kind its variables stand for.
    c.scope.set("res.id_at", boost::json::value("/id"));
    c.scope.set("res.id_kind", boost::json::value("uuidv7"));
    suite::Expect pe;
    pe.ids.push_back(id_at("${res.id_at}", "${res.id_kind}"));
    const auto packed = evaluate(pe, answered(202, ""), c.ctx);
    REQUIRE(packed.size() == 1);
    CHECK(packed[0].what == "id /id");
    CHECK(packed[0].expected == "uuidv7");
    CHECK(packed[0].actual == "the body is empty (no JSON at all)");
}

TEST_CASE("a truncated body gives a clear failing check") {
    Ctx c;
    auto x = answered(200, R"({"id":")" + v7_text.substr(0, 10));
    x.response->body_truncated = true;
    x.response->body_bytes = 5000000;
    suite::Expect e = json_expect("/id", suite::JsonOp::present);
    e.ids.push_back(id_at("/id", "uuidv7"));
    const auto out = evaluate(e, x, c.ctx);
    REQUIRE(out.size() == 2);
    CHECK_FALSE(out[0].ok);
    CHECK(out[0].actual == "body truncated at the cap, not parseable");
    CHECK_FALSE(out[1].ok);
    CHECK(out[1].actual == "body truncated at the cap, not parseable");
}

TEST_CASE("the rule override and the default rule") {
    Ctx c("CASE-RULE");
    auto e = status_expect({200});
    e.json.push_back({});
    e.json.back().pointer = "/x";
    e.json.back().op = suite::JsonOp::absent;
    const auto x = answered(200, "{}");
    for (const auto& r : evaluate(e, x, c.ctx)) CHECK(r.rule == "CASE-RULE");
    e.rule = "DATA-ID-002";
    const auto out = evaluate(e, x, c.ctx);
    REQUIRE(out.size() == 2);
    for (const auto& r : out) CHECK(r.rule == "DATA-ID-002");
    CHECK(c.ctx.rule == "CASE-RULE");  // the caller's context is untouched
}

TEST_CASE("advisory: failures become warnings, passes stay plain") {
    Ctx c;
    auto e = status_expect({200});
    e.headers.push_back({});
    e.headers.back().name = "ETag";
    e.headers.back().present = true;
    e.advisory = true;
    const auto out = evaluate(e, answered(200, "{}"), c.ctx);
    REQUIRE(out.size() == 2);
    CHECK(out[0].ok);
    CHECK_FALSE(out[0].warning);
    CHECK_FALSE(out[1].ok);
    CHECK(out[1].warning);
    e.advisory = false;
    const auto strict = evaluate(e, answered(200, "{}"), c.ctx);
    REQUIRE(strict.size() == 2);
    CHECK_FALSE(strict[1].ok);
    CHECK_FALSE(strict[1].warning);
}

TEST_CASE("status: gRPC codes by name match the grpc-status of a grpc answer") {
    Ctx c;
    auto grpc_answer = [](int http, const char* code) {
        return answered(http, "", {{"grpc-status", code}, {"grpc-message", "m"}});
    };
    auto e = status_expect({});
    e.status->grpc_codes = {5, 3};
    SUBCASE("NOT_FOUND matches") {
        const auto r = one(e, grpc_answer(404, "5"), c.ctx);
        CHECK(r.ok);
        CHECK(r.expected == "NOT_FOUND or INVALID_ARGUMENT");
        CHECK(r.actual == "NOT_FOUND (404)");
    }
    SUBCASE("OK does not") {
        const auto r = one(e, grpc_answer(200, "0"), c.ctx);
        CHECK_FALSE(r.ok);
        CHECK(r.actual == "OK (200)");
    }
    SUBCASE("an HTTP answer never matches a gRPC code") {
        const auto r = one(e, answered(404, ""), c.ctx);
        CHECK_FALSE(r.ok);
        CHECK(r.actual == "404");
    }
    SUBCASE("an HTTP code matches a gRPC answer's HTTP equivalent") {
        const auto r = one(status_expect({404}), grpc_answer(404, "5"), c.ctx);
        CHECK(r.ok);
    }
    SUBCASE("negated") {
        auto n = status_expect({}, {}, true);
        n.status->grpc_codes = {0};
        CHECK_FALSE(one(n, grpc_answer(200, "0"), c.ctx).ok);
        CHECK(one(n, grpc_answer(404, "5"), c.ctx).ok);
    }
}
