// The target profile: a short YAML description of an API (its resources,
// endpoints, id fields, references, principals) from which idconform runs
// every applicable built-in pack without the user writing test cases.
// load_profile() reads and validates it (all-or-nothing, file:line:col
// diagnostics); expand() (expand.cpp) turns it and the pack suites in
// suites/packs/<pack>/ into ordinary suites for the runner.
#pragma once

#include "core/diagnostic.hpp"
#include "ids/ids.hpp"
#include "ids/kind.hpp"
#include "suite/model.hpp"

#include <boost/json/value.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace idconform::profile {

// What an endpoint answers when the id or filter names nothing, when that
// is a 2xx rather than a 4xx (json-server: 200 with []; PostgREST's 204 to a
// filtered DELETE, `empty`): the suite's type, read by the same reader.
using NotFound = suite::NotFound;

struct Endpoint {
    SourcePos pos;
    std::string method;  // defaulted per operation: create POST, read GET, update PATCH, delete DELETE, list GET, put PUT
    std::string path;    // template; `{id}` is the entity id (percent-encoded at run time)
    std::optional<boost::json::value> body;  // JSON body template (create/update/put), an object
    std::string items;   // list only: JSON pointer of the array of entities in the answer ("" = root array)
    std::string param;   // lookup only: the query parameter that carries the id
    std::string id_at;   // action: JSON pointer of the entity's id in the body sent; put: where the client's
                         // id goes in the body (default: the resource's id pointer when the path has no {id})
    std::vector<std::pair<std::string, std::string>> headers;  // templates, sent with this endpoint's requests only
    std::optional<NotFound> not_found;  // read, list, update, delete: a 2xx answer that means "nothing there"
    std::string filter = "{field}={value}";  // list only: the query filtering by a reference; "" = none
    // Answer forms of real APIs (load_answer_forms.cpp):
    bool at_location = false;  // read/update/delete: `path: "{location}"`, the URL the create answer's Location named
    bool answers_array = false;  // read: `items:` written, the entity is the one element of the array at `items`
    bool replaces = false;  // put: `replaces: true`, create-or-replace: a PUT to a live id replaces that entity
};

// Another generated id an entity's answers carry (a job, a batch) and where
// it is read (db-identifiers R7).
struct RelatedId {
    SourcePos pos;
    std::string pointer;   // in the create answer, e.g. /job_id
    std::string read;      // path template with {id}, e.g. /v1/jobs/{id}
};

// A lookup of migrated entities by their legacy integer id, answering
// deterministic UUIDv8 ids (pack uuidv8-legacy).
struct Legacy {
    SourcePos pos;
    Endpoint lookup;                     // path with {id} = the legacy integer id
    std::vector<std::uint64_t> ids;      // legacy ids the target knows, probed by the pack
    std::uint32_t entity_type = 0;       // the type the target's ids must carry
    ids::LegacyLayout layout;            // default: the seed's layout
    std::string salt_env = "IDCONFORM_LEGACY_SALT";  // environment variable holding the salt
};

// Short human-friendly ids beside the internal id (pack viewable-id).
struct Viewable {
    SourcePos pos;
    std::string pointer = "/viewable_id";  // in the entity
    std::string read;                      // path template with {id} = the viewable id
    std::string prefix = "TR-";
    std::size_t length = 7;                // Crockford symbols after the prefix
    std::string format;                    // RE2; default ids::viewable_pattern(prefix, length)
};

struct IdField {
    SourcePos pos;
    std::string pointer;        // JSON pointer inside the entity, e.g. /id or /tracking_id
    // A kind of the one vocabulary (ids/kind.hpp): uuidv7, uuidv4, ulid, ...,
    // or `existing`: a field that kept its format from before DATA-ID-001 (its
    // exception), optionally with `pattern`, the RE2 form of its values.
    ids::IdKind kind = ids::IdKind::uuidv7;
    std::string pattern;        // kind existing only; "" = any text but the dummies
    // The entity's own id only: the answer header naming the new id (its last
    // path segment: Docker-Upload-UUID, Location). With `at` too, only the
    // create answer has it there (and no entity in its body); without `at`
    // (pointer ""), every answer has it only there.
    std::string header;
    // The entity's own id only: the JSON pointer where the create answer names
    // the new id when it is not `pointer` (a create answering {"orderID": ...}
    // while reads hold "id"). Like `header` with `at`: the create answer is
    // not taken for the entity; its other checks are judged on a read-back.
    std::string create_pointer;
    SourcePos create_pos;       // of create_at, for messages
    bool in_create = true;      // fields: false = present only in read answers, not in the create answer
};

struct Reference {
    SourcePos pos;
    std::string field;          // top-level body/entity field name, e.g. category_id
    std::string resource;       // name of the resource it points to (must exist in the profile)
    bool required = false;
    ids::IdKind kind = ids::IdKind::uuidv7;  // default: the id kind of the resource it points to
    bool kind_written = false;    // `kind:` was written (else it follows the resource)
    bool in_create = true;        // false: the create answer lacks it; read answers have it
    // Where the entity's answers hold it, when they name it otherwise than the
    // body does (sent as `parent`, answered as `parent_series`): `at:`.
    std::string answer_pointer;   // default "/" + field
    [[nodiscard]] std::string answer_at() const { return answer_pointer.empty() ? "/" + field : answer_pointer; }
};

// One operation of a resource over gRPC: a unary method whose request is
// `body` (create/update/put) or empty, with the entity id written at
// `id_field` (read/update/delete/put) and list filters as top-level fields.
struct GrpcEndpoint {
    SourcePos pos;
    std::string method;                      // "package.Service/Method"
    std::optional<boost::json::value> body;  // request message template (create/update/put), an object
    std::string id_field = "/id";            // JSON pointer of the id in the request message
    std::string items;                       // list only: JSON pointer of the entity array in the answer
};

// A resource's operations over gRPC (`grpc:` under the resource). The packs
// then run a second time for it, over gRPC.
struct GrpcOps {
    SourcePos pos;
    std::optional<GrpcEndpoint> create, read, update, del, list, put;
};

// How to reach the target over gRPC (`grpc:` at the top of the profile).
// Where the target's gRPC server listens and where its schemas come from:
// the suite model's gRPC target, read by the same function (suite/target_reader.hpp).
using GrpcTarget = suite::Target::Grpc;

struct Resource {
    SourcePos pos;
    std::string name;
    std::optional<Endpoint> create, read, update, del, list, put;  // `delete` in YAML
    IdField id;                       // where the entity's own id is (default /id, uuidv7)
    bool location = true;             // create answers with a Location header naming the id
    std::vector<IdField> fields;      // other id fields of the entity (e.g. a v4 tracking id)
    // Ids the client chooses for sub-objects of a create body (line items,
    // workflow steps): `client_ids: {line_id: {at: /lines/0/id, kind: uuidv7}}`.
    // Every create and put sends a fresh one there; the packs send dummies and
    // mutations that the server must refuse (DATA-ID-002, DATA-ID-007, nil-max).
    std::vector<IdField> client_ids;
    std::vector<Reference> references;
    std::string time_field;           // JSON pointer of an explicit creation-time field ("" = none)
    bool time_in_create = true;       // false: the create answer lacks it, read answers have it (time_field: {in_create: false})
    std::optional<GrpcOps> grpc;      // the same resource over gRPC
    std::optional<Endpoint> lookup;   // read by the id in a query parameter (db-identifiers R5.1)
    std::optional<Endpoint> action;   // the application's own form/button endpoint taking the id in its body (R5.2)
    std::optional<RelatedId> job;     // another generated id of the entity (R7)
    std::optional<Legacy> legacy;     // pack uuidv8-legacy
    std::optional<Viewable> viewable; // pack viewable-id
    // Forms of the APIs people have (load_forms.cpp):
    // `shared: true`: reference data every principal may read (countries,
    // currencies): DATA-ID-004's read and list checks do not apply; writes by
    // another principal are still checked.
    std::optional<SourcePos> shared;
    // `cannot_delete: REASON`: the API deletes none of these (jobs, uploads):
    // the run creates as few as it can and notes once what it left behind.
    std::string cannot_delete;
    SourcePos cannot_delete_pos;
    // `singleton: true`: one entity per principal read without an id
    // (`GET /v1/me`); only the singleton checks of the data-id pack run on it.
    std::optional<SourcePos> singleton;
    // `refused: [401, 404]`: how the API refuses another principal access
    // to an entity of this resource; unset: the profile's `refused:`.
    std::optional<std::vector<int>> refused;
    // `made_by: {resource: files, at: /folder_id}`: the API has no create of
    // these; one comes into being when an entity of `resource` is created (a
    // folder made by uploading a file into it), whose create answer names its
    // id at `at`. References to it are filled from such a create, and the run
    // deletes the one it made (so the create must make a new one each time:
    // a fresh name in its body, or `fresh: true`).
    struct MadeBy {
        SourcePos pos;
        std::string resource;
        std::string at;
        bool fresh = false;  // `fresh: true`: every create of `resource` makes a new one
    };
    std::optional<MadeBy> made_by;
    // `stored_in: products` or `stored_in: {table: shop.products, columns:
    // {/owner/id: owner_ref}}`: the table holding these entities, which
    // `idconform db --target` audits. The id, the `fields`, the references and
    // the viewable id become declared columns of it: a pointer of one member
    // (/id) names its column, a deeper one is mapped in `columns`.
    struct StoredIn {
        SourcePos pos;
        std::string schema;  // "" = whichever schema holds the table
        std::string table;
        std::vector<std::pair<std::string, std::string>> columns;  // JSON pointer -> column, as written
        // The column of the member at `pointer` ("" when a deeper pointer is not mapped).
        [[nodiscard]] std::string column_of(const std::string& pointer) const;
    };
    std::optional<StoredIn> stored_in;
    // The pointers of the members stored_in maps to columns: the id, the
    // fields, the references (where answers hold them) and the viewable id.
    [[nodiscard]] std::vector<std::string> stored_pointers() const;
};

// A principal (headers templates, e.g. Bearer ${env:TOKEN_A}; none for
// `anonymous:`): the suite model's, read by the same function.
using Principal = suite::Principal;

// The target part (TLS files, timeouts) is the suite model's (suite::TargetTls,
// suite::TargetTimeouts), read by the same functions as a suite's target.
struct Profile : suite::TargetTls, suite::TargetTimeouts {
    SourcePos pos;
    std::string file;
    std::string name;
    std::string base_url;                         // template
    std::vector<std::pair<std::string, std::string>> headers;  // sent on every request
    std::optional<long> clock_skew_ms;
    std::vector<Principal> principals;            // the first is the owner, the second the other principal
    std::vector<std::string> packs;               // e.g. data-id, nil-max; empty = every pack that applies
    std::vector<Resource> resources;              // in file order
    std::optional<GrpcTarget> grpc;               // gRPC address and schemas, when resources bind gRPC methods
    std::string request_id;                       // answer header with a request/correlation id ("" = none)
    // How the API refuses another principal access to an entity (`refused:`,
    // 4xx statuses): 403 and 404 unless it says otherwise (suite::default_refused).
    std::vector<int> refused = suite::default_refused();
};

struct LoadResult {
    std::optional<Profile> profile;   // set only when diagnostics is empty
    std::vector<Diagnostic> diagnostics;
};

// Known pack names (did-you-mean on typos).
[[nodiscard]] const std::vector<std::string>& known_packs();
// Whether `pack` is instantiated for `r`: data-id and nil-max for UUID-keyed
// resources with create, db-identifiers for ULID-keyed ones, uuidv8-legacy
// for resources with `legacy:`, viewable-id for resources with `viewable:`.
[[nodiscard]] bool pack_applies(const std::string& pack, const Resource& r);

[[nodiscard]] LoadResult load_profile(const std::string& path);
[[nodiscard]] LoadResult load_profile_text(const std::string& text, const std::string& path);

}  // namespace idconform::profile

namespace idconform::profile {

// The pack suites a profile selects, instantiated once per resource that has
// a create endpoint. Each instance gets the profile's target and principals
// (`owner` = the first principal, `other` = the second), setup steps that
// create the entities its references need (cleaned up at the end), and the
// `res.*` variables the pack suites are written against (docs/packs.md).
struct Expansion {
    std::vector<suite::Suite> suites;
    std::vector<Diagnostic> diagnostics;  // a pack suite that does not load
};
[[nodiscard]] Expansion expand(const Profile& profile, const std::string& packs_dir);

}  // namespace idconform::profile
