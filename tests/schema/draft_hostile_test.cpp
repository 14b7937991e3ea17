// init --from-openapi on a hostile document (issue 24, item 7 and "smaller"):
// everything the draft takes from the document is data. An enum value
// `${env:TOKEN}` never becomes a placeholder the run would fill in (and send
// to the document's server); a line break in a security-scheme name, a path
// or a field name never starts a line of YAML. The draft is loaded back with
// the profile loader to prove it. A GET-only document gives a draft that says
// it found no create.
#include "schema/profile_draft.hpp"

#include "profile/profile.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

using namespace idconform;

namespace {

schema::ProfileDraft draft_text(const std::string& name, const std::string& text) {
    const auto p = std::filesystem::temp_directory_path() / ("idconform-hostile-" + name);
    std::ofstream(p, std::ios::binary) << text;
    auto d = schema::draft_profile(p.string());
    std::filesystem::remove(p);
    return d;
}

// every line of the draft is a comment, blank, or starts with a key the drafter writes
bool only_drafted_keys(const std::string& y) {
    std::size_t at = 0;
    while (at < y.size()) {
        const auto nl = y.find('\n', at);
        const std::string line = y.substr(at, nl - at);
        at = nl == std::string::npos ? y.size() : nl + 1;
        if (line.empty() || line[0] == '#' || line[0] == ' ') continue;
        bool known = false;
        for (const char* k : {"name:", "base_url:", "headers:", "principals:", "resources:", "request_id:"})
            known = known || line.rfind(k, 0) == 0;
        if (!known) return false;
    }
    return true;
}

}  // namespace

TEST_CASE("a hostile document's draft holds no template and no injected key") {
    const std::string doc = R"({
 "openapi": "3.0.3",
 "info": {"title": "evil\ninjected_top: 1 ${env:HOME}", "version": "1"},
 "servers": [{"url": "http://127.0.0.1:8080"}],
 "security": [{"k\ninjected_scheme: 1": []}],
 "components": {"securitySchemes": {"k\ninjected_scheme: 1": {"type": "apiKey", "in": "header", "name": "X-Key\ninjected_header: 1"}}},
 "paths": {
  "x-extension": {"note": "not a path"},
  "th/ings": {"post": {"responses": {"201": {"description": "ok", "content": {"application/json": {"schema":
      {"type": "object", "properties": {"id": {"type": "string"}}}}}}}}},
  "/things": {"post": {
    "requestBody": {"content": {"application/json": {"schema": {"type": "object", "required": ["kind", "name\nx: 1"],
      "properties": {"kind": {"type": "string", "enum": ["${env:IDCONFORM_TOKEN_A}"], "example": "${env:TOKEN}"},
                     "name\nx: 1": {"type": "string"}}}}}},
    "responses": {"201": {"description": "ok", "content": {"application/json": {"schema": {"type": "object",
      "properties": {"id": {"type": "string", "format": "uuid"},
                     "owner_id\ninjected_field: 1": {"type": "string", "format": "uuid"},
                     "x${env:TOKEN}_id": {"type": "string", "format": "uuid"}}}}}}}}},
  "/things/{id}": {"get": {"responses": {"200": {"description": "ok"}}}},
  "/evil${env:TOKEN}": {"post": {"responses": {"201": {"description": "ok", "content": {"application/json": {"schema":
      {"type": "object", "properties": {"id": {"type": "string"}}}}}}}}},
  "/evil\ninjected_path: 1": {"post": {"responses": {"201": {"description": "ok", "content": {"application/json": {"schema":
      {"type": "object", "properties": {"id": {"type": "string"}}}}}}}}}
 }
})";
    const auto d = draft_text("doc.json", doc);
    REQUIRE(d.errors.empty());
    const std::string& y = d.yaml;
    CAPTURE(y);
    // the only placeholders are the drafter's own
    std::size_t at = 0;
    while ((at = y.find("${", at)) != std::string::npos) {
        const std::size_t line = y.rfind('\n', at) + 1;
        const std::size_t hash = y.find('#', line);
        const bool in_comment = hash != std::string::npos && hash < at;
        const bool ours = y.compare(at, 17, "${env:IDCONFORM_B") == 0 || y.compare(at, 18, "${env:IDCONFORM_TO") == 0;
        CHECK_MESSAGE((in_comment || ours), "a placeholder from the document at " << at << ": " << y.substr(line, 80));
        at += 2;
    }
    CHECK(y.find("kind: idconform-probe") != std::string::npos);  // the enum value left out, the probe word used
    CHECK(only_drafted_keys(y));
    CHECK(y.find("\ninjected") == std::string::npos);
    CHECK(y.find("\n    injected") == std::string::npos);
    CHECK(y.find("# left out: path \"/evil${env:TOKEN}\"") != std::string::npos);
    CHECK(y.find("# left out: path th/ings") != std::string::npos);  // a path that does not start with / (found by fuzz_profile_draft)
    const auto loaded = profile::load_profile_text(y, "hostile.target.yaml");
    for (const auto& e : loaded.diagnostics) MESSAGE(render(e));
    REQUIRE(loaded.profile);
    CHECK(loaded.profile->resources.size() == 1);
}

TEST_CASE("a GET-only document gives a draft that says no resource can be created") {
    const auto d = draft_text("get.yaml", "openapi: 3.0.3\ninfo: {title: g, version: '1'}\npaths:\n"
                                          "  /things:\n    get:\n      responses: {'200': {description: ok}}\n"
                                          "  /things/{id}:\n    get:\n      responses: {'200': {description: ok}}\n");
    REQUIRE(d.errors.empty());
    CHECK(d.no_create);
    CHECK(d.resources == 1);
    CHECK(d.yaml.rfind("# NOTE: the document describes no create endpoint", 0) == 0);
    CHECK(d.yaml.find("found 2 paths and 1 resource without one") != std::string::npos);
    CHECK(d.yaml.find("    read: {path: \"/things/{id}\"}") != std::string::npos);
}

TEST_CASE("a viewable id on a resource without a create is a placeholder: the draft still loads") {
    // found by fuzz_profile_draft: the draft had 'viewable' on a resource with no create (exit 4)
    const auto d = schema::draft_profile(std::string(IDCONFORM_SOURCE_DIR) +
                                         "/fuzz/corpus/fuzz_profile_draft/regress-viewable-without-create.yaml");
    REQUIRE(d.errors.empty());
    CHECK(d.yaml.find("    # placeholder (no create on this resource, which the pack needs): viewable: {at: /viewable_id}") !=
          std::string::npos);
    const auto loaded = profile::load_profile_text(d.yaml, "draft.target.yaml");
    for (const auto& e : loaded.diagnostics) MESSAGE(render(e));
    CHECK(loaded.profile.has_value());
}

TEST_CASE("a resource with nothing the packs can use is a comment, not an empty mapping, and duplicate paths count once") {
    // found by fuzz_profile_draft: "  things:" followed by comments only is null, and the draft did not load
    const std::string created = "      responses: {'201': {description: ok, content: {application/json: {schema: {type: object, "
                                "properties: {id: {type: string, format: uuid}}}}}}}\n";
    const auto d = draft_text("comments.yaml", "openapi: 3.0.3\ninfo: {title: c, version: '1'}\npaths:\n"
                                               "  /things:\n    get:\n      responses: {'200': {description: ok}}\n"
                                               "  /things/{id}:\n    options:\n      responses: {'200': {description: ok}}\n"
                                               "  /others:\n    post:\n" + created +
                                               "  /others:\n    post:\n" + created);
    REQUIRE(d.errors.empty());
    CHECK(d.yaml.find("  # placeholder, nothing the packs can use was found: things:") != std::string::npos);
    CHECK(d.yaml.find("others_") == std::string::npos);  // the duplicate /others is not a second resource
    CHECK(d.resources == 1);
    const auto loaded = profile::load_profile_text(d.yaml, "draft.target.yaml");
    for (const auto& e : loaded.diagnostics) MESSAGE(render(e));
    CHECK(loaded.profile.has_value());
}
