// The cleanup forms of issue #13 part B, in process with the scripted fake
// transport: the read-back of a failed delete at the resource's read, where
// the profile's 2xx "nothing there" (200 []) says gone; entities the profile
// says cannot be deleted left behind and said once in the run's notes (never
// an error, never a transport error); the notes' text.
#include "binding/deletion.hpp"
#include "binding/operations.hpp"
#include "reporters/reporter.hpp"
#include "runner/left_behind.hpp"
#include "runner/runner.hpp"
#include "suite/loader.hpp"
#include "transport/fake/fake_transport.hpp"

#include <doctest/doctest.h>

#include <boost/json/parse.hpp>

#include <string>
#include <vector>

using namespace idconform;
using transport::fake::Reply;
using transport::fake::Script;

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

// A suite of `n` cases, each creating one item by a `call` whose binding
// deletes what it made as `d` says (the way a pack instance's create is).
suite::Suite items_suite(int n, const binding::Deletion& d) {
    std::string yaml = "name: s\ntarget: {base_url: \"http://t\"}\ncases:\n";
    for (int i = 1; i <= n; ++i) yaml += "  - name: c" + std::to_string(i) + "\n    steps: [{call: {op: create}}]\n";
    auto r = suite::load_text(yaml, "left_behind_test.yaml");
    REQUIRE(r.ok());
    suite::Suite s = std::move(*r.suite);
    auto b = std::make_shared<binding::SuiteBinding>();
    binding::Operation create;
    create.method = "POST";
    create.path = "/items";
    create.makes = std::make_shared<const binding::Deletion>(d);
    b->own.at(suite::Operation::create) = create;
    s.binding = std::move(b);
    return s;
}

}  // namespace

TEST_CASE("cleanup: a failed delete is read back at the resource's read, its 2xx not-found answer means gone") {
    Script script;
    for (int i = 1; i <= 3; ++i)
        script.on("POST", "http://t/items", Reply::answer(201, R"({"id":"i)" + std::to_string(i) + R"("})"), 1);
    for (int i = 1; i <= 3; ++i) script.on("DELETE", "http://t/items/i" + std::to_string(i), Reply::answer(404));
    script.on("GET", "http://t/items?id=eq.i1", Reply::answer(200, "[]"));                // gone
    script.on("GET", "http://t/items?id=eq.i2", Reply::answer(200, R"([{"id":"i2"}])"));  // still there
    script.on("GET", "http://t/items?id=eq.i3", Reply::answer(200, "{}"));                // another 2xx: not the answer
    binding::Deletion cl;
    cl.path = "/items/{id}";
    cl.read_path = "/items?id=eq.{id}";
    cl.read_not_found = suite::StatusExpect::NotFound{{}, 200, boost::json::array(), {}, {}};
    Recorder rec;
    const auto report = runner::run({items_suite(3, cl)}, {}, rec, script.factory());
    for (const char* id : {"i1", "i2", "i3"})
        CHECK(script.count("GET", std::string("http://t/items?id=eq.") + id) == 1);
    CHECK(script.count("GET", "http://t/items/i1") == 0);  // the read, not the delete URL
    const CaseResult* cleanup = rec.named("cleanup");
    REQUIRE(cleanup);
    CHECK(cleanup->outcome == Outcome::error);
    CHECK(cleanup->message ==
          "could not delete 2 of 3 entities this run created: 2 confirmed to remain on the target "
          "(see the steps)");
    CHECK(cleanup->detail ==
          "remains on the target: what 'POST /items' (id i3) created: DELETE answered 404, and GET "
          "http://t/items?id=eq.i3 answered 200\n"
          "remains on the target: what 'POST /items' (id i2) created: DELETE answered 404, and GET "
          "http://t/items?id=eq.i2 answered 200\n");
    CHECK(report.summary.notes.empty());
}

TEST_CASE("cleanup: without a not_found answer, 200 [] is not taken as gone (the profile must say so)") {
    Script script;
    script.on("POST", "http://t/items", Reply::answer(201, R"({"id":"i1"})"));
    script.on("DELETE", "http://t/items/i1", Reply::answer(404));
    script.on("GET", "http://t/items/i1", Reply::answer(200, "[]"));
    binding::Deletion cl;
    cl.path = "/items/{id}";
    Recorder rec;
    (void)runner::run({items_suite(1, cl)}, {}, rec, script.factory());
    REQUIRE(rec.named("cleanup"));
    CHECK(rec.named("cleanup")->detail.find("remains on the target") != std::string::npos);
}

TEST_CASE("cleanup: what the profile says cannot be deleted is left, said once in the run's notes, never an error") {
    Script script;
    for (int i = 1; i <= 3; ++i)
        script.on("POST", "http://t/items", Reply::answer(201, R"({"id":"j)" + std::to_string(i) + R"("})"), 1);
    script.on("POST", "http://t/items", Reply::answer(201, R"({"name":"no id"})"), 1);
    binding::Deletion cl;
    cl.by_design = true;
    cl.impossible = "the profile says 'jobs' cannot be deleted (kept 30 days, p.yaml:9:5)";
    Recorder rec;
    // two suites: the note gathers both
    const auto report = runner::run({items_suite(2, cl), items_suite(2, cl)}, {}, rec, script.factory());
    CHECK(rec.named("cleanup") == nullptr);
    CHECK(script.count("DELETE", "http://t/items/j1") == 0);
    CHECK(script.count("GET", "http://t/items/j1") == 0);
    CHECK(report.transport_errors == 0);
    CHECK(report.summary.count(Outcome::error) == 0);
    REQUIRE(report.summary.notes.size() == 1);
    // each suite's cleanup goes last created first
    CHECK(report.summary.notes[0] ==
          "left on the target: 4 entities this run created, because the profile says 'jobs' cannot be deleted "
          "(kept 30 days, p.yaml:9:5); ids j2, j1, j3; 1 whose id the create answer did not give");
}

TEST_CASE("left_behind_notes: one note per reason, in first-seen order, at most 20 ids named") {
    std::vector<runner::SuiteRun::LeftBehind> left;
    for (int i = 0; i < 23; ++i) left.push_back({"A", "a" + std::to_string(i)});
    left.push_back({"B", "b0"});
    const auto notes = runner::left_behind_notes(left);
    REQUIRE(notes.size() == 2);
    CHECK(notes[0].rfind("left on the target: 23 entities this run created, because A; ids a0, a1, ", 0) == 0);
    CHECK(notes[0].find("a19 and 3 more") != std::string::npos);
    CHECK(notes[0].find("a20") == std::string::npos);
    CHECK(notes[1] == "left on the target: 1 entity this run created, because B; ids b0");
    CHECK(runner::left_behind_notes({}).empty());
}
