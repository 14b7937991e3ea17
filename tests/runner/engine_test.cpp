// In-process tests of the engine with the scripted fake transport
// (transport/fake/): retries (transport errors only), the rate limit, report
// order under concurrency, --max-failures (waived failures not counted),
// setup failure -> skipped, teardown
// and cleanup. Deterministic: no sockets, delays are timers on the runner's
// own executor. The shell tests in tests/e2e stay as end-to-end checks.
#include "audit/audit_stage.hpp"
#include "reporters/reporter.hpp"
#include "runner/runner.hpp"
#include "suite/loader.hpp"
#include "transport/fake/fake_transport.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

using namespace idconform;
using transport::fake::Reply;
using transport::fake::Script;
using namespace std::chrono_literals;

namespace {

// Keeps every event, in order.
class Recorder final : public reporters::Reporter {
public:
    void run_started(const reporters::RunInfo& i) override { info = i; }
    void suite_started(const std::string& s, const std::string&) override { events.push_back("suite " + s); }
    // Takes the result apart, as the real reporters may (ThreadedReporter moves it).
    void take_case(CaseResult&& c) override {
        events.push_back("case " + c.name);
        cases.push_back(std::move(c));
    }
    void suite_finished(const SuiteResult& s) override { events.push_back("end " + s.name); }

    [[nodiscard]] const CaseResult& named(const std::string& name) const {
        for (const auto& c : cases)
            if (c.name == name) return c;
        FAIL("no case named " << name);
        return cases.front();
    }
    [[nodiscard]] std::vector<std::string> names() const {
        std::vector<std::string> out;
        for (const auto& c : cases) out.push_back(c.name);
        return out;
    }

    reporters::RunInfo info;
    std::vector<std::string> events;
    std::vector<CaseResult> cases;
};

suite::Suite load(const std::string& yaml) {
    auto r = suite::load_text(yaml, "engine_test.yaml");
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

const std::string head = R"(name: s
target: {base_url: "http://t"}
)";

}  // namespace

TEST_CASE("engine: a retryable transport error is retried, the answer after it judged, attempts recorded") {
    Script script;
    script.on("GET", "http://t/a", Reply::fail(TransportErrorKind::connect, "refused"), 2);
    script.on("GET", "http://t/a", Reply::answer(200));
    const auto s = load(head + R"(cases:
  - name: c
    steps: [{http: {path: /a}, expect: {status: 200}}]
)");
    runner::RunOptions o;
    o.retries = 2;
    o.retry_backoff = 1ms;
    auto r = run({s}, script, o);
    CHECK(script.count("GET", "http://t/a") == 3);
    const CaseResult& c = r.rec.named("c");
    CHECK(c.outcome == Outcome::passed);
    REQUIRE(c.steps.size() == 1);
    CHECK(c.steps[0].exchange.attempts == 3);
    CHECK(r.report.transport_errors == 0);
}

TEST_CASE("engine: retries run out -> error naming the attempts, a failed check is never retried") {
    Script script;
    script.on("GET", "http://t/down", Reply::fail(TransportErrorKind::timeout, "no answer after 5 ms"));
    script.on("GET", "http://t/bad", Reply::answer(500));
    const auto s = load(head + R"(cases:
  - name: down
    steps: [{http: {path: /down}}]
  - name: bad
    steps: [{http: {path: /bad}, expect: {status: 200}}]
)");
    runner::RunOptions o;
    o.retries = 1;
    o.retry_backoff = 1ms;
    auto r = run({s}, script, o);
    CHECK(script.count("GET", "http://t/down") == 2);
    CHECK(script.count("GET", "http://t/bad") == 1);  // a broken contract is an answer: no retry
    CHECK(r.rec.named("down").outcome == Outcome::error);
    CHECK(r.rec.named("down").message == "timeout: no answer after 5 ms (GET http://t/down, 2 attempts)");
    CHECK(r.rec.named("down").error_cause == ErrorCause::transport);
    CHECK(r.rec.named("bad").outcome == Outcome::failed);
    CHECK(r.report.transport_errors == 1);
}

TEST_CASE("engine: a transport error another attempt cannot fix is not retried") {
    Script script;
    script.on("GET", "http://t/a", Reply::fail(TransportErrorKind::other, "no method", /*retryable=*/false));
    const auto s = load(head + "cases:\n  - name: c\n    steps: [{http: {path: /a}}]\n");
    runner::RunOptions o;
    o.retries = 3;
    o.retry_backoff = 1ms;
    auto r = run({s}, script, o);
    CHECK(script.count("GET", "http://t/a") == 1);
    CHECK(r.rec.named("c").outcome == Outcome::error);
}

TEST_CASE("engine: the rate limit spaces every request of the run, across cases and workers") {
    Script script;
    script.otherwise([](const Request&) { return Reply::answer(200); });
    std::string yaml = head + "cases:\n";
    for (int i = 0; i < 5; ++i) yaml += "  - name: c" + std::to_string(i) + "\n    steps: [{http: {path: /x}}]\n";
    const auto s = load(yaml);
    runner::RunOptions o;
    o.rate_limit = 50;  // one request per 20 ms
    o.concurrency = 4;
    const auto start = std::chrono::steady_clock::now();
    (void)run({s}, script, o);
    const auto& seen = script.requests();
    REQUIRE(seen.size() == 5);
    // Request i goes out in slot i, 20 ms after slot i-1, the first slot no
    // earlier than the start. A timer never fires early, so this lower bound
    // holds however loaded the machine is (an upper bound would not).
    for (std::size_t i = 0; i < seen.size(); ++i) CHECK(seen[i].at - start >= std::chrono::milliseconds(20 * i));
}

TEST_CASE("engine: reports come in suite order whatever order cases finish in") {
    Script script;
    // The first cases answer last.
    for (int i = 0; i < 6; ++i)
        script.on("GET", "http://t/" + std::to_string(i), Reply::answer(200).after(std::chrono::milliseconds((6 - i) * 5)));
    std::string yaml = head + "cases:\n";
    for (int i = 0; i < 6; ++i)
        yaml += "  - name: c" + std::to_string(i) + "\n    steps: [{http: {path: /" + std::to_string(i) + "}}]\n";
    const auto s = load(yaml);
    runner::RunOptions o;
    o.concurrency = 6;
    auto r = run({s}, script, o);
    // The answers did come back out of order ...
    REQUIRE(script.answered().size() == 6);
    CHECK(script.requests()[script.answered().front()].request.url == "http://t/5");
    // ... and the reporter saw them in suite order, between the suite's start and end.
    CHECK(r.rec.events == std::vector<std::string>{"suite s", "case c0", "case c1", "case c2", "case c3", "case c4",
                                                   "case c5", "end s"});
    CHECK(r.rec.info.total_cases == 6);
}

TEST_CASE("engine: --max-failures stops starting cases, the rest are skipped saying why") {
    Script script;
    script.otherwise([](const Request&) { return Reply::answer(500); });
    std::string yaml = head + "cases:\n";
    for (int i = 0; i < 5; ++i)
        yaml += "  - name: c" + std::to_string(i) + "\n    steps: [{http: {path: /x}, expect: {status: 200}}]\n";
    const auto s = load(yaml);
    runner::RunOptions o;
    o.max_failures = 2;
    auto r = run({s}, script, o);
    CHECK(script.requests().size() == 2);
    REQUIRE(r.rec.cases.size() == 5);
    CHECK(r.rec.cases[0].outcome == Outcome::failed);
    CHECK(r.rec.cases[1].outcome == Outcome::failed);
    for (std::size_t i = 2; i < 5; ++i) {
        CHECK(r.rec.cases[i].outcome == Outcome::skipped);
        CHECK(r.rec.cases[i].message == "not run: --max-failures 2 reached");
    }
    CHECK(r.report.summary.count(Outcome::skipped) == 3);
}

TEST_CASE("engine: only failures that fail the run count toward --max-failures (RunOptions::failure_counts)") {
    Script script;
    script.otherwise([](const Request&) { return Reply::answer(500); });
    std::string yaml = head + "cases:\n";
    for (int i = 0; i < 6; ++i)
        yaml += "  - name: c" + std::to_string(i) + "\n    steps: [{http: {path: /x}, expect: {status: 200}}]\n";
    const auto s = load(yaml);
    runner::RunOptions o;
    o.max_failures = 2;
    std::vector<std::string> asked;
    o.failure_counts = [&](const CaseResult& c) {
        asked.push_back(c.name);
        return c.name != "c0" && c.name != "c2";  // c0 and c2 are, say, waived
    };
    auto r = run({s}, script, o);
    // c0 (not counted), c1 (1), c2 (not counted), c3 (2): then the limit holds
    CHECK(script.requests().size() == 4);
    CHECK(asked == std::vector<std::string>{"c0", "c1", "c2", "c3"});
    REQUIRE(r.rec.cases.size() == 6);
    for (std::size_t i = 0; i < 4; ++i) CHECK(r.rec.cases[i].outcome == Outcome::failed);
    CHECK(r.rec.cases[4].message == "not run: --max-failures 2 reached");
    CHECK(r.rec.cases[5].outcome == Outcome::skipped);
}

TEST_CASE("engine + audit stage: waived failures do not stop the run at --max-failures, the others do") {
    // Every case fails; DATA-ID-002's are waived. With --max-failures 1 the
    // run goes on through every waived failure and stops after the first
    // failure that fails the run.
    Script script;
    script.otherwise([](const Request&) { return Reply::answer(500); });
    std::string yaml = head + "cases:\n";
    const char* rules[] = {"DATA-ID-002", "DATA-ID-002", "DATA-ID-002", "DATA-ID-004", "DATA-ID-002", "DATA-ID-004"};
    for (int i = 0; i < 6; ++i)
        yaml += "  - name: c" + std::to_string(i) + "\n    rule: " + rules[i] +
                "\n    steps: [{http: {path: /x}, expect: {status: 200}}]\n";
    const auto s = load(yaml);
    auto waivers = audit::load_waivers_text(
        "waivers:\n  - rule: DATA-ID-002\n    reason: legacy clients\n    owner: alice\n    expires: 2099-12-31\n",
        "w.yaml");
    REQUIRE(waivers.file);
    audit::AuditConfig cfg;
    cfg.waivers = std::move(*waivers.file);
    auto rec = std::make_unique<Recorder>();
    Recorder* seen = rec.get();
    audit::AuditStage stage(std::move(rec), std::move(cfg));
    runner::RunOptions o;
    o.max_failures = 1;
    o.failure_counts = [&stage](const CaseResult& c) { return stage.fails_run(c); };
    const auto report = runner::run({s}, o, stage, script.factory());
    std::string error;
    REQUIRE(stage.run_finished(report.summary, error));
    REQUIRE(seen->cases.size() == 6);
    for (std::size_t i = 0; i < 3; ++i) CHECK(seen->cases[i].outcome == Outcome::waived);
    CHECK(seen->cases[3].outcome == Outcome::failed);   // the first failure that fails the run
    CHECK(seen->cases[4].outcome == Outcome::skipped);  // not run: the limit was reached
    CHECK(seen->cases[4].message == "not run: --max-failures 1 reached");
    CHECK(seen->cases[5].outcome == Outcome::skipped);
    CHECK(script.requests().size() == 4);
    CHECK(stage.failing() == 1);
    // without the hook, the first waived failure would have stopped the run
    Script again;
    again.otherwise([](const Request&) { return Reply::answer(500); });
    o.failure_counts = nullptr;
    Recorder plain;
    (void)runner::run({s}, o, plain, again.factory());
    CHECK(again.requests().size() == 1);
}

TEST_CASE("engine: a failed setup is a testcase of its own, the cases it was the precondition of are skipped with its reason") {
    Script script;
    script.on("POST", "http://t/setup", Reply::answer(503));
    script.otherwise([](const Request&) { return Reply::answer(200); });
    const auto s = load(head + R"(setup:
  - {name: make, http: {method: POST, path: /setup}, expect: {status: 201}}
teardown:
  - {name: unmake, http: {method: DELETE, path: /setup}}
cases:
  - name: a
    steps: [{http: {path: /a}}]
  - name: b
    steps: [{http: {path: /b}}]
)");
    auto r = run({s}, script);
    CHECK(r.rec.names() == std::vector<std::string>{"setup", "a", "b"});
    const CaseResult& setup = r.rec.named("setup");
    CHECK(setup.outcome == Outcome::failed);
    CHECK(setup.message == "step 'make' failed: status: expected 201, got 503");
    for (const char* name : {"a", "b"}) {
        CHECK(r.rec.named(name).outcome == Outcome::skipped);
        // The reason is the setup's message (it was lost when the reporter took the setup's result).
        CHECK(r.rec.named(name).message ==
              "not run: the suite's setup did not succeed (step 'make' failed: status: expected 201, got 503)");
    }
    // No case request went out; the teardown still ran (setup had started).
    CHECK(script.count("GET", "http://t/a") == 0);
    CHECK(script.count("DELETE", "http://t/setup") == 1);
    CHECK(script.shutdowns() == 1);
}

TEST_CASE("engine: teardown runs after the cases, a failed teardown is reported last, saying cleanup is incomplete") {
    Script script;
    script.on("DELETE", "http://t/thing", Reply::answer(500));
    script.otherwise([](const Request&) { return Reply::answer(200); });
    const auto s = load(head + R"(teardown:
  - {name: remove, http: {method: DELETE, path: /thing}, expect: {status: 204}}
  - {name: after, http: {path: /after}}
cases:
  - name: a
    steps: [{http: {path: /a}}]
)");
    auto r = run({s}, script);
    CHECK(r.rec.names() == std::vector<std::string>{"a", "teardown"});
    const CaseResult& t = r.rec.named("teardown");
    CHECK(t.outcome == Outcome::failed);
    CHECK(t.message ==
          "step 'remove' failed: status: expected 204, got 500 (cleanup incomplete: entities this suite created may remain)");
    // Teardown goes on after a problem.
    CHECK(script.count("GET", "http://t/after") == 1);
    CHECK(script.requests().back().request.url == "http://t/after");
}

TEST_CASE("engine: an undefined variable is a suite error by its cause, in teardown, a variable never captured is no problem") {
    Script script;
    script.otherwise([](const Request&) { return Reply::answer(200); });
    const auto s = load(head + R"(teardown:
  - {name: remove, http: {method: DELETE, path: "/thing/${never_captured}"}}
cases:
  - name: a
    steps: [{http: {path: "/a/${nothing_defines_this}"}}]
  - name: b
    steps: [{http: {path: /b}}]
)");
    auto r = run({s}, script);
    CHECK(r.rec.names() == std::vector<std::string>{"a", "b"});  // no teardown result
    CHECK(r.rec.named("a").outcome == Outcome::error);
    CHECK(r.rec.named("a").error_cause == ErrorCause::suite);
    CHECK(r.rec.named("b").error_cause == ErrorCause::none);
    CHECK(r.report.suite_errors == 1);
    CHECK(r.report.transport_errors == 0);
    for (const auto& seen : script.requests()) CHECK(seen.request.method != "DELETE");
}

TEST_CASE("engine: cleanup deletes what the run created and nobody deleted, with the creator's credentials") {
    Script script;
    script.on("POST", "http://t/items", Reply::answer(201, R"({"id":"i1"})"), 1);
    script.on("POST", "http://t/items", Reply::answer(201, R"({"id":"i2"})"), 1);
    script.on("POST", "http://t/items", Reply::answer(201, R"({"id":"i3"})"), 1);
    script.on("DELETE", "http://t/items/i3", Reply::answer(500, "boom"));
    script.otherwise([](const Request&) { return Reply::answer(204); });
    const auto s = load(head + R"(principals:
  alice: {headers: {Authorization: "Bearer secret-token"}}
cases:
  - name: made and deleted by the case
    steps:
      - {http: {method: POST, path: /items, principal: alice}, cleanup: {path: "/items/{id}"}, capture: {id: /id}}
      - {http: {method: DELETE, path: "/items/{id}", principal: alice}}
  - name: made and left
    steps:
      - {http: {method: POST, path: /items, principal: alice}, cleanup: {path: "/items/{id}"}}
  - name: made, delete fails
    steps:
      - {http: {method: POST, path: /items, principal: alice}, cleanup: {path: "/items/{id}"}}
)");
    auto r = run({s}, script);
    // i1 was deleted by its case: not again. i2 and i3 are deleted at the end.
    CHECK(script.count("DELETE", "http://t/items/i1") == 1);
    CHECK(script.count("DELETE", "http://t/items/i2") == 1);
    CHECK(script.count("DELETE", "http://t/items/i3") == 1);
    for (const auto& seen : script.requests())
        if (seen.request.url == "http://t/items/i2") {
            REQUIRE(seen.request.headers.size() == 1);
            CHECK(seen.request.headers[0].value == "Bearer secret-token");
        }
    const CaseResult& cleanup = r.rec.named("cleanup");
    CHECK(cleanup.outcome == Outcome::error);
    // The read after the failed delete found it (the fallback answers GET 204).
    CHECK(cleanup.message ==
          "could not delete 1 of 2 entities this run created: 1 confirmed to remain on the target (see the steps)");
    REQUIRE(cleanup.steps.size() == 2);
    CHECK(cleanup.steps[0].name == "delete what 'POST /items' (id i3) created");
    CHECK(cleanup.steps[1].name == "read what 'POST /items' (id i3) created back");
    // Its evidence is redacted and can be sent again.
    CHECK(cleanup.steps[0].reproduce == "curl -sS -i -X DELETE 'http://t/items/i3' -H 'Authorization: [REDACTED]'");
    CHECK(cleanup.steps[1].reproduce == "curl -sS -i 'http://t/items/i3' -H 'Authorization: [REDACTED]'");
    // The target answered: what it left behind is the cleanup's <error>, not a transport error (exit 3).
    CHECK(r.report.transport_errors == 0);
    CHECK(r.rec.names().back() == "cleanup");
}

TEST_CASE("engine: transports are made once per suite and name, with the suite's options merged under the CLI's") {
    Script script;
    script.otherwise([](const Request&) { return Reply::answer(200); });
    const auto s = load(R"(name: s
target: {base_url: "http://t", timeout: {connect: 111ms, read: 222ms}}
cases:
  - name: a
    steps: [{http: {path: /a}}, {http: {path: /b}}]
)");
    runner::RunOptions o;
    o.timeout = 333ms;
    (void)run({s}, script, o);
    REQUIRE(script.made().count("http") == 1);
    CHECK(script.made().at("http").connect_timeout == 111ms);
    CHECK(script.made().at("http").read_timeout == 333ms);
    CHECK(script.shutdowns() == 1);
}

TEST_CASE("engine: a request for a transport the factory does not know is an error naming it") {
    Script script;
    const auto s = load(R"(name: s
target: {base_url: "http://t", grpc: {address: "h:1"}}
cases:
  - name: g
    steps: [{grpc: {method: a.B/C}}]
)");
    Recorder rec;
    auto report = runner::run({s}, {}, rec, script.factory({"grpc"}));
    CHECK(rec.named("g").outcome == Outcome::error);
    CHECK(rec.named("g").message.find("no transport named 'grpc'") != std::string::npos);
    CHECK(rec.named("g").error_cause == ErrorCause::transport);
}

namespace {

// The URLs of the requests with this method, in the order they were sent.
std::vector<std::string> urls(const Script& script, const std::string& method) {
    std::vector<std::string> out;
    for (const auto& seen : script.requests())
        if (seen.request.method == method) out.push_back(seen.request.url);
    return out;
}

}  // namespace

TEST_CASE("cleanup: deletes last created first, so dependents go before what they reference") {
    Script script;
    script.on("POST", "http://t/categories", Reply::answer(201, R"({"id":"c1"})"));
    script.on("POST", "http://t/products", Reply::answer(201, R"({"id":"p1"})"), 1);
    script.on("POST", "http://t/products", Reply::answer(201, R"({"id":"p2"})"), 1);
    // A target that restricts: the category cannot go while a product references it.
    script.otherwise([&script](const Request& r) {
        if (r.method == "DELETE" && r.url == "http://t/categories/c1" &&
            (script.count("DELETE", "http://t/products/p1") == 0 || script.count("DELETE", "http://t/products/p2") == 0))
            return Reply::answer(409);
        return Reply::answer(r.method == "DELETE" ? 204 : 404);
    });
    const auto s = load(head + R"(cases:
  - name: a category and two of its products
    steps:
      - {http: {method: POST, path: /categories}, cleanup: {path: "/categories/{id}"}}
      - {http: {method: POST, path: /products}, cleanup: {path: "/products/{id}"}}
      - {http: {method: POST, path: /products}, cleanup: {path: "/products/{id}"}}
)");
    auto r = run({s}, script);
    CHECK(urls(script, "DELETE") ==
          std::vector<std::string>{"http://t/products/p2", "http://t/products/p1", "http://t/categories/c1"});
    CHECK(r.rec.names() == std::vector<std::string>{"a category and two of its products"});
}

TEST_CASE("cleanup: a delete answered 404, 401 or 5xx is followed by a read, only a read that finds it says it remains") {
    Script script;
    for (int i = 1; i <= 5; ++i)
        script.on("POST", "http://t/items", Reply::answer(201, R"({"id":"i)" + std::to_string(i) + R"("})"), 1);
    script.on("DELETE", "http://t/items/i1", Reply::answer(404));  // gone already
    script.on("DELETE", "http://t/items/i2", Reply::answer(503));  // deleted anyway
    script.on("GET", "http://t/items/i2", Reply::answer(404));
    script.on("DELETE", "http://t/items/i3", Reply::answer(404));  // a lie: it is there
    script.on("GET", "http://t/items/i3", Reply::answer(200, R"({"id":"i3"})"));
    script.on("DELETE", "http://t/items/i4", Reply::answer(401));  // and the read is refused too
    script.on("GET", "http://t/items/i4", Reply::answer(401));
    script.on("DELETE", "http://t/items/i5", Reply::answer(204));
    const auto s = load(head + "cases:\n" + [] {
        std::string cases;
        for (int i = 1; i <= 5; ++i)
            cases += "  - name: c" + std::to_string(i) +
                     "\n    steps: [{http: {method: POST, path: /items}, cleanup: {path: \"/items/{id}\"}}]\n";
        return cases;
    }());
    auto r = run({s}, script);
    // Every failed delete was read back; the one that succeeded was not.
    for (const char* id : {"i1", "i2", "i3", "i4"}) CHECK(script.count("GET", std::string("http://t/items/") + id) == 1);
    CHECK(script.count("GET", "http://t/items/i5") == 0);
    const CaseResult& cleanup = r.rec.named("cleanup");
    CHECK(cleanup.outcome == Outcome::error);
    CHECK(cleanup.message == "could not delete 2 of 5 entities this run created: 1 confirmed to remain on the target, "
                             "1 may remain (not confirmed either way) (see the steps)");
    // Last created first: i4 is reported before i3; each with what the delete and the read answered.
    CHECK(cleanup.detail ==
          "may remain: what 'POST /items' (id i4) created: DELETE answered 401, and the read to confirm "
          "(GET http://t/items/i4) answered 401\n"
          "remains on the target: what 'POST /items' (id i3) created: DELETE answered 404, and GET "
          "http://t/items/i3 answered 200\n");
    REQUIRE(cleanup.steps.size() == 4);
    CHECK(cleanup.steps[0].exchange.request.url == "http://t/items/i4");
    CHECK(cleanup.steps[3].exchange.request.method == "GET");
    CHECK(r.report.transport_errors == 0);
}

TEST_CASE("cleanup: an entity an update re-keyed is deleted under the id it has now") {
    Script script;
    script.on("POST", "http://t/items", Reply::answer(201, R"({"id":"i1"})"));
    // The defect: the update answers with another id (the entity moved).
    script.on("PUT", "http://t/items/i1", Reply::answer(200, R"({"id":"i9"})"));
    script.on("DELETE", "http://t/items/i9", Reply::answer(204));
    const auto s = load(head + R"(cases:
  - name: update re-keys
    steps:
      - {http: {method: POST, path: /items}, cleanup: {path: "/items/{id}"}, capture: {id: /id}}
      - {http: {method: PUT, path: "/items/{id}", json: {name: x}}}
)");
    auto r = run({s}, script);
    CHECK(urls(script, "DELETE") == std::vector<std::string>{"http://t/items/i9"});
    CHECK(r.rec.names() == std::vector<std::string>{"update re-keys"});
}

TEST_CASE("cleanup: a re-keyed entity that cannot be deleted is reported under both ids") {
    Script script;
    script.on("POST", "http://t/items", Reply::answer(201, R"({"id":7})"));  // an integer id
    script.on("PATCH", "http://t/items/7", Reply::answer(200, R"({"id":8})"));
    script.on("DELETE", "http://t/items/8", Reply::answer(500));
    script.on("GET", "http://t/items/8", Reply::answer(200, R"({"id":8})"));
    const auto s = load(head + R"(cases:
  - name: patch re-keys
    steps:
      - {http: {method: POST, path: /items}, cleanup: {path: "/items/{id}"}, capture: {id: /id}}
      - {http: {method: PATCH, path: "/items/{id}", json: {name: x}}}
)");
    auto r = run({s}, script);
    CHECK(script.count("DELETE", "http://t/items/7") == 0);
    const CaseResult& cleanup = r.rec.named("cleanup");
    CHECK(cleanup.detail == "remains on the target: what 'POST /items' (id 8, re-keyed from 7) created: DELETE answered "
                            "500, and GET http://t/items/8 answered 200\n");
}

TEST_CASE("cleanup: a create whose answer gives no id is reported, not leaked silently") {
    Script script;
    script.on("POST", "http://t/uploads", Reply::answer(201, R"({"status":"ok"})"), 1);
    script.on("POST", "http://t/uploads", Reply::answer(201, R"({"id":"u2"})"), 1);
    script.otherwise([](const Request&) { return Reply::answer(204); });
    const auto s = load(head + R"(cases:
  - name: upload
    steps:
      - {http: {method: POST, path: /uploads}, cleanup: {path: "/uploads/{id}"}}
      - {http: {method: POST, path: /uploads}, cleanup: {path: "/uploads/{id}"}}
)");
    auto r = run({s}, script);
    CHECK(urls(script, "DELETE") == std::vector<std::string>{"http://t/uploads/u2"});
    const CaseResult& cleanup = r.rec.named("cleanup");
    CHECK(cleanup.outcome == Outcome::error);
    CHECK(cleanup.message ==
          "could not delete 1 of 2 entities this run created: 1 could not be deleted at all (see the steps)");
    CHECK(cleanup.detail == "not deleted: what 'POST /uploads' created: its id could not be read from the create "
                            "answer (201, nothing at /id and no Location header): it cannot be deleted and may remain\n");
    CHECK(cleanup.error_cause == ErrorCause::cleanup);
    CHECK(r.report.transport_errors == 0);
    CHECK(r.report.suite_errors == 0);
}

TEST_CASE("cleanup: only a target that answered none of the cleanup's requests makes it a transport error") {
    Script script;
    script.on("POST", "http://t/items", Reply::answer(201, R"({"id":"i1"})"));
    script.on("DELETE", "http://t/items/i1", Reply::fail(TransportErrorKind::connect, "refused"));
    script.on("GET", "http://t/items/i1", Reply::fail(TransportErrorKind::connect, "refused"));
    const auto s = load(head + R"(cases:
  - name: c
    steps: [{http: {method: POST, path: /items}, cleanup: {path: "/items/{id}"}}]
)");
    auto r = run({s}, script);
    const CaseResult& cleanup = r.rec.named("cleanup");
    CHECK(cleanup.outcome == Outcome::error);
    CHECK(cleanup.detail == "may remain: what 'POST /items' (id i1) created: DELETE failed (refused), and the read to "
                            "confirm (GET http://t/items/i1) failed (refused)\n");
    CHECK(cleanup.error_cause == ErrorCause::transport);
    CHECK(r.report.transport_errors == 1);
}

TEST_CASE("engine: 'one UUID version per field' is skipped, not passed, when the scan saw no minted value") {
    // Issue #13: with no value to compare the check did not happen. Values the
    // harness sent and the target echoed back do not count as minted ones.
    const std::string v4 = "919108f7-52d1-4320-9bac-f847db4148a8";
    const std::string v7 = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f";
    auto run_with = [&](const std::string& answer) {
        Script script;
        script.otherwise([answer](const Request&) { return Reply::answer(200, answer); });
        const auto s = load(head + R"(scan: true
cases:
  - name: c
    steps: [{http: {method: POST, path: /a, json: {ref_id: ")" + v4 + R"("}}, expect: {status: 200}}]
)");
        auto r = run({s}, script);
        return r.rec.named("one UUID version per field across the run");
    };
    const CaseResult none = run_with(R"({"name":"x"})");
    CHECK(none.outcome == Outcome::skipped);
    CHECK(none.message.find("saw no UUID") != std::string::npos);
    const CaseResult echoed = run_with(R"({"ref_id":")" + v4 + R"("})");
    CHECK(echoed.outcome == Outcome::skipped);  // only the echo: nothing minted
    const CaseResult minted = run_with(R"({"id":")" + v7 + R"(","ref_id":")" + v4 + R"("})");
    CHECK(minted.outcome == Outcome::passed);
    REQUIRE(minted.steps.size() == 1);
    REQUIRE(minted.steps[0].checks.size() == 1);  // the echoed ref_id is not a field version
    CHECK(minted.steps[0].checks[0].what.find("/id") != std::string::npos);
}

TEST_CASE("engine: a step marked precondition that fails skips its case with the reason, scan findings or not") {
    Script script;
    script.on("GET", "http://t/owner", Reply::answer(200, R"({"items":[]})"));
    script.on("GET", "http://t/upper", Reply::answer(200, R"({"items":[{"id":"017F22E2-79B0-7CC3-98C4-DC0C0C07398F"}]})"));
    script.on("GET", "http://t/other", Reply::answer(200, R"({"items":[]})"));
    const auto s = load(head + R"(scan: true
cases:
  - name: vacuous
    rule: DATA-ID-004
    steps:
      - {http: {path: /owner}, expect: {status: 200, body: {contains: [abc]}, precondition: the owner's list shows the entity}}
      - {http: {path: /other}, expect: {status: 200, body: {not_contains: [abc]}}}
  - name: scan finding
    rule: DATA-ID-004
    steps:
      - {http: {path: /upper}, expect: {status: 200, body: {contains: [abc]}, precondition: the owner's list shows the entity}}
)");
    auto r = run({s}, script);
    const CaseResult& v = r.rec.named("vacuous");
    CHECK(v.outcome == Outcome::skipped);
    CHECK(v.message.rfind("not checked: the precondition 'the owner's list shows the entity' did not hold (step 1, GET /owner: body contains", 0) == 0);
    CHECK(script.count("GET", "http://t/other") == 0);  // the rest of the case would prove nothing
    // The upper-case id is a finding about GET /upper, filed on its own.
    CHECK(r.rec.named("scan finding").outcome == Outcome::skipped);
    const CaseResult& f = r.rec.named("DATA-ID-002 /items/*/id in GET /upper");
    CHECK(f.outcome == Outcome::failed);
    CHECK(f.suite == "shape scan");
}

TEST_CASE("engine: a shape-scan finding is one result per rule x endpoint x field, never a failure of the case that read it") {
    // Issue #22: one defect (Nil as a placeholder in parent_id) seen in many
    // answers of many suites is one failure under its own rule.
    const std::string nil = "00000000-0000-0000-0000-000000000000";
    const std::string v7 = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f";
    Script script;
    script.otherwise([&](const Request& q) {
        if (q.url.find("/lists") != std::string::npos)
            return Reply::answer(200, R"({"items":[{"id":")" + v7 + R"(","parent_id":")" + nil + R"("},{"id":")" + v7 +
                                          R"(","parent_id":")" + nil + R"("}]})");
        return Reply::answer(200, R"({"id":")" + v7 + R"(","parent_id":")" + nil + R"("})");
    });
    auto suite_named = [&](const std::string& name) {
        return load("name: " + name + R"(
target: {base_url: "http://t"}
scan: true
vars: {one: ")" + v7 + R"("}
cases:
  - name: read
    rule: DATA-ID-006
    for_each: {count: 3}
    steps: [{http: {path: "/things/${one}"}, expect: {status: 200}}]
  - name: list
    rule: DATA-ID-004
    steps: [{http: {path: /lists}, expect: {status: 200}}]
)");
    };
    runner::RunOptions o;
    o.concurrency = 3;
    auto r = run({suite_named("s1"), suite_named("s2")}, script, o);
    std::vector<std::string> failed, shape;
    for (const auto& c : r.rec.cases) {
        if (c.suite == "shape scan") shape.push_back(c.name);
        else if (c.outcome != Outcome::passed) failed.push_back(c.suite + "/" + c.name);
    }
    CHECK(failed.empty());  // every case is judged on its own expectations
    // Sorted by name, the same on every run; the path keeps its variables as placeholders.
    CHECK(shape == std::vector<std::string>{"DATA-ID-007 /items/*/parent_id in GET /lists",
                                            "DATA-ID-007 /parent_id in GET /things/{one}"});
    const CaseResult& things = r.rec.named("DATA-ID-007 /parent_id in GET /things/{one}");
    CHECK(things.outcome == Outcome::failed);
    CHECK(things.rules == std::vector<std::string>{"DATA-ID-007"});
    CHECK(things.classname == "shape scan.DATA-ID-007");
    auto prop = [](const CaseResult& c, const std::string& n) {
        for (const auto& p : c.properties)
            if (p.name == n) return p.value;
        return std::string();
    };
    CHECK(prop(things, "answers") == "6");  // 3 elements x 2 suites
    CHECK(prop(things, "endpoint") == "GET /things/{one}");
    CHECK(prop(things, "field") == "/parent_id");
    CHECK(things.steps.size() == 3);  // the first few answers as evidence
    CHECK(things.steps[0].reproduce.find("curl") == 0);
    CHECK(things.message.find("(seen in 6 answers of GET /things/{one})") != std::string::npos);
    const CaseResult& lists = r.rec.named("DATA-ID-007 /items/*/parent_id in GET /lists");
    CHECK(prop(lists, "answers") == "2");
    CHECK(prop(lists, "values") == "4");
    REQUIRE(lists.steps.size() == 2);
    CHECK(lists.steps[0].checks.size() == 2);  // /items/0/parent_id and /items/1/parent_id
    // The shape-scan suite comes last, after every suite it read answers of.
    CHECK(r.rec.events.back() == "end shape scan");
}

TEST_CASE("engine: a case's name and classname do not depend on its outcome, the rule a failure broke is its check's") {
    auto run_with = [](const std::string& answer) {
        Script script;
        script.otherwise([answer](const Request&) { return Reply::answer(200, answer); });
        const auto s = load(head + R"(cases:
  - name: c
    rule: DATA-ID-006
    steps: [{http: {path: /a}, expect: {status: 200, rule: DATA-ID-001, id: {at: /id, kind: uuidv7}}}]
)");
        auto r = run({s}, script);
        return r.rec.named("c");
    };
    const CaseResult passed = run_with(R"({"id":"017f22e2-79b0-7cc3-98c4-dc0c0c07398f"})");
    const CaseResult failed = run_with(R"({"id":"919108f7-52d1-4320-9bac-f847db4148a8"})");
    CHECK(passed.outcome == Outcome::passed);
    REQUIRE(failed.outcome == Outcome::failed);
    CHECK(failed.classname == passed.classname);
    CHECK(failed.classname == "s.DATA-ID-006");
    CHECK(failed.rules == passed.rules);
    CHECK(failed_rules(failed) == std::vector<std::string>{"DATA-ID-001"});
}

TEST_CASE("cleanup: tracks creations, not ids: a server reusing a deleted id for the next create gets both deleted") {
    Script script;
    // Both creates answer id 1: the first was deleted by its case before the second.
    script.on("POST", "http://t/items", Reply::answer(201, R"({"id":"1"})"));
    script.otherwise([](const Request& r) { return Reply::answer(r.method == "DELETE" ? 204 : 404); });
    const auto s = load(head + R"(cases:
  - name: made and deleted, then made again under the same id
    steps:
      - {http: {method: POST, path: /items}, cleanup: {path: "/items/{id}"}}
      - {http: {method: DELETE, path: /items/1}}
      - {http: {method: POST, path: /items}, cleanup: {path: "/items/{id}"}}
)");
    auto r = run({s}, script);
    // The case's DELETE, then the cleanup's for the second creation.
    CHECK(urls(script, "DELETE") == std::vector<std::string>{"http://t/items/1", "http://t/items/1"});
    CHECK(r.rec.names() == std::vector<std::string>{"made and deleted, then made again under the same id"});
}

TEST_CASE("cleanup: one delete of a URL settles every earlier creation under it (a collision), once") {
    Script script;
    script.on("POST", "http://t/items", Reply::answer(201, R"({"id":"1"})"));
    script.otherwise([](const Request& r) { return Reply::answer(r.method == "DELETE" ? 204 : 404); });
    const auto s = load(head + R"(cases:
  - name: two creates answered the same id
    steps:
      - {http: {method: POST, path: /items}, cleanup: {path: "/items/{id}"}}
      - {http: {method: POST, path: /items}, cleanup: {path: "/items/{id}"}}
)");
    auto r = run({s}, script);
    CHECK(urls(script, "DELETE") == std::vector<std::string>{"http://t/items/1"});
    CHECK(r.rec.names() == std::vector<std::string>{"two creates answered the same id"});
}

TEST_CASE("engine: a shape-scan finding never quotes a secret (a UUID-shaped key the target echoes upper-case)") {
    const std::string key = "3FA85F64-5717-4562-B3FC-2C963F66AFA6";
    Script script;
    script.otherwise([&](const Request&) { return Reply::answer(200, R"({"api_key_id":")" + key + R"("})"); });
    const auto s = load(R"(name: s
target: {base_url: "http://t"}
scan: true
vars:
  key: {value: ")" + key + R"(", secret: true}
cases:
  - name: c
    steps: [{http: {path: /a, headers: {X-Key: "${key}"}}, expect: {status: 200}}]
)");
    auto r = run({s}, script);
    const CaseResult& f = r.rec.named("DATA-ID-002 /api_key_id in GET /a");
    CHECK(f.message.find(key) == std::string::npos);
    for (const auto& st : f.steps)
        for (const auto& chk : st.checks) CHECK(chk.actual.find(key) == std::string::npos);
}
