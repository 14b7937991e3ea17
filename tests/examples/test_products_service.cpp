// Handler-level tests of the conformant products API (no defect switched on):
// status codes, ownership, reference validation, id immutability, PUT
// conflicts and list isolation, all without a network.
#include "products_test_support.hpp"

#include <algorithm>
#include <set>
#include <thread>
#include <vector>

using namespace products_test;
using products::ProductsService;

TEST_CASE("iso8601_us formats UTC with six fraction digits") {
    CHECK(products::iso8601_us(0) == "1970-01-01T00:00:00.000000Z");
    CHECK(products::iso8601_us(1645557742000123) == "2022-02-22T19:22:22.000123Z");
    CHECK(products::iso8601_us(951782400000000) == "2000-02-29T00:00:00.000000Z");
    CHECK(products::iso8601_us(-1) == "1969-12-31T23:59:59.999999Z");
}

TEST_CASE("healthz needs no auth, unknown routes 404, wrong methods 405") {
    ProductsService svc;
    const Reply h = call(svc, "GET", "/healthz", "");
    CHECK(h.status == 200);
    CHECK(h.str("status") == "ok");
    CHECK(call(svc, "GET", "/nope", "alice").status == 404);
    CHECK(call(svc, "GET", "/v1/products/a/b", "alice").status == 404);
    CHECK(call(svc, "GET", "/v1/products/", "alice").status == 404);
    const Reply m = call(svc, "DELETE", "/v1/products", "alice");
    CHECK(m.status == 405);
    CHECK(m.allow == "GET, POST");
    CHECK(call(svc, "POST", "/v1/products/" + fresh_v7(), "alice").status == 405);
    CHECK(call(svc, "PUT", "/v1/categories", "alice").status == 405);
}

TEST_CASE("missing, empty or non-bearer authorization is 401") {
    ProductsService svc;
    CHECK(call(svc, "GET", "/v1/products", "").status == 401);
    products::Request req{"GET", "/v1/products", "Bearer   ", ""};
    CHECK(svc.handle(req).status == 401);
    req.authorization = "Basic YWxpY2U6eA==";
    CHECK(svc.handle(req).status == 401);
    req.authorization = "bearer alice";  // the scheme is case-insensitive
    CHECK(svc.handle(req).status == 200);
    const Reply r = call(svc, "GET", "/v1/products", "");
    CHECK(r.error() == "unauthorized");
}

TEST_CASE("categories: create, read, ownership, delete") {
    ProductsService svc;
    const Reply c = call(svc, "POST", "/v1/categories", "alice", R"({"name":"garden"})");
    REQUIRE(c.status == 201);
    const std::string id = c.str("id");
    CHECK(ids::is_canonical_version(id, 7));
    CHECK(c.location == "/v1/categories/" + id);
    CHECK(c.str("name") == "garden");
    CHECK(call(svc, "GET", "/v1/categories/" + id, "alice").status == 200);
    CHECK(call(svc, "GET", "/v1/categories/" + id, "bob").status == 404);
    CHECK(call(svc, "GET", "/v1/categories/" + upper(id), "alice").status == 404);
    CHECK(call(svc, "DELETE", "/v1/categories/" + id, "bob").status == 404);
    CHECK(call(svc, "DELETE", "/v1/categories/" + id, "alice").status == 204);
    CHECK(call(svc, "GET", "/v1/categories/" + id, "alice").status == 404);
    CHECK(call(svc, "POST", "/v1/categories", "alice", R"({"name":"x","id":")" + fresh_v7() + "\"}").status == 400);
    CHECK(call(svc, "POST", "/v1/categories", "alice", R"({"name":""})").status == 400);
}

TEST_CASE("POST /v1/products mints a v7 id, a v4 tracking id and its own time fields") {
    ProductsService svc;
    const std::string cat = make_category(svc, "alice");
    const std::int64_t before = ids::system_unix_ms();
    const Reply r = make_product(svc, "alice", cat, R"(,"price":12)");
    const std::int64_t after = ids::system_unix_ms();
    REQUIRE(r.status == 201);
    const std::string id = r.str("id");
    CHECK(ids::is_canonical_version(id, 7));
    CHECK(r.location == "/v1/products/" + id);
    const auto ms = static_cast<std::int64_t>(ids::decode_v7(*ids::parse_canonical(id)).unix_ts_ms);
    CHECK(ms >= before);
    CHECK(ms <= after);
    CHECK(ids::is_canonical_version(r.str("tracking_id"), 4));
    CHECK(r.str("category_id") == cat);
    CHECK(r.obj().at("parent_id").is_null());
    CHECK(r.obj().at("price") == json::value(12));
    CHECK(r.str("name") == "hammer");
    const std::string created = r.str("created_at");
    CHECK(created.size() == 27);  // YYYY-MM-DDTHH:MM:SS.ffffffZ
    CHECK(created[19] == '.');
    CHECK(created.back() == 'Z');
    CHECK(created != ids::iso8601_ms(ms));
    CHECK(r.str("updated_at") == created);
    CHECK(!r.obj().contains("links"));

    const Reply g = call(svc, "GET", "/v1/products/" + id, "alice");
    CHECK(g.status == 200);
    CHECK(g.json == r.json);
}

TEST_CASE("POST with a client id, a bad name, a bad price or bad JSON is 400") {
    ProductsService svc;
    const std::string cat = make_category(svc, "alice");
    const Reply with_id = make_product(svc, "alice", cat, R"(,"id":")" + fresh_v7() + "\"");
    CHECK(with_id.status == 400);
    CHECK(with_id.error() == "id_not_allowed");
    CHECK(call(svc, "POST", "/v1/products", "alice", R"({"category_id":")" + cat + "\"}").status == 400);
    CHECK(make_product(svc, "alice", cat, R"(,"price":"cheap")").status == 400);
    CHECK(call(svc, "POST", "/v1/products", "alice", "{not json").error() == "invalid_json");
    CHECK(call(svc, "POST", "/v1/products", "alice", "[]").status == 400);
    CHECK(call(svc, "GET", "/v1/products", "alice").obj().at("items").as_array().empty());
}

TEST_CASE("reference fields: malformed 400, missing 400, unknown or foreign 422") {
    ProductsService svc;
    const std::string cat = make_category(svc, "alice");
    const std::string bob_cat = make_category(svc, "bob");

    SUBCASE("every negative form of a real category id is invalid_reference") {
        const auto forms = ids::mutations(*ids::parse_canonical(cat));
        REQUIRE(forms.size() > 10);
        for (const auto& m : forms) {
            const Reply r = call(svc, "POST", "/v1/products", "alice", body_with_ref("category_id", quoted(m.text), cat));
            CHECK_MESSAGE(r.status == 400, m.name << ": " << m.text << " -> " << r.body);
            if (r.status == 400) CHECK(r.error() == "invalid_reference");
        }
    }
    SUBCASE("special and dummy values are invalid_reference") {
        for (std::string_view v : {R"("")", "0", "1", "true", "{}", "[]", R"("00000000-0000-0000-0000-000000000000")",
                                   R"("ffffffff-ffff-ffff-ffff-ffffffffffff")", R"("919108f7-52d1-4320-9bac-f847db4148a8")",
                                   R"("not-an-id")"}) {
            for (std::string_view field : {"category_id", "parent_id"}) {
                const Reply r = call(svc, "POST", "/v1/products", "alice", body_with_ref(field, v, cat));
                CHECK_MESSAGE(r.status == 400, field << "=" << v << " -> " << r.body);
                if (r.status == 400) CHECK(r.error() == "invalid_reference");
            }
        }
        // The RFC's v7 vector is well-formed: unknown, not malformed.
        const Reply rfc = call(svc, "POST", "/v1/products", "alice",
                               body_with_ref("category_id", R"("017f22e2-79b0-7cc3-98c4-dc0c0c07398f")", cat));
        CHECK(rfc.status == 422);
    }
    SUBCASE("a required reference missing or null is missing_reference") {
        const Reply missing = call(svc, "POST", "/v1/products", "alice", R"({"name":"x"})");
        CHECK(missing.status == 400);
        CHECK(missing.error() == "missing_reference");
        const Reply null = call(svc, "POST", "/v1/products", "alice", R"({"name":"x","category_id":null})");
        CHECK(null.status == 400);
        CHECK(null.error() == "missing_reference");
    }
    SUBCASE("well-formed but unknown or another principal's is unknown_reference") {
        const Reply unknown = make_product(svc, "alice", fresh_v7());
        CHECK(unknown.status == 422);
        CHECK(unknown.error() == "unknown_reference");
        CHECK(make_product(svc, "alice", bob_cat).status == 422);
        const std::string bob_product = make_product(svc, "bob", bob_cat).str("id");
        CHECK(call(svc, "POST", "/v1/products", "alice", body_with_ref("parent_id", quoted(bob_product), cat)).status == 422);
        CHECK(call(svc, "POST", "/v1/products", "alice", body_with_ref("parent_id", quoted(fresh_v7()), cat)).status == 422);
    }
    SUBCASE("optional parent_id: null and absent are stored as null, a real one is kept") {
        const Reply null = call(svc, "POST", "/v1/products", "alice", body_with_ref("parent_id", "null", cat));
        REQUIRE(null.status == 201);
        CHECK(null.obj().at("parent_id").is_null());
        const std::string parent = null.str("id");
        const Reply child = call(svc, "POST", "/v1/products", "alice", body_with_ref("parent_id", quoted(parent), cat));
        REQUIRE(child.status == 201);
        CHECK(child.str("parent_id") == parent);
    }
}

TEST_CASE("GET by path id: only the canonical v7 of one's own entity answers") {
    ProductsService svc;
    const std::string cat = make_category(svc, "alice");
    const std::string id = make_product(svc, "alice", cat).str("id");
    CHECK(call(svc, "GET", product_path(id), "alice").status == 200);
    CHECK(call(svc, "GET", product_path(id), "bob").status == 404);
    CHECK(call(svc, "GET", product_path(fresh_v7()), "alice").status == 404);
    CHECK(call(svc, "GET", product_path("00000000-0000-0000-0000-000000000000"), "alice").status == 404);
    CHECK(call(svc, "GET", product_path("ffffffff-ffff-ffff-ffff-ffffffffffff"), "alice").status == 404);
    CHECK(call(svc, "GET", product_path("0"), "alice").status == 404);
    CHECK(call(svc, "GET", "/v1/products/%zz", "alice").status == 404);
    for (const auto& m : ids::mutations(*ids::parse_canonical(id))) {
        const Reply r = call(svc, "GET", product_path(m.text), "alice");
        CHECK_MESSAGE(r.status == 404, m.name << ": " << m.text << " -> " << r.status);
    }
}

TEST_CASE("list: only the caller's products, sorted by id, optional category filter") {
    ProductsService svc;
    const std::string cat_a = make_category(svc, "alice");
    const std::string cat_b = make_category(svc, "alice");
    const std::string bob_cat = make_category(svc, "bob");
    std::vector<std::string> mine;
    for (int i = 0; i < 5; ++i) mine.push_back(make_product(svc, "alice", i % 2 ? cat_a : cat_b).str("id"));
    make_product(svc, "bob", bob_cat);

    const Reply all = call(svc, "GET", "/v1/products", "alice");
    REQUIRE(all.status == 200);
    std::vector<std::string> got;
    for (const auto& item : all.obj().at("items").as_array()) got.emplace_back(item.at("id").as_string());
    std::sort(mine.begin(), mine.end());
    CHECK(got == mine);

    const Reply filtered = call(svc, "GET", "/v1/products?category_id=" + cat_a, "alice");
    REQUIRE(filtered.status == 200);
    CHECK(filtered.obj().at("items").as_array().size() == 2);
    for (const auto& item : filtered.obj().at("items").as_array()) CHECK(item.at("category_id") == json::value(cat_a));

    CHECK(call(svc, "GET", "/v1/products?category_id=" + bob_cat, "alice").obj().at("items").as_array().empty());
    CHECK(call(svc, "GET", "/v1/products?category_id=" + upper(cat_a), "alice").status == 400);
    CHECK(call(svc, "GET", "/v1/products?category_id=", "alice").status == 400);
    CHECK(call(svc, "GET", "/v1/products?category_id=%7B" + cat_a + "%7D", "alice").status == 400);
    CHECK(call(svc, "GET", "/v1/products", "bob").obj().at("items").as_array().size() == 1);
    CHECK(call(svc, "GET", "/v1/products", "carol").obj().at("items").as_array().empty());
}

TEST_CASE("PATCH updates fields, never the id") {
    ProductsService svc;
    const std::string cat = make_category(svc, "alice");
    const Reply created = make_product(svc, "alice", cat);
    const std::string id = created.str("id");
    const std::string path = product_path(id);

    const Reply p = call(svc, "PATCH", path, "alice", R"({"name":"mallet","price":2.5})");
    REQUIRE(p.status == 200);
    CHECK(p.str("id") == id);
    CHECK(p.str("name") == "mallet");
    CHECK(p.str("created_at") == created.str("created_at"));
    CHECK(p.str("updated_at") != created.str("updated_at"));

    const Reply same_id = call(svc, "PATCH", path, "alice", R"({"id":")" + id + R"(","name":"x"})");
    CHECK(same_id.status == 200);
    CHECK(same_id.str("id") == id);
    const Reply other_id = call(svc, "PATCH", path, "alice", R"({"id":")" + fresh_v7() + R"(","name":"y"})");
    CHECK(other_id.status == 400);
    CHECK(other_id.error() == "id_immutable");
    CHECK(call(svc, "PATCH", path, "alice", R"({"id":")" + upper(id) + "\"}").status == 400);
    CHECK(call(svc, "GET", path, "alice").str("name") == "x");

    const std::string parent = make_product(svc, "alice", cat).str("id");
    CHECK(call(svc, "PATCH", path, "alice", R"({"parent_id":")" + parent + "\"}").str("parent_id") == parent);
    CHECK(call(svc, "PATCH", path, "alice", R"({"parent_id":null})").obj().at("parent_id").is_null());
    CHECK(call(svc, "PATCH", path, "alice", R"({"parent_id":""})").error() == "invalid_reference");
    CHECK(call(svc, "PATCH", path, "alice", R"({"parent_id":")" + upper(parent) + "\"}").status == 400);
    CHECK(call(svc, "PATCH", path, "alice", R"({"category_id":null})").error() == "missing_reference");
    CHECK(call(svc, "PATCH", path, "bob", R"({"name":"stolen"})").status == 404);
    CHECK(call(svc, "PATCH", product_path(upper(id)), "alice", R"({"name":"z"})").status == 404);
    CHECK(call(svc, "GET", path, "alice").str("name") == "x");
}

TEST_CASE("PUT creates with a client id once, conflicts leave the entity untouched") {
    ProductsService svc;
    const std::string cat = make_category(svc, "alice");
    const std::string body = R"({"name":"saw","category_id":")" + cat + "\"}";
    const std::string id = fresh_v7();

    const Reply created = call(svc, "PUT", product_path(id), "alice", body);
    REQUIRE(created.status == 201);
    CHECK(created.str("id") == id);
    CHECK(created.location == "/v1/products/" + id);

    const std::string other = R"({"name":"changed","category_id":")" + cat + "\"}";
    const Reply again = call(svc, "PUT", product_path(id), "alice", other);
    CHECK(again.status == 409);
    CHECK(again.error() == "conflict");
    CHECK(call(svc, "GET", product_path(id), "alice").json == created.json);

    const std::string bob_cat = make_category(svc, "bob");
    const Reply foreign = call(svc, "PUT", product_path(id), "bob", R"({"name":"b","category_id":")" + bob_cat + "\"}");
    CHECK(foreign.status == 409);
    CHECK(!foreign.obj().contains("name"));

    CHECK(call(svc, "DELETE", product_path(id), "alice").status == 204);
    CHECK(call(svc, "PUT", product_path(id), "alice", body).status == 409);  // tombstone

    CHECK(call(svc, "PUT", product_path(upper(fresh_v7())), "alice", body).error() == "invalid_id");
    CHECK(call(svc, "PUT", product_path("00000000-0000-0000-0000-000000000000"), "alice", body).status == 400);
    CHECK(call(svc, "PUT", product_path("919108f7-52d1-4320-9bac-f847db4148a8"), "alice", body).status == 400);
    const std::string id2 = fresh_v7();
    CHECK(call(svc, "PUT", product_path(id2), "alice", R"({"id":")" + fresh_v7() + R"(","name":"s","category_id":")" + cat + "\"}")
              .status == 400);
    CHECK(call(svc, "PUT", product_path(id2), "alice", R"({"id":")" + id2 + R"(","name":"s","category_id":")" + cat + "\"}")
              .status == 201);
}

TEST_CASE("DELETE: own entity 204, then 404, another principal's 404 and kept") {
    ProductsService svc;
    const std::string cat = make_category(svc, "alice");
    const std::string id = make_product(svc, "alice", cat).str("id");
    CHECK(call(svc, "DELETE", product_path(id), "bob").status == 404);
    CHECK(call(svc, "GET", product_path(id), "alice").status == 200);
    CHECK(call(svc, "DELETE", product_path(upper(id)), "alice").status == 404);
    CHECK(call(svc, "DELETE", product_path(id), "alice").status == 204);
    CHECK(call(svc, "DELETE", product_path(id), "alice").status == 404);
    CHECK(call(svc, "GET", product_path(id), "alice").status == 404);
    // A deleted id does not come back.
    for (int i = 0; i < 20; ++i) CHECK(make_product(svc, "alice", cat).str("id") != id);
}

TEST_CASE("concurrent creates give distinct ids") {
    ProductsService svc;
    const std::string cat = make_category(svc, "alice");
    constexpr int per_thread = 250;
    std::vector<std::vector<std::string>> minted(4);
    std::vector<std::thread> threads;
    for (auto& out : minted)
        threads.emplace_back([&svc, &cat, &out] {
            for (int i = 0; i < per_thread; ++i) {
                const Reply r = make_product(svc, "alice", cat);
                if (r.status == 201 && r.json.is_object()) out.emplace_back(r.json.at("id").as_string());
            }
        });
    for (auto& t : threads) t.join();
    std::set<std::string> distinct;
    for (const auto& out : minted) {
        CHECK(out.size() == per_thread);
        distinct.insert(out.begin(), out.end());
    }
    CHECK(distinct.size() == 4 * per_thread);
    CHECK(call(svc, "GET", "/v1/products", "alice").obj().at("items").as_array().size() == 4 * per_thread);
}

TEST_CASE("defect registry: names are unique and resolvable") {
    std::set<std::string_view> names;
    for (const auto& d : products::all_defects()) {
        CHECK(names.insert(d.name).second);
        CHECK(products::find_defect(d.name) == d.defect);
        CHECK(&products::info(d.defect) == &d);
        CHECK(!d.rule.empty());
        CHECK(!d.description.empty());
    }
    CHECK(!products::find_defect("v4_ids"));
    CHECK(products::suggest_defect("v4_ids") == "v4-ids");
    CHECK(products::suggest_defect("zzzzzzzzzzzz").empty());
    products::DefectSet set{products::Defect::list_leak, products::Defect::v4_ids};
    CHECK(set.names() == "v4-ids,list-leak");
}

namespace {

// What the service wrote to its storage, in order: "put category ID", "erase product ID", ...
struct RecordingStorage final : products::Storage {
    std::vector<std::string> log;
    void put(const products::Category& c) override { log.push_back("put category " + ids::format(c.id)); }
    void erase_category(const ids::Uuid& id) override { log.push_back("erase category " + ids::format(id)); }
    void put(const products::Product& p) override { log.push_back("put product " + ids::format(p.id)); }
    void erase_product(const ids::Uuid& id) override { log.push_back("erase product " + ids::format(id)); }
};

}  // namespace

TEST_CASE("storage: every stored category and product change is written, in order, and a refused one is not") {
    products::ProductsService svc;
    auto storage = std::make_shared<RecordingStorage>();
    svc.set_storage(storage);
    const auto cat = call(svc, "POST", "/v1/categories", "alice", R"({"name":"c"})");
    REQUIRE(cat.status == 201);
    const auto p = call(svc, "POST", "/v1/products", "alice", R"({"name":"p","category_id":")" + cat.str("id") + "\"}");
    REQUIRE(p.status == 201);
    const std::string pid = p.str("id");
    CHECK(call(svc, "PATCH", "/v1/products/" + pid, "alice", R"({"name":"q"})").status == 200);
    CHECK(call(svc, "PATCH", "/v1/products/" + pid, "bob", R"({"name":"r"})").status == 404);  // refused: not written
    CHECK(call(svc, "DELETE", "/v1/products/" + pid, "alice").status == 204);
    CHECK(call(svc, "DELETE", "/v1/categories/" + cat.str("id"), "alice").status == 204);
    CHECK(storage->log == std::vector<std::string>{"put category " + cat.str("id"), "put product " + pid,
                                                   "put product " + pid, "erase product " + pid,
                                                   "erase category " + cat.str("id")});
}

TEST_CASE("storage: a product whose id changes on update leaves no row under its old id") {
    products::DefectSet d;
    d.add(products::Defect::id_changes_on_update);
    products::ProductsService svc(d);
    auto storage = std::make_shared<RecordingStorage>();
    svc.set_storage(storage);
    const auto cat = call(svc, "POST", "/v1/categories", "alice", R"({"name":"c"})");
    const auto p = call(svc, "POST", "/v1/products", "alice", R"({"name":"p","category_id":")" + cat.str("id") + "\"}");
    const auto u = call(svc, "PATCH", "/v1/products/" + p.str("id"), "alice", R"({"name":"q"})");
    REQUIRE(u.status == 200);
    REQUIRE(u.str("id") != p.str("id"));
    REQUIRE(storage->log.size() == 4);
    CHECK(storage->log[2] == "erase product " + p.str("id"));
    CHECK(storage->log[3] == "put product " + u.str("id"));
}
