// Skips say why and add up: every skip site of the engine gives its case a
// SkipCause (not applicable, not described, precondition not met, run
// stopped), the run's counts add up (passed + failed + errors + skipped +
// waived = tests, skipped = the sum over causes), and --filter/--tags select
// setups too: a suite with no selected case runs nothing, not even its setup,
// and its cases are only counted as filtered out. Scripted fake transport.
#include "reporters/reporter.hpp"
#include "runner/expansion.hpp"
#include "runner/runner.hpp"
#include "suite/loader.hpp"
#include "transport/fake/fake_transport.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <string>
#include <vector>

using namespace idconform;
using transport::fake::Reply;
using transport::fake::Script;

namespace {

class Recorder final : public reporters::Reporter {
public:
    void suite_started(const std::string& s, const std::string&) override { suites.push_back(s); }
    void take_case(CaseResult&& c) override { cases.push_back(std::move(c)); }
    [[nodiscard]] const CaseResult& named(const std::string& name) const {
        for (const auto& c : cases)
            if (c.name == name) return c;
        FAIL("no case named " << name);
        return cases.front();
    }
    std::vector<std::string> suites;
    std::vector<CaseResult> cases;
};

suite::Suite load(const std::string& yaml, const std::string& file = "skip_causes_test.yaml") {
    auto r = suite::load_text(yaml, file);
    if (!r.ok())
        for (const auto& d : r.diagnostics) MESSAGE(std::string(d.pos.str() + ": " + d.title));
    REQUIRE(r.ok());
    return std::move(*r.suite);
}

struct Run {
    Recorder rec;
    runner::RunReport report;
};

Run run(const std::vector<suite::Suite>& suites, Script& script, runner::RunOptions opts = {}) {
    Run r;
    r.report = runner::run(suites, opts, r.rec, script.factory());
    return r;
}

// The invariants of every summary.
void check_adds_up(const RunSummary& s) {
    std::size_t outcomes = 0;
    for (const Outcome o : {Outcome::passed, Outcome::failed, Outcome::error, Outcome::skipped, Outcome::waived})
        outcomes += s.count(o);
    CHECK(outcomes == s.total());
    std::size_t causes = 0;
    for (const SkipCause k : skip_causes) causes += s.skipped(k);
    CHECK(causes == s.count(Outcome::skipped));
    CHECK(s.skipped(SkipCause::none) == 0);
}

}  // namespace

TEST_CASE("skip causes: each skip site of the engine says its cause, and the counts add up") {
    ::unsetenv("IDCONFORM_SKIP_CAUSES_UNSET");
    Script script;
    script.on("GET", "http://t/owner", Reply::answer(200, R"({"items":[]})"));
    script.otherwise([](const Request&) { return Reply::answer(200, "{}"); });
    const auto s = load(R"(name: s
target: {base_url: "http://t"}
cases:
  - name: passes
    steps: [{http: {path: /ok}, expect: {status: 200}}]
  - name: fails
    steps: [{http: {path: /ok}, expect: {status: 201}}]
  - name: unobservable
    skip: "not observable from outside"
  - name: needs a variable
    requires: [res.update]
    steps: [{http: {path: "${res.update}"}}]
  - name: needs the environment
    requires: [env:IDCONFORM_SKIP_CAUSES_UNSET]
    steps: [{http: {path: /ok}}]
  - name: unmet precondition
    steps:
      - {http: {path: /owner}, expect: {status: 200, body: {contains: [abc]}, precondition: the list shows it}}
)");
    auto r = run({s}, script);
    CHECK(r.rec.named("passes").skip_cause == SkipCause::none);
    CHECK(r.rec.named("fails").skip_cause == SkipCause::none);
    const CaseResult& unobservable = r.rec.named("unobservable");
    CHECK(unobservable.outcome == Outcome::skipped);
    CHECK(unobservable.skip_cause == SkipCause::not_applicable);
    const CaseResult& var = r.rec.named("needs a variable");
    CHECK(var.skip_cause == SkipCause::not_described);
    CHECK(var.message.find("${") == std::string::npos);
    CHECK(var.message ==
          "not described: the case needs the variable 'res.update', which nothing defines (define "
          "it under vars:, or give --var res.update=VALUE)");
    CHECK(r.rec.named("needs the environment").skip_cause == SkipCause::precondition);
    CHECK(r.rec.named("unmet precondition").skip_cause == SkipCause::precondition);
    const RunSummary& sum = r.report.summary;
    CHECK(sum.count(Outcome::skipped) == 4);
    CHECK(sum.skipped(SkipCause::not_applicable) == 1);
    CHECK(sum.skipped(SkipCause::not_described) == 1);
    CHECK(sum.skipped(SkipCause::precondition) == 2);
    CHECK(sum.filtered_out == 0);
    check_adds_up(sum);
}

TEST_CASE("skip causes: a failed setup skips its cases as precondition not met, --max-failures as run stopped") {
    Script script;
    script.on("POST", "http://t/setup", Reply::answer(503));
    script.otherwise([](const Request&) { return Reply::answer(500); });
    const auto broken = load(R"(name: broken
target: {base_url: "http://t"}
setup:
  - {name: make, http: {method: POST, path: /setup}, expect: {status: 201}}
cases:
  - name: a
    steps: [{http: {path: /a}}]
)");
    std::string yaml = "name: many\ntarget: {base_url: \"http://t\"}\ncases:\n";
    for (int i = 0; i < 4; ++i)
        yaml += "  - name: c" + std::to_string(i) + "\n    steps: [{http: {path: /x}, expect: {status: 200}}]\n";
    const auto many = load(yaml);
    runner::RunOptions o;
    o.max_failures = 1;
    auto r = run({broken, many}, script, o);
    CHECK(r.rec.named("a").skip_cause == SkipCause::precondition);
    CHECK(r.rec.named("c0").outcome == Outcome::failed);
    for (const char* n : {"c1", "c2", "c3"}) {
        CHECK(r.rec.named(n).outcome == Outcome::skipped);
        CHECK(r.rec.named(n).skip_cause == SkipCause::stopped);
    }
    CHECK(r.report.summary.skipped(SkipCause::stopped) == 3);
    CHECK(r.report.summary.skipped(SkipCause::precondition) == 1);
    check_adds_up(r.report.summary);
}

TEST_CASE("skip causes: a mutation the declared kind does not admit is not applicable") {
    Script script;
    script.on("POST", "http://t/items", Reply::answer(201, R"({"id":"42"})"));
    script.otherwise([](const Request&) { return Reply::answer(404); });
    const auto s = load(R"(name: m
target: {base_url: "http://t"}
setup:
  - {name: make, http: {method: POST, path: /items}, expect: {status: 201}, capture: {live: /id}}
cases:
  - name: mutated
    for_each: {mutations: "${live}", kind: existing, as: m}
    steps: [{http: {path: "/items/${m}"}, expect: {status: 404}}]
)");
    auto r = run({s}, script);
    std::size_t not_applicable = 0;
    for (const auto& c : r.rec.cases)
        if (c.outcome == Outcome::skipped) {
            INFO(c.name << ": " << c.message);
            CHECK(c.skip_cause == SkipCause::not_applicable);
            ++not_applicable;
        }
    CHECK(not_applicable > 0);  // the upper-case form of "42" is the id itself
    CHECK(r.report.summary.skipped(SkipCause::not_applicable) == not_applicable);
    check_adds_up(r.report.summary);
}

TEST_CASE("filter: a filter that matches nothing runs no setup, creates nothing and counts what it left out") {
    Script script;
    script.otherwise(
        [](const Request&) { return Reply::answer(201, R"({"id":"017f22e2-79b0-7cc3-98c4-dc0c0c07398f"})"); });
    const auto a = load(R"(name: a
target: {base_url: "http://t"}
setup:
  - {name: make, http: {method: POST, path: /a}, expect: {status: 201}}
cases:
  - name: read a
    steps: [{http: {path: /a/1}}]
  - name: counted
    for_each: {count: 3, as: i}
    steps: [{http: {path: /a/1}}]
)");
    const auto b = load(R"(name: b
target: {base_url: "http://t"}
setup:
  - {name: make, http: {method: POST, path: /b}, expect: {status: 201}}
cases:
  - name: read b
    steps: [{http: {path: /b/1}}]
)");
    runner::RunOptions o;
    o.filter = "no such case*";
    auto r = run({a, b}, script, o);
    CHECK(script.requests().empty());  // not even a setup step
    CHECK(r.rec.suites.empty());
    CHECK(r.rec.cases.empty());
    CHECK(r.report.summary.total() == 0);
    CHECK(r.report.summary.filtered_out == 5);  // read a, counted [1..3], read b
    CHECK(r.report.summary.suites.empty());
    CHECK(runner::selects(o));
}

TEST_CASE("filter: a filter selecting one case runs only that suite's setup, the rest is counted filtered out") {
    Script script;
    script.otherwise(
        [](const Request&) { return Reply::answer(201, R"({"id":"017f22e2-79b0-7cc3-98c4-dc0c0c07398f"})"); });
    const auto a = load(R"(name: a
target: {base_url: "http://t"}
setup:
  - {name: make, http: {method: POST, path: /a}, expect: {status: 201}}
cases:
  - name: read a
    steps: [{http: {path: /a/1}}]
)");
    const auto b = load(R"(name: b
target: {base_url: "http://t"}
setup:
  - {name: make, http: {method: POST, path: /b}, expect: {status: 201}}
cases:
  - name: read b
    steps: [{http: {path: /b/1}}]
  - name: list b
    steps: [{http: {path: /b}}]
)");
    runner::RunOptions o;
    o.filter = "read b";
    auto r = run({a, b}, script, o);
    CHECK(script.count("POST", "http://t/a") == 0);
    CHECK(script.count("POST", "http://t/b") == 1);
    CHECK(script.count("GET", "http://t/b/1") == 1);
    CHECK(script.count("GET", "http://t/b") == 0);
    CHECK(r.rec.suites == std::vector<std::string>{"b"});
    REQUIRE(r.rec.cases.size() == 1);
    CHECK(r.rec.cases[0].name == "read b");
    CHECK(r.report.summary.filtered_out == 2);  // read a, list b
    check_adds_up(r.report.summary);
}

TEST_CASE("filter: tags select setups too, a mutation case counts when the filter can match its element names") {
    Script script;
    script.otherwise(
        [](const Request&) { return Reply::answer(201, R"({"id":"017f22e2-79b0-7cc3-98c4-dc0c0c07398f"})"); });
    const auto s = load(R"(name: m
target: {base_url: "http://t"}
setup:
  - {name: make, http: {method: POST, path: /m}, expect: {status: 201}, capture: {live: /id}}
cases:
  - name: mutated
    tags: [slow]
    for_each: {mutations: "${live}", kind: uuidv7, as: m}
    steps: [{http: {path: "/m/${m}"}}]
)");
    runner::RunOptions tags;
    tags.tags = {"fast"};
    auto none = run({s}, script, tags);
    CHECK(script.requests().empty());
    CHECK(none.report.summary.filtered_out > 0);

    runner::RunOptions filter;
    filter.filter = "mutated [upper*";  // a name known only once the setup has captured the id
    auto one = run({s}, script, filter);
    CHECK(script.count("POST", "http://t/m") == 1);
    REQUIRE_FALSE(one.rec.cases.empty());
    for (const auto& c : one.rec.cases) CHECK(c.name.rfind("mutated [upper", 0) == 0);
    CHECK(one.report.summary.filtered_out > 0);
    check_adds_up(one.report.summary);
}

TEST_CASE("skip causes: the cause a message says, for reports written before causes were recorded") {
    CHECK(skip_cause_of_message("not applicable: the profile declares ...") == SkipCause::not_applicable);
    CHECK(skip_cause_of_message("not described in the profile: add `update:` to resource `orders`") ==
          SkipCause::not_described);
    CHECK(skip_cause_of_message("not run: --max-failures 2 reached") == SkipCause::stopped);
    CHECK(skip_cause_of_message("not run: the run was interrupted by SIGINT") == SkipCause::stopped);
    CHECK(skip_cause_of_message("not run: the suite's setup did not succeed (...)") == SkipCause::precondition);
    CHECK(skip_cause_of_message("anything else") == SkipCause::precondition);
    for (const SkipCause k : skip_causes) CHECK(parse_skip_cause(to_string(k)) == k);
    CHECK_FALSE(parse_skip_cause("deselected").has_value());
    CaseResult c;
    c.outcome = Outcome::skipped;
    c.message = "not applicable: x";
    CHECK(counted_skip_cause(c) == SkipCause::not_applicable);
    skip(c, SkipCause::stopped, "y");
    CHECK(counted_skip_cause(c) == SkipCause::stopped);
}
