// Tests of harness/audit: waiver files (good and bad, with positions),
// dates, globs and scopes, baseline reading, and the audit stage between
// the runner and the reporters.
#include "audit/audit_stage.hpp"
#include "audit/baseline.hpp"
#include "audit/waivers.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <memory>

using namespace idconform;
using namespace idconform::audit;

namespace {

const char* good = R"(waivers:
  - rule: DATA-ID-002
    suite: "data-id-002 *"
    case: "*upper-case*"
    reason: legacy clients send upper-case ids (TICKET-12)
    owner: alice@example.com
    expires: 2027-03-31
  - rule: DATA-ID-00*
    resource: categories
    reason: categories are read-only
    owner: bob
    expires: 2020-01-31
)";

// Records what reached the reporters behind the stage.
struct Recorder final : reporters::Reporter {
    std::vector<CaseResult> cases;
    std::vector<SuiteResult> suites;
    std::optional<reporters::AuditSummary> audit;
    RunSummary summary;
    void case_finished(const CaseResult& c) override { cases.push_back(c); }
    void suite_finished(const SuiteResult& s) override { suites.push_back(s); }
    void audit_finished(const reporters::AuditSummary& a) override { audit = a; }
    bool run_finished(const RunSummary& s, std::string&) override {
        summary = s;
        return true;
    }
};

CaseResult make_case(std::string suite, std::string name, std::string rule, Outcome o) {
    CaseResult c;
    c.suite = std::move(suite);
    c.name = std::move(name);
    c.rules = {std::move(rule)};
    c.outcome = o;
    c.message = "status: expected 4xx, got 200";
    return c;
}

const Property* prop(const CaseResult& c, const std::string& name) {
    for (const auto& p : c.properties)
        if (p.name == name) return &p;
    return nullptr;
}

}  // namespace

TEST_CASE("waivers: a good file loads in order with positions") {
    const auto w = load_waivers_text(good, "w.yaml");
    REQUIRE(w.diagnostics.empty());
    REQUIRE(w.file);
    REQUIRE(w.file->waivers.size() == 2);
    const Waiver& a = w.file->waivers[0];
    CHECK(a.rule == "DATA-ID-002");
    CHECK(a.suite == "data-id-002 *");
    CHECK(a.case_name == "*upper-case*");
    CHECK(a.resource == "*");
    CHECK(a.owner == "alice@example.com");
    CHECK(a.expires == "2027-03-31");
    CHECK(a.expires_day == *parse_day("2027-03-31"));
    CHECK(a.pos.str() == "w.yaml:2:5");
    CHECK(w.file->waivers[1].pos.str() == "w.yaml:8:5");
}

TEST_CASE("waivers: mistakes are reported at file:line:col with a hint") {
    struct Bad {
        const char* text;
        const char* pos;
        const char* title;
    };
    const Bad bad[] = {
        {"waivers:\n  - rule: R1\n    reason: r\n    owner: o\n    expires: 2027-02-30\n", "w.yaml:5:14", "is not a date"},
        {"waivers:\n  - rule: R1\n    reason: r\n    owner: o\n", "w.yaml:2:5", "waiver without 'expires'"},
        {"waivers:\n  - rule: R1\n    reason: \"  \"\n    owner: o\n    expires: 2027-01-01\n", "w.yaml:3:13", "empty 'reason'"},
        {"waivers:\n  - rule: R1\n    reson: r\n    reason: r\n    owner: o\n    expires: 2027-01-01\n", "w.yaml:3:5", "reson"},
        {"waivers:\n  - rule: R1\n    case: \"\"\n    reason: r\n    owner: o\n    expires: 2027-01-01\n", "w.yaml:3:11", "empty 'case' glob"},
        {"waivers: {rule: R1}\n", "w.yaml:1:10", ""},
        {"waiver:\n  - rule: R1\n", "w.yaml:1:1", "waiver"},
        {"waivers: [\n", "w.yaml:", "YAML syntax error"},
        {"", "w.yaml:1:1", "empty"},
    };
    for (const auto& b : bad) {
        CAPTURE(b.text);
        const auto w = load_waivers_text(b.text, "w.yaml");
        CHECK_FALSE(w.file);
        REQUIRE_FALSE(w.diagnostics.empty());
        const Diagnostic& d = w.diagnostics.front();
        CHECK(d.pos.str().rfind(b.pos, 0) == 0);
        CHECK(d.title.find(b.title) != std::string::npos);
        CHECK_FALSE(d.hint.empty());
    }
    const auto missing = load_waivers("/nonexistent/waivers.yaml");
    CHECK_FALSE(missing.file);
    REQUIRE(missing.diagnostics.size() == 1);
    CHECK(missing.diagnostics[0].title.find("cannot read waivers file") != std::string::npos);
}

TEST_CASE("waivers: dates") {
    CHECK(parse_day("1970-01-01") == 0);
    CHECK(parse_day("2000-03-01") == 11017);
    CHECK(parse_day("2024-02-29"));
    CHECK_FALSE(parse_day("2023-02-29"));
    CHECK_FALSE(parse_day("2027-13-01"));
    CHECK_FALSE(parse_day("2027-1-01"));
    CHECK_FALSE(parse_day("27-01-01"));
    CHECK_FALSE(parse_day("2027-01-01T00:00"));
    CHECK(today_utc() > *parse_day("2024-01-01"));
}

TEST_CASE("waivers: scope globs on rule, suite, resource word and case") {
    Waiver w;
    w.rule = "DATA-ID-00*";
    CHECK(covers(w, make_case("data-id-002 products", "x", "DATA-ID-002", Outcome::failed)));
    CHECK_FALSE(covers(w, make_case("data-id-002 products", "x", "nil-max", Outcome::failed)));
    w.resource = "categories";
    CHECK(covers(w, make_case("data-id-002 categories over grpc", "x", "DATA-ID-002", Outcome::failed)));
    CHECK_FALSE(covers(w, make_case("data-id-002 products", "x", "DATA-ID-002", Outcome::failed)));
    w.resource = "*";
    w.case_name = "*upper*";
    CHECK(covers(w, make_case("s", "rejects upper-case ids", "DATA-ID-001", Outcome::failed)));
    CHECK_FALSE(covers(w, make_case("s", "rejects braces", "DATA-ID-001", Outcome::failed)));
    CHECK(scope_text(w) == "case=*upper*");
}

TEST_CASE("waivers: a failure is covered under the rules its failing checks broke, all of them") {
    // Issue #22: a DATA-ID-006 case that failed on a DATA-ID-002 check is a
    // DATA-ID-002 finding; a waiver of DATA-ID-006 does not hide it.
    CaseResult c = make_case("s", "x", "DATA-ID-006", Outcome::failed);
    StepRecord st;
    st.checks.push_back(CheckResult{"DATA-ID-002", "status", "4xx", "200", false, false, {}});
    c.steps.push_back(st);
    Waiver w;
    w.rule = "DATA-ID-006";
    CHECK_FALSE(covers(w, c));
    w.rule = "DATA-ID-002";
    CHECK(covers(w, c));
    c.steps[0].checks.push_back(CheckResult{"DATA-ID-007", "json /ref", "null", "\"\"", false, false, {}});
    CHECK_FALSE(covers(w, c));  // the DATA-ID-007 failure is not waived
    w.rule = "DATA-ID-00*";
    CHECK(covers(w, c));
}

TEST_CASE("audit stage: an active waiver turns a covered failure into waived, for every reporter") {
    auto file = load_waivers_text(good, "w.yaml").file;
    REQUIRE(file);
    AuditConfig cfg;
    cfg.waivers = *file;
    cfg.today = *parse_day("2026-06-01");  // the first waiver holds, the second expired
    auto rec = std::make_unique<Recorder>();
    Recorder* seen = rec.get();
    AuditStage stage(std::move(rec), std::move(cfg));
    stage.run_started({});
    stage.suite_started("data-id-002 products", "p.yaml");
    stage.case_finished(make_case("data-id-002 products", "rejects upper-case ids", "DATA-ID-002", Outcome::failed));
    stage.case_finished(make_case("data-id-002 products", "rejects braces", "DATA-ID-002", Outcome::failed));
    stage.case_finished(make_case("data-id-002 products", "other", "DATA-ID-002", Outcome::passed));
    SuiteResult runner_view;  // the runner's counts: it knows nothing of waivers
    runner_view.name = "data-id-002 products";
    runner_view.streamed = {1, 2, 0, 0, 0};
    stage.suite_finished(runner_view);
    stage.suite_started("data-id-007 categories", "c.yaml");
    stage.case_finished(make_case("data-id-007 categories", "nil", "DATA-ID-007", Outcome::failed));
    stage.suite_finished(SuiteResult{});
    std::string error;
    REQUIRE(stage.run_finished(RunSummary{}, error));

    REQUIRE(seen->cases.size() >= 4);
    const CaseResult& waived = seen->cases[0];
    CHECK(waived.outcome == Outcome::waived);
    CHECK(waived.message == "waived until 2027-03-31 by alice@example.com: legacy clients send upper-case ids (TICKET-12)");
    REQUIRE(prop(waived, "waiver"));
    CHECK(prop(waived, "waiver")->value == "w.yaml:2:5");
    CHECK(prop(waived, "waived_message")->value == "status: expected 4xx, got 200");
    CHECK(seen->cases[1].outcome == Outcome::failed);  // outside the waiver's case glob
    CHECK(seen->cases[3].outcome == Outcome::failed);  // covered only by the expired waiver
    // the counts the reporters get say waived, not failed
    REQUIRE(seen->suites.size() == 3);
    CHECK(seen->suites[0].count(Outcome::waived) == 1);
    CHECK(seen->suites[0].count(Outcome::failed) == 1);
    CHECK(seen->summary.count(Outcome::waived) == 1);
    // the expired waiver covered a failure: a failure of its own in the waivers suite
    CHECK(seen->suites[2].name == "waivers");
    const CaseResult& expired = seen->cases.back();
    CHECK(expired.suite == "waivers");
    CHECK(expired.outcome == Outcome::failed);
    CHECK(expired.message.find("expired after 2020-01-31") != std::string::npos);
    CHECK(expired.pos.str() == "w.yaml:8:5");
    // under the rule of the failure it covered (not "(no rule)"), saying which waiver
    CHECK(expired.rules == std::vector<std::string>{"DATA-ID-007"});
    CHECK(expired.classname == "waivers.DATA-ID-007");
    CHECK(expired.name == "waiver w.yaml:8:5 (DATA-ID-00*)");
    REQUIRE(prop(expired, "waiver"));
    CHECK(prop(expired, "waiver")->value == "w.yaml:8:5");
    CHECK(prop(expired, "waiver.state")->value == "expired");
    CHECK(stage.failing() == 3);  // braces, nil, the expired waiver
    REQUIRE(seen->audit);
    REQUIRE(seen->audit->waivers.size() == 2);
    CHECK(seen->audit->waivers[0].state == "active");
    CHECK(seen->audit->waivers[0].waived == 1);
    CHECK(seen->audit->waivers[1].state == "expired");
    CHECK(seen->audit->waivers[1].matched_expired == 1);
}

TEST_CASE("audit stage: a waiver that covers no failure is stale, --strict-waivers fails it") {
    for (const bool strict : {false, true}) {
        CAPTURE(strict);
        AuditConfig cfg;
        cfg.waivers = *load_waivers_text(good, "w.yaml").file;
        cfg.strict_waivers = strict;
        cfg.today = *parse_day("2026-06-01");
        auto rec = std::make_unique<Recorder>();
        Recorder* seen = rec.get();
        AuditStage stage(std::move(rec), std::move(cfg));
        stage.suite_started("data-id-002 products", "p.yaml");
        stage.case_finished(make_case("data-id-002 products", "rejects upper-case ids", "DATA-ID-002", Outcome::passed));
        stage.suite_finished(SuiteResult{});
        std::string error;
        REQUIRE(stage.run_finished(RunSummary{}, error));
        REQUIRE(seen->audit);
        CHECK(seen->audit->waivers[0].state == "stale");
        CHECK(seen->audit->waivers[1].state == "expired");
        const CaseResult& stale = seen->cases[1];
        CHECK(stale.message.find("stale waiver") != std::string::npos);
        CHECK(stale.outcome == (strict ? Outcome::failed : Outcome::skipped));
        CHECK(seen->cases[2].outcome == Outcome::skipped);  // expired, covering nothing
        // a stale waiver under its rule; one that covered nothing under its rule as written
        CHECK(stale.rules == std::vector<std::string>{"DATA-ID-002"});
        CHECK(stale.classname == "waivers.DATA-ID-002");
        CHECK(prop(stale, "waiver")->value == "w.yaml:2:5");
        CHECK(seen->cases[2].rules == std::vector<std::string>{"DATA-ID-00*"});
        CHECK(stage.failing() == (strict ? 1u : 0u));
    }
}

TEST_CASE("baseline: reads the failures of a JSON report, not a report is an error") {
    const char* report = R"({"tool": "idconform", "version": "x", "suites": [
        {"name": "s", "cases": [
            {"name": "a", "rules": ["R1"], "outcome": "failed"},
            {"name": "b", "rules": ["R1"], "outcome": "passed"},
            {"name": "c", "rules": ["R2"], "outcome": "waived"}]}]})";
    const auto b = load_baseline_text(report, "old.json");
    REQUIRE(b.baseline);
    CHECK(b.baseline->failing.size() == 2);
    CHECK(b.baseline->failing.count(case_key("s", "a")) == 1);
    CHECK(b.baseline->failing.count(case_key("s", "c")) == 1);
    CHECK_FALSE(load_baseline_text("{", "x.json").baseline);
    CHECK_FALSE(load_baseline_text(R"({"suites": []})", "x.json").baseline);
    CHECK(load_baseline_text(R"({"tool": "idconform", "suites": [{"name": 1}]})", "x.json").error.find("x.json") !=
          std::string::npos);
    CHECK_FALSE(load_baseline("/nonexistent/old.json").baseline);
}

TEST_CASE("audit stage: baseline diff per rule, --fail-on new counts only new failures") {
    const char* report = R"({"tool": "idconform", "suites": [{"name": "s", "cases": [
        {"name": "a", "rules": ["R1"], "outcome": "failed"},
        {"name": "b", "rules": ["R1"], "outcome": "failed"},
        {"name": "gone", "rules": ["R2"], "outcome": "failed"}]}]})";
    AuditConfig cfg;
    cfg.baseline = *load_baseline_text(report, "old.json").baseline;
    cfg.fail_on_new = true;
    auto rec = std::make_unique<Recorder>();
    Recorder* seen = rec.get();
    AuditStage stage(std::move(rec), std::move(cfg));
    stage.suite_started("s", "s.yaml");
    stage.case_finished(make_case("s", "a", "R1", Outcome::failed));   // still failing
    stage.case_finished(make_case("s", "b", "R1", Outcome::passed));   // fixed
    stage.case_finished(make_case("s", "n", "R3", Outcome::failed));   // new
    stage.suite_finished(SuiteResult{});
    std::string error;
    REQUIRE(stage.run_finished(RunSummary{}, error));
    CHECK(prop(seen->cases[0], "baseline")->value == "still-failing");
    CHECK(prop(seen->cases[1], "baseline")->value == "fixed");
    CHECK(prop(seen->cases[2], "baseline")->value == "new");
    REQUIRE(seen->audit);
    const auto& a = *seen->audit;
    CHECK(a.added == 1);
    CHECK(a.fixed == 1);
    CHECK(a.still == 1);
    CHECK(a.gone == 1);
    CHECK(a.gone_cases == std::vector<std::string>{"s \xE2\x80\xBA gone"});
    REQUIRE(a.baseline.size() == 2);
    CHECK(a.baseline[0].rule == "R1");
    CHECK(a.baseline[0].fixed == 1);
    CHECK(a.baseline[0].still == 1);
    CHECK(a.baseline[1].rule == "R3");
    CHECK(a.baseline[1].added == 1);
    CHECK(stage.failing() == 1);  // only the new one
}

TEST_CASE("audit stage: fails_run says which failures will fail the run (what --max-failures counts)") {
    auto file = load_waivers_text(good, "w.yaml").file;
    REQUIRE(file);
    AuditConfig cfg;
    cfg.waivers = std::move(*file);
    cfg.today = *parse_day("2026-12-01");
    AuditStage stage(std::make_unique<Recorder>(), std::move(cfg));
    // covered by the active waiver: waived, does not fail the run
    CHECK_FALSE(stage.fails_run(make_case("data-id-002 products", "rejects upper-case ids", "DATA-ID-002", Outcome::failed)));
    // outside its case glob, or covered only by the expired waiver: fails
    CHECK(stage.fails_run(make_case("data-id-002 products", "rejects braces", "DATA-ID-002", Outcome::failed)));
    CHECK(stage.fails_run(make_case("data-id-001 categories", "x", "DATA-ID-001", Outcome::failed)));
    // what is not failed never counts
    CHECK_FALSE(stage.fails_run(make_case("s", "x", "R1", Outcome::error)));
    CHECK_FALSE(stage.fails_run(make_case("s", "x", "R1", Outcome::passed)));

    const char* report = R"({"tool": "idconform", "suites": [{"name": "s", "cases": [
        {"name": "old", "rules": ["R1"], "outcome": "failed"}]}]})";
    AuditConfig on_new;
    on_new.baseline = *load_baseline_text(report, "old.json").baseline;
    on_new.fail_on_new = true;
    AuditStage by_baseline(std::make_unique<Recorder>(), on_new);
    CHECK_FALSE(by_baseline.fails_run(make_case("s", "old", "R1", Outcome::failed)));  // still failing
    CHECK(by_baseline.fails_run(make_case("s", "new", "R1", Outcome::failed)));
    on_new.fail_on_new = false;
    AuditStage any(std::make_unique<Recorder>(), on_new);
    CHECK(any.fails_run(make_case("s", "old", "R1", Outcome::failed)));
}

TEST_CASE("waivers: NUL, invalid UTF-8 and UTF-16 in the file are given at their position") {
    namespace fs = std::filesystem;
    const fs::path f = fs::temp_directory_path() / ("idconform-waivers-guard-" + std::to_string(::getpid()) + ".yaml");
    std::ofstream(f, std::ios::binary) << "waivers:\n  - rule: R1\n    reason: caf\xE9\n";
    auto w = load_waivers(f.string());
    REQUIRE(w.diagnostics.size() == 1);
    CHECK(w.diagnostics[0].pos.str() == f.string() + ":3:16");
    CHECK(w.diagnostics[0].title.rfind("invalid UTF-8 (byte 0xE9)", 0) == 0);
    std::ofstream(f, std::ios::binary) << std::string("\xFF\xFEw\0", 4);
    w = load_waivers(f.string());
    REQUIRE(w.diagnostics.size() == 1);
    CHECK(w.diagnostics[0].pos.str() == f.string() + ":1:1");
    CHECK(w.diagnostics[0].title.find("UTF-16") != std::string::npos);
    fs::remove(f);
}
