// The profile expander's inside (expand.cpp, expand_vars.cpp): one pack
// suite instantiated for one resource over one transport (`Instance`), and
// the create bodies it sends. Not a public header.
#pragma once

#include "binding/deletion.hpp"
#include "binding/operations.hpp"
#include "profile/profile.hpp"

#include <boost/json/value.hpp>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace idconform::profile::expansion {

namespace json = boost::json;

[[nodiscard]] const Resource* find_resource(const Profile& p, const std::string& name);
// Sets `v` at `pointer` of `root`, making objects on the way; an array
// element must be there already. False when the pointer cannot be written.
bool set_member(json::value& root, const std::string& pointer, json::value v);
// A fresh id of a client-chosen sub-object id's kind on every use (the
// loader admits only kinds with a generator).
[[nodiscard]] std::string fresh_template(const IdField& f);
// The create body of `r` with every required reference filled from the
// entity that setup creates for it, and (creates and puts) a fresh id at
// each client-chosen sub-object id.
[[nodiscard]] json::value body_with_refs(const Resource& r, const std::optional<json::value>& body,
                                         bool client_ids = false);

class Instance {
public:
    // Why a variable is undefined for this resource, and the cause of the
    // skip of the cases that need it.
    struct Unset {
        std::string why;
        SkipCause cause = SkipCause::not_applicable;
    };

    // over_grpc: the instance runs the resource's gRPC operations (its
    // `grpc:` section) instead of its HTTP endpoints.
    Instance(const Profile& p, const Resource& r, const suite::Suite& pack, bool over_grpc = false)
        : p_(p), r_(r), s_(pack), over_grpc_(over_grpc),
          legacy_lookup_(r.legacy ? std::optional<Endpoint>(r.legacy->lookup) : std::nullopt) {}

    suite::Suite build();

    // How the end of the suite deletes an entity of `r` that a step created,
    // and what its create makes with it (made_by); without a delete
    // operation the cleanup reports it as left behind.
    // Built once per resource and transport, shared by the steps that book it.
    std::shared_ptr<const binding::Deletion> deletion_of(const Resource& r) const;
    static binding::Deletion plain_cleanup(const Resource& r);
    // The deletions of the entities a create of `r` makes as a side effect.
    void add_made(const Resource& r, binding::Deletion& d) const;

    const std::optional<Endpoint>* endpoint(suite::Operation op) const;

    const std::optional<GrpcEndpoint>* grpc_endpoint(suite::Operation op) const;

    // A gRPC message carries ids in string fields: a vector element that is
    // neither a string nor null (the number 0) cannot be sent at all, so the
    // gRPC instance leaves it out of its for_each (the schema already rules
    // out that spelling).
    void drop_unsendable_vectors();

    // In an instance over gRPC the operation variables name the resource's
    // gRPC methods (so `requires: [res.update]` follows what gRPC offers),
    // and HTTP-only ones (Location) are gone.
    void grpc_vars(std::vector<suite::Variable>& vars) const;

    // The gRPC delete of an entity of `r`, or why there is none (built once
    // per resource, as deletion_of).
    std::shared_ptr<const binding::Deletion> grpc_deletion_of(const Resource& r) const;
    binding::Deletion grpc_deletion(const Resource& r) const;

    // This resource's binding over HTTP or gRPC (expand_binding.cpp), built
    // on first use.
    const binding::Resource& binding_of(bool over_grpc) const;

private:
    // A setup step that fails is a failure of the suite's rule (not "no
    // rule"), positioned at the profile line that declared the endpoint the
    // step used: that is what the user can change, not a line of a pack file.
    void own_setup();

    // The id fields the profile declares for this resource, for the checks
    // that hold every id-named member to one kind (R1): a declared field is
    // judged by its declared kind (a viewable id beside ULID keys is not R1's).
    void declare_id_members();

    // Why a pack variable `need` is not defined for this resource, in the
    // profile's words: the key to add ("add `update:` to resource
    // `orders`"), or what the profile declares that rules the case out. The
    // names are those of resource_vars, kind_vars, pack_vars and grpc_vars.
    Unset undescribed(const std::string& need) const;

    void var(std::vector<suite::Variable>& out, const std::string& name, json::value v, SourcePos pos,
             bool deferred = false);

    void endpoint_vars(std::vector<suite::Variable>& out, const char* op, const std::optional<Endpoint>& e,
                       bool with_body);

    void resource_vars(std::vector<suite::Variable>& out);

    // Which rule judges the id's form: DATA-ID-001 a field declared (or
    // defaulted) uuidv7, DATA-ID-003 one declared uuidv4; a field declared
    // `existing` keeps its format (DATA-ID-001's exception), and the cases of
    // those rules are reported as not applicable, saying why.
    void kind_vars(std::vector<suite::Variable>& out);

    // res.fresh_id: a fresh id of the declared kind on every use (the
    // client-chosen id of the client-id checks), a template resolved when it
    // is used. Where no value of that kind can be made it is null, and the
    // cases that need it are not applicable, saying why.
    void fresh_id_var(std::vector<suite::Variable>& out);

    // The variables of the db-identifiers, uuidv8-legacy and viewable-id packs.
    void pack_vars(std::vector<suite::Variable>& out);

    // Shared reference data (`shared: true`): every principal may read it, so
    // DATA-ID-004's read and list checks (the cases in which another
    // principal only reads or lists) do not apply; its writes still do.
    void shared_reads();

    // A resource the API cannot delete: every entity a case creates stays on
    // the target, so a case repeating creates makes two (enough for
    // "distinct", "time ordered") instead of its count, by `for_each` or by a
    // step's `repeat`; the run's notes list what was left.
    void fewest_creates();

    // The legacy ids of the profile replace the pack's `legacy_ids` vector set.
    void legacy_ids();

    static bool has_(const std::vector<suite::Variable>& vars, const std::string& name) {
        for (const auto& v : vars)
            if (v.name == name) return true;
        return false;
    }

    // Emits setup steps that create one `target` entity (after what its own
    // required references need) and capture its id as entity.<target>.
    void ensure_created(const std::string& target, std::vector<suite::Step>& steps);
    void ensure_made(const Resource& t, std::vector<suite::Step>& steps);
    void add_setup_create(std::vector<suite::Step>& steps, const Resource& maker, std::string name,
                          const SourcePos& pos, std::string var, std::string at, const SourcePos& at_pos);

    const Profile& p_;
    const Resource& r_;
    suite::Suite s_;
    bool over_grpc_ = false;
    const std::optional<Endpoint> legacy_lookup_;  // the legacy section's lookup, as an endpoint slot
    std::set<std::string> created_;
    std::map<std::string, Unset> unset_reasons_;  // variable -> why it is undefined here
    // The deletions built so far: (resource, over gRPC) -> its Deletion.
    mutable std::map<std::pair<std::string, bool>, std::shared_ptr<const binding::Deletion>> deletions_;
    // The setup's creates of referenced entities: their index in the setup
    // and their resource's deletion (binding::SuiteBinding::setup_creates).
    std::vector<std::pair<std::size_t, std::shared_ptr<const binding::Deletion>>> setup_creates_;
    mutable std::optional<binding::Resource> bindings_[2];  // over HTTP, over gRPC
};

}  // namespace idconform::profile::expansion
