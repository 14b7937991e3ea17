// The profile's words about authentication (issue #22 section 4): `refused:`
// at the top and per resource (how the API refuses another principal), its
// errors, what the pack suites make of it, and the preflight suite the
// expansion runs first.
#include "test_support.hpp"

#include <algorithm>

using namespace idconform;
using namespace idconform::profile;
using namespace idconform::profile::testing;

namespace {

std::string api(const std::string& top, const std::string& orders_extra = "") {
    return "name: shop\n"                                                        // 1
           "base_url: http://127.0.0.1:9\n"                                      // 2
           "principals: {alice: {headers: {Authorization: \"Bearer ${env:TOKEN_A:-}\"}}, bob: {}}\n"  // 3
           + top +
           "resources:\n"
           "  notes:\n"
           "    create: {path: /notes, body: {text: n}}\n"
           "  orders:\n"
           "    create: {path: /orders, body: {item: o}}\n"
           "    read: {path: \"/orders/{id}\"}\n"
           "    delete: {path: \"/orders/{id}\"}\n"
           "    list: {path: /orders}\n" +
           orders_extra;
}

bool has_var(const suite::Suite& s, const std::string& name) {
    return std::any_of(s.vars.begin(), s.vars.end(), [&](const suite::Variable& v) { return v.name == name; });
}

}  // namespace

TEST_CASE("refused: 403 and 404 unless the profile says otherwise, a resource may say its own") {
    const Profile plain = load_ok(api(""), "shop.yaml");
    CHECK(plain.refused == std::vector<int>{403, 404});
    const Profile top = load_ok(api("refused: [401, 404]\n"), "shop.yaml");
    CHECK(top.refused == std::vector<int>{401, 404});
    const Profile own = load_ok(api("", "    refused: 404\n"), "shop.yaml");
    REQUIRE(own.resources[1].refused);
    CHECK(*own.resources[1].refused == std::vector<int>{404});
    CHECK_FALSE(own.resources[0].refused);

    const Expansion e = expand(load_ok(api("refused: [401, 404]\n", "    refused: [403]\n"), "shop.yaml"), packs_dir);
    REQUIRE(e.diagnostics.empty());
    CHECK(instance(e, "data-id-004 orders").refused == std::vector<int>{403});
    CHECK(instance(e, "data-id-004 notes").refused == std::vector<int>{401, 404});
}

TEST_CASE("refused: errors name the place and the fix") {
    only_error(api("refused: []\n"), 4, 10, "empty 'refused' list", "refused: [401, 404]");
    only_error(api("refused: [404, 500]\n"), 4, 16, "'500' is not a 4xx status", "4xx statuses");
    only_error(api("refused: [404, 404]\n"), 4, 16, "status 404 is listed twice in 'refused'", "each status once");
    only_error(api("refused: {a: 1}\n"), 4, 10, "expected a 4xx status here", "refused: [403, 404]");
    only_error(api("", "    refused: [40x]\n"), 12, 15, "'40x' is not a 4xx status", "refused: [403, 404]");
    // a misspelt key is offered the right one
    const LoadResult r = load_profile_text(api("refuse: [404]\n"), "inline.yaml");
    REQUIRE_FALSE(r.diagnostics.empty());
    CHECK(r.diagnostics.front().hint.find("refused") != std::string::npos);
}

TEST_CASE("the pack's DATA-ID-004 checks take the profile's refused statuses") {
    const Expansion e = expand(load_ok(api("refused: [401, 404]\n"), "shop.yaml"), packs_dir);
    const suite::Case& c = case_named(instance(e, "data-id-004 orders"), "another principal cannot read the entity by its id");
    REQUIRE(c.steps.front().expect.status);
    CHECK(c.steps.front().expect.status->refused);
}

TEST_CASE("the preflight runs first, once, for a resource it can create and delete") {
    const Expansion e = expand(load_ok(api(""), "shop.yaml"), packs_dir);
    REQUIRE(e.diagnostics.empty());
    REQUIRE_FALSE(e.suites.empty());
    const suite::Suite& pre = e.suites.front();
    CHECK(pre.preflight);
    CHECK(pre.name == "preflight orders");  // notes cannot be deleted: orders can
    CHECK(std::count_if(e.suites.begin(), e.suites.end(), [](const suite::Suite& s) { return s.preflight; }) == 1);
    // the principals keep their names (for the errors), keyed by role
    REQUIRE(pre.principals.count("owner"));
    CHECK(pre.principals.at("owner").name == "alice");
    CHECK(pre.principals.at("other").name == "bob");
    // a 401 to bob's read of alice's entity tells a credential problem
    // apart from a refusal only when 401 is not among the refusals
    CHECK(has_var(pre, "res.refusals_exclude_401"));
    const Expansion with_401 = expand(load_ok(api("refused: [401, 404]\n"), "shop.yaml"), packs_dir);
    const suite::Case& by_id =
        case_named(with_401.suites.front(), "the other principal is let in to ask for the owner's entity");
    CHECK(by_id.skip.find("refuses another principal's access to 'orders' with 401") != std::string::npos);
    CHECK(case_named(with_401.suites.front(), "the other principal is let in to list").skip.empty());
}
