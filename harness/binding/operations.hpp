// The request half of a resource binding: how each operation of one
// resource is sent over one transport, as the target profile declares it,
// and what a pack's `call` step becomes.
//
// The profile expander (profile/expand_binding.cpp) builds one Resource per
// resource and transport from the profile's endpoints and leaves a pack's
// calls unbound: the suite holds its SuiteBinding, and whoever runs or shows
// the suite (the runner, `list`, the dry-run plan) binds the calls through
// bind_calls(). bind() is the one place a call turns into an HTTP request or
// a gRPC call. A form of a real API that changes how a request is made is a
// field of Operation and a line of bind(), never a second copy per transport.
#pragma once

#include "binding/access.hpp"
#include "binding/deletion.hpp"
#include "binding/id_answer.hpp"
#include "suite/model.hpp"

#include <boost/json/value.hpp>

#include <array>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace idconform::binding {

// One operation of a resource over one transport.
struct Operation {
    std::string method;    // the HTTP method, or the gRPC method "package.Service/Method"
    std::string path;      // HTTP: the path template (`{id}` is the entity's id)
    // Where the entity's id goes in the body sent: HTTP, a read, update,
    // delete or put naming it in a JSON body ("": in the path); gRPC, the
    // message field that carries it (always).
    std::string id_at;
    // HTTP list: how a filter by a reference is spelled in the query
    // ("{field}=eq.{value}"; "" is field=value). gRPC: a top-level field.
    std::string filter;
    std::string param;  // HTTP lookup: the query parameter that carries the id
    std::vector<std::pair<std::string, std::string>> headers;  // HTTP: templates, this operation's only
    // The body sent: for create, update and put the profile's body with its
    // references filled (and fresh client-chosen ids for create and put);
    // for the others the profile's body, sent only when it carries the id.
    std::optional<boost::json::value> body;
    std::optional<suite::StatusExpect::NotFound> not_found;  // HTTP: a 2xx answer meaning "nothing there"
    std::shared_ptr<const Access> access;  // HTTP: at the Location, the entity in an array; null: as written
    // How what a 2xx of it made is undone at the end of the suite, whether or
    // not the case expected it to succeed: the resource's deletion for create
    // and put, left behind by design for an action (no profile deletes what
    // a form makes); null for the others.
    std::shared_ptr<const Deletion> makes;
};

// One resource over one transport.
struct Resource {
    Wire wire = Wire::http;  // http or grpc
    std::array<std::optional<Operation>, suite::operation_table.size()> ops;  // by suite::Operation
    // HTTP: where the answers name the entity's id, which a bound call's id
    // checks and captures of `${res.id_at}` follow (id_answer.hpp).
    IdAnswer id;

    [[nodiscard]] const Operation* find(suite::Operation op) const {
        const auto& o = ops[static_cast<std::size_t>(op)];
        return o ? &*o : nullptr;
    }
    [[nodiscard]] std::optional<Operation>& at(suite::Operation op) { return ops[static_cast<std::size_t>(op)]; }
};

// What binding a step gave it besides its request, which the runner reads
// as the step runs: how it reaches its entity and reads the answer, and how
// what it makes is deleted. Never part of the suite's text.
struct StepBinding {
    std::shared_ptr<const Access> access;      // HTTP: at the Location, the entity in an array; null: as written
    std::shared_ptr<const Deletion> deletion;  // what its `cleanup` books; null: the cleanup as written
};

// The steps of one suite that a binding gave more than their request, by
// address: valid while that suite is neither copied nor changed (BoundSuite
// keeps the two together).
class BoundSteps {
public:
    // What the binding gave `st`; null: the step is as written.
    [[nodiscard]] const StepBinding* of(const suite::Step& st) const {
        if (by_step_.empty()) return nullptr;
        const auto it = by_step_.find(&st);
        return it == by_step_.end() ? nullptr : &it->second;
    }
    void add(const suite::Step& st, StepBinding b) {
        if (b.access || b.deletion) by_step_[&st] = std::move(b);
    }
    [[nodiscard]] std::size_t size() const noexcept { return by_step_.size(); }

private:
    std::unordered_map<const suite::Step*, StepBinding> by_step_;
};

// Turns `st`, a `call` step of `r`'s resource, into the request `r`
// declares for its operation, with the cleanup of what it makes
// (Operation::makes, into `b`; a cleanup the step already has is kept, as
// written) and, unnamed, the request's name; `b.access` is how it reaches
// its entity. The operation bound, or null when the resource declares
// none: the step stays a call (cases using it are guarded by `requires:
// [res.<op>]`, and the runner reports one that is not).
const Operation* bind(const Resource& r, suite::Step& st, StepBinding& b);

// The bindings of one pack instance: its resource over the instance's own
// transport, and over the other one (a call with `via: other`); and the
// setup's creates of the entities its references need (plain requests of
// other resources' creates, written by the expander), by their index in the
// suite's setup, with their resource's deletion.
struct SuiteBinding {
    Resource own;
    Resource other;
    std::vector<std::pair<std::size_t, std::shared_ptr<const Deletion>>> setup_creates;
};

// Every call step of `s` (setup, cases, teardown) bound through the
// suite's binding, and what each bound step was given besides its request;
// a suite without one (written by hand) is left as it is (none).
[[nodiscard]] BoundSteps bind_calls(suite::Suite& s);

// A suite with its calls bound and what the binding gave its steps. Not
// copied or moved: `steps` holds the addresses of `suite`'s steps.
struct BoundSuite {
    explicit BoundSuite(const suite::Suite& written) : suite(written), steps(bind_calls(suite)) {}
    BoundSuite(const BoundSuite&) = delete;
    BoundSuite& operator=(const BoundSuite&) = delete;
    suite::Suite suite;
    BoundSteps steps;
};

// A suite as it runs or is shown, and what its steps were bound to.
struct Bound {
    const suite::Suite& suite;
    const BoundSteps& steps;
};

// `s` with its calls bound: a bound copy kept in `storage` for a pack
// instance, `s` itself for a suite without a binding (no copy, no step bound).
[[nodiscard]] Bound with_calls_bound(const suite::Suite& s, std::optional<BoundSuite>& storage);

// A list filter (field, value) as the query `form` spells it:
// "{field}=eq.{value}" gives ("category_id", "eq.<value>").
[[nodiscard]] std::pair<std::string, std::string> spell_filter(const std::string& form, const std::string& field,
                                                               const std::string& value);

}  // namespace idconform::binding
