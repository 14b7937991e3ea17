// Authentication problems are errors, not contract results (issue #22
// section 4): a 401 to an authenticated principal never passes a negative
// check and never fails a rule; the statuses that count as "refused" are the
// suite's (the profile's) to say; a preflight suite that finds a principal
// not let in, or an owner not allowed to create, stops the run before any
// contract case. The fake transport plays the target.
#include "reporters/reporter.hpp"
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
    void run_started(const reporters::RunInfo&) override {}
    void suite_started(const std::string& name, const std::string&) override { suites.push_back(name); }
    void take_case(CaseResult&& c) override { cases.push_back(std::move(c)); }
    void suite_finished(const SuiteResult&) override {}
    [[nodiscard]] const CaseResult* named(const std::string& name) const {
        for (const auto& c : cases)
            if (c.name == name) return &c;
        return nullptr;
    }
    std::vector<std::string> suites;
    std::vector<CaseResult> cases;
};

suite::Suite load(const std::string& yaml) {
    auto r = suite::load_text(yaml, "auth_test.yaml");
    if (!r.ok())
        for (const auto& d : r.diagnostics) MESSAGE(std::string(d.pos.str() + ": " + d.title + " / " + d.hint));
    REQUIRE(r.ok());
    return std::move(*r.suite);
}

// One case as principal `owner` (its token from an environment variable the
// test leaves unset), expecting `expect` of an answer `status`.
std::string one_case(const std::string& expect, const std::string& extra = "") {
    return R"(name: s
target: {base_url: "http://t"}
)" + extra + R"(principals:
  owner: {headers: {Authorization: "Bearer ${env:IDCONFORM_AUTH_TEST_UNSET:-}"}}
cases:
  - name: other cannot read
    rule: DATA-ID-004
    steps:
      - http: {path: /items/1, principal: owner}
        expect: )" + expect + "\n";
}

struct Outcome1 {
    Recorder rec;
    runner::RunReport report;
};

Outcome1 run_one(const std::vector<suite::Suite>& suites, int status, std::vector<Header> headers = {}) {
    Outcome1 o;
    Script script;
    script.otherwise([status, headers](const Request&) { return Reply::answer(status, "{}", headers); });
    o.report = runner::run(suites, runner::RunOptions{}, o.rec, script.factory());
    return o;
}

}  // namespace

TEST_CASE("auth: a negative check answered 401 to an authenticated principal is an error, not a pass") {
    ::unsetenv("IDCONFORM_AUTH_TEST_UNSET");
    for (const char* expect : {"{status: 4xx}", "{status: [403, 404]}", "{status_not: [200]}", "{status: refused}"}) {
        INFO(expect);
        auto o = run_one({load(one_case(expect))}, 401);
        const CaseResult* c = o.rec.named("other cannot read");
        REQUIRE(c);
        CHECK(c->outcome == Outcome::error);
        CHECK(c->message ==
              "principal 'owner' is not authenticated: 401 on GET http://t/items/1; check its credential: "
              "IDCONFORM_AUTH_TEST_UNSET is not set (its default was sent)");
        CHECK(o.report.transport_errors == 1);
        REQUIRE_FALSE(c->steps.empty());
        REQUIRE(c->steps.front().exchange.error);
        CHECK(c->steps.front().exchange.error->kind == TransportErrorKind::unauthenticated);
        CHECK(c->steps.front().checks.empty());  // nothing was judged
    }
}

TEST_CASE("auth: the credential hint says whether the variable is empty or set, never its value") {
    ::setenv("IDCONFORM_AUTH_TEST_UNSET", "", 1);
    auto empty = run_one({load(one_case("{status: 4xx}"))}, 401);
    CHECK(empty.rec.named("other cannot read")->message.find("IDCONFORM_AUTH_TEST_UNSET is empty") !=
          std::string::npos);
    ::setenv("IDCONFORM_AUTH_TEST_UNSET", "s3cr3t-token", 1);
    auto set = run_one({load(one_case("{status: 4xx}"))}, 401);
    const std::string& m = set.rec.named("other cannot read")->message;
    CHECK(m.find("IDCONFORM_AUTH_TEST_UNSET is set") != std::string::npos);
    CHECK(m.find("s3cr3t") == std::string::npos);
    ::unsetenv("IDCONFORM_AUTH_TEST_UNSET");
}

TEST_CASE("auth: a 401 the step names is judged like any answer") {
    // written out
    auto exact = run_one({load(one_case("{status: 401}"))}, 401);
    CHECK(exact.rec.named("other cannot read")->outcome == Outcome::passed);
    // among the suite's refused statuses
    auto refused = run_one({load(one_case("{status: refused}", "refused: [401, 404]\n"))}, 401);
    CHECK(refused.rec.named("other cannot read")->outcome == Outcome::passed);
    CHECK(refused.report.transport_errors == 0);
    // refused: [401, 404] does not make a 403 a refusal
    auto forbidden = run_one({load(one_case("{status: refused}", "refused: [401, 404]\n"))}, 403);
    const CaseResult* f = forbidden.rec.named("other cannot read");
    CHECK(f->outcome == Outcome::failed);
    CHECK(f->message.find("expected 401 or 404, got 403") != std::string::npos);
    // a status that is not 401 stays the contract's to judge
    auto ok = run_one({load(one_case("{status: refused}"))}, 404);
    CHECK(ok.rec.named("other cannot read")->outcome == Outcome::passed);
}

TEST_CASE("auth: a principal declared not authenticated is judged on its 401") {
    const std::string yaml = R"(name: s
target: {base_url: "http://t"}
principals:
  anonymous: {authenticated: false}
cases:
  - name: anonymous is refused
    steps:
      - http: {path: /items/1, principal: anonymous}
        expect: {status: 4xx}
)";
    auto o = run_one({load(yaml)}, 401);
    CHECK(o.rec.named("anonymous is refused")->outcome == Outcome::passed);
}

TEST_CASE("auth: a principal without headers is told how to declare it") {
    const std::string yaml = R"(name: s
target: {base_url: "http://t"}
principals:
  guest: {}
cases:
  - name: guest
    steps:
      - http: {path: /items/1, principal: guest}
        expect: {status: 4xx}
)";
    auto o = run_one({load(yaml)}, 401);
    CHECK(o.rec.named("guest")->message.find("declare it `authenticated: false`") != std::string::npos);
}

namespace {

// A preflight suite like the pack's (suites/packs/preflight.yaml), and a
// contract suite after it.
const std::string preflight = R"(name: preflight
preflight: true
target: {base_url: "http://t"}
principals:
  owner: {headers: {Authorization: "Bearer ${env:IDCONFORM_AUTH_TEST_UNSET:-}"}}
  other: {headers: {Authorization: "Bearer b"}}
setup:
  - name: the owner is let in to create
    http: {method: POST, path: /items, principal: owner}
    expect: {status: 2xx}
    capture: {live_id: /id}
cases:
  - name: the other principal is let in to list
    steps:
      - http: {path: /items, principal: other}
        expect: {status_not: [401]}
)";
const std::string contract = R"(name: contract
target: {base_url: "http://t"}
principals:
  owner: {headers: {Authorization: "Bearer ${env:IDCONFORM_AUTH_TEST_UNSET:-}"}}
  other: {headers: {Authorization: "Bearer b"}}
cases:
  - name: other cannot read
    rule: DATA-ID-004
    steps:
      - http: {path: /items/1, principal: other}
        expect: {status: refused}
)";

}  // namespace

TEST_CASE("preflight: a principal that is not let in stops the run before any contract case") {
    ::unsetenv("IDCONFORM_AUTH_TEST_UNSET");
    auto o = run_one({load(preflight), load(contract)}, 401);
    CHECK(o.rec.suites == std::vector<std::string>{"preflight"});  // the contract suite never started
    CHECK_FALSE(o.rec.named("other cannot read"));
    const CaseResult* setup = o.rec.named("setup");
    REQUIRE(setup);
    CHECK(setup->outcome == Outcome::error);
    CHECK(setup->message.find("principal 'owner' is not authenticated: 401 on POST http://t/items") !=
          std::string::npos);
    CHECK(o.report.transport_errors >= 1);
    REQUIRE_FALSE(o.report.summary.notes.empty());
    CHECK(o.report.summary.notes.front().rfind("the run stopped before any contract case: ", 0) == 0);
    CHECK(o.report.summary.notes.front().find("; 1 suite not started") != std::string::npos);
    // no case passed or failed anywhere: errors and skips only
    for (const auto& c : o.rec.cases) CHECK((c.outcome == Outcome::error || c.outcome == Outcome::skipped));
}

TEST_CASE("preflight: an owner let in but not allowed to create stops the run, naming the permission") {
    auto o = run_one({load(preflight), load(contract)}, 403);
    const CaseResult* setup = o.rec.named("setup");
    REQUIRE(setup);
    CHECK(setup->outcome == Outcome::error);
    CHECK(setup->message.find("principal 'owner' is let in but not allowed to do what the checks need: 403 on POST "
                              "http://t/items") != std::string::npos);
    CHECK(o.report.transport_errors == 1);
    CHECK(o.rec.suites.size() == 1);
}

TEST_CASE("preflight: what is not about credentials is not checked, and the contract cases run") {
    Recorder rec;
    Script script;
    script.otherwise([](const Request& r) {
        if (r.method == "POST") return Reply::answer(400, R"({"error":"name is required"})");
        return Reply::answer(404);
    });
    auto report = runner::run({load(preflight), load(contract)}, runner::RunOptions{}, rec, script.factory());
    const CaseResult* setup = rec.named("setup");
    REQUIRE(setup);
    CHECK(setup->outcome == Outcome::skipped);
    CHECK(setup->message.rfind("not checked: ", 0) == 0);
    REQUIRE(rec.named("other cannot read"));
    CHECK(rec.named("other cannot read")->outcome == Outcome::passed);
    CHECK(report.transport_errors == 0);
    CHECK(report.summary.notes.empty());
}

TEST_CASE("preflight: a later 401 to a principal it saw let in says so, and points at `refused:`") {
    Recorder rec;
    Script script;
    script.otherwise([](const Request& r) {
        if (r.method == "POST") return Reply::answer(201, R"({"id":"017f22e2-79b0-7cc3-98c4-dc0c0c073901"})");
        if (r.url == "http://t/items") return Reply::answer(200, "[]");
        return Reply::answer(401);  // the API refuses another principal's read with 401
    });
    auto report = runner::run({load(preflight), load(contract)}, runner::RunOptions{}, rec, script.factory());
    const CaseResult* c = rec.named("other cannot read");
    REQUIRE(c);
    CHECK(c->outcome == Outcome::error);
    CHECK(c->message.find("401 to principal 'other', whom the API let in before (GET http://t/items answered 200)") !=
          std::string::npos);
    CHECK(c->message.find("add 401 to the profile's `refused:`") != std::string::npos);
    // With the profile's word for it, the same answer is a refusal.
    Recorder rec2;
    auto s = load(contract);
    s.refused = {401, 404};
    (void)runner::run({load(preflight), s}, runner::RunOptions{}, rec2, script.factory());
    CHECK(rec2.named("other cannot read")->outcome == Outcome::passed);
}

TEST_CASE("auth: a gRPC UNAUTHENTICATED is a 401") {
    auto o = run_one({load(one_case("{status: 4xx}"))}, 200, {{"grpc-status", "16"}});
    const CaseResult* c = o.rec.named("other cannot read");
    CHECK(c->outcome == Outcome::error);
    CHECK(c->message.find("is not authenticated: UNAUTHENTICATED on GET") != std::string::npos);
}

TEST_CASE("preflight: --filter and tags do not remove it") {
    Recorder rec;
    Script script;
    script.otherwise([](const Request& r) {
        if (r.method == "POST") return Reply::answer(201, R"({"id":"017f22e2-79b0-7cc3-98c4-dc0c0c073901"})");
        return Reply::answer(r.url == "http://t/items" ? 200 : 404, r.url == "http://t/items" ? "[]" : "{}");
    });
    runner::RunOptions opts;
    opts.filter = "other cannot*";
    opts.tags = {"nothing-has-this-tag-but-the-contract"};
    auto s = load(contract);
    s.tags = {"nothing-has-this-tag-but-the-contract"};
    (void)runner::run({load(preflight), s}, opts, rec, script.factory());
    REQUIRE(rec.named("the other principal is let in to list"));
    CHECK(rec.named("the other principal is let in to list")->outcome == Outcome::passed);
    REQUIRE(rec.named("other cannot read"));
}

TEST_CASE("preflight: a selection with no contract case runs no preflight either") {
    Recorder rec;
    Script script;
    std::size_t sent = 0;
    script.otherwise([&](const Request&) {
        ++sent;
        return Reply::answer(500, "{}");
    });
    runner::RunOptions opts;
    opts.filter = "no case is called this";
    const auto report = runner::run({load(preflight), load(contract)}, opts, rec, script.factory());
    CHECK(sent == 0);  // nothing created on the target
    CHECK(report.summary.total() == 0);
    CHECK(report.summary.suites.empty());
    CHECK(report.summary.filtered_out > 0);
}

TEST_CASE("auth: without a principal, the target's credential header is the caller's") {
    const std::string yaml = R"(name: s
target: {base_url: "http://t", headers: {X-Api-Key: "${env:IDCONFORM_AUTH_TEST_KEY:-}"}}
cases:
  - name: bad id refused
    steps:
      - http: {path: /items/NOT-AN-ID}
        expect: {status: 4xx}
)";
    ::unsetenv("IDCONFORM_AUTH_TEST_KEY");
    auto o = run_one({load(yaml)}, 401);
    const CaseResult* c = o.rec.named("bad id refused");
    CHECK(c->outcome == Outcome::error);
    CHECK(c->message.find("the target's credential (X-Api-Key under target.headers) was not accepted: 401 on GET "
                          "http://t/items/NOT-AN-ID; check it: IDCONFORM_AUTH_TEST_KEY is not set") != std::string::npos);
    // a target without credential headers: a 401 is an answer like any other
    const std::string plain = R"(name: s
target: {base_url: "http://t", headers: {Accept: application/json}}
cases:
  - name: bad id refused
    steps:
      - http: {path: /items/NOT-AN-ID}
        expect: {status: 4xx}
)";
    CHECK(run_one({load(plain)}, 401).rec.named("bad id refused")->outcome == Outcome::passed);
}
