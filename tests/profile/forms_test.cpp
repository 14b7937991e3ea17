// The resource forms of issue #13 part B (profile/load_forms.cpp and their
// expansion): shared reference data, a create with the client's id in the
// body of a POST to the collection, singletons read without an id, resources
// the API cannot delete, and the cleanup's read-back of the profile's read.
#include "test_support.hpp"

#include <algorithm>

using namespace idconform;
using namespace idconform::profile;
using namespace idconform::profile::testing;

namespace {

// Two principals; products reference categories. `extra` goes under
// products (line 16 on), `more` after it (other resources).
std::string shop(const std::string& extra, const std::string& more = "") {
    return "name: shop\n"                                                                // 1
           "base_url: http://127.0.0.1:9\n"                                              // 2
           "principals: {a: {}, b: {}}\n"                                                // 3
           "packs: [data-id, nil-max]\n"                                                 // 4
           "resources:\n"                                                                // 5
           "  categories:\n"                                                             // 6
           "    create: {path: /categories, body: {name: c}}\n"                          // 7
           "    read: {path: \"/categories/{id}\"}\n"                                    // 8
           "    update: {path: \"/categories/{id}\"}\n"                                  // 9
           "    list: {path: /categories}\n"                                             // 10
           "  products:\n"                                                               // 11
           "    create: {path: /products, body: {name: p}}\n"                            // 12
           "    read: {path: \"/products/{id}\", not_found: {status: 200, body: []}}\n"  // 13
           "    delete: {path: \"/products/{id}\"}\n"                                    // 14
           "    references: {categoryId: {resource: categories, required: true}}\n" +    // 15
           extra +
           more;
}

Profile loaded(const std::string& text) { return load_ok(text, "shop.yaml"); }

}  // namespace

TEST_CASE("shared reference data: DATA-ID-004's read and list checks are not applicable, its writes still run") {
    const std::string categories_shared = "    shared: true\n";
    std::string text = shop("");
    text.insert(text.find("  products:"), categories_shared);  // line 11, under categories
    const Profile p = loaded(text);
    REQUIRE(p.resources[0].shared);
    CHECK(p.resources[0].shared->line == 11);
    CHECK_FALSE(p.resources[1].shared);
    const BoundExpansion e = bound(expand(p, packs_dir));
    REQUIRE(e.diagnostics.empty());
    const suite::Suite& s = instance(e, "data-id-004 categories");
    for (const char* name : {"another principal cannot read", "another principal's list"}) {
        const suite::Case& c = case_with_prefix(s, name);
        CHECK(c.skip ==
              "not applicable: the profile declares 'categories' shared reference data (shop.yaml:11:5): "
              "every principal may read it; another principal's writes are still checked");
    }
    CHECK(case_with_prefix(s, "another principal cannot update").skip.empty());
    // products are not shared: every DATA-ID-004 case of theirs that can run does
    CHECK(case_with_prefix(instance(e, "data-id-004 products"), "another principal cannot read").skip.empty());

    only_error(shop("    shared: yes\n"), 16, 13, "expected a boolean here, found 'yes'", "");
}

TEST_CASE("put to the collection: the client's id goes in the body, a PUT without {id} is still a slip") {
    const Profile p = loaded(shop("    put: {method: POST, path: /products, body: {name: q}}\n"));
    const Endpoint& put = *p.resources[1].put;
    CHECK(put.method == "POST");
    CHECK(put.id_at == "/id");  // where the entity has its id
    CHECK(loaded(shop("    id: /uuid\n    put: {method: POST, path: /products}\n")).resources[1].put->id_at == "/uuid");
    CHECK(loaded(shop("    put: {method: POST, path: /products, id_at: /client_id}\n")).resources[1].put->id_at ==
          "/client_id");
    // the item-path form is unchanged: the id only in the path
    CHECK(loaded(shop("    put: {path: \"/products/{id}\"}\n")).resources[1].put->id_at.empty());

    const BoundExpansion e = bound(expand(p, packs_dir));
    REQUIRE(e.diagnostics.empty());
    const suite::Step& st =
        case_with_prefix(instance(e, "data-id-006 products"), "a create with a fresh client-supplied id").steps.at(0);
    REQUIRE(st.is<suite::HttpRequest>());
    const auto& h = st.as<suite::HttpRequest>();
    CHECK(h.method == "POST");
    CHECK(h.path == "/products");
    REQUIRE_FALSE(h.set.empty());
    CHECK(h.set.front().first == "/id");
    CHECK(h.set.front().second == boost::json::value("${fresh}"));
    CHECK(h.json->as_object().at("categoryId") == boost::json::value("${entity.categories}"));
    REQUIRE(st.cleanup);  // whatever it made is deleted
    CHECK(st.cleanup->path == "/products/{id}");

    only_error(shop("    put: {path: /products}\n"), 16, 17, "the put path '/products' has no '{id}'",
               "put: {method: POST, path: /v1/products}");
    std::string create_id_at = shop("");
    const std::string create_line = "    create: {path: /products, body: {name: p}}";
    create_id_at.replace(create_id_at.find(create_line), create_line.size(),
                         "    create: {path: /products, id_at: /id}");
    only_error(create_id_at, 12, 31, "unknown key 'id_at' in create", "");
}

TEST_CASE("singletons: read without an id, only the singleton suite, under the declared kind") {
    const std::string me =
        "  me:\n    singleton: true\n    read: {path: /v1/me}\n    id: {at: /user_id, kind: uuidv4}\n";
    const Profile p = loaded(shop("", me));
    const Resource& r = p.resources[2];
    REQUIRE(r.singleton);
    CHECK(r.singleton->line == 17);
    CHECK(r.read->path == "/v1/me");
    CHECK(pack_applies("data-id", r));
    CHECK_FALSE(pack_applies("nil-max", r));
    const BoundExpansion e = bound(expand(p, packs_dir));
    REQUIRE(e.diagnostics.empty());
    std::vector<std::string> of_me, singleton_suites;
    for (const auto& s : e.suites) {
        if (s.name.size() > 3 && s.name.compare(s.name.size() - 3, 3, " me") == 0) of_me.push_back(s.name);
        if (s.name.rfind("data-id-006-singleton", 0) == 0) singleton_suites.push_back(s.name);
    }
    CHECK(of_me == std::vector<std::string>{"data-id-006-singleton me"});
    CHECK(singleton_suites == std::vector<std::string>{"data-id-006-singleton me"});
    const suite::Suite& s = instance(e, "data-id-006-singleton me");
    CHECK(s.setup.empty());
    const suite::Case& c = case_with_prefix(s, "a singleton answers its id");
    CHECK(c.skip.empty());
    const auto& read = c.steps.at(0).as<suite::HttpRequest>();
    CHECK(read.method == "GET");
    CHECK(read.path == "/v1/me");
    auto var = [&](const std::string& name) {
        for (const auto& v : s.vars)
            if (v.name == name) return v.value;
        return boost::json::value();
    };
    CHECK(var("res.id_at") == boost::json::value("/user_id"));
    CHECK(var("res.id_kind") == boost::json::value("uuidv4"));

    only_error(shop("", "  me:\n    singleton: true\n    read: {path: \"/v1/me/{id}\"}\n"), 18, 26,
               "the read path of a singleton cannot hold '{id}'", "read: {path: /v1/me}");
    only_error(shop("", "  me:\n    singleton: true\n    read: {path: /v1/me}\n    delete: {path: \"/v1/me/{id}\"}\n"),
               19, 5, "'delete' does not apply to singleton 'me'", "read without an id");
    only_error(shop("", "  me:\n    singleton: true\n"), 17, 5, "singleton 'me' has no 'read'", "read: {path: /v1/me}");
    only_error(shop("", "  me:\n    read: {path: /v1/me}\n"), 17, 18, "the read path '/v1/me' has no '{id}'",
               "a singleton: write singleton: true");
}

TEST_CASE("cannot_delete: left behind by design, fewest creates, delete checks not applicable, not beside delete") {
    const std::string jobs =
        "  jobs:\n    create: {path: /jobs}\n    read: {path: \"/jobs/{id}\"}\n"
        "    cannot_delete: \"jobs are kept for 30 days\"\n";
    const Profile p = loaded(shop("", jobs));
    CHECK(p.resources[2].cannot_delete == "jobs are kept for 30 days");
    CHECK(p.resources[2].cannot_delete_pos.line == 19);
    const BoundExpansion e = bound(expand(p, packs_dir));
    REQUIRE(e.diagnostics.empty());
    const suite::Suite& s = instance(e, "data-id-006 jobs");
    const suite::Step& create = case_with_prefix(s, "back-to-back creates").steps.at(0);
    REQUIRE(create.cleanup);
    CHECK(e.deletion(create).by_design);
    CHECK(e.deletion(create).impossible ==
          "the profile says 'jobs' cannot be deleted (jobs are kept for 30 days, shop.yaml:19:5)");
    CHECK(e.deletion(create).read_path == "/jobs/{id}");
    // a repeated create makes two, and says why
    const suite::Case& many = case_with_prefix(s, "creates give distinct ids");
    REQUIRE(many.for_each);
    CHECK(many.for_each->count == 2);
    CHECK(many.description.find("2 creates instead of 24: the profile says 'jobs' cannot be deleted, shop.yaml:19:5") !=
          std::string::npos);
    CHECK(case_with_prefix(s, "the id of a deleted entity").skip ==
          "not applicable: the profile says 'jobs' cannot be deleted (jobs are kept for 30 days, shop.yaml:19:5)");
    // products can be deleted: a real delete, confirmed by their read and its 2xx not-found answer
    const suite::Suite& prod = instance(e, "data-id-006 products");
    const suite::Step& pc = case_with_prefix(prod, "back-to-back creates").steps.at(0);
    REQUIRE(pc.cleanup);
    CHECK_FALSE(e.deletion(pc).by_design);
    CHECK(pc.cleanup->path == "/products/{id}");
    CHECK(e.deletion(pc).read_path == "/products/{id}");
    REQUIRE(e.deletion(pc).read_not_found);
    CHECK(e.deletion(pc).read_not_found->status == 200);
    CHECK(e.deletion(pc).read_not_found->body == boost::json::array());
    CHECK(case_with_prefix(prod, "creates give distinct ids").for_each->count == 24);

    only_error(shop("    cannot_delete: \"kept\"\n"), 16, 5,
               "resource 'products' has both 'delete' and 'cannot_delete'", "cannot_delete: REASON");
    only_error(shop("", "  jobs:\n    create: {path: /jobs}\n    cannot_delete: \"\"\n"), 18, 20, "empty cannot_delete",
               "say why the API cannot delete them");
    only_error(shop("", "  jobs:\n    create: {path: /jobs}\n    cannot_delet: \"kept\"\n"), 18, 5,
               "unknown key 'cannot_delet' in resource", "did you mean 'cannot_delete'?");
}

TEST_CASE("cannot_delete holds for every pack: db-identifiers' own creates are left by design, fewest, and R5.2 too") {
    const Profile p = loaded(
        "name: ulids\n"
        "base_url: http://127.0.0.1:9\n"
        "principals: {a: {}, b: {}}\n"
        "packs: [db-identifiers]\n"
        "resources:\n"
        "  jobs:\n"
        "    create: {path: /jobs, body: {name: j}}\n"
        "    read: {path: \"/jobs/{id}\"}\n"
        "    action: {path: /job-confirmations, id_at: /job_id}\n"
        "    id: {at: /id, kind: ulid}\n"
        "    job: {at: /job_id, read: \"/runs/{id}\"}\n"
        "    cannot_delete: \"jobs are kept for 30 days\"\n");
    const BoundExpansion e = bound(expand(p, packs_dir));
    REQUIRE(e.diagnostics.empty());
    const std::string why = "the profile says 'jobs' cannot be deleted (jobs are kept for 30 days, shop.yaml:12:5)";
    std::size_t creates = 0;
    for (const auto& s : e.suites) {
        auto look = [&](const suite::Step& st) {
            if (!st.cleanup) return;
            INFO(s.name << " > " << st.name);
            CHECK(e.deletion(st).by_design);
            CHECK(st.cleanup->path.find("${") == std::string::npos);
            if (st.is<suite::HttpRequest>() && st.as<suite::HttpRequest>().path == "/job-confirmations") {
                CHECK(e.deletion(st).impossible ==
                      "the profile gives no delete for what the action of 'jobs' makes (/job-confirmations, "
                      "shop.yaml:9:13)");
            } else {
                CHECK(e.deletion(st).impossible == why);
                creates += static_cast<std::size_t>(st.repeat);
            }
        };
        for (const auto& st : s.setup) look(st);
        for (const auto& c : s.cases)
            for (const auto& st : c.steps) look(st);
    }
    CHECK(creates > 0);
    // the 20 sequential creates of "ULID order" are two, and the case says why
    const suite::Case& order = case_with_prefix(instance(e, "db-identifiers-order jobs"), "sequential creates");
    REQUIRE(order.steps.size() == 1);
    CHECK(order.steps[0].repeat == 2);
    REQUIRE(order.collected.size() == 1);
    CHECK(order.collected[0].min_count == 2);
    CHECK(
        order.description.find("2 creates instead of 20: the profile says 'jobs' cannot be deleted, shop.yaml:12:5") !=
        std::string::npos);
    // a resource with a delete keeps the profile's delete, not the pack's variable
    const Profile q = loaded(
        "name: ulids\nbase_url: http://127.0.0.1:9\nprincipals: {a: {}, b: {}}\n"
        "packs: [db-identifiers]\nresources:\n  jobs:\n    create: {path: /jobs}\n"
        "    delete: {path: \"/jobs/{id}\"}\n    id: {at: /id, kind: ulid}\n");
    const BoundExpansion f = bound(expand(q, packs_dir));
    REQUIRE(f.diagnostics.empty());
    const suite::Suite& o = instance(f, "db-identifiers-order jobs");
    REQUIRE(o.cases.at(0).steps.at(0).cleanup);
    CHECK(o.cases[0].steps[0].cleanup->path == "/jobs/{id}");
    CHECK(o.cases[0].steps[0].repeat == 20);
}

TEST_CASE("stored_in: the table of a resource, its columns by member name or as mapped") {
    SUBCASE("a table name: one-member pointers name their columns") {
        const Profile p = loaded(shop("    stored_in: shop.products\n"));
        const auto& r = p.resources[1];
        REQUIRE(r.stored_in);
        CHECK(r.stored_in->schema == "shop");
        CHECK(r.stored_in->table == "products");
        CHECK(r.stored_in->pos.line == 16);
        CHECK(r.stored_pointers() == std::vector<std::string>{"/id", "/categoryId"});
        CHECK(r.stored_in->column_of("/id") == "id");
        CHECK(r.stored_in->column_of("/categoryId") == "categoryId");
        CHECK_FALSE(p.resources[0].stored_in);
    }
    SUBCASE("columns map deeper pointers, and escaped members are unescaped") {
        const Profile p = loaded(shop("    id: {at: /data/id}\n"
                                      "    fields: {t: {at: /a~1b, kind: uuidv4}}\n"
                                      "    stored_in: {table: products, columns: {/data/id: product_id}}\n"));
        const auto& st = *p.resources[1].stored_in;
        CHECK(st.schema.empty());
        CHECK(st.column_of("/data/id") == "product_id");
        CHECK(st.column_of("/a~1b") == "a/b");
        CHECK(st.column_of("/nowhere/deep").empty());
    }
    SUBCASE("a deeper pointer without its column is an error, never a guess") {
        const LoadResult r = load_profile_text(shop("    id: {at: /data/id}\n    stored_in: products\n"), "shop.yaml");
        check(r.diagnostics, "shop.yaml", 17, 5, "'products' has an id at '/data/id', deeper than one member: name its column",
              "columns: {/data/id: COLUMN}");
    }
    SUBCASE("bad table names, unknown pointers, empty columns, no table") {
        for (const char* bad : {"a.b.c", ".t", "s.", "\"\""}) {
            INFO(bad);
            const LoadResult r = load_profile_text(shop(std::string("    stored_in: ") + bad + "\n"), "shop.yaml");
            REQUIRE(r.diagnostics.size() == 1);
            CHECK(r.diagnostics[0].pos.line == 16);
            CHECK(r.diagnostics[0].title.find("is not a table name") != std::string::npos);
        }
        LoadResult r = load_profile_text(shop("    stored_in: {table: products, columns: {/name: n}}\n"), "shop.yaml");
        check(r.diagnostics, "shop.yaml", 16, 44, "no id of 'products' is at '/name'", "/id, /categoryId");
        r = load_profile_text(shop("    stored_in: {table: products, columns: {/id: \"\"}}\n"), "shop.yaml");
        check(r.diagnostics, "shop.yaml", 16, 49, "empty column name for '/id'", "stored_in: {table:");
        r = load_profile_text(shop("    stored_in: {columns: {/id: id}}\n"), "shop.yaml");
        check(r.diagnostics, "shop.yaml", 16, 5, "stored_in needs 'table'", "stored_in: {table:");
    }
}
