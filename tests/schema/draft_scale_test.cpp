// init --from-openapi on a large document (issue 24, item 4): every resource
// and action of 2,000 is drafted, the last as right as the first. The time it
// takes (linear since the item path, stem, read and action lookups are built
// once) is measured by bench/run_init.sh, not here.
#include "schema/profile_draft.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

using namespace idconform;

TEST_CASE("a document of 2,000 resources and 2,000 actions drafts every one") {
    const int n = 2000;
    std::string doc = "openapi: 3.0.3\ninfo: {title: big, version: '1'}\npaths:\n";
    const std::string ok = "      responses: {'201': {description: ok, content: {application/json: {schema: {type: object, "
                           "properties: {id: {type: string, format: uuid}}}}}}}\n";
    for (int i = 0; i < n; ++i) {
        const std::string t = "thing" + std::to_string(i);
        doc += "  /" + t + "s:\n    post:\n" + ok;
        doc += "  /" + t + "s/{id}:\n    get:\n" + ok;
        doc += "  /" + t + "-actions:\n    post:\n      requestBody: {content: {application/json: {schema: {type: object, "
               "required: [" + t + "_id], properties: {" + t + "_id: {type: string}}}}}}\n      responses: {'204': {description: ok}}\n";
    }
    const auto p = std::filesystem::temp_directory_path() / "idconform-draft-scale.yaml";
    std::ofstream(p) << doc;
    const auto d = schema::draft_profile(p.string());
    std::filesystem::remove(p);
    REQUIRE(d.errors.empty());
    CHECK(d.resources == n);
    CHECK(d.yaml.find("    action: {path: /thing1999-actions, id_at: /thing1999_id}") != std::string::npos);
    CHECK(d.yaml.find("    action: {path: /thing0-actions, id_at: /thing0_id}") != std::string::npos);
}
