// The cleanup at -j N (runner/cleanup.cpp): consecutive deletes of entities
// made by the same create go out side by side, up to N; resources stay in
// last-created-first order; a delete of a batch that did not leave its entity
// gone is sent again alone; the report is the one of a cleanup one by one.
// In process, with the scripted fake transport (delays are timers on the
// runner's executor: no sockets, no timing assertions).
#include "reporters/reporter.hpp"
#include "runner/runner.hpp"
#include "suite/loader.hpp"
#include "transport/fake/fake_transport.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

using namespace idconform;
using transport::fake::Reply;
using transport::fake::Script;
using namespace std::chrono_literals;

namespace {

class Recorder final : public reporters::Reporter {
public:
    void take_case(CaseResult&& c) override { cases.push_back(std::move(c)); }
    [[nodiscard]] const CaseResult* named(const std::string& name) const {
        for (const auto& c : cases)
            if (c.name == name) return &c;
        return nullptr;
    }
    std::vector<CaseResult> cases;
};

// One case creating a category, then `n` items, each with its cleanup.
suite::Suite items_suite(int n) {
    std::string yaml = "name: s\ntarget: {base_url: \"http://t\"}\ncases:\n  - name: c\n    steps:\n"
                       "      - {http: {method: POST, path: /categories}, cleanup: {path: \"/categories/{id}\"}}\n";
    for (int i = 1; i <= n; ++i)
        yaml += "      - {http: {method: POST, path: /items}, cleanup: {path: \"/items/{id}\"}}\n";
    auto r = suite::load_text(yaml, "cleanup_batch_test.yaml");
    REQUIRE(r.ok());
    return std::move(*r.suite);
}

void script_creates(Script& script, int n) {
    script.on("POST", "http://t/categories", Reply::answer(201, R"({"id":"c1"})"));
    for (int i = 1; i <= n; ++i)
        script.on("POST", "http://t/items", Reply::answer(201, R"({"id":"i)" + std::to_string(i) + R"("})"), 1);
}

std::vector<std::string> delete_urls(const Script& script) {
    std::vector<std::string> out;
    for (const auto& seen : script.requests())
        if (seen.request.method == "DELETE") out.push_back(seen.request.url);
    return out;
}

struct Cleaned {
    std::size_t max_in_flight = 0;
    std::vector<std::string> deletes;
    std::string message, detail;
    std::vector<std::string> step_urls;
};

// Runs items_suite(n) at concurrency j; every delete answers after 5 ms,
// `answer` says what.
template <class Answer>
Cleaned run_cleanup(int n, int j, Answer answer) {
    Script script;
    script_creates(script, n);
    Cleaned o;
    script.otherwise([&](const Request& r) {
        if (r.method == "DELETE")
            o.max_in_flight = std::max(o.max_in_flight, script.requests().size() - script.answered().size());
        Reply reply = answer(script, r);
        reply.delay = 5ms;
        return reply;
    });
    Recorder rec;
    runner::RunOptions opts;
    opts.concurrency = j;
    (void)runner::run({items_suite(n)}, opts, rec, script.factory());
    o.deletes = delete_urls(script);
    if (const CaseResult* c = rec.named("cleanup")) {
        o.message = c->message;
        o.detail = c->detail;
        for (const auto& st : c->steps) o.step_urls.push_back(st.exchange.request.method + " " + st.exchange.request.url);
    }
    return o;
}

Reply deletes_succeed(const Script&, const Request& r) { return Reply::answer(r.method == "DELETE" ? 204 : 404); }

}  // namespace

TEST_CASE("cleanup at -j 4: the items' deletes go out four at a time, the category after them all") {
    const Cleaned o = run_cleanup(6, 4, deletes_succeed);
    CHECK(o.max_in_flight == 4);
    REQUIRE(o.deletes.size() == 7);
    CHECK(o.deletes.back() == "http://t/categories/c1");
    // last created first within each batch of four, then the next batch
    CHECK(std::vector<std::string>(o.deletes.begin(), o.deletes.begin() + 4) ==
          std::vector<std::string>{"http://t/items/i6", "http://t/items/i5", "http://t/items/i4", "http://t/items/i3"});
    CHECK(o.message.empty());
}

TEST_CASE("cleanup at -j 1: one delete at a time, as before") {
    const Cleaned o = run_cleanup(3, 1, deletes_succeed);
    CHECK(o.max_in_flight == 1);
    CHECK(o.deletes == std::vector<std::string>{"http://t/items/i3", "http://t/items/i2", "http://t/items/i1",
                                                "http://t/categories/c1"});
}

TEST_CASE("cleanup at -j 4: a delete refused because an entity of its batch still referenced it is sent again alone") {
    // i1 cannot go while another delete (i3's: its child) is still out; its
    // read then finds it. In one batch its first delete is refused.
    bool i1_gone = false;
    auto restrict = [&i1_gone](const Script& script, const Request& r) {
        if (r.url == "http://t/items/i1" && r.method == "GET") return Reply::answer(i1_gone ? 404 : 200, R"({"id":"i1"})");
        if (r.url == "http://t/items/i1" && script.answered().size() + 1 < script.requests().size()) return Reply::answer(409);
        if (r.url == "http://t/items/i1") i1_gone = true;
        return Reply::answer(r.method == "DELETE" ? 204 : 404);
    };
    const Cleaned o = run_cleanup(3, 4, restrict);
    CHECK(std::count(o.deletes.begin(), o.deletes.end(), "http://t/items/i1") == 2);
    CHECK(o.message.empty());  // deleted in the end: no cleanup problem
    CHECK(o.deletes.back() == "http://t/categories/c1");
}

TEST_CASE("cleanup at -j 4 reports what it could not delete exactly as one by one") {
    // i2 stays (its delete is answered 404 and the read finds it), i4 may remain (401 both).
    auto answer = [](const Script&, const Request& r) {
        if (r.url == "http://t/items/i2") return Reply::answer(r.method == "DELETE" ? 404 : 200, R"({"id":"i2"})");
        if (r.url == "http://t/items/i4") return Reply::answer(401);
        return Reply::answer(r.method == "DELETE" ? 204 : 404);
    };
    const Cleaned one = run_cleanup(5, 1, answer);
    const Cleaned four = run_cleanup(5, 4, answer);
    CHECK(four.max_in_flight == 4);
    CHECK_FALSE(one.message.empty());
    CHECK(four.message == one.message);
    CHECK(four.detail == one.detail);
    CHECK(four.step_urls == one.step_urls);
    CHECK(one.step_urls == std::vector<std::string>{"DELETE http://t/items/i4", "GET http://t/items/i4",
                                                    "DELETE http://t/items/i2", "GET http://t/items/i2"});
}

TEST_CASE("cleanup at -j 4: a delete the target did not answer is not sent again") {
    auto down = [](const Script&, const Request& r) {
        if (r.method == "DELETE" || r.method == "GET") return Reply::fail(TransportErrorKind::timeout, "timed out");
        return Reply::answer(404);
    };
    const Cleaned o = run_cleanup(3, 4, down);
    CHECK(std::count(o.deletes.begin(), o.deletes.end(), "http://t/items/i1") == 1);
    CHECK(o.deletes.size() == 4);
    CHECK_FALSE(o.message.empty());
}
