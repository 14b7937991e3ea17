// lint says nothing of fields that are named like ids but are not ids a
// service assigns to its entities (issue 25 section 1): names called id
// (roles, namespaces, machines, backups), ordinals (an index, a worker
// number, a sequence number). Each shape is a small document; beside it, the
// same field without those words is still judged, so the rule cannot have
// switched the check off.
#include "schema/lint.hpp"

#include <doctest/doctest.h>

using namespace idconform::schema;

namespace {

// the findings of one property `name` with the given schema
std::vector<Finding> lint_property(const std::string& name, const std::string& schema) {
    const std::string doc = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    Thing:\n"
                            "      type: object\n      properties:\n        " + name + ": " + schema + "\n";
    const LintResult r = lint_openapi_text("precision.yaml", doc);
    REQUIRE(r.errors.empty());
    return r.findings;
}

}  // namespace

TEST_CASE("names called id are not judged as ids, unless the schema says UUID") {
    for (const auto& [name, description] : std::vector<std::pair<std::string, std::string>>{
             {"role_id", "The name of the role, e.g. admin"},
             {"namespace_id", "The namespace's name"},
             {"machine_id", "Hostname of the machine"},
             {"backup_id", "Human-readable backup name"},
             {"userId", "The user's login name (username)"},
             {"pool_id", "The name of the pool. 'all' stands for all pools"}}) {
        CAPTURE(name);
        CHECK(lint_property(name, "{type: string, description: \"" + description + "\"}").empty());
        CHECK(lint_property(name, "{type: string, example: admin, description: \"" + description + "\"}").empty());
        // the same field, described as an id: judged
        CHECK(lint_property(name, "{type: string, description: \"The id of the entity\"}").size() == 1);
        // described as a name but typed a UUID: an id after all, and judged
        const auto f = lint_property(name, "{type: string, format: uuid, description: \"" + description + "\"}");
        REQUIRE(f.size() == 1);
        CHECK(f[0].kind == "format-only");
    }
    // a UUID example outweighs the words
    CHECK(lint_property("role_id", "{type: string, example: 017f22e2-79b0-7cc3-98c4-dc0c0c07398f, description: \"the role name\"}").size() == 1);
}

TEST_CASE("ordinals and positions named like ids are not integer ids") {
    for (const std::string description : {"Sequential number of the operation", "The worker number", "Index of the item in the list",
                                          "Position in the queue", "Per-customer sequence number", "Column number (1-based)"}) {
        CAPTURE(description);
        CHECK(lint_property("worker_id", "{type: integer, description: \"" + description + "\"}").empty());
    }
    // an integer id described as an id is still an integer id
    const auto f = lint_property("worker_id", "{type: integer, description: \"The worker's id\"}");
    REQUIRE(f.size() == 1);
    CHECK(f[0].kind == "integer-id");
    // and without a description
    CHECK(lint_property("order_id", "{type: integer, format: int64}").size() == 1);
}

TEST_CASE("ids another system issued, by their description, are out of scope, the entity's own id never") {
    for (const std::string description : {"The Stripe customer ID", "OAuth client ID", "The external ID of the triggered run",
                                          "Id of the user at the identity provider", "The id issued by the payment provider",
                                          "The GitHub installation id"}) {
        CAPTURE(description);
        CHECK(lint_property("customer_id", "{type: string, description: \"" + description + "\"}").empty());
        CHECK(lint_property("customer_id", "{type: string, format: uuid, description: \"" + description + "\"}").empty());
    }
    // the entity's own id: an OAuth client this service keeps is its entity
    CHECK(lint_property("id", "{type: string, format: uuid, description: \"Unique identifier for the OAuth client.\"}").size() == 1);
    // a protocol's name in a description of this service's own id says nothing of where it came from
    CHECK(lint_property("relay_state_id", "{type: string, format: uuid, description: \"UUID of the SAML Relay State stored in the database\"}").size() == 1);
    CHECK(lint_property("customer_id", "{type: string, description: \"The customer\"}").size() == 1);
}

TEST_CASE("a bare {id} is the id of the collection before it: one finding per collection, a named id one wherever it is") {
    const std::string doc = R"(openapi: 3.0.3
info: {title: t, version: '1'}
paths:
  /users/{id}:
    get: {parameters: [{name: id, in: path, required: true, schema: {type: string}}], responses: {'200': {description: ok}}}
    delete: {parameters: [{name: id, in: path, required: true, schema: {type: string}}], responses: {'204': {description: ok}}}
  /users/{id}/posts:
    get: {parameters: [{name: id, in: path, required: true, schema: {type: string}}], responses: {'200': {description: ok}}}
  /orders/{id}:
    get: {parameters: [{name: id, in: path, required: true, schema: {type: string}}], responses: {'200': {description: ok}}}
  /apps/{app_id}:
    get: {parameters: [{name: app_id, in: path, required: true, schema: {type: string}}], responses: {'200': {description: ok}}}
  /portal/{app_id}:
    get: {parameters: [{name: app_id, in: path, required: true, schema: {type: string}}], responses: {'200': {description: ok}}}
)";
    const LintResult r = lint_openapi_text("params.yaml", doc);
    REQUIRE(r.errors.empty());
    REQUIRE(r.findings.size() == 3);  // the user id (three places), the order id, app_id (two places)
    CHECK(r.findings[0].pointer == "/paths/~1users~1{id}/get/parameters/0/schema");
    CHECK(r.findings[0].also.size() == 2);
    CHECK(r.findings[1].pointer == "/paths/~1orders~1{id}/get/parameters/0/schema");
    CHECK(r.findings[1].also.empty());
    CHECK(r.findings[2].pointer == "/paths/~1apps~1{app_id}/get/parameters/0/schema");
    CHECK(r.findings[2].also.size() == 1);
}
