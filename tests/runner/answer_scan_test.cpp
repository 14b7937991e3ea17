// Tests of bodies at the harness's limits (issue #14, defects 3, 4 and 8):
// deep JSON parses, the shape scan of one answer is capped with a count of
// the rest, a body that cannot be scanned is said so, and a body cut at the
// cap or nested past the bound is a harness limit (BodyJson::limit).
#include "runner/answer_scan.hpp"
#include "test_support.hpp"

#include <doctest/doctest.h>

using namespace idconform;
using namespace idconform::runner;
using namespace idconform::runner::test;

namespace {

// {"a":{"a":...{"id":"<leaf>"}...}} nested `depth` objects deep.
std::string nested(std::size_t depth, const std::string& leaf) {
    std::string s;
    for (std::size_t i = 1; i < depth; ++i) s += "{\"a\":";
    s += "{\"id\":\"" + leaf + "\"}";
    s.append(depth - 1, '}');
    return s;
}

suite::Expect json_equals(std::string pointer, boost::json::value want) {
    suite::Expect e;
    suite::JsonExpect j;
    j.pointer = std::move(pointer);
    j.op = suite::JsonOp::equals;
    j.operand = std::move(want);
    e.json.push_back(std::move(j));
    return e;
}

}  // namespace

TEST_CASE("a valid body nested deeper than Boost.JSON's default 32 levels is JSON") {
    Ctx c;
    std::string ptr;
    for (int i = 1; i < 40; ++i) ptr += "/a";
    auto x = answered(200, nested(40, v7_text));
    BodyJson body(*x.response);
    const auto checks = evaluate(json_equals(ptr + "/id", boost::json::value(v7_text)), x, c.ctx, body);
    REQUIRE(checks.size() == 1);
    CHECK_MESSAGE(checks[0].ok, checks[0].actual);
    CHECK(body.limit().empty());
}

TEST_CASE("the shape scan reads deep bodies: an upper-case id 100 levels down is found") {
    auto x = answered(200, nested(100, v7_upper));
    BodyJson body(*x.response);
    const auto scan = scan_answer(*x.response, body, nullptr);
    REQUIRE(scan.findings.size() == 1);
    CHECK(scan.findings[0].rule == "DATA-ID-002");
    CHECK_FALSE(scan.note);
}

TEST_CASE("a body past the depth bound is a harness limit, not a broken contract") {
    auto x = answered(200, nested(max_body_depth + 10, v7_text));
    BodyJson body(*x.response);
    CHECK(body.get() == nullptr);
    CHECK(body.limit().find("deeper than 512") != std::string::npos);
    BodyJson for_scan(*x.response);
    const auto scan = scan_answer(*x.response, for_scan, nullptr);
    REQUIRE(scan.note);
    CHECK(scan.note->warning);
    CHECK_FALSE(for_scan.used());  // the scan alone never makes a step an error
}

TEST_CASE("a body cut at the cap is a harness limit, the scan says it did not run") {
    auto x = answered(200, R"({"items":[{"id":")" + v7_text + R"("},{"id":"01)");
    x.response->body_bytes = 5'000'000;
    x.response->body_truncated = true;
    BodyJson body(*x.response);
    const auto scan = scan_answer(*x.response, body, nullptr);
    REQUIRE(scan.note);
    CHECK(scan.note->what == "shape scan (not run)");
    CHECK(scan.note->actual.find("raise --body-cap") != std::string::npos);
    CHECK(scan.note->warning);
    CHECK(body.limit().find("larger than the body cap") != std::string::npos);
}

TEST_CASE("an unparseable 2xx body is said in the evidence, an empty one or a declared non-JSON one is not") {
    {
        auto x = answered(200, "{\"id\": ", {{"Content-Type", "application/json"}});
        BodyJson body(*x.response);
        const auto scan = scan_answer(*x.response, body, nullptr);
        REQUIRE(scan.note);
        CHECK(scan.note->actual.find("not JSON") != std::string::npos);
        CHECK(body.limit().empty());  // the answer's own fault: checks on it fail as before
    }
    {
        auto x = answered(204, "");
        BodyJson body(*x.response);
        CHECK_FALSE(scan_answer(*x.response, body, nullptr).note);
    }
    {
        auto x = answered(200, "<html></html>", {{"Content-Type", "text/html; charset=utf-8"}});
        BodyJson body(*x.response);
        CHECK_FALSE(scan_answer(*x.response, body, nullptr).note);
    }
}

TEST_CASE("the shape scan keeps the first findings of an answer and counts the rest") {
    std::string b = "[";
    const std::size_t n = 25'000;
    for (std::size_t i = 0; i < n; ++i) b += (i ? ",\"" : "\"") + v7_upper + "\"";
    b += "]";
    auto x = answered(200, b);
    BodyJson body(*x.response);
    std::map<std::string, std::set<int>> versions;
    const auto scan = scan_answer(*x.response, body, &versions);
    REQUIRE(scan.findings.size() == max_scan_findings_per_step + 1);
    const auto& summary = scan.findings.back();
    CHECK_FALSE(summary.ok);
    CHECK(summary.rule == "DATA-ID-002");
    CHECK(summary.actual == std::to_string(n - max_scan_findings_per_step) + " more not listed (" +
                                std::to_string(n) + " in all)");
    // Under the cap nothing changes.
    const auto few = scan_answer(*x.response, body, nullptr, nullptr, n);
    CHECK(few.findings.size() == n);
}
