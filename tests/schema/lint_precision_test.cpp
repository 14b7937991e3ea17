// lint says nothing of fields that are named like ids but are not ids a
// service assigns to its entities (issue 25 section 1): names called id
// (roles, namespaces, machines, backups), ordinals (an index, a worker
// number, a sequence number). Each shape is a small document; beside it, the
// same field without those words is still judged, so the rule cannot have
// switched the check off.
#include "schema/lint.hpp"

#include <doctest/doctest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

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
                                          "The GitHub installation id", "Unique ID of the message as reported by the SMS sending provider"}) {
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

TEST_CASE("ids computed from content or written in an outside standard are out of scope, an entity's own id too") {
    for (const std::string description : {"Transaction hash for the input", "Bech32 encoded pool ID", "Governance Action Identifier (CIP-0129)",
                                          "A Bech32-encoded identifier derived from the calidus public key",
                                          "The content-addressable ID of an image", "SHA-256 fingerprint of the key"}) {
        CAPTURE(description);
        CHECK(lint_property("pool_id", "{type: string, description: \"" + description + "\"}").empty());
        CHECK(lint_property("id", "{type: string, description: \"" + description + "\"}").empty());
    }
    // the words must be the field's: "digest" as another field's name is not "a digest of"
    CHECK(lint_property("artifact_id", "{type: integer, description: \"Deprecated, use repo and digest instead. The artifact id\"}").size() == 1);
    CHECK(lint_property("pool_id", "{type: string, description: \"The pool\"}").size() == 1);
}

TEST_CASE("an example that is a Bech32 string, an algorithm-prefixed digest or a URN says the id is not the service's") {
    auto kinds_of = [](const std::string& schema) {
        std::set<std::string> k;
        for (const auto& f : lint_property("pool_id", schema)) k.insert(f.kind);
        return k;
    };
    // BIP-173 and BIP-350 test strings and a Cardano pool id: their checksums verify
    for (const char* ok : {"abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw", "a1lqfn3a",
                           "pool1pu5jlj4q9w9jlxeu370a3c9myx47md5j5m2str0naunn2q3lkdy",
                           "sha256:675532206fbf3030b8458f88d6e26d4eb1577688a25efec97154c94e8b6b4887",
                           "urn:altinn:person:identifier-no:12018212345"}) {
        CAPTURE(ok);
        CHECK(kinds_of(std::string("{type: string, example: '") + ok + "'}").empty());
    }
    // one character changed: the checksum fails, and the id is judged (no UUID)
    CHECK(kinds_of("{type: string, example: pool1pu5jlj4q9w9jlxeu370a3c9myx47md5j5m2str0naunn2q3lkdz}") == std::set<std::string>{"not-uuid"});
    // a urn:uuid is a UUID in another spelling: judged
    CHECK(kinds_of("{type: string, example: 'urn:uuid:017f22e2-79b0-7cc3-98c4-dc0c0c07398f'}").count("non-canonical-example") == 1);
    // a schema that says UUID outweighs the example
    CHECK(kinds_of("{type: string, format: uuid, example: a1lqfn3a}").count("format-only") == 1);
    // a list's example gives its elements' examples
    CHECK(lint_property("layer_ids", "{type: array, items: {type: string}, example: ['sha256:675532206fbf3030b8458f88d6e26d4eb1577688a25efec97154c94e8b6b4887']}").empty());
    CHECK(lint_property("layer_ids", "{type: array, items: {type: string}, example: ['017F22E2-79B0-7CC3-98C4-DC0C0C07398F']}").size() == 2);
}

TEST_CASE("format guid (what .NET generators write) is a non-standard uuid format, with the version its description says") {
    const auto f = lint_property("id", "{type: string, format: guid, description: \"The unique identifier in UUIDv7 format.\"}");
    REQUIRE(f.size() == 1);
    CHECK(f[0].kind == "format-nonstandard");
    CHECK(f[0].expected.find("-7[0-9a-f]{3}") != std::string::npos);
    // a guid-formatted field of any name is an id field, like format: uuid
    CHECK(lint_property("owner", "{type: string, format: guid}").size() == 1);
}

TEST_CASE("a parameter's own description counts, its schema is not judged again under another name, a typed path id is no entity id") {
    const std::string doc = R"(openapi: 3.0.3
info: {title: t, version: '1'}
paths:
  /grants:
    delete:
      parameters:
        - {name: client_id, in: query, required: true, description: The OAuth client identifier, schema: {type: string, format: uuid}}
        - {name: run_id, in: query, description: The run, schema: {type: string, format: uuid}}
      responses: {'204': {description: ok}}
  /parties/{Type}/{ID}/{SubId}:
    get:
      parameters:
        - {name: Type, in: path, required: true, schema: {type: string}}
        - {name: ID, in: path, required: true, schema: {type: string}}
        - {name: SubId, in: path, required: true, schema: {type: string}}
      responses: {'200': {description: ok}}
  /orders/{ID}:
    get:
      parameters: [{name: ID, in: path, required: true, schema: {type: string}}]
      responses: {'200': {description: ok}}
)";
    const LintResult r = lint_openapi_text("params.yaml", doc);
    REQUIRE(r.errors.empty());
    std::vector<std::string> what;
    for (const auto& f : r.findings) what.push_back(f.what.substr(0, f.what.find(' ', 4)));
    CHECK(what == std::vector<std::string>{"id 'run_id':", "id 'ID'"});
    CHECK(r.findings.at(1).pointer == "/paths/~1orders~1{ID}/get/parameters/0/schema");
}

TEST_CASE("a property repeated in the inline bodies of many operations is one finding per schema, listing the others") {
    auto op = [](const std::string& path, const std::string& props) {
        return "  " + path + ":\n    post:\n      requestBody:\n        content:\n          application/json:\n"
               "            schema: {type: object, properties: {" + props + "}}\n      responses: {'200': {description: ok}}\n";
    };
    const std::string doc_id = "id: {type: string, format: uuid, description: The document's id}";
    const std::string doc = "openapi: 3.0.0\ninfo: {title: t, version: '1'}\npaths:\n" +
                            op("/documents.info", doc_id) + op("/documents.delete", doc_id) + op("/documents.archive", doc_id) +
                            op("/users.info", "id: {type: string, format: uuid, description: The document's id}") +   // same words, another resource
                            op("/users.delete", "id: {type: string, format: uuid, description: The user's id}") +
                            op("/comments.create", "documentId: {type: string, format: uuid}") +
                            op("/shares.create", "documentId: {type: string, format: uuid}") +
                            op("/stars.create", "documentId: {type: string}");                                     // another shape
    const LintResult r = lint_openapi_text("rpc.yaml", doc);
    REQUIRE(r.errors.empty());
    REQUIRE(r.findings.size() == 5);
    CHECK(r.findings[0].pointer.rfind("/paths/~1documents.info/", 0) == 0);
    CHECK(r.findings[0].also.size() == 2);
    CHECK(r.findings[1].also.empty());  // users.info
    CHECK(r.findings[2].also.empty());  // users.delete
    CHECK(r.findings[3].pointer.rfind("/paths/~1comments.create/", 0) == 0);
    CHECK(r.findings[3].also.size() == 1);
    CHECK(r.findings[4].kind == "unconstrained");
    CHECK(format_finding(r.findings[0]).find("[the same property at 2 more places, first rpc.yaml:") != std::string::npos);
}

TEST_CASE("a name whose stem is an outside identifier scheme or issuer names that scheme's id") {
    for (const std::string name : {"spdx_id", "gravatar_id", "googleId", "github_id", "license_spdx_id", "orcidId", "cve_id", "commit_id"}) {
        CAPTURE(name);
        CHECK(lint_property(name, "{type: string}").empty());
        CHECK(lint_property(name, "{type: integer}").empty());
    }
    // the service's own ids keep their findings; a uuid format says the service made it
    CHECK(lint_property("license_id", "{type: string}").size() == 1);
    CHECK(lint_property("spdx_document_id", "{type: string}").size() == 1);
    CHECK(lint_property("github_id", "{type: string, format: uuid}").size() == 1);
}

TEST_CASE("the same property of an object written inside many schemas (a bundler's copies) is one finding") {
    const std::string sender = "sender: {type: object, properties: {id: {type: integer}, node_id: {type: string}}}";
    const std::string repo = "repository: {type: object, properties: {id: {type: integer}}}";
    const std::string doc = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n"
                            "    PushEvent: {type: object, properties: {" + sender + ", " + repo + "}}\n"
                            "    IssueEvent: {type: object, properties: {" + sender + "}}\n"
                            "    StarEvent: {type: object, properties: {" + sender + ", " + repo + "}}\n"
                            "    User: {type: object, properties: {id: {type: integer}}}\n"
                            "    Team: {type: object, properties: {id: {type: integer}}}\n";
    const LintResult r = lint_openapi_text("events.yaml", doc);
    REQUIRE(r.errors.empty());
    std::map<std::string, std::size_t> also;
    for (const auto& f : r.findings) also[f.pointer] = f.also.size();
    CHECK(also == std::map<std::string, std::size_t>{{"/components/schemas/PushEvent/properties/sender/properties/id", 2},
                                                     {"/components/schemas/PushEvent/properties/sender/properties/node_id", 2},
                                                     {"/components/schemas/PushEvent/properties/repository/properties/id", 1},
                                                     // a named schema's own property is that schema's finding
                                                     {"/components/schemas/User/properties/id", 0},
                                                     {"/components/schemas/Team/properties/id", 0}});
}

TEST_CASE("secrets and tokens are no ids, whatever their format, the id of a token is") {
    for (const std::string name : {"token", "transfer_token", "apiKey", "client_secret", "password", "nonce"}) {
        CAPTURE(name);
        CHECK(lint_property(name, "{type: string, format: uuid, description: \"Used to accept the transfer\"}").empty());
    }
    const std::string doc = R"(openapi: 3.0.3
info: {title: t, version: '1'}
paths:
  /transfers/{token}:
    get:
      parameters: [{name: token, in: path, required: true, schema: {type: string, format: uuid}}]
      responses: {'200': {description: ok}}
)";
    const LintResult r = lint_openapi_text("token.yaml", doc);
    REQUIRE(r.errors.empty());
    CHECK(r.findings.empty());
    // a path variable naming the element of its collection is that element's id
    const std::string tokens = R"(openapi: 3.0.3
info: {title: t, version: '1'}
paths:
  /api-tokens/{api-token}:
    delete:
      parameters: [{name: api-token, in: path, required: true, schema: {type: string, format: uuid}}]
      responses: {'204': {description: ok}}
)";
    const LintResult t = lint_openapi_text("tokens.yaml", tokens);
    REQUIRE(t.findings.size() == 1);
    CHECK(t.findings[0].kind == "format-only");
    // the id of a token entity is an id
    const auto f = lint_property("token_id", "{type: string, format: uuid}");
    REQUIRE(f.size() == 1);
    CHECK(f[0].kind == "format-only");
}

TEST_CASE("a credential's public half beside its secret, an id connecting to a system no path names: another platform's id") {
    const std::string doc = R"(openapi: 3.0.3
info: {title: t, version: '1'}
paths:
  /webhooks: {get: {responses: {'200': {description: ok}}}}
  /apps: {get: {responses: {'200': {description: ok}}}}
  /labels: {get: {responses: {'200': {description: ok}}}}
  /resellers: {get: {responses: {'200': {description: ok}}}}
  /account/config:
    put:
      parameters:
        - {name: walmart_client_id, in: query, schema: {type: string}}
        - {name: walmart_client_secret, in: query, schema: {type: string}}
        - {name: store_id, in: query, schema: {type: string}}
      responses: {'200': {description: ok}}
components:
  schemas:
    Config:
      type: object
      properties:
        mercado_libre_app_id: {type: string}
        mercado_libre_app_secret_key: {type: string}
        amazon_access_key_id: {type: string}
        amazon_secret_key: {type: string}
        client_id: {type: string}
        client_secret: {type: string}
        webhook_id: {type: string}
        secret: {type: string}
    Alone:
      type: object
      properties:
        app_id: {type: string}
        name: {type: string}
    ConnectCarrier:
      type: object
      properties:
        site_id: {type: string}
        api_secret: {type: string}
        merchant_seller_id: {type: string}
        mws_auth_token: {type: string}
    Listing:
      type: object
      properties:
        label_id: {type: string}
        page_token: {type: string}
        allowRotateSecret: {type: boolean}
    NewUser:
      type: object
      properties:
        reseller_id: {type: string}
        password: {type: string}
)";
    const LintResult r = lint_openapi_text("credentials.yaml", doc);
    REQUIRE(r.errors.empty());
    std::vector<std::string> what;
    for (const auto& f : r.findings) what.push_back(f.what.substr(0, f.what.find(' ', 4)));
    // store_id and a bare client_id are no credential halves, but sit beside a secret and no path of the
    // document names them (no /stores, no /clients): a connection to another system; app_id alone is judged;
    // webhook_id beside a secret
    // names a collection of the document's paths (/webhooks): the service's own; site_id beside an api secret
    // and merchant_seller_id beside an auth token name none: a connection to another system; a page token, a
    // flag about secrets or a user's password is none
    CHECK(what == std::vector<std::string>{"id 'webhook_id'", "id 'app_id'", "id 'label_id'", "id 'reseller_id'"});
}

TEST_CASE("numbers in outside registers and ISO codes are natural keys, by their description or their name") {
    for (const std::string description : {"National ID", "Vehicle license plate", "The person's passport number",
                                          "Contry code using alpha ISO-3166, Example: BR, US", "Tax identification number",
                                          "ISO 4217 currency code", "mac address of the module"}) {
        CAPTURE(description);
        CHECK(lint_property("subject_id", "{type: string, description: \"" + description + "\"}").empty());
    }
    for (const std::string name : {"national_id", "taxID", "passport_id", "vat_id"}) {
        CAPTURE(name);
        CHECK(lint_property(name, "{type: string}").empty());
    }
    CHECK(lint_property("subject_id", "{type: string, description: \"The subject of the check\"}").size() == 1);
}

TEST_CASE("ids the caller's own system chose are out of scope") {
    for (const std::string description : {"Unique Product Id (SKU) in the seller system",
                                          "Unique Seller shipment Id. This must be unique across all orders and shipments",
                                          "The shipment's id in the partner system", "Merchant defined order ID.",
                                          "ID of the order in the marketplace.",
                                          "Used to identify promotions within merchants' own systems.",
                                          "An optional ID you can associate with the transaction for your own purposes"}) {
        CAPTURE(description);
        CHECK(lint_property("shipment_id", "{type: string, description: \"" + description + "\"}").empty());
    }
    CHECK(lint_property("shipment_id", "{type: string, description: \"Shipment unique Id\"}").size() == 1);
}

TEST_CASE("codes from a closed list and sequence counters named like ids are not ids") {
    // an enum of numbers: a type's code (Regular = 1, Watch Later = 2)
    CHECK(lint_property("type_id", "{type: integer, enum: [1, 2], description: \"Regular = 1, Watch Later = 2\"}").empty());
    CHECK(lint_property("type_id", "{type: integer}").size() == 1);
    // a sequence counter of events
    CHECK(lint_property("sequence_id", "{type: string, example: '3', description: \"A numeric identifier of the most recent event\"}").empty());
    CHECK(lint_property("seqId", "{type: integer}").empty());
    // a sequence typed a UUID is an id after all
    CHECK(lint_property("sequence_id", "{type: string, format: uuid}").size() == 1);
}

TEST_CASE("an id whose examples and default are plain words is a name a person chose") {
    CHECK(lint_property("word_id", "{type: string, default: change}").empty());
    CHECK(lint_property("plan_id", "{type: string, example: premium}").empty());
    // a placeholder word says nothing: judged as written
    CHECK(!lint_property("plan_id", "{type: string, example: string}").empty());
    // digits or signs: a generated id, judged
    const auto f = lint_property("plan_id", "{type: string, example: pln_3YcKU5zd}");
    REQUIRE(f.size() == 1);
    CHECK(f[0].kind == "not-uuid");
    // a word beside a UUID example: the UUID says it is an id
    CHECK(lint_property("plan_id", "{type: string, default: change, example: 017f22e2-79b0-7cc3-98c4-dc0c0c07398f}").size() >= 1);
}

TEST_CASE("a reference to a kind of entity the document never names, with nothing saying UUID, is not judged") {
    const std::string doc = R"(openapi: 3.0.3
info: {title: t, version: '1'}
paths:
  /v1/gift-cards/{gift_card_id}:
    get:
      parameters: [{name: gift_card_id, in: path, required: true, schema: {type: string}}]
      responses: {'200': {description: ok}}
  /scanners/{registration_id}:
    get:
      parameters: [{name: registration_id, in: path, required: true, schema: {type: string}}]
      responses: {'200': {description: ok}}
  /retention_policies: {get: {responses: {'200': {description: ok}}}}
components:
  schemas:
    Job: {type: object, properties: {name: {type: string}}}
    Thing:
      type: object
      properties:
        genbankId: {type: string}
        taxonId: {type: string}
        companyId: {type: string, description: Company identification for the company}
        gift_card_id: {type: string}
        policy_id: {type: string}
        job_id: {type: string}
        parent_id: {type: string}
        owner_id: {type: integer}
        carrier_id: {type: string, format: uuid}
        region_id: {type: string, example: 017f22e2-79b0-7cc3-98c4-dc0c0c07398f}
)";
    const LintResult r = lint_openapi_text("gate.yaml", doc);
    REQUIRE(r.errors.empty());
    std::set<std::string> judged;
    for (const auto& f : r.findings) judged.insert(f.what.substr(0, f.what.find(' ', 4)));
    // named by a path (/gift-cards, /retention_policies), a schema (Job), a relation (parent, owner) or by a UUID
    // in the schema: judged; GenBank's, a taxon's, a company register's: not; nor a path variable after a
    // collection it does not name (/scanners/{registration_id}: a lookup key as often as the element's id)
    CHECK(judged == std::set<std::string>{"id 'gift_card_id'", "id 'policy_id'", "id 'job_id'",
                                          "id 'parent_id'", "id 'owner_id'", "id 'carrier_id':", "id 'region_id'"});
    // a document without paths (a components library) gives no such evidence either way: judged as before
    CHECK(lint_property("genbankId", "{type: string}").size() == 1);
}

TEST_CASE("a template's slot as example ('<integer>', '{family_id}') says nothing of the field") {
    for (const std::string example : {"'<integer>'", "'{family_id}'", "'{{order_id}}'", "'${ID}'"}) {
        CAPTURE(example);
        const auto f = lint_property("family_id", "{type: string, example: " + example + "}");
        for (const auto& x : f) CHECK(x.kind != "not-uuid");
        CHECK(!f.empty());  // the field itself is still judged as written
    }
}
