// The profile forms real APIs need (issue #13) and what expansion makes of
// them with the real packs: kinds honoured (DATA-ID-001 only for uuidv7 ids,
// not applicable with the reason for uuidv4 and `existing`), references
// taking the kind of what they point to, setup failures under the suite's
// rule at the profile's line, per-endpoint headers, list filters spelled the
// target's way (or none), and the 2xx not-found answer on negative checks.
#include "test_support.hpp"

#include <boost/json/serialize.hpp>

using namespace idconform;
using namespace idconform::profile;
using namespace idconform::profile::testing;

namespace {

std::string shop(const std::string& products_extra, const std::string& list = "list: {path: /products}") {
    return "name: shop\n"                                         // 1
           "base_url: http://127.0.0.1:9\n"                       // 2
           "principals: {a: {}}\n"                                // 3
           "packs: [data-id]\n"                                   // 4
           "resources:\n"                                         // 5
           "  categories:\n"                                      // 6
           "    create: {path: /categories, body: {name: c}}\n"   // 7
           "    delete: {path: \"/categories/{id}\"}\n"           // 8
           "  products:\n"                                        // 9
           "    create: {path: /products, body: {name: p}}\n"     // 10
           "    read: {path: \"/products/{id}\"}\n"               // 11
           "    delete: {path: \"/products/{id}\"}\n"             // 12
           "    " + list + "\n"                                   // 13
           "    references: {categoryId: {resource: categories, required: true}}\n" +  // 14
           products_extra;
}

Profile loaded(const std::string& text) { return load_ok(text, "shop.yaml"); }

}  // namespace

TEST_CASE("kind existing with a pattern loads, a pattern elsewhere or broken does not") {
    const Profile p = loaded(shop("    id: {at: /id, kind: existing, pattern: \"^[0-9]+$\"}\n"));
    CHECK(p.resources[1].id.kind == ids::IdKind::existing);
    CHECK(p.resources[1].id.pattern == "^[0-9]+$");
    CHECK(pack_applies("data-id", p.resources[1]));
    CHECK(pack_applies("nil-max", p.resources[1]));
    only_error(shop("    id: {at: /id, kind: uuidv7, pattern: \"^[0-9]+$\"}\n"), 15, 33,
               "'pattern' is for ids of kind existing, not uuidv7", "write kind: existing");
    only_error(shop("    id: {at: /id, kind: existing, pattern: \"([0-9]\"}\n"), 15, 44,
               "bad regular expression '([0-9]': missing ): ([0-9]", "RE2 expression matching a whole id");
    const Diagnostic d = only_error(shop("    id: {kind: integer}\n"), 15, 16, "unknown id kind 'integer'", "kind: existing");
    (void)d;
}

TEST_CASE("a reference takes the id kind of the resource it points to unless it says its own") {
    Profile p = loaded(shop("") + "  tags:\n    create: {path: /tags}\n    id: {kind: uuidv4}\n"
                                  "    references: {categoryId: {resource: categories}, productId: {resource: products, kind: uuidv7}}\n");
    const auto& tags = p.resources[2];
    CHECK(tags.references[0].kind == ids::IdKind::uuidv7);  // categories: the default
    p = loaded(shop("").replace(shop("").find("    create: {path: /categories"), 0, "    id: {kind: uuidv4}\n"));
    CHECK(p.resources[1].references[0].kind == ids::IdKind::uuidv4);
}

TEST_CASE("endpoint forms: headers, not_found, filter, and their errors") {
    const Profile p = loaded(shop("", "list: {path: /products, filter: \"{field}=eq.{value}\", not_found: {status: 200, body: []}, "
                                      "headers: {Prefer: return=representation}}"));
    const Endpoint& list = *p.resources[1].list;
    CHECK(list.filter == "{field}=eq.{value}");
    REQUIRE(list.not_found);
    CHECK(list.not_found->status == 200);
    CHECK(list.not_found->body == boost::json::array());
    REQUIRE(list.headers.size() == 1);
    CHECK(list.headers[0].first == "Prefer");
    CHECK(loaded(shop("", "list: {path: /products, filter: false}")).resources[1].list->filter.empty());
    CHECK(loaded(shop("", "list: {path: /products}")).resources[1].list->filter == "{field}={value}");

    only_error(shop("", "list: {path: /products, not_found: {status: 404, body: []}}"), 13, 49,
               "not_found status '404' is not a 2xx status", "a 4xx is already taken as not found");
    only_error(shop("", "list: {path: /products, not_found: {status: 200}}"), 13, 40,
               "missing required key 'body' in not_found", "the exact JSON answer");
    only_error(shop("", "list: {path: /products, filter: \"{field}\"}"), 13, 37,
               "filter '{field}' is not NAME=VALUE with {value} after the '='", "{field}=eq.{value}");
    only_error(shop("", "list: {path: /products, filter: \"{field}={value}{id}\"}"), 13, 37,
               "filter '{field}={value}{id}' holds '{id}'; only {field} and {value} are filled in", "filter: false");
    only_error(shop("", "list: {path: /products, filter: true}"), 13, 37, "filter: true says nothing about how to filter",
               "filter: false when the list takes no filter");
    only_error(shop("", "list: {path: /products, fliter: false}"), 13, 29, "unknown key 'fliter' in list",
               "did you mean 'filter'?");
    only_error("name: t\nbase_url: http://h\nprincipals: {a: {}}\nresources:\n  r:\n"
               "    create: {path: /r, not_found: {status: 200, body: []}}\n",
               6, 24, "unknown key 'not_found' in create", "");
}

TEST_CASE("DATA-ID-001 runs for uuidv7 ids and is not applicable, saying why, for uuidv4 and existing ids") {
    SUBCASE("uuidv7 (the default)") {
        const BoundExpansion e = bound(expand(loaded(shop("")), packs_dir));
        REQUIRE(e.diagnostics.empty());
        for (const auto& c : instance(e, "data-id-001 products").cases) CHECK(c.skip.empty());
        CHECK_FALSE(case_with_prefix(instance(e, "data-id-003 products"), "a create mints a v4 id").skip.empty());
    }
    SUBCASE("uuidv4") {
        const BoundExpansion e = bound(expand(loaded(shop("    id: {kind: uuidv4}\n")), packs_dir));
        for (const auto& c : instance(e, "data-id-001 products").cases) {
            CHECK(c.skip.rfind("not applicable: ", 0) == 0);
            CHECK(c.skip.find("shop.yaml:15:9") != std::string::npos);
            CHECK(c.skip.find("DATA-ID-003 judges it") != std::string::npos);
        }
        CHECK(case_with_prefix(instance(e, "data-id-003 products"), "a create mints a v4 id").skip.empty());
        // the reference to categories (v7) still gets the v7 vectors
        CHECK(case_with_prefix(instance(e, "data-id-002 products"), "RFC vectors").skip.empty());
    }
    SUBCASE("existing") {
        const BoundExpansion e = bound(expand(loaded(shop("    id: {kind: existing, pattern: \"^[0-9]+$\"}\n")), packs_dir));
        for (const auto& c : instance(e, "data-id-001 products").cases) {
            CHECK(c.skip.find("kind existing") != std::string::npos);
            CHECK(c.skip.find("^[0-9]+$") != std::string::npos);
            CHECK(c.skip.find("every other rule is checked") != std::string::npos);
        }
        for (const auto& c : instance(e, "data-id-006 products").cases)
            if (c.name.find("client-supplied") == std::string::npos && c.name.find("existing id") == std::string::npos &&
                c.name.find("update") == std::string::npos && c.name.find("replaces") == std::string::npos)
                CHECK_MESSAGE(c.skip.empty(), c.name);
    }
}

TEST_CASE("a pack setup captures any id, fails under the suite's rule, at the profile's line") {
    const BoundExpansion e = bound(expand(loaded(shop("")), packs_dir));
    const suite::Suite& s = instance(e, "data-id-002 products");
    REQUIRE_FALSE(s.setup.empty());
    const suite::Step& live = s.setup.back();  // after the category the reference needs
    CHECK(live.expect.rule == "DATA-ID-002");
    CHECK(live.expect.ids.empty());  // no form check: the cases judge the id
    CHECK(live.pos.file == "shop.yaml");
    CHECK(live.pos.line == 10);
    REQUIRE(live.expect.status);
    CHECK(live.expect.status->pos.line == 10);
    const suite::Step& category = s.setup.front();
    CHECK(category.expect.rule == "DATA-ID-002");
    CHECK(category.pos.line == 7);
}

TEST_CASE("list filters are spelled the profile's way, negative list checks accept its not-found answer") {
    const BoundExpansion e = bound(expand(loaded(shop("", "list: {path: /products, filter: \"{field}=eq.{value}\", "
                                                    "not_found: {status: 200, body: []}, headers: {X-Probe: yes}}")),
                                     packs_dir));
    const suite::Case& c = case_with_prefix(instance(e, "data-id-002 products"), "a mutated reference in a list");
    CHECK(c.skip.empty());
    const suite::Step& st = c.steps.at(0);
    REQUIRE(st.is<suite::HttpRequest>());
    const suite::HttpRequest& h = st.as<suite::HttpRequest>();
    REQUIRE(h.query.size() == 1);
    CHECK(h.query[0].first == "${res.required_ref}");
    CHECK(h.query[0].second == "eq.${m}");
    REQUIRE(st.expect.status);
    REQUIRE(st.expect.status->not_found);
    CHECK(st.expect.status->not_found->body == boost::json::array());
    REQUIRE(h.headers.size() == 1);
    CHECK(h.headers[0].first == "X-Probe");

    const BoundExpansion none = bound(expand(loaded(shop("", "list: {path: /products, filter: false}")), packs_dir));
    const suite::Case& skipped = case_with_prefix(instance(none, "data-id-002 products"), "a mutated reference in a list");
    CHECK(skipped.skip.find("takes no filter (filter: false)") != std::string::npos);
}
