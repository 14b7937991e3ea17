// Handler-level tests of the example server's parts for the db-identifiers,
// uuidv8-legacy and viewable-id packs: the conformant orders, staff and
// viewable-id behaviour, and one test per defect of those packs.
#include "products_test_support.hpp"

#include <set>

using namespace products_test;
using products::Defect;
using products::ProductsService;

namespace {

bool lower_ulid(const std::string& s) { return ids::parse_ulid(s, ids::CasePolicy::lower_only).value.has_value(); }

Reply create_order(ProductsService& svc, std::string_view who = "alice") {
    return call(svc, "POST", "/v1/orders", who, R"({"item":"x","quantity":2})");
}

Reply product(ProductsService& svc) {
    const Reply c = call(svc, "POST", "/v1/categories", "alice", R"({"name":"c"})");
    return call(svc, "POST", "/v1/products", "alice", R"({"name":"p","category_id":")" + c.str("id") + "\"}");
}

}  // namespace

TEST_CASE("orders: lower-case ULIDs, Location, jobs, request ids, R5.1 and R5.2") {
    ProductsService svc;
    const Reply c = create_order(svc);
    REQUIRE(c.status == 201);
    const std::string id = c.str("id");
    CHECK(lower_ulid(id));
    CHECK(lower_ulid(c.str("job_id")));
    CHECK(c.location == "/v1/orders/" + id);
    CHECK(lower_ulid(c.request_id));
    CHECK_FALSE(c.obj().contains("invoice_id"));
    CHECK(call(svc, "GET", "/v1/orders/" + id, "alice").str("id") == id);
    CHECK(call(svc, "GET", "/v1/orders/" + id, "bob").status == 404);
    CHECK(call(svc, "GET", "/v1/orders?id=" + id, "alice").str("id") == id);
    CHECK(call(svc, "GET", "/v1/jobs/" + c.str("job_id"), "alice").str("order_id") == id);
    for (const auto& m : ids::ulid_mutations(*ids::parse_ulid(id).value)) {
        if (m.name == "upper-case") continue;
        const std::string seg = encode_segment(m.text);
        INFO(m.name);
        CHECK(call(svc, "GET", "/v1/orders/" + seg, "alice").status == 404);
        CHECK(call(svc, "GET", "/v1/orders?id=" + seg, "alice").status == 404);
        CHECK(call(svc, "POST", "/v1/order-confirmations", "alice", R"({"order_id":")" + m.text + "\"}").status == 422);
    }
    CHECK(call(svc, "POST", "/v1/order-confirmations", "alice", R"({"order_id":")" + id + "\"}").status == 200);
    CHECK(call(svc, "POST", "/v1/order-confirmations", "bob", R"({"order_id":")" + id + "\"}").status == 409);
    CHECK(call(svc, "DELETE", "/v1/orders/" + id, "alice").status == 204);
    CHECK(call(svc, "GET", "/v1/orders/" + id, "alice").status == 404);
    CHECK(call(svc, "PUT", "/v1/orders/" + id, "alice").status == 405);
    CHECK(call(svc, "GET", "/v1/orders", "").status == 401);
}

TEST_CASE("orders: sequential ids in time order, request ids distinct") {
    ProductsService svc;
    std::string last;
    std::set<std::string> rids;
    for (int i = 0; i < 20; ++i) {
        const Reply c = create_order(svc);
        CHECK(c.str("id") > last);  // monotonic ULIDs: lexical order is creation order
        last = c.str("id");
        rids.insert(c.request_id);
    }
    CHECK(rids.size() == 20);
}

TEST_CASE("db-identifiers defects") {
    SUBCASE("integer-ids-beside-ulids") {
        ProductsService svc({Defect::integer_ids_beside_ulids});
        CHECK(create_order(svc).obj().at("invoice_id").is_int64());
    }
    SUBCASE("no-id-on-create") {
        ProductsService svc({Defect::no_id_on_create});
        const Reply c = create_order(svc);
        CHECK(c.status == 202);
        CHECK_FALSE(c.obj().contains("id"));
        CHECK(c.location.empty());
    }
    SUBCASE("upper-case-ulids") {
        ProductsService svc({Defect::upper_case_ulids});
        const Reply c = create_order(svc);
        CHECK(ids::parse_ulid(c.str("id"), ids::CasePolicy::upper_only).value);
        CHECK(call(svc, "GET", "/v1/orders/" + c.str("id"), "alice").status == 200);
    }
    SUBCASE("ulid-path-400, ulid-query-400, ulid-body-404") {
        ProductsService a({Defect::ulid_path_400}), b({Defect::ulid_query_400}), c({Defect::ulid_body_404});
        CHECK(call(a, "GET", "/v1/orders/nope", "alice").status == 400);
        CHECK(call(b, "GET", "/v1/orders?id=nope", "alice").status == 400);
        CHECK(call(b, "GET", "/v1/orders/nope", "alice").status == 404);
        CHECK(call(c, "POST", "/v1/order-confirmations", "alice", R"({"order_id":"nope"})").status == 404);
    }
    SUBCASE("job-id-not-ulid, request-id-not-ulid") {
        ProductsService a({Defect::job_id_not_ulid}), b({Defect::request_id_not_ulid});
        const Reply c = create_order(a);
        CHECK(ids::is_canonical_version(c.str("job_id"), 4));
        CHECK(call(a, "GET", "/v1/jobs/" + c.str("job_id"), "alice").status == 200);
        CHECK(ids::is_canonical_version(create_order(b).request_id, 4));
    }
    SUBCASE("ulids-out-of-order") {
        ProductsService svc({Defect::ulids_out_of_order});
        const auto first = *ids::parse_ulid(create_order(svc).str("id")).value;
        const auto second = *ids::parse_ulid(create_order(svc).str("id")).value;
        CHECK(second.unix_ms() + 500 < first.unix_ms());
    }
}

TEST_CASE("staff: deterministic UUIDv8 legacy ids in the seed's layout") {
    ProductsService svc;  // PRODUCTS_LEGACY_SALT unset in unit tests: the example salt
    const Reply r = call(svc, "GET", "/v1/staff/17", "alice");
    REQUIRE(r.status == 200);
    const std::string id = r.str("id");
    const auto u = ids::parse_canonical(id);
    REQUIRE(u);
    CHECK(ids::version(*u) == 8);
    const ids::LegacyFields f = ids::decode_legacy(*u);
    CHECK(f.legacy_flag);
    CHECK(f.legacy_id == 17);
    CHECK(f.entity_type == 500);
    CHECK(call(svc, "GET", "/v1/staff/17", "alice").str("id") == id);
    CHECK(call(svc, "GET", "/v1/staff/by-uuid/" + id, "alice").obj().at("legacy_id").as_int64() == 17);
    for (const char* bad : {"0", "017", "-1", "1000001", "abc", "4294967296"})
        CHECK(call(svc, "GET", std::string("/v1/staff/") + bad, "alice").status == 404);
    CHECK(call(svc, "GET", "/v1/staff/by-uuid/" + upper(id), "alice").status == 404);
    CHECK(call(svc, "GET", "/v1/staff/17", "").status == 401);
}

TEST_CASE("uuidv8-legacy defects") {
    auto id_with = [](Defect d) {
        ProductsService svc({d});
        return *ids::parse_canonical(call(svc, "GET", "/v1/staff/17", "alice").str("id"));
    };
    CHECK(ids::version(id_with(Defect::legacy_wrong_version)) == 4);
    CHECK_FALSE(ids::decode_legacy(id_with(Defect::legacy_flag_clear)).legacy_flag);
    CHECK(ids::decode_legacy(id_with(Defect::legacy_wrong_id)).legacy_id == 18);
    CHECK(ids::decode_legacy(id_with(Defect::legacy_wrong_entity_type)).entity_type == 402);
    ProductsService conformant;
    const auto good = *ids::parse_canonical(call(conformant, "GET", "/v1/staff/17", "alice").str("id"));
    const auto unsalted = id_with(Defect::legacy_wrong_hash);
    CHECK(ids::decode_legacy(unsalted).legacy_id == 17);
    CHECK(unsalted != good);
    CHECK(ids::verify_legacy_hash(unsalted, ""));
    ProductsService unstable({Defect::legacy_unstable});
    CHECK(call(unstable, "GET", "/v1/staff/17", "alice").str("id") != call(unstable, "GET", "/v1/staff/17", "alice").str("id"));
}

TEST_CASE("viewable ids: format, second key, unchanged on update, malformed not found") {
    ProductsService svc;
    const Reply p = product(svc);
    const std::string vid = p.str("viewable_id");
    CHECK(ids::check_viewable(vid) == ids::ViewableError::none);
    const Reply by = call(svc, "GET", "/v1/products/by-viewable/" + vid, "alice");
    CHECK(by.str("id") == p.str("id"));
    CHECK(call(svc, "GET", "/v1/products/by-viewable/" + vid, "bob").status == 404);
    CHECK(call(svc, "PATCH", product_path(p.str("id")), "alice", R"({"name":"q"})").str("viewable_id") == vid);
    for (const auto& m : ids::viewable_mutations(vid, {})) {
        INFO(m.name);
        CHECK(call(svc, "GET", "/v1/products/by-viewable/" + encode_segment(m.text), "alice").status == 404);
    }
    std::set<std::string> seen;
    for (int i = 0; i < 50; ++i) seen.insert(product(svc).str("viewable_id"));
    CHECK(seen.size() == 50);
    CHECK(call(svc, "DELETE", product_path(p.str("id")), "alice").status == 204);
    CHECK(call(svc, "GET", "/v1/products/by-viewable/" + vid, "alice").status == 404);
}

TEST_CASE("viewable-id defects") {
    SUBCASE("lower case, sequential, low entropy, reused") {
        ProductsService lower({Defect::viewable_lower_case});
        const std::string lv = product(lower).str("viewable_id");
        CHECK(ids::check_viewable(lv) != ids::ViewableError::none);
        CHECK(ids::check_viewable(upper(lv)) == ids::ViewableError::none);
        ProductsService seq({Defect::viewable_sequential});
        const std::string a = product(seq).str("viewable_id"), b = product(seq).str("viewable_id");
        std::uint8_t x[5], y[5];
        REQUIRE(ids::crockford_decode(a.substr(3), x, 5));
        REQUIRE(ids::crockford_decode(b.substr(3), y, 5));
        CHECK(y[4] == static_cast<std::uint8_t>(x[4] + 1));
        ProductsService low({Defect::viewable_low_entropy});
        CHECK(product(low).str("viewable_id").substr(0, 8) == "TR-00000");
        ProductsService reused({Defect::viewable_reused});
        const std::string r1 = product(reused).str("viewable_id");
        CHECK(product(reused).str("viewable_id") == r1);
    }
    SUBCASE("changes on update, lookup mismatch") {
        ProductsService upd({Defect::viewable_changes_on_update});
        const Reply p = product(upd);
        CHECK(call(upd, "PATCH", product_path(p.str("id")), "alice", R"({"name":"q"})").str("viewable_id") !=
              p.str("viewable_id"));
        ProductsService mis({Defect::viewable_lookup_mismatch});
        const Reply a = product(mis);
        const Reply b = product(mis);
        CHECK(call(mis, "GET", "/v1/products/by-viewable/" + a.str("viewable_id"), "alice").str("id") == b.str("id"));
    }
    SUBCASE("malformed viewable ids: accepted lower case, 500 on I L O U, 400") {
        ProductsService lc({Defect::viewable_accepts_lowercase}), ilou({Defect::viewable_accepts_ilou}),
            four({Defect::viewable_malformed_400});
        const Reply p = product(lc);
        std::string lower_vid = p.str("viewable_id");
        for (char& ch : lower_vid) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        lower_vid.replace(0, 3, "TR-");
        CHECK(call(lc, "GET", "/v1/products/by-viewable/" + lower_vid, "alice").status == 200);
        CHECK(call(ilou, "GET", "/v1/products/by-viewable/TR-0000OOO", "alice").status == 500);
        CHECK(call(four, "GET", "/v1/products/by-viewable/TR-00", "alice").status == 400);
    }
}
