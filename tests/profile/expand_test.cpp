// Expansion binds a pack's `call` steps to the operations a resource
// declares: the request, the body with its references, the edits, the
// principal, and the cleanup of whatever a create made (or the reason it
// cannot be cleaned up). Uses a pack written to a temporary directory.
#include "test_support.hpp"

#include <boost/json/serialize.hpp>

#include <filesystem>
#include <fstream>

#include <unistd.h>

using namespace idconform;
using namespace idconform::profile;
using namespace idconform::profile::testing;
namespace fs = std::filesystem;

namespace {

const char* const profile_text =
    "name: shop\n"
    "base_url: http://127.0.0.1:9\n"
    "principals: {alice: {}, bob: {}}\n"
    "packs: [nil-max]\n"
    "resources:\n"
    "  categories:\n"
    "    create: {path: /v1/categories, body: {name: c}}\n"
    "  products:\n"
    "    create: {path: /v1/products, body: {name: p}}\n"
    "    read: {path: \"/v1/products/{id}\"}\n"
    "    update: {method: PUT, path: \"/v1/products/{id}\", body: {name: q}}\n"
    "    delete: {path: \"/v1/products/{id}\"}\n"
    "    list: {path: /v1/products}\n"
    "    references:\n"
    "      category_id: {resource: categories, required: true}\n";

const char* const pack_text =
    "name: pk\n"
    "principals: {owner: {headers: {}}, other: {headers: {}}}\n"
    "cases:\n"
    "  - name: c\n"
    "    steps:\n"
    "      - call: {op: create, set: {/category_id: x}, principal: owner}\n"
    "      - call: {op: read, id: \"${m}\", principal: other}\n"
    "      - call: {op: update, id: i, unset: [/name]}\n"
    "      - call: {op: list, filter: {category_id: \"${m}\"}}\n"
    "      - name: kept\n"
    "        call: {op: put, id: i}\n";

struct TempPack {
    fs::path dir = fs::temp_directory_path() / ("idconform-expand-" + std::to_string(::getpid()));
    TempPack() {
        fs::create_directories(dir / "nil-max");
        std::ofstream(dir / "nil-max" / "pk.yaml") << pack_text;
    }
    ~TempPack() { fs::remove_all(dir); }
};

}  // namespace

TEST_CASE("a pack's call steps become the resource's requests") {
    TempPack pack;
    const LoadResult lr = load_profile_text(profile_text, "shop.yaml");
    INFO(dump(lr.diagnostics));
    REQUIRE(lr.profile);
    const Expansion e = expand(*lr.profile, pack.dir.string());
    INFO(dump(e.diagnostics));
    REQUIRE(e.diagnostics.empty());
    REQUIRE(e.suites.size() == 2);  // one instance per resource with a create

    const suite::Suite& s = instance(e, "pk products");
    const auto& steps = s.cases.at(0).steps;
    REQUIRE(steps.size() == 5);
    for (std::size_t i = 0; i < 4; ++i) CHECK(steps[i].is<suite::HttpRequest>());

    const auto& create = steps[0];
    CHECK(create.name == "POST /v1/products");
    CHECK(create.as<suite::HttpRequest>().principal == "owner");
    REQUIRE(create.as<suite::HttpRequest>().json);
    CHECK(boost::json::serialize(*create.as<suite::HttpRequest>().json) ==
          R"({"name":"p","category_id":"${entity.categories}"})");
    REQUIRE(create.as<suite::HttpRequest>().set.size() == 1);
    CHECK(create.as<suite::HttpRequest>().set[0].first == "/category_id");
    REQUIRE(create.cleanup);
    CHECK(create.cleanup->path == "/v1/products/{id}");
    CHECK(create.cleanup->id_at == "/id");
    CHECK(create.cleanup->impossible.empty());

    const auto& read = steps[1];
    CHECK(read.as<suite::HttpRequest>().method == "GET");
    CHECK(read.as<suite::HttpRequest>().path == "/v1/products/{id}");
    REQUIRE(read.as<suite::HttpRequest>().path_params.size() == 1);
    CHECK(read.as<suite::HttpRequest>().path_params[0] == std::pair<std::string, std::string>{"id", "${m}"});
    CHECK(read.as<suite::HttpRequest>().principal == "other");
    CHECK_FALSE(read.as<suite::HttpRequest>().json);
    CHECK_FALSE(read.cleanup);

    const auto& update = steps[2];
    CHECK(update.as<suite::HttpRequest>().method == "PUT");
    REQUIRE(update.as<suite::HttpRequest>().json);
    CHECK(update.as<suite::HttpRequest>().unset == std::vector<std::string>{"/name"});
    CHECK_FALSE(update.cleanup);  // an update creates nothing

    const auto& list = steps[3];
    CHECK(list.as<suite::HttpRequest>().path == "/v1/products");
    REQUIRE(list.as<suite::HttpRequest>().query.size() == 1);
    CHECK(list.as<suite::HttpRequest>().query[0].first == "category_id");

    // The resource declares no put: the step stays a call, keeps its name,
    // and the runner reports it if a case reaches it unguarded.
    CHECK(steps[4].is<suite::OpCall>());
    CHECK(steps[4].name == "kept");
}

TEST_CASE("an operation the resource does not declare stays a call, a create without delete says why it stays") {
    TempPack pack;
    const LoadResult lr = load_profile_text(profile_text, "shop.yaml");
    REQUIRE(lr.profile);
    const Expansion e = expand(*lr.profile, pack.dir.string());
    const suite::Suite& s = instance(e, "pk categories");
    const auto& steps = s.cases.at(0).steps;
    REQUIRE(steps.size() == 5);
    CHECK(steps[0].is<suite::HttpRequest>());
    REQUIRE(steps[0].cleanup);
    CHECK(steps[0].cleanup->impossible == "the profile declares no delete operation for 'categories'");
    for (std::size_t i = 1; i < steps.size(); ++i) {
        CHECK(steps[i].is<suite::OpCall>());
        CHECK_FALSE(steps[i].is<suite::HttpRequest>());
    }
    CHECK(steps[4].name == "kept");
}
