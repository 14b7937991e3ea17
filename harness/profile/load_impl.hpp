// The profile loader's internals, shared by its section files (load.cpp: the
// top level and cross references; load_endpoints.cpp: resources and their
// HTTP endpoints; load_ids.cpp: id fields, kinds and references;
// load_legacy.cpp: legacy ids, jobs and viewable ids; load_grpc.cpp: a
// resource's gRPC methods): the Loader's state and the endpoint table more
// than one section needs. Not installed; only harness/profile/ includes it.
#pragma once

#include "core/diagnostic.hpp"
#include "profile/profile.hpp"
#include "suite/operation.hpp"
#include "suite/yaml_reader.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace idconform::profile::loading {

namespace detail = suite::detail;
using detail::Entry;
using detail::Mapping;
using detail::Reader;
using detail::SourceText;
using detail::Val;

// One endpoint of a resource, with what its YAML may say.
struct Operation {
    const char* key;     // YAML key under the resource
    const char* method;  // default method
    bool needs_id;       // the path must hold {id}
    bool has_body;       // takes `body:`
    bool has_items;      // takes `items:` (list)
    const char* example;
    bool has_param = false;  // takes `param:` (lookup), required
    bool has_id_at = false;  // takes `id_at:` (action), required
};

// The endpoints a resource may have (load_endpoints.cpp), in the order of
// Resource's slots: the pack operations, then lookup and action.
inline constexpr std::size_t operation_count = 8;
extern const Operation operations[operation_count];

// A reference as written, for the checks that need every resource loaded.
struct ReferenceSite {
    std::string from;  // the referring resource
    std::string field;
    std::string resource;
    bool required = false;
    YAML::Mark at;  // the `resource:` value
};

class Loader {
public:
    explicit Loader(const SourceText& src, std::vector<Diagnostic>& diags) : r_(src, diags), diags_(&diags) {}

    std::optional<Profile> load(const std::string& text);

private:
    Reader r_;
    std::vector<Diagnostic>* diags_;
    std::vector<ReferenceSite> sites_;
    std::vector<std::string> written_names_;               // every resource name, also of resources that failed to load
    std::vector<std::pair<std::string, Val>> grpc_sites_;  // resources with a grpc: section
    std::vector<ReferenceSite> made_by_sites_;             // `made_by:` of each resource (from = the made resource)

    // ---------------------------------------------- gRPC (load_grpc.cpp)

    // `grpc:` under a resource: its operations as unary methods.
    std::optional<GrpcOps> grpc_ops(const Entry& e, const std::string& resource);
    std::optional<GrpcEndpoint> grpc_endpoint(const Val& v, const Operation& op);

    // --------------------------------------------- target part (load.cpp)

    void principals(const Entry& e, Profile& p);
    void packs(const Val& v, Profile& p);

    // --------------------------------- resources (load_endpoints.cpp)

    void resources(const Entry& e, Profile& p);
    std::optional<Resource> resource(const Entry& entry);
    std::optional<Endpoint> endpoint(const Val& v, const Operation& op);
    // `headers:` of one endpoint (`Prefer: return=representation`), sent
    // after the profile's and the principal's.
    void endpoint_headers(const Val& v, Endpoint& ep);
    // `filter: "{field}=eq.{value}"`: how the list is filtered by a
    // reference, spelled the target's way (PostgREST, json-server operators);
    // `filter: false`: the list takes no filter, and the checks that need one
    // are reported as not applicable. Default "{field}={value}".
    void list_filter(const Val& v, Endpoint& ep);
    // `not_found: {status: 200, body: []}`: how the endpoint answers a
    // request naming nothing, when that is not a 4xx (a filter answering an
    // empty array). The negative checks then accept that answer too.
    void not_found(const Val& v, Endpoint& ep);
    // Placeholders are checked first; then the only path variable a profile
    // knows is {id}, required where an entity is addressed, wrong where the
    // server has not assigned one yet.
    // `method`: the endpoint's (a put without {id} sends the id in its body, unless it is a PUT).
    bool path_ok(const Val& v, const std::string& path, const Operation& op, const std::string& method = "",
                 bool id_in_body = false);

    // ------------------------------- legacy, jobs, viewable (load_legacy.cpp)

    // A plain path with {id}, e.g. read: "/v1/jobs/{id}".
    std::optional<std::string> id_path(const Val& v, std::string_view what);
    std::optional<RelatedId> job(const Val& v);
    // A non-negative integer that fits `max`.
    std::optional<std::uint64_t> integer(const Val& v, std::string_view what, std::uint64_t max,
                                         std::string_view example, std::uint64_t min = 0);
    std::optional<Legacy> legacy(const Val& v);
    // {flag: 0, id: {offset: 1, bits: 32}, ...}; fields left out keep the seed's layout.
    void layout(const Val& v, ids::LegacyLayout& l);
    std::optional<Viewable> viewable(const Val& v);

    // ------------------------------- ids, fields, references (load_ids.cpp)

    // A JSON pointer to a member of the entity: valid and not the whole body.
    bool member_pointer(const Val& v, const std::string& pointer, std::string_view what, std::string_view example);
    std::optional<ids::IdKind> kind_ok(const Val& v, const std::string& kind);
    // `/id` (shorthand) or {at: /id, kind: uuidv7}; `at` defaults to `default_at`.
    // Whose id an id field describes: the entity's own (`id:`), another id
    // field of it (`fields:`) or one the client chooses (`client_ids:`);
    // each takes only the keys that say something about it.
    enum class IdRole { own, field, client };
    std::optional<IdField> id_field(const Val& v, std::string_view what, const std::string& default_at, IdRole role);
    void fields(const Val& v, Resource& res);
    void client_ids(const Val& v, Resource& res);
    void references(const Val& v, Resource& res);
    void made_by(const Entry& x, Resource& res);

    // ------------------- answer forms of real APIs (load_answer_forms.cpp)

    // `path: "{location}"`: the request goes to the URL the create answer's
    // Location named (read, update, delete only; the whole path).
    static bool is_location_path(const std::string& path) { return path.find("{location}") != std::string::npos; }
    bool location_path_ok(const Val& v, const std::string& path, const Operation& op);
    // `id: {header: Docker-Upload-UUID}`: the answer header naming the new id
    // (the entity's own id only). at_written: `at` says where read answers hold it.
    bool id_header(const Entry& x, std::string_view what, IdRole role, bool at_written, IdField& f);
    // `create_at: POINTER`: where the create answer names the new id, when
    // not at `at` (the own id only; not beside `header`).
    bool create_at(const Entry& x, std::string_view what, IdRole role, bool header_written, IdField& f);
    // `in_create: false`: a field or reference the create answer lacks.
    bool in_create(const Entry& x, std::string_view what, IdRole role, bool& out);
    // What the forms above need of the rest of the resource (a create with a
    // Location, a read to judge what the create answer lacks).
    // A read answering an array at the root means "not found" by `[]`: its
    // not_found is {status: 200, body: []} unless written.
    void answer_forms(const Mapping& m, Resource& res);

    // ------------------------------------- cross references (load.cpp)

    // Every reference names a resource of the profile; a required one must
    // be creatable first, so it needs a create and cannot close a loop.
    void check_references(const Profile& p);
};

}  // namespace idconform::profile::loading
