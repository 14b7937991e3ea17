// One test per deliberate defect of the example products server: with the
// switch on, the violation the harness must catch is really there.
#include "products_test_support.hpp"

#include <set>
#include <vector>

using namespace products_test;
using products::Defect;
using products::ProductsService;

namespace {

// A service with one defect, one category and one product of alice.
struct Fixture {
    explicit Fixture(Defect d) : svc(products::DefectSet{d}) {
        cat = make_category(svc, "alice");
        created = make_product(svc, "alice", cat);
        REQUIRE_MESSAGE(created.status == 201, created.body);
        id = created.str("id");
    }
    ProductsService svc;
    std::string cat;
    Reply created;
    std::string id;
};

constexpr std::string_view nil = "00000000-0000-0000-0000-000000000000";
constexpr std::string_view max = "ffffffff-ffff-ffff-ffff-ffffffffffff";

int version_of(std::string_view text) {
    const auto u = ids::parse_canonical(text);
    REQUIRE_MESSAGE(u.has_value(), "not canonical: " << text);
    return ids::version(*u);
}

}  // namespace

TEST_CASE("the registry holds exactly the documented defects") {
    const std::vector<std::string_view> expected{
        "v4-ids", "stale-timestamp", "location-upper", "reject-foreign-v7", "upper-case-out", "no-hyphens-out",
        "accept-upper-path", "accept-braces-path", "accept-no-hyphens-path", "lenient-ref", "accept-any-version-ref",
        "optional-ref-any-form", "put-accepts-any-id", "crash-on-bad-id", "v7-tracking-id", "mixed-tracking-versions", "no-ownership-read", "no-ownership-write",
        "list-leak", "no-time-field", "derived-time", "id-changes-on-update", "update-takes-body-id", "put-overwrites",
        "put-returns-existing", "reuse-deleted-ids", "same-ms-collision", "nil-for-absent-ref", "empty-for-absent-ref",
        "zero-for-absent-ref", "accept-missing-required-ref", "accept-nil-ref", "accept-empty-ref",
        "optional-ref-accepts-empty", "nil-path-200",
        "max-path-200", "accept-max-ref", "upper-id-in-nested", "event-upper-case", "event-id-mismatch",
        "event-nil-for-absent-ref", "command-accepts-bad-id",
        // db-identifiers, uuidv8-legacy, viewable-id (test_products_packs.cpp)
        "integer-ids-beside-ulids", "no-id-on-create", "upper-case-ulids", "ulid-path-400", "ulid-query-400",
        "ulid-body-404", "job-id-not-ulid", "request-id-not-ulid", "ulids-out-of-order", "legacy-wrong-version",
        "legacy-flag-clear", "legacy-wrong-id", "legacy-wrong-entity-type", "legacy-unstable", "legacy-wrong-hash",
        "viewable-lower-case", "viewable-sequential", "viewable-low-entropy", "viewable-reused",
        "viewable-changes-on-update", "viewable-lookup-mismatch", "viewable-accepts-lowercase",
        "viewable-accepts-ilou", "viewable-malformed-400",
        // tickets, integer ids (test_products_tickets.cpp)
        "ticket-id-lenient", "ticket-ids-reused", "grpc-ticket-no-owner"};
    std::vector<std::string_view> actual;
    for (const auto& d : products::all_defects()) actual.push_back(d.name);
    CHECK(actual == expected);
}

// ------------------------------------------------------------ DATA-ID-001

TEST_CASE("defect v4-ids: product ids are v4") {
    Fixture f(Defect::v4_ids);
    CHECK(ids::is_canonical_version(f.id, 4));
    CHECK(!ids::is_canonical_version(f.id, 7));
    CHECK(call(f.svc, "GET", product_path(f.id), "alice").status == 200);
}

TEST_CASE("defect stale-timestamp: the id's time is an hour behind") {
    Fixture f(Defect::stale_timestamp);
    REQUIRE(ids::is_canonical_version(f.id, 7));
    const auto ms = static_cast<std::int64_t>(ids::decode_v7(*ids::parse_canonical(f.id)).unix_ts_ms);
    CHECK(ms < ids::system_unix_ms() - 50 * 60 * 1000);
}

TEST_CASE("defect location-upper: Location carries the id upper-case, the body does not") {
    Fixture f(Defect::location_upper);
    CHECK(ids::is_canonical_version(f.id, 7));
    CHECK(f.created.location == "/v1/products/" + upper(f.id));
}

TEST_CASE("defect reject-foreign-v7: an unknown well-formed v7 path id is 400") {
    Fixture f(Defect::reject_foreign_v7);
    CHECK(call(f.svc, "GET", product_path(fresh_v7()), "alice").status == 400);
    CHECK(call(f.svc, "GET", product_path("017f22e2-79b0-7cc3-98c4-dc0c0c07398f"), "alice").status == 400);
    CHECK(call(f.svc, "GET", product_path(f.id), "alice").status == 200);
}

// ------------------------------------------------------------ DATA-ID-002

TEST_CASE("defect upper-case-out: product ids upper-case in bodies") {
    Fixture f(Defect::upper_case_out);
    CHECK(f.id == upper(f.id));
    CHECK(!ids::is_canonical(f.id));
    const Reply child = call(f.svc, "POST", "/v1/products", "alice", body_with_ref("parent_id", quoted(ids::format(*ids::recognize_uuid(f.id).value)), f.cat));
    REQUIRE(child.status == 201);
    CHECK(child.str("parent_id") == f.id);
    CHECK(f.created.location == "/v1/products/" + ids::format(*ids::recognize_uuid(f.id).value));
}

TEST_CASE("defect no-hyphens-out: product ids without hyphens in bodies") {
    Fixture f(Defect::no_hyphens_out);
    CHECK(f.id.size() == 32);
    CHECK(f.id.find('-') == std::string::npos);
    CHECK(f.id == without_hyphens(ids::format(*ids::recognize_uuid(f.id).value)));
}

TEST_CASE("defect accept-upper-path: upper/mixed-case path ids answer with the entity") {
    Fixture f(Defect::accept_upper_path);
    const Reply g = call(f.svc, "GET", product_path(upper(f.id)), "alice");
    CHECK(g.status == 200);
    CHECK(g.str("id") == f.id);
    std::string mixed = f.id;
    for (char& c : mixed)
        if (c >= 'a' && c <= 'f') {
            c = static_cast<char>(c - 32);
            break;
        }
    CHECK(call(f.svc, "GET", product_path(mixed), "alice").status == 200);
    CHECK(call(f.svc, "PATCH", product_path(upper(f.id)), "alice", R"({"name":"n"})").status == 200);
    CHECK(call(f.svc, "GET", product_path("{" + f.id + "}"), "alice").status == 404);
    CHECK(call(f.svc, "DELETE", product_path(upper(f.id)), "alice").status == 204);
}

TEST_CASE("defect accept-braces-path: {uuid} and urn:uuid: path ids answer with the entity") {
    Fixture f(Defect::accept_braces_path);
    CHECK(call(f.svc, "GET", product_path("{" + f.id + "}"), "alice").str("id") == f.id);
    CHECK(call(f.svc, "GET", product_path("urn:uuid:" + f.id), "alice").str("id") == f.id);
    CHECK(call(f.svc, "GET", product_path(upper(f.id)), "alice").status == 404);
}

TEST_CASE("defect accept-no-hyphens-path: 32-hex path ids answer with the entity") {
    Fixture f(Defect::accept_no_hyphens_path);
    const Reply g = call(f.svc, "GET", product_path(without_hyphens(f.id)), "alice");
    CHECK(g.status == 200);
    CHECK(g.str("id") == f.id);
}

TEST_CASE("defect lenient-ref: any parseable spelling of a reference is normalised and accepted") {
    Fixture f(Defect::lenient_ref);
    for (const std::string& form : {upper(f.cat), without_hyphens(f.cat), "{" + f.cat + "}", "urn:uuid:" + f.cat,
                                    " " + f.cat + " "}) {
        const Reply r = call(f.svc, "POST", "/v1/products", "alice", body_with_ref("category_id", quoted(form), f.cat));
        CHECK_MESSAGE(r.status == 201, form << " -> " << r.body);
        if (r.status == 201) CHECK(r.str("category_id") == f.cat);
    }
    const Reply parent = call(f.svc, "POST", "/v1/products", "alice", body_with_ref("parent_id", quoted(upper(f.id)), f.cat));
    CHECK(parent.status == 201);
}

TEST_CASE("defect accept-any-version-ref: canonical UUIDs of other versions are stored") {
    Fixture f(Defect::accept_any_version_ref);
    const std::string v4 = "919108f7-52d1-4320-9bac-f847db4148a8";
    const Reply r = call(f.svc, "POST", "/v1/products", "alice", body_with_ref("category_id", quoted(v4), f.cat));
    REQUIRE(r.status == 201);
    CHECK(r.str("category_id") == v4);
    CHECK(call(f.svc, "POST", "/v1/products", "alice", body_with_ref("category_id", quoted(nil), f.cat)).status == 400);
}

TEST_CASE("defect optional-ref-any-form: parent_id takes other versions and spellings, category_id stays strict") {
    Fixture f(Defect::optional_ref_any_form);
    const std::string v4 = "919108f7-52d1-4320-9bac-f847db4148a8";
    const Reply other = call(f.svc, "POST", "/v1/products", "alice", body_with_ref("parent_id", quoted(v4), f.cat));
    REQUIRE(other.status == 201);
    CHECK(other.str("parent_id") == v4);
    const Reply spelled = call(f.svc, "POST", "/v1/products", "alice", body_with_ref("parent_id", quoted(upper(f.id)), f.cat));
    REQUIRE(spelled.status == 201);
    CHECK(spelled.str("parent_id") == f.id);  // normalised
    CHECK(call(f.svc, "POST", "/v1/products", "alice", body_with_ref("parent_id", quoted(nil), f.cat)).status == 400);
    CHECK(call(f.svc, "POST", "/v1/products", "alice", body_with_ref("category_id", quoted(v4), f.cat)).status == 400);
    ProductsService clean;
    const std::string cat = make_category(clean, "alice");
    CHECK(call(clean, "POST", "/v1/products", "alice", body_with_ref("parent_id", quoted(v4), cat)).status == 400);
}

TEST_CASE("defect put-accepts-any-id: PUT creates under ids of other versions and spellings") {
    Fixture f(Defect::put_accepts_any_id);
    const std::string body = R"({"name":"p","category_id":")" + f.cat + "\"}";
    const std::string v4 = "919108f7-52d1-4320-9bac-f847db4148a8";
    const Reply p4 = call(f.svc, "PUT", product_path(v4), "alice", body);
    CHECK(p4.status == 201);
    CHECK(p4.str("id") == v4);
    const std::string fresh = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f";  // the RFC v7 vector: not stored yet
    CHECK(call(f.svc, "PUT", product_path("{" + fresh + "}"), "alice", body).status == 201);
    CHECK(call(f.svc, "GET", product_path(fresh), "alice").status == 200);  // created under the normalised id
    CHECK(call(f.svc, "PUT", product_path(std::string(nil)), "alice", body).status == 400);
    ProductsService clean;
    const std::string cat = make_category(clean, "alice");
    CHECK(call(clean, "PUT", product_path(v4), "alice", R"({"name":"p","category_id":")" + cat + "\"}").status == 400);
}

TEST_CASE("defect crash-on-bad-id: a malformed path id is 500") {
    Fixture f(Defect::crash_on_bad_id);
    CHECK(call(f.svc, "GET", product_path("not-a-uuid"), "alice").status == 500);
    CHECK(call(f.svc, "GET", product_path(upper(f.id)), "alice").status == 500);
    CHECK(call(f.svc, "GET", product_path(f.id), "alice").status == 200);
}

// ------------------------------------------------------------ DATA-ID-003

TEST_CASE("defect v7-tracking-id: tracking_id is v7") {
    Fixture f(Defect::v7_tracking_id);
    CHECK(ids::is_canonical_version(f.created.str("tracking_id"), 7));
}

TEST_CASE("defect mixed-tracking-versions: tracking ids alternate v4 and v7") {
    Fixture f(Defect::mixed_tracking_versions);
    std::set<int> versions{version_of(f.created.str("tracking_id"))};
    for (int i = 0; i < 3; ++i) versions.insert(version_of(make_product(f.svc, "alice", f.cat).str("tracking_id")));
    CHECK(versions == std::set<int>{4, 7});
}

// ------------------------------------------------------------ DATA-ID-004

TEST_CASE("defect no-ownership-read: another principal reads the entity by id") {
    Fixture f(Defect::no_ownership_read);
    const Reply g = call(f.svc, "GET", product_path(f.id), "bob");
    CHECK(g.status == 200);
    CHECK(g.str("name") == "hammer");
    CHECK(call(f.svc, "DELETE", product_path(f.id), "bob").status == 404);
}

TEST_CASE("defect no-ownership-write: another principal updates and deletes") {
    Fixture f(Defect::no_ownership_write);
    CHECK(call(f.svc, "GET", product_path(f.id), "bob").status == 404);
    CHECK(call(f.svc, "PATCH", product_path(f.id), "bob", R"({"name":"stolen"})").status == 200);
    CHECK(call(f.svc, "GET", product_path(f.id), "alice").str("name") == "stolen");
    CHECK(call(f.svc, "DELETE", product_path(f.id), "bob").status == 204);
    CHECK(call(f.svc, "GET", product_path(f.id), "alice").status == 404);
}

TEST_CASE("defect list-leak: the list shows other principals' products") {
    Fixture f(Defect::list_leak);
    const Reply l = call(f.svc, "GET", "/v1/products", "bob");
    REQUIRE(l.status == 200);
    REQUIRE(l.obj().at("items").as_array().size() == 1);
    CHECK(l.obj().at("items").as_array()[0].at("id") == json::value(f.id));
}

// ------------------------------------------------------------ DATA-ID-005

TEST_CASE("defect no-time-field: entities carry no time fields") {
    Fixture f(Defect::no_time_field);
    CHECK(!f.created.obj().contains("created_at"));
    CHECK(!f.created.obj().contains("updated_at"));
}

TEST_CASE("defect derived-time: created_at is the id's timestamp") {
    Fixture f(Defect::derived_time);
    const auto ms = static_cast<std::int64_t>(ids::decode_v7(*ids::parse_canonical(f.id)).unix_ts_ms);
    CHECK(f.created.str("created_at") == ids::iso8601_ms(ms));
}

// ------------------------------------------------------------ DATA-ID-006

TEST_CASE("defect id-changes-on-update: PATCH assigns a fresh id") {
    Fixture f(Defect::id_changes_on_update);
    const Reply p = call(f.svc, "PATCH", product_path(f.id), "alice", R"({"name":"n"})");
    REQUIRE(p.status == 200);
    CHECK(p.str("id") != f.id);
    CHECK(ids::is_canonical_version(p.str("id"), 7));
    CHECK(call(f.svc, "GET", product_path(f.id), "alice").status == 404);
    CHECK(call(f.svc, "GET", product_path(p.str("id")), "alice").status == 200);
}

TEST_CASE("defect update-takes-body-id: the body id replaces the entity id") {
    Fixture f(Defect::update_takes_body_id);
    const std::string other = fresh_v7();
    const Reply p = call(f.svc, "PATCH", product_path(f.id), "alice", R"({"id":")" + other + "\"}");
    REQUIRE(p.status == 200);
    CHECK(p.str("id") == other);
    CHECK(call(f.svc, "GET", product_path(other), "alice").status == 200);
    CHECK(call(f.svc, "GET", product_path(f.id), "alice").status == 404);
}

TEST_CASE("defect put-overwrites: PUT on an existing id replaces the entity") {
    Fixture f(Defect::put_overwrites);
    const Reply p = call(f.svc, "PUT", product_path(f.id), "alice", R"({"name":"replaced","category_id":")" + f.cat + "\"}");
    CHECK(p.status == 200);
    CHECK(call(f.svc, "GET", product_path(f.id), "alice").str("name") == "replaced");
}

TEST_CASE("defect put-returns-existing: PUT on an existing id returns the existing entity") {
    Fixture f(Defect::put_returns_existing);
    const Reply p = call(f.svc, "PUT", product_path(f.id), "alice", R"({"name":"replaced","category_id":")" + f.cat + "\"}");
    CHECK(p.status == 200);
    CHECK(p.json == f.created.json);
}

TEST_CASE("defect reuse-deleted-ids: the next create reuses a deleted id") {
    Fixture f(Defect::reuse_deleted_ids);
    REQUIRE(call(f.svc, "DELETE", product_path(f.id), "alice").status == 204);
    CHECK(make_product(f.svc, "alice", f.cat).str("id") == f.id);
}

TEST_CASE("defect same-ms-collision: ids are the bare timestamp, a same-ms create overwrites") {
    Fixture f(Defect::same_ms_collision);
    const ids::Uuid u = *ids::parse_canonical(f.id);
    CHECK(ids::version(u) == 7);
    CHECK(ids::decode_v7(u).rand_a == 0);
    CHECK(ids::decode_v7(u).rand_b == 0);
    // Creates take microseconds, so some land in the same millisecond; the
    // loop bound only stops a pathological machine from running forever.
    std::set<std::string> distinct{f.id};
    int creates = 1;
    while (distinct.size() == static_cast<std::size_t>(creates) && creates < 200000) {
        distinct.insert(make_product(f.svc, "alice", f.cat).str("id"));
        ++creates;
    }
    CHECK(distinct.size() < static_cast<std::size_t>(creates));
    CHECK(call(f.svc, "GET", "/v1/products", "alice").obj().at("items").as_array().size() == distinct.size());
}

// ------------------------------------------------------------ DATA-ID-007

TEST_CASE("defect nil-for-absent-ref: absent parent_id comes back as Nil") {
    Fixture f(Defect::nil_for_absent_ref);
    CHECK(f.created.str("parent_id") == nil);
}

TEST_CASE("defect empty-for-absent-ref: absent parent_id comes back as \"\"") {
    Fixture f(Defect::empty_for_absent_ref);
    CHECK(f.created.str("parent_id").empty());
}

TEST_CASE("defect zero-for-absent-ref: absent parent_id comes back as 0") {
    Fixture f(Defect::zero_for_absent_ref);
    CHECK(f.created.obj().at("parent_id") == json::value(0));
}

TEST_CASE("defect accept-missing-required-ref: missing or null category_id is accepted") {
    Fixture f(Defect::accept_missing_required_ref);
    const Reply missing = call(f.svc, "POST", "/v1/products", "alice", R"({"name":"x"})");
    CHECK(missing.status == 201);
    CHECK(missing.obj().at("category_id").is_null());
    CHECK(call(f.svc, "POST", "/v1/products", "alice", R"({"name":"x","category_id":null})").status == 201);
}

TEST_CASE("defect accept-nil-ref: Nil is accepted as category_id") {
    Fixture f(Defect::accept_nil_ref);
    const Reply r = call(f.svc, "POST", "/v1/products", "alice", body_with_ref("category_id", quoted(nil), f.cat));
    CHECK(r.status == 201);
    CHECK(r.str("category_id") == nil);
}

TEST_CASE("defect accept-empty-ref: \"\" and 0 are accepted as category_id") {
    Fixture f(Defect::accept_empty_ref);
    const Reply empty = call(f.svc, "POST", "/v1/products", "alice", body_with_ref("category_id", R"("")", f.cat));
    CHECK(empty.status == 201);
    CHECK(empty.str("category_id").empty());
    const Reply zero = call(f.svc, "POST", "/v1/products", "alice", body_with_ref("category_id", "0", f.cat));
    CHECK(zero.status == 201);
    CHECK(zero.obj().at("category_id") == json::value(0));
}

TEST_CASE("defect optional-ref-accepts-empty: \"\", \"0\" and 0 are accepted as parent_id, not as category_id") {
    Fixture f(Defect::optional_ref_accepts_empty);
    for (const char* v : {R"("")", R"("0")", "0"}) {
        CAPTURE(std::string(v));
        const Reply r = call(f.svc, "POST", "/v1/products", "alice", body_with_ref("parent_id", v, f.cat));
        CHECK(r.status == 201);
        CHECK(r.obj().at("parent_id") == json::parse(v));
        CHECK(call(f.svc, "POST", "/v1/products", "alice", body_with_ref("category_id", v, f.cat)).status == 400);
    }
    ProductsService clean;
    const std::string cat = make_category(clean, "alice");
    CHECK(call(clean, "POST", "/v1/products", "alice", body_with_ref("parent_id", R"("")", cat)).status == 400);
}

// ---------------------------------------------------------------- nil-max

TEST_CASE("defect nil-path-200: GET of the Nil id returns a placeholder") {
    Fixture f(Defect::nil_path_200);
    const Reply g = call(f.svc, "GET", product_path(nil), "alice");
    CHECK(g.status == 200);
    CHECK(g.str("id") == nil);
    CHECK(call(f.svc, "GET", product_path(max), "alice").status == 404);
}

TEST_CASE("defect max-path-200: GET of the Max id returns a placeholder") {
    Fixture f(Defect::max_path_200);
    const Reply g = call(f.svc, "GET", product_path(max), "alice");
    CHECK(g.status == 200);
    CHECK(g.str("id") == max);
}

TEST_CASE("defect accept-max-ref: Max is accepted as category_id") {
    Fixture f(Defect::accept_max_ref);
    const Reply r = call(f.svc, "POST", "/v1/products", "alice", body_with_ref("category_id", quoted(max), f.cat));
    CHECK(r.status == 201);
    CHECK(r.str("category_id") == max);
}

// ------------------------------------------------------------- shape-scan

TEST_CASE("defect upper-id-in-nested: links.category holds the category id upper-case") {
    Fixture f(Defect::upper_id_in_nested);
    const json::value* links = f.created.obj().if_contains("links");
    REQUIRE(links != nullptr);
    CHECK(links->at("category") == json::value(upper(f.cat)));
}

TEST_CASE("defects combine") {
    ProductsService svc(products::DefectSet{Defect::v4_ids, Defect::list_leak, Defect::location_upper});
    const std::string cat = make_category(svc, "alice");
    const Reply r = make_product(svc, "alice", cat);
    CHECK(ids::is_canonical_version(r.str("id"), 4));
    CHECK(r.location == "/v1/products/" + upper(r.str("id")));
    CHECK(call(svc, "GET", "/v1/products", "bob").obj().at("items").as_array().size() == 1);
}

// ------------------------------------------------ conformant variations

TEST_CASE("forbid_list: the product list answers 403 to that principal only") {
    ProductsService svc;
    svc.forbid_list({"bob"});
    const std::string cat = make_category(svc, "alice");
    REQUIRE(make_product(svc, "alice", cat).status == 201);
    const Reply bob = call(svc, "GET", "/v1/products", "bob");
    CHECK(bob.status == 403);
    CHECK(bob.body.find("items") == std::string::npos);
    CHECK(call(svc, "GET", "/v1/products", "alice").status == 200);
}

TEST_CASE("set_order_viewable_ids: orders carry a viewable id beside the ULID key") {
    ProductsService svc;
    svc.set_order_viewable_ids(true);
    const Reply r = call(svc, "POST", "/v1/orders", "alice", R"({"item":"x"})");
    REQUIRE(r.status == 201);
    CHECK(ids::check_viewable(r.str("viewable_id")) == ids::ViewableError::none);
    CHECK(call(svc, "GET", "/v1/orders/" + r.str("id"), "alice").str("viewable_id") == r.str("viewable_id"));
    ProductsService plain;
    CHECK_FALSE(call(plain, "POST", "/v1/orders", "alice", R"({"item":"x"})").obj().contains("viewable_id"));
}
