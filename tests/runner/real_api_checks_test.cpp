// Unit tests of the checks real APIs need (issue #13): id checks of kind
// `any` and `existing` (integers judged as their text, the dummies refused),
// a kind given as a variable, `unique` on non-UUID ids, the profile's 2xx
// "not found" answer accepted by negative status checks and nothing else,
// echoed request values left out of the versions per field, and the
// mutations of ids in a format the identifier module does not know.
#include "test_support.hpp"

#include "ids/ids.hpp"

#include <doctest/doctest.h>

#include <algorithm>

using namespace idconform;
using namespace idconform::runner;
using namespace idconform::runner::test;
namespace json = boost::json;

TEST_CASE("kind any: present is enough, integers are their text, unique compares text") {
    Ctx c;
    auto e = id_at("/id", "any");
    e.unique = true;
    const Exchange x = answered(201, "");
    json::value one(1), again(1), word("aB3x");
    CHECK(check_id(e, &one, x, c.ctx).ok);
    const CheckResult dup = check_id(e, &again, x, c.ctx);
    CHECK_FALSE(dup.ok);
    CHECK(dup.actual.find("already returned") != std::string::npos);
    CHECK(dup.expected == "an id");  // not "canonical an id"
    CHECK(check_id(e, &word, x, c.ctx).ok);
    json::value empty("");
    CHECK_FALSE(check_id(id_at("/id", "any"), &empty, x, c.ctx).ok);
    CHECK_FALSE(check_id(id_at("/id", "any"), nullptr, x, c.ctx).ok);
}

TEST_CASE("kind any with equals compares an integer id with its captured text") {
    Ctx c;
    c.scope.set("live_id", json::value(7));
    auto e = id_at("/id", "any");
    e.equals = "${live_id}";
    json::value seven(7), eight(8);
    CHECK(check_id(e, &seven, answered(200, ""), c.ctx).ok);
    CHECK_FALSE(check_id(e, &eight, answered(200, ""), c.ctx).ok);
}

TEST_CASE("kind existing: any text or integer but the dummies DATA-ID-007 names") {
    Ctx c;
    const Exchange x = answered(200, "");
    for (const json::value& v : {json::value(42), json::value("V1StGXR8_Z5jdHi6B-myT"), json::value("8b5a")}) {
        INFO(v);
        CHECK(check_id(id_at("/r", "existing"), &v, x, c.ctx).ok);
    }
    for (const json::value& v : {json::value(""), json::value(0), json::value("0"), json::value(nil_text),
                                json::value(max_text)}) {
        INFO(v);
        CHECK_FALSE(check_id(id_at("/r", "existing"), &v, x, c.ctx).ok);
    }
    auto nullable = id_at("/r", "existing");
    nullable.allow_null = true;
    json::value null;
    CHECK(check_id(nullable, &null, x, c.ctx).ok);
}

TEST_CASE("a kind written as a variable is the kind the variable holds") {
    Ctx c;
    c.scope.set("res.optional_ref_kind", json::value("uuidv4"));
    auto e = id_at("/parent", "${res.optional_ref_kind}");
    json::value v4(v4_text), v7(v7_text);
    CHECK(check_id(e, &v4, answered(200, ""), c.ctx).ok);
    const CheckResult bad = check_id(e, &v7, answered(200, ""), c.ctx);
    CHECK_FALSE(bad.ok);
    CHECK(bad.what.find("uuidv4") != std::string::npos);
    Ctx unset;
    const CheckResult err = check_id(e, &v4, answered(200, ""), unset.ctx);
    CHECK_FALSE(err.ok);
    CHECK(err.actual.find("res.optional_ref_kind") != std::string::npos);
}

TEST_CASE("a not-found answer told by a member's value ({\"found\": false}) matches that value, not the rest") {
    suite::Expect e;
    suite::StatusExpect s;
    s.classes = {4};
    s.not_found = suite::StatusExpect::NotFound{{}, 200, {}, "/found", json::value(false)};
    e.status = s;
    Ctx c;
    auto ok = [&](int status, const std::string& body) { return evaluate(e, answered(status, body), c.ctx).front().ok; };
    CHECK(ok(404, "{}"));
    CHECK(ok(200, R"({"found":false})"));
    CHECK(ok(200, R"({"found":false,"ttl":-1})"));
    CHECK_FALSE(ok(200, R"({"found":true,"id":"x"})"));
    CHECK_FALSE(ok(200, R"({"id":"x"})"));           // no member: the entity was answered
    CHECK_FALSE(ok(200, R"({"found":"false"})"));    // the text, not the value
    CHECK_FALSE(ok(201, R"({"found":false})"));
    CHECK_FALSE(ok(200, "not json"));
    CHECK(evaluate(e, answered(200, "{}"), c.ctx).front().expected.find("200 with /found = false") != std::string::npos);
}

TEST_CASE("a not-found answer with no body (empty: true) matches its status with nothing in it, and only that") {
    suite::Expect e;
    suite::StatusExpect s;
    s.classes = {4};
    s.not_found = suite::StatusExpect::NotFound{{}, 204, {}, {}, {}, true};
    e.status = s;
    Ctx c;
    auto ok = [&](int status, const std::string& body) { return evaluate(e, answered(status, body), c.ctx).front().ok; };
    CHECK(ok(404, "{}"));
    CHECK(ok(204, ""));
    CHECK_FALSE(ok(204, "{}"));  // a body: not the empty answer
    CHECK_FALSE(ok(200, ""));
    const auto out = evaluate(e, answered(200, ""), c.ctx).front();
    CHECK(out.expected.find("204 with no body (the not_found: answer)") != std::string::npos);
}

TEST_CASE("a negative status check accepts the profile's 2xx not-found answer, and only that") {
    suite::Expect e;
    suite::StatusExpect s;
    s.classes = {4};
    s.not_found = suite::StatusExpect::NotFound{{}, 200, json::array(), {}, {}};
    e.status = s;
    Ctx c;
    auto one = [&](const Exchange& x) {
        const auto out = evaluate(e, x, c.ctx);
        REQUIRE(out.size() == 1);
        return out.front();
    };
    CHECK(one(answered(404, "{}")).ok);
    const CheckResult empty = one(answered(200, "[]"));
    CHECK(empty.ok);
    CHECK(empty.expected.find("the not_found: answer") != std::string::npos);
    const CheckResult found = one(answered(200, R"([{"id":1}])"));
    CHECK_FALSE(found.ok);
    CHECK(found.actual.find(R"([{"id":1}])") != std::string::npos);
    CHECK_FALSE(one(answered(201, "[]")).ok);
    CHECK_FALSE(one(answered(200, "not json")).ok);
}

TEST_CASE("values the harness sent are not versions the target minted") {
    const auto body = js(R"({"id":")" + v7_text + R"(","category_id":")" + v1_text + R"("})");
    const std::set<std::string> sent = sent_strings(R"({"name":"p","category_id":")" + v1_text + R"("})");
    CHECK(sent.count(v1_text) == 1);
    std::map<std::string, std::set<int>> with_echo, without;
    (void)scan_ids(body, &with_echo);
    (void)scan_ids(body, &without, &sent);
    CHECK(with_echo.at("/category_id") == std::set<int>{1});
    CHECK(without.count("/category_id") == 0);
    CHECK(without.at("/id") == std::set<int>{7});
    CHECK(sent_strings("not json").empty());
}

TEST_CASE("mutations of an id in an unknown format") {
    auto names = [](const std::vector<ids::Mutation>& ms) {
        std::vector<std::string> n;
        for (const auto& m : ms) n.push_back(m.name);
        return n;
    };
    auto has = [](const std::vector<std::string>& v, const char* s) { return std::find(v.begin(), v.end(), s) != v.end(); };
    SUBCASE("a numeric id is never shortened or lengthened: that is another live id") {
        const auto ms = ids::opaque_mutations("12");
        const auto n = names(ms);
        CHECK_FALSE(has(n, "one-char-short"));
        CHECK_FALSE(has(n, "one-char-long"));
        CHECK(has(n, "leading-zero"));
        CHECK(has(n, "decimal-point"));
        CHECK(has(n, "padded-spaces"));
        CHECK_FALSE(has(n, "upper-case"));  // no letters: no case forms
        for (const auto& m : ms) CHECK(m.text != "12");
    }
    SUBCASE("a mixed-case nanoid gets every case form, padding, wrapping and lengths") {
        const auto ms = ids::opaque_mutations("aB3x");
        const auto n = names(ms);
        for (const char* want : {"upper-case", "lower-case", "swapped-case", "padded-spaces", "braces", "quoted",
                                 "one-char-short", "one-char-long"})
            CHECK_MESSAGE(has(n, want), want);
        CHECK_FALSE(has(n, "leading-zero"));
        for (const auto& m : ms) {
            CHECK(m.text != "aB3x");
            CHECK_FALSE(m.breaks.empty());
        }
    }
    SUBCASE("a lower-case hex id has no lower-case form, and nothing comes out twice") {
        const auto n = names(ids::opaque_mutations("8b5a"));
        CHECK(has(n, "upper-case"));
        CHECK_FALSE(has(n, "lower-case"));
        CHECK_FALSE(has(n, "swapped-case"));  // the same as upper-case here
    }
    CHECK(ids::opaque_mutations("").empty());
}
