// Per-rule counting of results (core/result.hpp): a failure counts under the
// rule of each failing check, so per-rule failures add up to the failing checks.
#include "core/result.hpp"

#include <doctest/doctest.h>

using namespace idconform;

namespace {

CheckResult check(std::string rule, bool ok, bool warning = false) {
    CheckResult c;
    c.rule = std::move(rule);
    c.ok = ok;
    c.warning = warning;
    return c;
}

CaseResult case_of(Outcome o, std::vector<std::string> rules, std::vector<CheckResult> checks) {
    CaseResult c;
    c.outcome = o;
    c.rules = std::move(rules);
    StepRecord st;
    st.checks = std::move(checks);
    c.steps.push_back(std::move(st));
    return c;
}

std::vector<std::pair<std::string, std::size_t>> pairs(const std::vector<RuleCount>& v) {
    std::vector<std::pair<std::string, std::size_t>> out;
    for (const auto& rc : v) out.emplace_back(rc.rule, rc.count);
    return out;
}

using Pairs = std::vector<std::pair<std::string, std::size_t>>;

}  // namespace

TEST_CASE("rule_counts: a failure counts under each failing check's rule, never under the case's other rules") {
    const auto c = case_of(Outcome::failed, {"DATA-ID-006"},
                           {check("DATA-ID-006", true), check("DATA-ID-007", false), check("DATA-ID-007", false),
                            check("DATA-ID-002", false), check("DATA-ID-001", false, true)});
    CHECK(pairs(rule_counts(c)) == Pairs{{"DATA-ID-007", 2}, {"DATA-ID-002", 1}});
    CHECK(failed_rules(c) == std::vector<std::string>{"DATA-ID-007", "DATA-ID-002"});
    CHECK(reported_rules(c) == failed_rules(c));
}

TEST_CASE("rule_counts: a check of several rules or none counts under the case's first rule") {
    const auto c = case_of(Outcome::failed, {"DATA-ID-002", "DATA-ID-004"},
                           {check("DATA-ID-002,DATA-ID-004", false), check("", false)});
    CHECK(pairs(rule_counts(c)) == Pairs{{"DATA-ID-002", 2}});
    const auto bare = case_of(Outcome::failed, {}, {check("", false)});
    CHECK(pairs(rule_counts(bare)) == Pairs{{"(no rule)", 1}});
}

TEST_CASE("rule_counts: other outcomes, and a failure no check explains, count once under each case rule") {
    CHECK(pairs(rule_counts(case_of(Outcome::passed, {"A", "B"}, {check("C", true)}))) == Pairs{{"A", 1}, {"B", 1}});
    CHECK(pairs(rule_counts(case_of(Outcome::error, {}, {}))) == Pairs{{"(no rule)", 1}});
    CHECK(pairs(rule_counts(case_of(Outcome::failed, {"A"}, {check("C", true)}))) == Pairs{{"A", 1}});
    // a waived failure is still filed under what it broke
    CHECK(pairs(rule_counts(case_of(Outcome::waived, {"A"}, {check("C", false)}))) == Pairs{{"C", 1}});
    CHECK(reported_rules(case_of(Outcome::skipped, {"A"}, {check("C", false)})) == std::vector<std::string>{"A"});
}
