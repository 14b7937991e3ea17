// The target profile: a short YAML description of an API (its resources,
// endpoints, id fields, references, principals) from which idconform runs
// every applicable built-in pack without the user writing test cases.
// load_profile() reads and validates it (all-or-nothing, file:line:col
// diagnostics); expand() (expand.cpp) turns it and the pack suites in
// suites/packs/<pack>/ into ordinary suites for the runner.
#pragma once

#include "core/diagnostic.hpp"
#include "suite/model.hpp"

#include <boost/json/value.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace idconform::profile {

struct Endpoint {
    SourcePos pos;
    std::string method;  // defaulted per operation: create POST, read GET, update PATCH, delete DELETE, list GET, put PUT
    std::string path;    // template; `{id}` is the entity id (percent-encoded at run time)
    std::optional<boost::json::value> body;  // JSON body template (create/update/put), an object
    std::string items;   // list only: JSON pointer of the array of entities in the answer ("" = root array)
};

struct IdField {
    SourcePos pos;
    std::string pointer;        // JSON pointer inside the entity, e.g. /id or /tracking_id
    std::string kind = "uuidv7";  // uuidv7, uuidv4 (later ulid, ...); the same names as suite id checks
};

struct Reference {
    SourcePos pos;
    std::string field;          // top-level body/entity field name, e.g. category_id
    std::string resource;       // name of the resource it points to (must exist in the profile)
    bool required = false;
    std::string kind = "uuidv7";
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
struct GrpcTarget {
    SourcePos pos;
    std::string address;                    // template, host:port
    bool tls = false;                       // TLS with the profile's tls: options
    bool reflection = false;                // schemas from server reflection
    std::vector<std::string> protos;        // or from these .proto files (resolved against the profile's folder)
    std::vector<std::string> import_paths;  // their import roots (resolved likewise)
};

struct Resource {
    SourcePos pos;
    std::string name;
    std::optional<Endpoint> create, read, update, del, list, put;  // `delete` in YAML
    IdField id;                       // where the entity's own id is (default /id, uuidv7)
    bool location = true;             // create answers with a Location header naming the id
    std::vector<IdField> fields;      // other id fields of the entity (e.g. a v4 tracking id)
    std::vector<Reference> references;
    std::string time_field;           // JSON pointer of an explicit creation-time field ("" = none)
    std::optional<GrpcOps> grpc;      // the same resource over gRPC
};

struct Principal {
    SourcePos pos;
    std::string name;
    std::vector<std::pair<std::string, std::string>> headers;  // templates, e.g. Bearer ${env:TOKEN_A}
};

struct Profile {
    SourcePos pos;
    std::string file;
    std::string name;
    std::string base_url;                         // template
    std::vector<std::pair<std::string, std::string>> headers;  // sent on every request
    std::string ca_file, cert_file, key_file;
    bool insecure = false;
    std::optional<long> connect_timeout_ms, read_timeout_ms;
    std::optional<long> clock_skew_ms;
    std::vector<Principal> principals;            // the first is the owner, the second the other principal
    std::vector<std::string> packs;               // e.g. data-id, nil-max; empty = every pack that applies
    std::vector<Resource> resources;              // in file order
    std::optional<GrpcTarget> grpc;               // gRPC address and schemas, when resources bind gRPC methods
};

struct LoadResult {
    std::optional<Profile> profile;   // set only when diagnostics is empty
    std::vector<Diagnostic> diagnostics;
};

// Known pack names (did-you-mean on typos).
[[nodiscard]] const std::vector<std::string>& known_packs();

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
