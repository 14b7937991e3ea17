// Forms a hand-written suite uses for the ways real APIs answer, the same
// a profile's endpoint gives the packs (docs/target-profile.md), run by the
// engine against the fake transport:
// - `expect: {not_found: ...}`: the 2xx answer an API gives for "nothing
//   there" ({"found": false}, `[]`, a 204 with no body) passes the refusal
//   check it is written beside, and only that answer does;
// - `capture: {v: {header_id: Location}}`: the id a 201 names only in its
//   Location header;
// - `id_members: {kind, declared}`: members of another kind on purpose.
#include "reporters/reporter.hpp"
#include "runner/runner.hpp"
#include "suite/loader.hpp"
#include "transport/fake/fake_transport.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace idconform;
using transport::fake::Reply;
using transport::fake::Script;

namespace {

class Recorder final : public reporters::Reporter {
public:
    void take_case(CaseResult&& c) override { cases.push_back(std::move(c)); }
    std::vector<CaseResult> cases;
};

suite::Suite load(const std::string& yaml) {
    auto r = suite::load_text(yaml, "not_found_test.yaml");
    for (const auto& d : r.diagnostics) MESSAGE(std::string(d.pos.str() + ": " + d.title + " / " + d.hint));
    REQUIRE(r.ok());
    return std::move(*r.suite);
}

std::string suite_with(const std::string& expect) {
    return R"(name: s
target: {base_url: "http://t"}
cases:
  - name: an unknown key is not found
    rule: DATA-ID-002
    steps:
      - http: {path: /keys/0190a7e4-0000-7000-8000-000000000000}
        expect: )" +
           expect + "\n";
}

// The one case's result when every request is answered `status` with `body`.
CaseResult run_answered(const std::string& expect, int status, const std::string& body) {
    Script script;
    script.otherwise([status, body](const Request&) { return Reply::answer(status, body); });
    Recorder rec;
    (void)runner::run({load(suite_with(expect))}, runner::RunOptions{}, rec, script.factory());
    REQUIRE(rec.cases.size() == 1);
    return rec.cases.front();
}

}  // namespace

TEST_CASE("not_found beside a refusal: a member that says nothing is there passes, a found entity fails") {
    const std::string expect = "{status: 404, not_found: {status: 200, at: /found, equals: false}}";
    CHECK(run_answered(expect, 404, "{}").outcome == Outcome::passed);
    CHECK(run_answered(expect, 200, R"({"found": false})").outcome == Outcome::passed);
    const CaseResult found = run_answered(expect, 200, R"({"found": true, "value": "x"})");
    CHECK(found.outcome == Outcome::failed);
    REQUIRE_FALSE(found.steps.empty());
    REQUIRE_FALSE(found.steps.front().checks.empty());
    const CheckResult& c = found.steps.front().checks.front();
    CHECK_FALSE(c.ok);
    CHECK(c.expected == "404 or 200 with /found = false (the not_found: answer)");
    // another 2xx status than the one written is no not-found answer
    CHECK(run_answered(expect, 201, R"({"found": false})").outcome == Outcome::failed);
}

TEST_CASE("not_found: an exact body, and an answer with no body") {
    const std::string array = "{status: 4xx, not_found: {status: 200, body: []}}";
    CHECK(run_answered(array, 200, "[]").outcome == Outcome::passed);
    CHECK(run_answered(array, 200, R"([{"id": 1}])").outcome == Outcome::failed);
    const std::string empty = "{status: [403, 404], not_found: {status: 204, empty: true}}";
    CHECK(run_answered(empty, 204, "").outcome == Outcome::passed);
    CHECK(run_answered(empty, 204, "{}").outcome == Outcome::failed);
}

TEST_CASE("without not_found the same 2xx answer fails the refusal check") {
    CHECK(run_answered("{status: 404}", 200, R"({"found": false})").outcome == Outcome::failed);
}

namespace {

std::string location_suite() {
    return R"(name: s
target: {base_url: "http://t"}
cases:
  - name: the new id is in the Location only
    rule: DATA-ID-002
    steps:
      - http: {method: POST, path: /items, json: {name: a}}
        expect: {status: 201}
        capture: {item: {header_id: Location}, where: {header: Location}}
      - http: {path: "/items/${item}"}
        expect: {status: 200, json: {/where: {equals: "${where}"}}}
)";
}

CaseResult run_created(const std::string& location) {
    Script script;
    script.on("POST", "http://t/items", Reply::answer(201, "", {{"Location", location}}));
    script.on("GET", "http://t/items/0190a7e4-0000-7000-8000-0000000000aa",
              Reply::answer(200, R"({"where": "/v1/items/0190a7e4-0000-7000-8000-0000000000aa?view=full"})"));
    Recorder rec;
    (void)runner::run({load(location_suite())}, runner::RunOptions{}, rec, script.factory());
    REQUIRE(rec.cases.size() == 1);
    return rec.cases.front();
}

}  // namespace

TEST_CASE("capture header_id: the last path segment of the Location, query left out") {
    const CaseResult c = run_created("/v1/items/0190a7e4-0000-7000-8000-0000000000aa?view=full");
    std::string checks;
    for (const auto& st : c.steps)
        for (const auto& ch : st.checks) checks += ch.expected + " / " + ch.actual + "\n";
    INFO(c.message << "\n" << checks);
    CHECK(c.outcome == Outcome::passed);
    REQUIRE(c.steps.size() == 2);
}

TEST_CASE("capture header_id: a Location that names no id fails the step's capture check, never an empty id") {
    const CaseResult c = run_created("?view=full");
    CHECK(c.outcome == Outcome::failed);
    REQUIRE_FALSE(c.steps.empty());
    bool said = false;
    for (const auto& ch : c.steps.front().checks)
        if (ch.what == "capture") said = !ch.ok && ch.actual.find("names no id") != std::string::npos;
    CHECK(said);
    CHECK(c.steps.size() == 1);  // the read of "${item}" is not sent
}

namespace {

// A ticket's viewable id "AB-" + 9 symbols, captured in setup; each
// mutation of it read by a case that wants a refusal.
std::vector<CaseResult> run_viewable(const std::string& format_keys, Script& script) {
    const std::string yaml = R"(name: s
target: {base_url: "http://t"}
setup:
  - http: {path: /tickets/first}
    capture: {vid: /vid}
cases:
  - name: a mutated viewable id names no ticket
    rule: DATA-ID-002
    for_each: {mutations: "${vid}", kind: viewable)" +
                             format_keys + R"(, as: m}
    steps:
      - http: {path: "/tickets/by-vid/{m}"}
        expect: {status: 404}
)";
    script.on("GET", "http://t/tickets/first", Reply::answer(200, R"({"vid": "AB-7K3M9QX2Z"})"));
    Recorder rec;
    (void)runner::run({load(yaml)}, runner::RunOptions{}, rec, script.factory());
    return rec.cases;
}

}  // namespace

TEST_CASE("for_each over viewable mutations in the suite's own format (prefix, length)") {
    Script script;
    const auto cases = run_viewable(", prefix: \"AB-\", length: 9", script);
    REQUIRE_FALSE(cases.empty());
    std::size_t sent = 0;
    for (const auto& c : cases) {
        INFO(c.name << ": " << c.message);
        CHECK(c.outcome == Outcome::passed);
    }
    for (const auto& seen : script.requests())
        if (seen.request.url.rfind("http://t/tickets/by-vid/", 0) == 0) ++sent;
    CHECK(sent == cases.size());
    // in the default format (TR- and 7 symbols) the live id is no viewable id: nothing to mutate
    Script plain;
    for (const auto& c : run_viewable("", plain)) {
        INFO(c.name);
        CHECK(c.outcome == Outcome::skipped);
        CHECK(c.message.find("not applicable") != std::string::npos);
    }
}

TEST_CASE("id_members with declared members: those are judged by their own kind, the others by id_members'") {
    const std::string ulid_body = R"({"id": "01ARZ3NDEKTSV4RRFFQ69G5FAV", "tracking_id": "9b2e5e3a-6c1f-4f8e-9d2a-3b4c5d6e7f80"})";
    // A uuidv4 tracking id beside ULID keys: a defect unless the suite declares it.
    CHECK(run_answered("{status: 200, id_members: ulid}", 200, ulid_body).outcome == Outcome::failed);
    CHECK(run_answered("{status: 200, id_members: {kind: ulid, declared: {/tracking_id: uuidv4}}}", 200, ulid_body)
              .outcome == Outcome::passed);
    // Declared, it is still judged: a ULID there is not the uuidv4 the suite says it is.
    const std::string wrong = R"({"id": "01ARZ3NDEKTSV4RRFFQ69G5FAV", "tracking_id": "01ARZ3NDEKTSV4RRFFQ69G5FAW"})";
    CHECK(run_answered("{status: 200, id_members: {kind: ulid, declared: {/tracking_id: uuidv4}}}", 200, wrong)
              .outcome == Outcome::failed);
}
