// The declared kind drives every generated value (issue 22, section 5), in
// process with the real packs: the mutations of a profile's cases are the
// same whatever text the server's ids have (expanded twice, against ids of
// different text, the case lists are equal); the fresh client-chosen id is of
// the declared kind, or the cases that need one are not applicable, saying
// why; and a value that a typed gRPC field cannot hold (Nil or Max in an
// int64 id) makes its case not applicable, not an error, with nothing sent.
#include "ids/of_kind.hpp"
#include "profile/profile.hpp"
#include "reporters/reporter.hpp"
#include "runner/expansion.hpp"
#include "runner/runner.hpp"
#include "runner/scope.hpp"
#include "suite/loader.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

using namespace idconform;
namespace json = boost::json;

namespace {

const std::string packs_dir = std::string(IDCONFORM_SOURCE_DIR) + "/suites/packs";

profile::Expansion expanded(const std::string& products_id) {
    const std::string text =
        "name: shop\n"
        "base_url: http://127.0.0.1:9\n"
        "principals: {a: {}, b: {}}\n"
        "packs: [data-id, nil-max]\n"
        "resources:\n"
        "  categories:\n"
        "    create: {path: /categories, body: {name: c}}\n"
        "    read: {path: \"/categories/{id}\"}\n"
        "    delete: {path: \"/categories/{id}\"}\n" +
        products_id +
        "  products:\n"
        "    create: {path: /products, body: {name: p}}\n"
        "    read: {path: \"/products/{id}\"}\n"
        "    update: {path: \"/products/{id}\", body: {name: q}}\n"
        "    delete: {path: \"/products/{id}\"}\n"
        "    put: {path: \"/products/{id}\", body: {name: r}}\n" +
        products_id + "    references: {categoryId: {resource: categories, required: true}}\n";
    const auto loaded = profile::load_profile_text(text, "shop.yaml");
    REQUIRE(loaded.profile);
    auto e = profile::expand(*loaded.profile, packs_dir);
    REQUIRE(e.diagnostics.empty());
    return e;
}

const suite::Suite& instance(const profile::Expansion& e, const std::string& name) {
    for (const auto& s : e.suites)
        if (s.name == name) return s;
    FAIL("no suite " << name);
    return e.suites.front();
}

// The suite's scope as the runner makes it at suite start, with what its
// setup captured.
runner::Scope scope_of(const suite::Suite& s, const std::map<std::string, std::string>& captured) {
    runner::Scope scope;
    for (const auto& v : s.vars) {
        if (v.deferred) {
            scope.set_deferred(v.name, v.value);
            continue;
        }
        auto value = runner::interpolate_json(v.value, scope);
        REQUIRE_MESSAGE(value, v.name, ": ", value.error());
        scope.set(v.name, *value);
    }
    for (const auto& [k, v] : captured) scope.set(k, json::value(v));
    return scope;
}

struct Listed {
    std::string name;
    std::string skip;
    std::string error;
};

std::vector<Listed> cases_of(const suite::Suite& s, const runner::Scope& scope) {
    std::vector<runner::Expanded> out;
    for (const auto& c : s.cases) runner::expand({}, s, c, scope, out);
    std::vector<Listed> listed;
    for (const auto& e : out) {
        runner::Expanded scratch;
        const auto& el = runner::element(e, scratch);
        listed.push_back({el.name, el.pre_skip, el.pre_error});
    }
    return listed;
}

std::vector<std::string> names(const std::vector<Listed>& l) {
    std::vector<std::string> out;
    for (const auto& c : l) out.push_back(c.name);
    return out;
}

}  // namespace

TEST_CASE("the same profile gives the same cases against ids of any text (json-server 1.x ids)") {
    // "xU4Kw_aif-Q" reads as a viewable id ("xU4Kw_aif-" + one symbol): taken
    // by its text it got viewable mutations, the next run's id did not.
    const auto e = expanded("    id: {at: /id, kind: existing, pattern: \"^[A-Za-z0-9_-]{11}$\"}\n");
    for (const char* suite_name : {"data-id-002 products", "data-id-006 products", "nil-max products"}) {
        CAPTURE(suite_name);
        const suite::Suite& s = instance(e, suite_name);
        const auto one = cases_of(s, scope_of(s, {{"live_id", "xU4Kw_aif-Q"}, {"entity.categories", "Zq3_-Ab9-RT"}}));
        const auto two = cases_of(s, scope_of(s, {{"live_id", "xU4Kw_aifQq"}, {"entity.categories", "Zq3_xAb9pRT"}}));
        CHECK(names(one) == names(two));
        for (const auto& c : one) CHECK_MESSAGE((c.error.empty() || !c.skip.empty()), c.name, ": ", c.error);
    }
    const suite::Suite& s = instance(e, "data-id-002 products");
    const auto listed = cases_of(s, scope_of(s, {{"live_id", "xU4Kw_aif-Q"}, {"entity.categories", "Zq3_-Ab9-RT"}}));
    const auto has = [&](const std::string& n) {
        return std::any_of(listed.begin(), listed.end(), [&](const Listed& c) { return c.name == n; });
    };
    CHECK(has("a mutated live id in a read path is rejected [upper-case]"));
    CHECK(has("a mutated live id in a read path is rejected [one-char-short]"));
    CHECK_FALSE(has("a mutated live id in a read path is rejected [one-symbol-short]"));  // a viewable mutation
}

TEST_CASE("a UUID kind declared, a non-UUID id served: the same cases, not applicable, saying why") {
    const auto e = expanded("");  // the default, uuidv7
    const suite::Suite& s = instance(e, "data-id-002 products");
    const std::string v7 = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f";
    const auto uuid = cases_of(s, scope_of(s, {{"live_id", v7}, {"entity.categories", v7}}));
    const auto hex4 = cases_of(s, scope_of(s, {{"live_id", "8b5a"}, {"entity.categories", "c0de"}}));
    CHECK(names(uuid) == names(hex4));
    for (const auto& c : hex4)
        if (c.name.rfind("a mutated live id in a read path", 0) == 0)
            CHECK(c.skip.find("'8b5a' is not a canonical UUID, so no uuidv7 mutation") != std::string::npos);
}

TEST_CASE("the fresh client-chosen id is of the declared kind") {
    SUBCASE("uuidv4: a fresh v4, never the v7 a v4 API must refuse") {
        const auto e = expanded("    id: {at: /id, kind: uuidv4}\n");
        const suite::Suite& s = instance(e, "data-id-006 products");
        const runner::Scope scope = scope_of(s, {{"live_id", "919108f7-52d1-4320-9bac-f847db4148a8"}});
        const json::value* fresh = scope.find("fresh");
        REQUIRE(fresh);
        REQUIRE(fresh->is_string());
        CHECK(ids::is_valid(fresh->as_string(), ids::IdKind::uuidv4));
        // the other id an update body carries: a fresh v4 on every use
        auto a = runner::interpolate("${res.fresh_id}", scope);
        auto b = runner::interpolate("${res.fresh_id}", scope);
        REQUIRE(a);
        REQUIRE(b);
        CHECK(ids::is_valid(*a, ids::IdKind::uuidv4));
        CHECK(*a != *b);
        for (const auto& c : s.cases)  // (a plain put only creates: the create-or-replace case is not applicable)
            if (c.name != "a PUT to a live id replaces that entity and keeps its id")
                CHECK_MESSAGE(c.skip.empty(), c.name, ": ", c.skip);
    }
    SUBCASE("existing with a pattern: a text of the pattern") {
        const auto e = expanded("    id: {at: /id, kind: existing, pattern: \"^[0-9a-f]{4}$\"}\n");
        const suite::Suite& s = instance(e, "data-id-006 products");
        const runner::Scope scope = scope_of(s, {});  // kept: find() points into it
        const json::value* fresh = scope.find("fresh");
        REQUIRE(fresh);
        REQUIRE(fresh->is_string());
        const std::string text(fresh->as_string());
        CHECK(text.size() == 4);
        CHECK(text.find_first_not_of("0123456789abcdef") == std::string::npos);
    }
    SUBCASE("existing without a pattern: the client-id checks are not applicable, naming the key to add") {
        const auto e = expanded("    id: {at: /id, kind: existing}\n");
        const suite::Suite& s = instance(e, "data-id-006 products");
        const runner::Scope scope = scope_of(s, {});
        REQUIRE(scope.find("fresh"));
        CHECK(scope.find("fresh")->is_null());  // no suite error at its start
        for (const auto& c : s.cases) {
            const bool needs_fresh = std::find(c.needs.begin(), c.needs.end(), "res.fresh_id") != c.needs.end();
            if (!needs_fresh) continue;
            CHECK(c.skip.rfind("not applicable: no fresh client-chosen id can be made", 0) == 0);
            CHECK(c.skip.find("kind existing") != std::string::npos);
            CHECK(c.skip.find("add pattern:") != std::string::npos);
            CHECK(c.skip.find("shop.yaml:") != std::string::npos);
        }
    }
}

// ------------------------------------------------------ typed gRPC fields

namespace {

class Recorder final : public reporters::Reporter {
public:
    void take_case(CaseResult&& c) override { cases.push_back(std::move(c)); }
    std::vector<CaseResult> cases;
};

}  // namespace

TEST_CASE("a value an int64 gRPC id cannot hold is not applicable, not an error, and is never sent") {
    // Nobody listens at 127.0.0.1:1: a case that sent anything would be a
    // transport error. The schema comes from the .proto file.
    const std::string suite_file = std::string(IDCONFORM_SOURCE_DIR) + "/tests/runner/declared_kind.yaml";
    const auto loaded = suite::load_text(R"(name: numbered
target:
  base_url: http://127.0.0.1:1
  timeout: {connect: 300ms, read: 300ms}
  grpc: {address: "127.0.0.1:1", protos: [../grpc/fixtures/protos/testpkg/numbered.proto], import_paths: [../grpc/fixtures/protos]}
vars: {live: "12"}
vectors:
  negative: [{name: nil, value: 00000000-0000-0000-0000-000000000000}, {name: max, value: ffffffff-ffff-ffff-ffff-ffffffffffff}, {name: number, value: "42"}]
cases:
  - name: Nil and Max as an id
    rule: nil-max
    for_each: {vectors: negative, as: v, only: [nil, max]}
    steps:
      - grpc: {method: testpkg.Numbered/GetNumbered, message: {id: "${v}"}}
        expect: {status: NOT_FOUND}
  - name: Nil in a string field is sent
    rule: nil-max
    for_each: {vectors: negative, as: v, only: [nil]}
    steps:
      - grpc: {method: testpkg.Numbered/GetNumbered, message: {id: "1", note: "${v}"}}
        expect: {status: NOT_FOUND}
  - name: another member that does not fit is the call's error
    rule: nil-max
    for_each: {vectors: negative, as: v, only: [number]}
    steps:
      - grpc: {method: testpkg.Numbered/GetNumbered, message: {id: "${v}", filter: {owner_id: "x"}}}
        expect: {status: NOT_FOUND}
  - name: a mutated integer id
    rule: DATA-ID-002
    for_each: {mutations: "${live}", kind: existing, as: m, only: [braces, quoted]}
    steps:
      - grpc: {method: testpkg.Numbered/GetNumbered, message: {id: "${m}"}}
        expect: {status: 4xx}
)",
                                         suite_file);
    for (const auto& d : loaded.diagnostics) MESSAGE(d.pos.str() << ": " << d.title);
    REQUIRE(loaded.ok());
    Recorder rec;
    const auto report = runner::run({*loaded.suite}, {}, rec, transport::registry_factory());
    std::map<std::string, const CaseResult*> by_name;
    for (const auto& c : rec.cases) by_name[c.name] = &c;
    for (const char* n : {"Nil and Max as an id [nil]", "Nil and Max as an id [max]", "a mutated integer id [braces]",
                          "a mutated integer id [quoted]"}) {
        CAPTURE(n);
        REQUIRE(by_name.count(n));
        const CaseResult& c = *by_name[n];
        CHECK(c.outcome == Outcome::skipped);
        CHECK(c.message.rfind("not applicable: the value '", 0) == 0);
        CHECK(c.message.find("cannot be sent at /id of testpkg.Numbered/GetNumbered: field id of "
                             "testpkg.NumberedRequest is int64") != std::string::npos);
        CHECK(c.steps.empty());  // nothing was sent
    }
    // A value the field holds goes out (and finds nobody); a misfit of another
    // member is the call's own error, as before.
    CHECK(by_name.at("Nil in a string field is sent [nil]")->outcome == Outcome::error);
    const CaseResult& other = *by_name.at("another member that does not fit is the call's error [number]");
    CHECK(other.outcome == Outcome::error);
    CHECK(other.message.find("does not fit") != std::string::npos);
    CHECK(report.transport_errors == 2);
}
