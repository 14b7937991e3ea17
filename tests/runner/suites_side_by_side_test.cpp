// Suites side by side at -j N (runner/engine_suites.cpp): up to N suites in
// flight, never more than N requests out across all of them, the reports in
// the run's order whatever order the suites end in, a preflight suite alone
// before the suites after it, and -j 1 one suite after another. In process,
// with the scripted fake transport (delays are timers on the runner's
// executor: no sockets, no timing assertions).
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

// What the reporter saw, as "suite NAME", "case SUITE/NAME", "end NAME".
class Order final : public reporters::Reporter {
public:
    void suite_started(const std::string& s, const std::string&) override { events.push_back("suite " + s); }
    void take_case(CaseResult&& c) override { events.push_back("case " + c.suite + "/" + c.name); }
    void suite_finished(const SuiteResult& s) override {
        events.push_back("end " + s.name + " " + std::to_string(s.total()));
    }
    std::vector<std::string> events;
};

// Suite NAME: a setup GET, then `cases` cases, each one GET of /NAME/i.
suite::Suite suite_of(const std::string& name, int cases) {
    std::string yaml = "name: " + name + "\ntarget: {base_url: \"http://t\"}\nsetup:\n  - http: {path: /" + name +
                       "/setup}\n    expect: {status: 200}\ncases:\n";
    for (int i = 0; i < cases; ++i)
        yaml += "  - name: c" + std::to_string(i) + "\n    steps: [{http: {path: /" + name + "/" + std::to_string(i) +
                "}, expect: {status: 200}}]\n";
    auto r = suite::load_text(yaml, name + ".yaml");
    REQUIRE(r.ok());
    return std::move(*r.suite);
}

struct Ran {
    std::size_t max_in_flight = 0;
    std::vector<std::string> events;
    std::vector<std::string> urls;  // in the order they were sent
};

// Every request answers 200 after `delay(url)`.
template <class Delay>
Ran run_suites(const std::vector<suite::Suite>& suites, int j, Delay delay) {
    Script script;
    Ran o;
    script.otherwise([&](const Request& r) {
        o.max_in_flight = std::max(o.max_in_flight, script.requests().size() - script.answered().size());
        return Reply::answer(200, "{}").after(delay(r.url));
    });
    Order rec;
    runner::RunOptions opts;
    opts.concurrency = j;
    (void)runner::run(suites, opts, rec, script.factory());
    o.events = rec.events;
    for (const auto& s : script.requests()) o.urls.push_back(s.request.url);
    return o;
}

}  // namespace

TEST_CASE("-j 4: suites run side by side, never more than 4 requests out, reported in the run's order") {
    // the first suite is the slowest: the others end before it
    const std::vector<suite::Suite> suites = {suite_of("a", 3), suite_of("b", 3), suite_of("c", 3),
                                              suite_of("d", 3), suite_of("e", 3)};
    const Ran o = run_suites(suites, 4, [](const std::string& url) {
        return url.rfind("http://t/a/", 0) == 0 ? 20ms : 2ms;
    });
    CHECK(o.max_in_flight == 4);
    // b's setup went out before a's was answered: a did not hold the others up
    const auto pos = [&](const std::string& u) { return std::find(o.urls.begin(), o.urls.end(), u) - o.urls.begin(); };
    CHECK(pos("http://t/b/setup") < pos("http://t/a/0"));
    std::vector<std::string> want;
    for (const char* s : {"a", "b", "c", "d", "e"}) {
        want.push_back(std::string("suite ") + s);
        for (int i = 0; i < 3; ++i) want.push_back(std::string("case ") + s + "/c" + std::to_string(i));
        want.push_back(std::string("end ") + s + " 3");
    }
    CHECK(o.events == want);
}

TEST_CASE("-j 1: one suite after another, one request at a time") {
    const Ran o = run_suites({suite_of("a", 2), suite_of("b", 2)}, 1, [](const std::string&) { return 1ms; });
    CHECK(o.max_in_flight == 1);
    CHECK(o.urls == std::vector<std::string>{"http://t/a/setup", "http://t/a/0", "http://t/a/1", "http://t/b/setup",
                                             "http://t/b/0", "http://t/b/1"});
}

TEST_CASE("-j 4: a preflight suite waits for the suites before it and runs alone") {
    suite::Suite pre = suite_of("p", 2);
    pre.preflight = true;
    const Ran o = run_suites({suite_of("a", 2), pre, suite_of("b", 2)}, 4, [](const std::string&) { return 2ms; });
    const auto pos = [&](const std::string& u) { return std::find(o.urls.begin(), o.urls.end(), u) - o.urls.begin(); };
    // everything of a before p, everything of p before b
    CHECK(pos("http://t/a/1") < pos("http://t/p/setup"));
    CHECK(pos("http://t/a/0") < pos("http://t/p/setup"));
    CHECK(pos("http://t/p/0") < pos("http://t/b/setup"));
    CHECK(pos("http://t/p/1") < pos("http://t/b/setup"));
    CHECK(o.events.front() == "suite a");
    CHECK(o.events.back() == "end b 2");
}

TEST_CASE("-j 4: the suite the reports are at reports as it goes, the ones after it when their turn comes") {
    // a (12 cases) is slow, b ends first: a's first case reaches the reporter
    // before a's last request is sent (a is not held back until it ends, so a
    // long suite is never kept whole in memory), b's cases only after a ends
    const std::vector<suite::Suite> suites = {suite_of("a", 12), suite_of("b", 2)};
    Script script;
    script.otherwise([&](const Request& r) {
        return Reply::answer(200, "{}").after(r.url.rfind("http://t/a/", 0) == 0 ? 5ms : 1ms);
    });
    struct Seen final : public reporters::Reporter {
        const Script* script = nullptr;
        std::vector<std::string> events;
        std::size_t sent_at_first_a = 0;
        void suite_started(const std::string& s, const std::string&) override { events.push_back("suite " + s); }
        void take_case(CaseResult&& c) override {
            if (c.suite == "a" && sent_at_first_a == 0) sent_at_first_a = script->requests().size();
            events.push_back("case " + c.suite + "/" + c.name);
        }
        void suite_finished(const SuiteResult& s) override { events.push_back("end " + s.name); }
    } seen;
    seen.script = &script;
    runner::RunOptions opts;
    opts.concurrency = 4;
    (void)runner::run(suites, opts, seen, script.factory());
    const auto sent = script.requests();
    const auto last_a = std::find_if(sent.rbegin(), sent.rend(), [](const auto& s) {
        return s.request.url == "http://t/a/11";
    });
    REQUIRE(last_a != sent.rend());
    const std::size_t last_a_at = static_cast<std::size_t>(sent.rend() - last_a);  // 1-based position
    CHECK(seen.sent_at_first_a > 0);
    CHECK(seen.sent_at_first_a < last_a_at);
    // b ended long before a, yet is reported after it, whole
    REQUIRE(seen.events.size() == 2 + 12 + 2 + 2);
    CHECK(seen.events[13] == "end a");
    CHECK(seen.events[14] == "suite b");
    CHECK(seen.events.back() == "end b");
}

TEST_CASE("-j 2: the suite with the longest run of requests in a row starts first, reports stay in the run's order") {
    // z sends 20 creates in a row (repeat): started last it would end long
    // after a and b; it goes first, a and b share the other slot
    auto r = suite::load_text("name: z\ntarget: {base_url: \"http://t\"}\ncases:\n  - name: chain\n    steps:\n"
                              "      - http: {path: /z/n}\n        repeat: 20\n        expect: {status: 200}\n",
                              "z.yaml");
    REQUIRE(r.ok());
    const std::vector<suite::Suite> suites = {suite_of("a", 2), suite_of("b", 2), std::move(*r.suite)};
    const Ran o = run_suites(suites, 2, [](const std::string&) { return 1ms; });
    REQUIRE(!o.urls.empty());
    CHECK(o.urls.front() == "http://t/z/n");
    CHECK(o.max_in_flight <= 2);
    const std::vector<std::string> want = {"suite a", "case a/c0", "case a/c1", "end a 2", "suite b", "case b/c0",
                                           "case b/c1", "end b 2", "suite z", "case z/chain", "end z 1"};
    CHECK(o.events == want);
}

TEST_CASE("-j 4: a cleanup while another suite still runs gets its share of the slots, not one") {
    // a creates 8 items fast and cleans up while b's slow cases still hold
    // and wait for slots: its deletes take slots as they free up, before b's
    // waiting cases, and go out side by side (they went one at a time when
    // the cleanup took only what was free at its start: nothing, with b's
    // cases waiting)
    std::string yaml = "name: a\ntarget: {base_url: \"http://t\"}\ncases:\n  - name: c\n    steps:\n";
    for (int i = 0; i < 8; ++i) yaml += "      - {http: {method: POST, path: /a/items}, cleanup: {path: \"/a/items/{id}\"}}\n";
    auto r = suite::load_text(yaml, "a.yaml");
    REQUIRE(r.ok());
    const std::vector<suite::Suite> suites = {std::move(*r.suite), suite_of("b", 40)};
    Script script;
    int made = 0;
    std::size_t max_deletes_out = 0, max_in_flight = 0;
    script.otherwise([&](const Request& q) {
        max_in_flight = std::max(max_in_flight, script.requests().size() - script.answered().size());
        if (q.method == "POST") return Reply::answer(201, R"({"id":"i)" + std::to_string(++made) + R"("})").after(10ms);
        if (q.method == "DELETE") {
            // deletes sent (this one included) less those answered
            std::size_t out = 1;
            for (const auto& seen : script.requests()) out += seen.request.method == "DELETE";
            for (const std::size_t i : script.answered()) out -= script.requests()[i].request.method == "DELETE";
            max_deletes_out = std::max(max_deletes_out, out - 1);
            return Reply::answer(204).after(10ms);
        }
        return Reply::answer(200, "{}").after(q.url == "http://t/b/setup" ? 1ms : 30ms);
    });
    struct Quiet final : public reporters::Reporter {
        void take_case(CaseResult&&) override {}
    } rec;
    runner::RunOptions opts;
    opts.concurrency = 4;
    (void)runner::run(suites, opts, rec, script.factory());
    CHECK(made == 8);
    CHECK(max_in_flight <= 4);
    CHECK(max_deletes_out > 1);
}
