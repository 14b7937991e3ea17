// The shape scan's findings folded by rule x endpoint x field
// (runner/shape_findings.hpp), and the fold of shards' results for merge.
#include "runner/answer_scan.hpp"
#include "runner/body_json.hpp"
#include "runner/shape_findings.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace idconform;
using namespace idconform::runner;

namespace {

// The scan of one answer body, with the listed findings capped at `cap`.
AnswerScan scan_of(const std::string& body, std::size_t cap = max_scan_findings_per_step) {
    Response r;
    r.status = 200;
    r.body = body;
    BodyJson b(r);
    return scan_answer(r, b, nullptr, nullptr, cap);
}

std::string upper_items(int n) {
    std::string s = R"({"items":[)";
    for (int i = 0; i < n; ++i) s += std::string(i ? "," : "") + R"({"id":"017F22E2-79B0-7CC3-98C4-DC0C0C07398F"})";
    return s + "]}";
}

std::string prop(const CaseResult& c, const std::string& n) {
    for (const auto& p : c.properties)
        if (p.name == n) return p.value;
    return {};
}

}  // namespace

TEST_CASE(
    "shape findings: one result per rule x endpoint x field, answers and values counted, evidence made only when "
    "kept") {
    ShapeFindings f;
    int made = 0;
    auto example = [&] {
        ++made;
        StepRecord r;
        r.name = "example " + std::to_string(made);
        return r;
    };
    for (int i = 0; i < 5; ++i) f.add("GET /things", "http", scan_of(upper_items(2)), example);
    f.add("GET /other", "grpc", scan_of(R"({"parent_id":"00000000-0000-0000-0000-000000000000"})"), example);
    CHECK(made == 4);  // 3 examples of GET /things, 1 of GET /other
    auto results = f.take_results();
    CHECK(f.empty());
    REQUIRE(results.size() == 2);
    CHECK(results[0].name == "DATA-ID-002 /items/*/id in GET /things");
    CHECK(results[1].name == "DATA-ID-007 /parent_id in GET /other");
    CHECK(prop(results[0], "answers") == "5");
    CHECK(prop(results[0], "values") == "10");
    CHECK(prop(results[1], "transport") == "grpc");
    CHECK(results[0].steps.size() == shape_examples_per_finding);
    CHECK(results[0].steps[0].checks.size() == 2);
    CHECK(results[0].message.find("(seen in 5 answers of GET /things, 10 values)") != std::string::npos);
    CHECK(results[0].classname == "shape scan.DATA-ID-002");
}

TEST_CASE("shape findings: values past an answer's listed findings count under their own field") {
    ShapeFindings f;
    f.add("GET /big", "http", scan_of(upper_items(50), 5), [] { return StepRecord{}; });
    auto results = f.take_results();
    REQUIRE(results.size() == 1);  // no "(findings not listed)" result beside the field's own
    CHECK(prop(results[0], "values") == "50");
    const auto& checks = results[0].steps.at(0).checks;
    REQUIRE(checks.size() == 6);  // 5 listed values, then the count of the rest
    CHECK(checks.back().actual == "45 more values at this field in this answer");
}

TEST_CASE("shape findings: merge folds shards' results of one name into one, sums said again") {
    auto one = [](int answers) {
        ShapeFindings f;
        for (int i = 0; i < answers; ++i) f.add("GET /t", "http", scan_of(upper_items(1)), [] { return StepRecord{}; });
        return f.take_results().at(0);
    };
    CaseResult a = one(2), b = one(3);
    merge_shape_result(a, std::move(b));
    CHECK(prop(a, "answers") == "5");
    CHECK(prop(a, "values") == "5");
    CHECK(a.steps.size() == shape_examples_per_finding);
    CHECK(a.message.find("(seen in 5 answers of GET /t)") != std::string::npos);
}
