// Good profiles load into the exact model: every field, every default and
// every position; the docs' complete example and the bundled example
// server's profile load, so neither can drift from the loader.
#include "test_support.hpp"

#include <boost/json/parse.hpp>

using namespace idconform;
using namespace idconform::profile;
using namespace idconform::profile::testing;
namespace json = boost::json;

namespace {

const char* const full_profile =
    "name: shop\n"                                                                   // 1
    "base_url: \"${env:BASE:-http://127.0.0.1:9}\"\n"                                // 2
    "headers: {Accept: application/json, X-Trace: \"${env:TRACE:-t}\"}\n"            // 3
    "tls: {cacert: ca.pem, cert: c.pem, key: c.key, insecure: true}\n"               // 4
    "timeout: {connect: 500ms, read: 1m}\n"                                          // 5
    "clock_skew: 3s\n"                                                               // 6
    "principals:\n"                                                                  // 7
    "  alice: {headers: {Authorization: Bearer a}}\n"                                // 8
    "  bob:\n"                                                                       // 9
    "packs: nil-max\n"                                                               // 10
    "resources:\n"                                                                   // 11
    "  categories:\n"                                                                // 12
    "    create: {path: /v1/categories}\n"                                           // 13
    "  products:\n"                                                                  // 14
    "    create:\n"                                                                  // 15
    "      path: /v1/products\n"                                                     // 16
    "      body: {name: \"1\", price: 1, ok: true, none: null, tags: [a, 2], x: 1.5}\n"  // 17
    "    read: {path: \"/v1/products/{id}\"}\n"                                      // 18
    "    update: {method: PUT, path: \"/v1/products/{id}\", body: {}}\n"             // 19
    "    delete: {path: \"/v1/products/{id}?hard=${env:HARD:-1}\"}\n"                // 20
    "    list: {path: /v1/products, items: \"\"}\n"                                  // 21
    "    put: {path: \"/v1/products/{id}\"}\n"                                       // 22
    "    id: /key\n"                                                                 // 23
    "    location: false\n"                                                          // 24
    "    fields:\n"                                                                  // 25
    "      tracking_id: {kind: uuidv4}\n"                                            // 26
    "      a/b:\n"                                                                   // 27
    "    references:\n"                                                              // 28
    "      category_id: {resource: categories, required: true}\n"                    // 29
    "      parent_id: {resource: products}\n"                                        // 30
    "    time_field: /meta/created\n";                                               // 31

void check_pos(const SourcePos& p, int line, int col) {
    CHECK(p.file == "full.yaml");
    CHECK(p.line == line);
    CHECK(p.column == col);
}

}  // namespace

TEST_CASE("a full profile loads into the exact model") {
    const LoadResult r = load_profile_text(full_profile, "full.yaml");
    INFO(dump(r.diagnostics));
    REQUIRE(r.diagnostics.empty());
    REQUIRE(r.profile);
    const Profile& p = *r.profile;
    CHECK(p.file == "full.yaml");
    check_pos(p.pos, 1, 1);
    CHECK(p.name == "shop");
    CHECK(p.base_url == "${env:BASE:-http://127.0.0.1:9}");
    REQUIRE(p.headers.size() == 2);
    CHECK(p.headers[0] == std::pair<std::string, std::string>{"Accept", "application/json"});
    CHECK(p.headers[1] == std::pair<std::string, std::string>{"X-Trace", "${env:TRACE:-t}"});
    CHECK(p.ca_file == "ca.pem");
    CHECK(p.cert_file == "c.pem");
    CHECK(p.key_file == "c.key");
    CHECK(p.insecure);
    CHECK(p.connect_timeout_ms == 500);
    CHECK(p.read_timeout_ms == 60000);
    CHECK(p.clock_skew_ms == 3000);

    REQUIRE(p.principals.size() == 2);  // in file order: alice owns the data
    CHECK(p.principals[0].name == "alice");
    check_pos(p.principals[0].pos, 8, 3);
    REQUIRE(p.principals[0].headers.size() == 1);
    CHECK(p.principals[0].headers[0] == std::pair<std::string, std::string>{"Authorization", "Bearer a"});
    CHECK(p.principals[1].name == "bob");
    check_pos(p.principals[1].pos, 9, 3);
    CHECK(p.principals[1].headers.empty());

    CHECK(p.packs == std::vector<std::string>{"nil-max"});

    REQUIRE(p.resources.size() == 2);
    const Resource& c = p.resources[0];
    CHECK(c.name == "categories");
    check_pos(c.pos, 12, 3);
    REQUIRE(c.create);
    CHECK(c.create->method == "POST");
    CHECK(c.create->path == "/v1/categories");
    CHECK_FALSE(c.create->body);
    check_pos(c.create->pos, 13, 13);
    CHECK_FALSE(c.read);
    CHECK_FALSE(c.update);
    CHECK_FALSE(c.del);
    CHECK_FALSE(c.list);
    CHECK_FALSE(c.put);
    CHECK(c.id.pointer == "/id");  // defaults, blamed on the resource
    CHECK(c.id.kind == ids::IdKind::uuidv7);
    check_pos(c.id.pos, 12, 3);
    CHECK(c.location);
    CHECK(c.fields.empty());
    CHECK(c.references.empty());
    CHECK(c.time_field.empty());

    const Resource& pr = p.resources[1];
    CHECK(pr.name == "products");
    check_pos(pr.pos, 14, 3);
    REQUIRE(pr.create);
    CHECK(pr.create->method == "POST");
    CHECK(pr.create->path == "/v1/products");
    check_pos(pr.create->pos, 16, 7);
    REQUIRE(pr.create->body);
    // Quoted "1" stays a string; plain scalars resolve like YAML 1.2 core.
    CHECK(*pr.create->body ==
          json::parse(R"({"name":"1","price":1,"ok":true,"none":null,"tags":["a",2],"x":1.5})"));
    REQUIRE(pr.read);
    CHECK(pr.read->method == "GET");
    CHECK(pr.read->path == "/v1/products/{id}");
    check_pos(pr.read->pos, 18, 11);
    REQUIRE(pr.update);
    CHECK(pr.update->method == "PUT");
    REQUIRE(pr.update->body);
    CHECK(*pr.update->body == json::object{});
    REQUIRE(pr.del);
    CHECK(pr.del->method == "DELETE");
    CHECK(pr.del->path == "/v1/products/{id}?hard=${env:HARD:-1}");
    REQUIRE(pr.list);
    CHECK(pr.list->method == "GET");
    CHECK(pr.list->items.empty());
    REQUIRE(pr.put);
    CHECK(pr.put->method == "PUT");
    CHECK_FALSE(pr.put->body);
    CHECK(pr.id.pointer == "/key");
    CHECK(pr.id.kind == ids::IdKind::uuidv7);
    check_pos(pr.id.pos, 23, 9);
    CHECK_FALSE(pr.location);
    REQUIRE(pr.fields.size() == 2);
    CHECK(pr.fields[0].pointer == "/tracking_id");
    CHECK(pr.fields[0].kind == ids::IdKind::uuidv4);
    check_pos(pr.fields[0].pos, 26, 7);
    CHECK(pr.fields[1].pointer == "/a~1b");  // the name, escaped as a pointer
    CHECK(pr.fields[1].kind == ids::IdKind::uuidv7);
    check_pos(pr.fields[1].pos, 27, 7);
    REQUIRE(pr.references.size() == 2);
    CHECK(pr.references[0].field == "category_id");
    CHECK(pr.references[0].resource == "categories");
    CHECK(pr.references[0].required);
    CHECK(pr.references[0].kind == ids::IdKind::uuidv7);
    check_pos(pr.references[0].pos, 29, 7);
    CHECK(pr.references[1].field == "parent_id");
    CHECK(pr.references[1].resource == "products");
    CHECK_FALSE(pr.references[1].required);
    check_pos(pr.references[1].pos, 30, 7);
    CHECK(pr.time_field == "/meta/created");
}

TEST_CASE("minimal profile: defaults everywhere") {
    const LoadResult r = load_profile_text("name: m\n"
                                           "base_url: http://h\n"
                                           "principals: {only: {}}\n"
                                           "resources: {things: {create: {path: /things, method: PUT}}}\n",
                                           "m.yaml");
    INFO(dump(r.diagnostics));
    REQUIRE(r.profile);
    CHECK(r.profile->headers.empty());
    CHECK(r.profile->ca_file.empty());
    CHECK_FALSE(r.profile->insecure);
    CHECK_FALSE(r.profile->connect_timeout_ms);
    CHECK_FALSE(r.profile->read_timeout_ms);
    CHECK_FALSE(r.profile->clock_skew_ms);
    CHECK(r.profile->packs.empty());
    REQUIRE(r.profile->principals.size() == 1);
    REQUIRE(r.profile->resources.size() == 1);
    CHECK(r.profile->resources[0].create->method == "PUT");
}

TEST_CASE("id kinds and references: shorthand and mapping forms") {
    const LoadResult r = load_profile_text("name: k\n"
                                           "base_url: http://h\n"
                                           "principals: {a: {}}\n"
                                           "packs: [data-id, viewable-id, db-identifiers, uuidv8-legacy]\n"
                                           "resources:\n"
                                           "  a:\n"
                                           "    create: {path: /a}\n"
                                           "    id: {kind: ulid}\n"
                                           "    references: {b_id: {resource: b, kind: uuid}}\n"
                                           "  b:\n"
                                           "    create: {path: /b}\n"
                                           "    id: {at: /data/id, kind: uuidv8-legacy}\n"
                                           "    references: {a_id: {resource: a, required: true}}\n",
                                           "k.yaml");
    INFO(dump(r.diagnostics));
    REQUIRE(r.profile);
    CHECK(r.profile->packs == std::vector<std::string>{"data-id", "viewable-id", "db-identifiers", "uuidv8-legacy"});
    CHECK(r.profile->resources[0].id.pointer == "/id");
    CHECK(r.profile->resources[0].id.kind == ids::IdKind::ulid);
    CHECK(r.profile->resources[0].references[0].kind == ids::IdKind::uuid);
    CHECK_FALSE(r.profile->resources[0].references[0].required);
    CHECK(r.profile->resources[1].id.pointer == "/data/id");
    CHECK(r.profile->resources[1].id.kind == ids::IdKind::uuidv8_legacy);
}

TEST_CASE("known_packs lists the bundled packs") {
    CHECK(known_packs() ==
          std::vector<std::string>{"data-id", "nil-max", "db-identifiers", "uuidv8-legacy", "viewable-id"});
}

TEST_CASE("load_profile reads a file and keeps its path in positions") {
    const std::string path = fixture("good.target.yaml");
    const LoadResult r = load_profile(path);
    INFO(dump(r.diagnostics));
    REQUIRE(r.profile);
    CHECK(r.profile->file == path);
    CHECK(r.profile->name == "fixture");
    CHECK(r.profile->resources[0].pos.file == path);
    CHECK(r.profile->resources[0].pos.line == 6);
}

TEST_CASE("the complete example in docs/target-profile.md loads") {
    const std::string doc = read_source("docs/target-profile.md");
    const std::size_t start = doc.find("```yaml\n");
    REQUIRE(start != std::string::npos);
    const std::size_t end = doc.find("```", start + 8);
    REQUIRE(end != std::string::npos);
    const std::string example = doc.substr(start + 8, end - start - 8);
    const LoadResult r = load_profile_text(example, "products.target.yaml");
    INFO(dump(r.diagnostics));
    REQUIRE(r.profile);
    const Profile& p = *r.profile;
    CHECK(p.name == "example-products");
    CHECK(p.clock_skew_ms == 5000);
    REQUIRE(p.principals.size() == 2);
    CHECK(p.principals[1].name == "bob");
    CHECK(p.packs == std::vector<std::string>{"data-id", "nil-max"});
    REQUIRE(p.resources.size() == 4);
    const Resource& products = p.resources[1];
    CHECK(products.name == "products");
    REQUIRE(products.list);
    CHECK(products.list->items == "/items");
    REQUIRE(products.put);
    CHECK(products.put->method == "PUT");
    CHECK(products.fields.size() == 1);
    CHECK(products.references.size() == 2);
    CHECK(products.time_field == "/created_at");

    SUBCASE("and the rendered error shown in the doc is what the loader prints") {
        const std::string typo_line = "    read: {path: \"/v1/products/{id}\"}";
        std::string broken = example;
        const std::size_t at = broken.find(typo_line);
        REQUIRE(at != std::string::npos);
        broken.replace(at, 8, "    rad");
        const LoadResult b = load_profile_text(broken, "products.target.yaml");
        REQUIRE(b.diagnostics.size() == 1);
        const std::size_t shown = doc.find("```\n");
        REQUIRE(shown != std::string::npos);
        const std::size_t shown_end = doc.find("```", shown + 4);
        REQUIRE(shown_end != std::string::npos);
        CHECK(render(b.diagnostics[0]) == doc.substr(shown + 4, shown_end - shown - 4));
    }
}

TEST_CASE("the bundled example server's profile loads") {
    const std::string path = source_file("examples/products.target.yaml");
    const LoadResult r = load_profile(path);
    INFO(dump(r.diagnostics));
    REQUIRE(r.profile);
    const Profile& p = *r.profile;
    REQUIRE(p.principals.size() == 2);
    CHECK(p.principals[0].name == "alice");
    CHECK(p.principals[1].name == "bob");
    REQUIRE(p.resources.size() == 4);
    CHECK(p.resources[0].name == "categories");
    CHECK(p.resources[0].create);
    CHECK(p.resources[0].read);
    CHECK(p.resources[0].del);
    const Resource& products = p.resources[1];
    CHECK(products.name == "products");
    CHECK(products.create);
    CHECK(products.read);
    CHECK(products.update);
    CHECK(products.del);
    CHECK(products.list);
    CHECK(products.put);
    REQUIRE(products.fields.size() == 1);
    CHECK(products.fields[0].pointer == "/tracking_id");
    CHECK(products.fields[0].kind == ids::IdKind::uuidv4);
    REQUIRE(products.references.size() == 2);
    CHECK(products.references[0].field == "category_id");
    CHECK(products.references[0].required);
    CHECK(products.references[1].field == "parent_id");
    CHECK_FALSE(products.references[1].required);
    CHECK(products.time_field == "/created_at");
    REQUIRE(products.viewable);
    CHECK(products.viewable->read == "/v1/products/by-viewable/{id}");
    const Resource& orders = p.resources[2];
    CHECK(orders.id.kind == ids::IdKind::ulid);
    REQUIRE(orders.job);
    CHECK(orders.lookup->param == "id");
    const Resource& staff = p.resources[3];
    REQUIRE(staff.legacy);
    CHECK(staff.legacy->salt_env == "PRODUCTS_LEGACY_SALT");
    CHECK(staff.legacy->entity_type == 500);
    CHECK(p.request_id == "X-Request-Id");
}
