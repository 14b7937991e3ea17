// The cleanup half of a resource binding: how what a create made is found
// in its answer, deleted at the end of the suite and confirmed gone.
//
// A Deletion is built once per resource and transport by the profile
// expander (profile/expand_binding.cpp) and shared by every create step of the
// suite (binding::StepBinding::deletion); a suite's own `cleanup: {path, id}` is the
// plain Deletion::written form. When a create is answered 2xx, book_created
// records a Created (the delete and its confirming read, made for the new
// id, with the creating principal's credentials); follow_rekey keeps it
// right when an update answers another id. The runner's cleanup
// (runner/cleanup.cpp) only orders the deletes, sends them and reports.
#pragma once

#include "binding/entity_request.hpp"
#include "core/exchange.hpp"
#include "suite/model.hpp"
#include "suite/scope.hpp"

#include <boost/json/value.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace idconform::binding {

class LocationBook;

// Which tool sends a recorded request again, and which registry names a
// request of that kind goes to. Told apart by the step kind that built the
// request, never by comparing transport names.
enum class Wire { http, grpc, kafka, file };
// "http", "grpc", "kafka", "file": the "transport" property of reports.
[[nodiscard]] constexpr const char* to_string(Wire w) noexcept {
    switch (w) {
        case Wire::http: return "http";
        case Wire::grpc: return "grpc";
        case Wire::kafka: return "kafka";
        case Wire::file: return "file";
    }
    return "http";
}

struct Deletion {
    SourcePos pos;                // the profile's delete (or the suite's cleanup:)
    std::string path;             // template of the delete path; `{id}` is the created id
    std::string id_at = "/id";    // JSON pointer of the created id in the answer
    std::string impossible;       // non-empty: it cannot be deleted, and why (reported by the cleanup)
    // The profile says the API cannot delete it (`cannot_delete:`): it is
    // left behind by design, said once in the run's notes, never an error.
    bool by_design = false;
    // The read that confirms a failed delete: its path template ("" = GET
    // the delete URL) and the 2xx answer meaning "not there" (the profile's
    // `not_found:` of that read, e.g. 200 with []), besides 404/410.
    std::string read_path;
    std::optional<suite::StatusExpect::NotFound> read_not_found;
    // The delete is this unary gRPC method, the id at this field (on the
    // creating step's target, or the target's gRPC address for an entity
    // made over HTTP).
    std::string grpc_method;
    std::string grpc_id_field = "/id";
    // The delete goes over another transport than the create (the resource
    // declares its delete over one only): how, in words, for the run's notes.
    std::string across;
    // The created id is in this answer header (its last path segment), not
    // at id_at; the resource the entity is of (its Location is recorded
    // under that name); delete at that Location.
    std::string id_header;
    std::string resource;
    bool at_location = false;
    // The delete's method, and for a delete that names the entity by its id
    // in a JSON body (POST /v1/orders:delete {"id": ...}) where the id goes
    // and the rest of that body; the same for the confirming read.
    std::string method = "DELETE";
    std::string body_id_at;
    std::optional<boost::json::value> body;
    std::string read_method = "GET";
    std::string read_body_id_at;
    std::optional<boost::json::value> read_body;
    // The delete's and the read's own headers (the profile's `headers:` of
    // those endpoints, templates), sent after the creating request's; and
    // the names of the headers only the creating operations send (their
    // own `headers:`: a Prefer, an Idempotency-Key), never sent with them.
    std::vector<std::pair<std::string, std::string>> headers;
    std::vector<std::pair<std::string, std::string>> read_headers;
    std::vector<std::string> create_only_headers;
    // What the create makes besides its own entity (a profile's `made_by`:
    // the folder an upload makes), each deleted after it, its id at its own
    // `id_at` of the same answer (none there: nothing was made).
    std::vector<Deletion> made;

    // A suite's own `cleanup: {path, id}`: DELETE at the path, id at id_at.
    [[nodiscard]] static Deletion written(const suite::Cleanup& cl);
};

// The cleanup a step bound to `d` carries in its suite: d's position, path
// and id pointer, which `list` and the plan show (the runner books `d`
// itself, binding::StepBinding::deletion).
[[nodiscard]] suite::Cleanup written_form(const Deletion& d);

// One creation the cleanup must undo, booked when the create was answered 2xx.
struct Created {
    EntityRequest del;   // what deletes it (the creating principal's credentials)
    Wire wire = Wire::http;
    std::string key;     // delete_key() of the delete
    // A 2xx DELETE of `key` came after this creation was recorded (in a
    // case, or the cleanup's own): a later creation that the server gave
    // the same id (reuse) is a record of its own, still to delete.
    bool deleted = false;
    std::string origin;  // the step that created it, for the report
    std::string problem; // why it cannot be deleted (no delete endpoint, no id in the create answer)
    // Following a re-key (an update answered with another id): the id it
    // has now and where a create/update answer holds it.
    std::string id, id_at;
    std::string rekeyed_from;  // the id it was created with, when a re-key changed it
    bool by_design = false;    // the profile says it cannot be deleted: a note, not a problem
    // The read that confirms a failed delete (none over gRPC, or for a
    // delete by a JSON body without a read), and its 2xx "not there" answer.
    std::optional<EntityRequest> confirm;
    std::optional<suite::StatusExpect::NotFound> read_not_found;
    std::string across;  // the delete goes over another transport than the create: how (Deletion::across)
};

// Where a suite keeps what it created: the records, in order (the cleanup
// deletes them last first), the Location book and the target's addresses.
struct Ledger {
    std::vector<Created>& created;
    LocationBook& locations;
    const std::string& base_url;  // no trailing '/'
    const std::string& grpc_url;  // "" = the target has no grpc section
    // The headers the target and the creating principal send with any
    // request (interpolated; null: unknown): what the delete sends in place
    // of a create-only header of the same name (Deletion::create_only_headers).
    const std::vector<Header>* defaults = nullptr;
};

// The key under which deletes of one entity are told apart: an HTTP DELETE
// by its URL, a delete that names the entity in its message by URL, method
// and body too.
[[nodiscard]] std::string delete_key(Wire wire, const Request& r);

// A request `key` (delete_key) was answered 2xx: every creation recorded so
// far under it is deleted (a later one with the same id is not).
void note_deleted(std::vector<Created>& created, const std::string& key);

// Books what a create answered 2xx made: the entity (its id from the body
// at id_at, the id header or the Location) with its delete, and what it made
// besides (Deletion::made), before it. `body` is the parsed answer (nullptr:
// not JSON). An entity whose id cannot be read is booked with its problem,
// so the cleanup says it may remain.
void book_created(const Ledger& ledger, const Deletion& d, const Request& req, const Response& resp,
                  const boost::json::value* body, const suite::Scope& scope, const std::string& step_name);

// An update (HTTP PUT/PATCH/POST naming the entity, or a gRPC call naming
// its id) answered 2xx with another id at its id_at: the entity was
// re-keyed (a defect), so its delete and read are rebuilt for the new id.
void follow_rekey(std::vector<Created>& created, Wire wire, const Request& req, const boost::json::value* body);

// What one delete of the cleanup met: the delete's exchange and, for a
// failed HTTP delete, the read that asks whether the entity is still there.
struct DeleteOutcome {
    Exchange x;
    Request read;
    std::optional<Exchange> back;
};

// Whether a failed delete of `c` is to be confirmed by its read.
[[nodiscard]] bool needs_confirming(const Created& c, const Exchange& x);

// Whether the entity is gone after that outcome: the delete answered 2xx (a
// gRPC NOT_FOUND is taken at its word), or the read 404/410 or the profile's
// 2xx "nothing there".
[[nodiscard]] bool gone_after(const DeleteOutcome& o, const Created& c);

// Deletes that may run side by side: entities made by the same create (one
// collection, one delete method), which reference each other rarely.
[[nodiscard]] std::string delete_group(const Created& c);

// "'create a product' (id ..., re-keyed from ...)": the entity in the report.
[[nodiscard]] std::string entity_label(const Created& c);

}  // namespace idconform::binding
