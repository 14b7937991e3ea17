// Skips say why in the profile's words: a pack case that needs what the
// profile does not describe names the key to add ("add `update:` to resource
// `orders`"), one that the API's declarations rule out says so, each with its
// SkipCause; no reason ever shows a `${res.*}` template. Uses the real packs.
#include "test_support.hpp"

#include <set>

using namespace idconform;
using namespace idconform::profile;
using namespace idconform::profile::testing;

namespace {

// A resource that can only be created and read, with one principal and no
// references: most of what the packs need is not described.
const char* const bare_profile =
    "name: bare\n"
    "base_url: http://127.0.0.1:9\n"
    "principals: {alice: {}}\n"
    "resources:\n"
    "  orders:\n"
    "    create: {path: /v1/orders, body: {name: o}}\n"
    "    read: {path: \"/v1/orders/{id}\"}\n";

// Every case of every instance whose expansion gave it a skip reason.
std::vector<const suite::Case*> skipped_cases(const Expansion& e) {
    std::vector<const suite::Case*> out;
    for (const auto& s : e.suites)
        for (const auto& c : s.cases)
            if (!c.skip.empty()) out.push_back(&c);
    return out;
}

}  // namespace

TEST_CASE("skip reasons: an operation the profile does not declare names the key to add, not ${res.update}") {
    const Expansion e = expand(load_ok(bare_profile, "bare.yaml"), packs_dir);
    INFO(dump(e.diagnostics));
    REQUIRE(e.diagnostics.empty());
    std::size_t update = 0, principal = 0;
    for (const auto& s : e.suites)
        for (const auto& c : s.cases) {
            if (c.skip.empty()) continue;
            INFO(s.name << " › " << c.name << ": " << c.skip);
            CHECK(c.skip.find("${") == std::string::npos);
            CHECK(c.skip.find("res.") == std::string::npos);
            const bool needs_update = std::find(c.needs.begin(), c.needs.end(), "res.update") != c.needs.end();
            if (needs_update && c.skip.find("update") != std::string::npos) {
                CHECK(c.skip == "not described in the profile: add `update:` to resource `orders`");
                CHECK(c.skip_cause == SkipCause::not_described);
                ++update;
            }
            if (c.skip.find("second principal") != std::string::npos) {
                CHECK(c.skip ==
                      "not described in the profile: add a second principal to `principals:` (the checks "
                      "between two users need one)");
                CHECK(c.skip_cause == SkipCause::not_described);
                ++principal;
            }
        }
    CHECK(update > 0);
    CHECK(principal > 0);
}

TEST_CASE("skip reasons: what the API declares that rules a case out is not applicable, with the profile line") {
    // uuidv4 ids: DATA-ID-001's cases do not apply (kind_vars)
    const std::string v4 = std::string(bare_profile) + "    id: {kind: uuidv4}\n";
    const Expansion e = expand(load_ok(v4, "v4.yaml"), packs_dir);
    REQUIRE(e.diagnostics.empty());
    std::size_t v7 = 0;
    for (const auto* c : skipped_cases(e)) {
        if (std::find(c->needs.begin(), c->needs.end(), "res.id_v7") == c->needs.end()) continue;
        if (c->skip.find("kind uuidv4") == std::string::npos) continue;
        CHECK(c->skip.rfind("not applicable: the profile declares the id of 'orders' (v4.yaml:", 0) == 0);
        CHECK(c->skip_cause == SkipCause::not_applicable);
        ++v7;
    }
    CHECK(v7 > 0);
}

TEST_CASE("skip reasons: every variable a pack requires maps to a profile key (no generic fallback)") {
    const Expansion e = expand(load_ok(bare_profile, "bare.yaml"), packs_dir);
    REQUIRE(e.diagnostics.empty());
    std::set<std::string> generic;
    for (const auto* c : skipped_cases(e))
        if (c->skip.find("nothing it says gives") != std::string::npos) generic.insert(c->skip);
    for (const auto& g : generic) MESSAGE(g);
    CHECK(generic.empty());
    // and every skip has a cause the summaries can count
    for (const auto* c : skipped_cases(e)) CHECK(c->skip_cause != SkipCause::none);
}

TEST_CASE("skip reasons: a gRPC instance names the resource's grpc: section") {
    const std::string text = std::string(bare_profile) +
                             "    grpc:\n"
                             "      create: {method: shop.v1.Orders/Create, body: {name: o}}\n"
                             "      read: {method: shop.v1.Orders/Get}\n"
                             "grpc: {address: \"127.0.0.1:9\"}\n";
    const LoadResult lr = load_profile_text(text, "grpc.yaml");
    INFO(dump(lr.diagnostics));
    REQUIRE(lr.profile);
    const Expansion e = expand(*lr.profile, packs_dir);
    bool seen = false;
    for (const auto& s : e.suites) {
        if (s.name.find("over grpc") == std::string::npos) continue;
        for (const auto& c : s.cases)
            if (c.skip == "not described in the profile: add `update:` to the `grpc:` section of resource `orders`") {
                CHECK(c.skip_cause == SkipCause::not_described);
                seen = true;
            }
    }
    CHECK(seen);
}
