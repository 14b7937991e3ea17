// Each case starts from a known state (issue #22 section 2): `fresh:` gives
// every element of a case its own entity, a case whose fresh state cannot
// be made is skipped, a case that finds gone what an earlier finding deleted
// is skipped naming it, and a failure names its step and what it was for.
// The fake transport plays a stateful server whose DELETE lower-cases the
// id in its path (so an upper-case or mixed-case id deletes the entity).
#include "reporters/reporter.hpp"
#include "runner/runner.hpp"
#include "suite/loader.hpp"
#include "transport/fake/fake_transport.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <memory>
#include <set>
#include <string>
#include <vector>

using namespace idconform;
using transport::fake::Reply;
using transport::fake::Script;

namespace {

class Recorder final : public reporters::Reporter {
public:
    void run_started(const reporters::RunInfo&) override {}
    void suite_started(const std::string&, const std::string&) override {}
    void take_case(CaseResult&& c) override { cases.push_back(std::move(c)); }
    void suite_finished(const SuiteResult&) override {}
    [[nodiscard]] const CaseResult& named(const std::string& name) const {
        for (const auto& c : cases)
            if (c.name == name) return c;
        FAIL("no case named " << name);
        return cases.front();
    }
    std::vector<CaseResult> cases;
};

suite::Suite load(const std::string& yaml) {
    auto r = suite::load_text(yaml, "known_state_test.yaml");
    if (!r.ok())
        for (const auto& d : r.diagnostics) MESSAGE(std::string(d.pos.str() + ": " + d.title));
    REQUIRE(r.ok());
    return std::move(*r.suite);
}

// Items with UUIDv7 ids (the RFC vector with a counter in its last byte).
// GET needs the canonical id; DELETE lower-cases what it is sent (the
// defect); any other text in a path is answered 400.
struct LenientDeleteServer {
    std::set<std::string> live;
    int minted = 0;
    bool fail_creates_after = false;
    int creates_allowed = 1000;

    static bool canonical_shape(const std::string& s) {
        if (s.size() != 36) return false;
        for (std::size_t i = 0; i < s.size(); ++i) {
            const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
            if (dash ? s[i] != '-' : !std::isxdigit(static_cast<unsigned char>(s[i]))) return false;
        }
        return true;
    }
    Reply operator()(const Request& req) {
        const std::string prefix = "http://t/items";
        if (req.method == "POST" && req.url == prefix) {
            if (creates_allowed-- <= 0) return Reply::answer(503, R"({"error":"full"})");
            char tail[3];
            std::snprintf(tail, sizeof tail, "%02x", ++minted);
            std::string id = "017f22e2-79b0-7cc3-98c4-dc0c0c0739" + std::string(tail);
            live.insert(id);
            return Reply::answer(201, R"({"id":")" + id + R"("})");
        }
        if (req.url.rfind(prefix + "/", 0) != 0) return Reply::answer(404);
        std::string id = req.url.substr(prefix.size() + 1);
        if (req.method == "DELETE") {
            std::string lower = id;
            std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
            if (!canonical_shape(lower)) return Reply::answer(400);
            return live.erase(lower) ? Reply::answer(204) : Reply::answer(404);
        }
        if (!canonical_shape(id) || id != [&] {
                std::string l = id;
                std::transform(l.begin(), l.end(), l.begin(), [](unsigned char c) { return std::tolower(c); });
                return l;
            }())
            return Reply::answer(400);
        return live.count(id) ? Reply::answer(200, R"({"id":")" + id + R"("})") : Reply::answer(404);
    }
};

std::string suite_yaml(const std::string& fresh) {
    return R"(name: s
target: {base_url: "http://t"}
setup:
  - name: create the live entity
    http: {method: POST, path: /items}
    expect: {status: 201}
    capture: {live_id: /id}
    cleanup: {path: "/items/{id}", id: /id}
cases:
  - name: del
    rule: DATA-ID-002
)" + fresh +
           R"(    for_each: {mutations: "${live_id}", kind: uuidv7, as: m, only: [upper-case, mixed-case, no-hyphens, braces, urn-uuid]}
    steps:
      - name: "DELETE the mutated id: it must be refused"
        http: {method: DELETE, path: "/items/${m}"}
        expect: {status: 4xx}
      - name: "read the live entity after the refused DELETE: it must still exist"
        http: {path: "/items/${live_id}"}
        expect: {status: 200}
  - name: read
    rule: DATA-ID-002
    steps:
      - name: read the live entity
        http: {path: "/items/${live_id}"}
        expect: {status: 200}
)";
}

struct Outcomes {
    Recorder rec;
    std::shared_ptr<LenientDeleteServer> server = std::make_shared<LenientDeleteServer>();
};

void run_against(Outcomes& o, const suite::Suite& s, int concurrency = 1) {
    Script script;
    auto server = o.server;
    script.otherwise([server](const Request& r) { return (*server)(r); });
    runner::RunOptions opts;
    opts.concurrency = concurrency;
    (void)runner::run({s}, opts, o.rec, script.factory());
}

}  // namespace

TEST_CASE("known state: with fresh: each mutated DELETE gets its own entity, only the real violations fail") {
    Outcomes o;
    o.server->creates_allowed = 1000;
    run_against(o, load(suite_yaml("    fresh: [create the live entity]\n")));
    // upper-case and mixed-case really delete (the defect lower-cases both)
    CHECK(o.rec.named("del [upper-case]").outcome == Outcome::failed);
    CHECK(o.rec.named("del [mixed-case]").outcome == Outcome::failed);
    for (const char* n : {"del [no-hyphens]", "del [braces]", "del [urn-uuid]"}) {
        INFO(n << ": " << o.rec.named(n).message);
        CHECK(o.rec.named(n).outcome == Outcome::passed);
    }
    // the suite's own entity was never touched: the next case passes
    CHECK(o.rec.named("read").outcome == Outcome::passed);
    // the fresh create is a step of the element's record, first
    const CaseResult& up = o.rec.named("del [upper-case]");
    REQUIRE(up.steps.size() == 2);
    CHECK(up.steps[0].name == "fresh: create the live entity");
    // the mutation is of the element's own id, not of the suite's
    CHECK(up.steps[1].exchange.request.url != "http://t/items/017F22E2-79B0-7CC3-98C4-DC0C0C073901");
    // every fresh entity still standing is deleted by the cleanup
    CHECK(o.server->live.empty());
}

TEST_CASE("known state: fresh: also holds when elements run concurrently") {
    Outcomes o;
    run_against(o, load(suite_yaml("    fresh: [create the live entity]\n")), 4);
    CHECK(o.rec.named("del [upper-case]").outcome == Outcome::failed);
    CHECK(o.rec.named("del [mixed-case]").outcome == Outcome::failed);
    CHECK(o.rec.named("del [braces]").outcome == Outcome::passed);
    CHECK(o.rec.named("read").outcome == Outcome::passed);
}

TEST_CASE("known state: a failure names its step and what the step was for") {
    Outcomes o;
    run_against(o, load(suite_yaml("    fresh: [create the live entity]\n")));
    CHECK(o.rec.named("del [upper-case]").message ==
          "step 2, DELETE the mutated id: it must be refused: status: expected 4xx, got 204");
    // A server that refuses the DELETE and deletes all the same (a 400 after the row is gone).
    Outcomes refusing;
    auto server = refusing.server;
    Script script;
    script.otherwise([server](const Request& r) {
        Reply a = (*server)(r);
        if (r.method == "DELETE" && a.status == 204) a.status = 400;
        return a;
    });
    (void)runner::run({load(suite_yaml("    fresh: [create the live entity]\n"))}, runner::RunOptions{}, refusing.rec,
                      script.factory());
    CHECK(refusing.rec.named("del [upper-case]").message ==
          "step 3, read the live entity after the refused DELETE: it must still exist: status: expected 200, got 404");
}

TEST_CASE("known state: a fresh entity that cannot be made skips the element with the reason") {
    Outcomes o;
    o.server->creates_allowed = 2;  // the setup's and upper-case's; then 503
    run_against(o, load(suite_yaml("    fresh: [create the live entity]\n")));
    CHECK(o.rec.named("del [upper-case]").outcome == Outcome::failed);
    const CaseResult& mixed = o.rec.named("del [mixed-case]");
    CHECK(mixed.outcome == Outcome::skipped);
    CHECK(mixed.message ==
          "not checked: the fresh state this case needs could not be made (step 1, fresh: create the live entity: "
          "status: expected 201, got 503)");
}

TEST_CASE("known state: without fresh:, what an earlier finding deleted skips the later cases naming it") {
    Outcomes o;
    run_against(o, load(suite_yaml("")));
    const CaseResult& up = o.rec.named("del [upper-case]");
    CHECK(up.outcome == Outcome::failed);
    for (const char* n : {"del [mixed-case]", "del [no-hyphens]", "del [braces]", "del [urn-uuid]", "read"}) {
        const CaseResult& c = o.rec.named(n);
        INFO(n << ": " << c.message);
        CHECK(c.outcome == Outcome::skipped);
        CHECK(c.message.find("gone after an earlier finding (case 'del [upper-case]', step 1, DELETE the mutated id") !=
              std::string::npos);
    }
}

TEST_CASE("known state: fresh: re-evaluates a named variable (a fresh client id per element)") {
    Script script;
    std::vector<std::string> seen;
    script.otherwise([&seen](const Request& r) {
        seen.push_back(r.url);
        return Reply::answer(400);
    });
    const auto s = load(R"(name: s
target: {base_url: "http://t"}
vars: {client_id: "${gen:uuidv7}"}
cases:
  - name: put
    fresh: [client_id]
    for_each: {mutations: "${client_id}", kind: uuidv7, as: m, only: [upper-case, braces]}
    steps:
      - {http: {method: PUT, path: "/items/${m}"}, expect: {status: 4xx}}
      - {http: {path: "/items/${client_id}"}, expect: {status: 4xx}}
)");
    Recorder rec;
    (void)runner::run({s}, runner::RunOptions{}, rec, script.factory());
    REQUIRE(seen.size() == 4);
    CHECK(seen[1] != seen[3]);  // each element read its own fresh id
    std::string a = seen[0].substr(seen[0].rfind('/') + 1), b = seen[1].substr(seen[1].rfind('/') + 1);
    std::transform(a.begin(), a.end(), a.begin(), [](unsigned char c) { return std::tolower(c); });
    CHECK(a == b);  // and the mutation is of that id
}

TEST_CASE("known state: fresh: loader errors at file:line:col with a hint") {
    auto bad = [](const std::string& fresh) {
        auto r = suite::load_text(R"(name: s
target: {base_url: "http://t"}
vars: {client_id: x}
setup:
  - name: create the live entity
    http: {method: POST, path: /items}
cases:
  - name: c
    fresh: )" + fresh + R"(
    steps: [{http: {path: /a}}]
)",
                                  "f.yaml");
        REQUIRE_FALSE(r.ok());
        REQUIRE(!r.diagnostics.empty());
        return r.diagnostics.front();
    };
    auto d = bad("[create the live entity2]");
    CHECK(d.title == "fresh names 'create the live entity2', which is neither a setup step nor a suite variable");
    CHECK(d.hint == "did you mean 'create the live entity'?");
    CHECK(d.pos.line == 9);
    CHECK(d.pos.column == 13);
    d = bad("always");
    CHECK(d.title == "fresh takes 'setup' or a list of names, not 'always'");
    CHECK(d.pos.line == 9);
    d = bad("[client_id, client_id]");
    CHECK(d.title == "fresh names 'client_id' twice");
    d = bad("[]");
    CHECK(d.title == "fresh lists nothing");
    auto ok = suite::load_text(R"(name: s
target: {base_url: "http://t"}
setup: [{name: make, http: {method: POST, path: /items}}]
cases:
  - {name: c, fresh: setup, steps: [{http: {path: /a}}]}
)",
                               "f.yaml");
    CHECK(ok.ok());
}
