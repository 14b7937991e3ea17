// The suite model: what a YAML suite says, after loading and validation but
// before interpolation. Every element keeps the position it was written at.
// Strings may hold placeholders that the runner fills at run time:
//   ${name}                 a variable (suite var, capture, for_each element)
//   ${name.field}           a field of a structured variable (vector, mutation)
//   ${env:NAME}             an environment variable (error if unset)
//   ${env:NAME:-default}    an environment variable with a default
// In `path`, `{name}` (no dollar) inserts the variable percent-encoded as one
// path segment, so mutated ids with spaces, braces or Unicode go out intact.
// A JSON string leaf that is exactly "${name}" is replaced by the variable's
// JSON value (so null, 0 or "" can be sent); otherwise text is substituted.
#pragma once

#include "core/exchange.hpp"
#include "core/result.hpp"
#include "suite/operation.hpp"

#include <boost/json/value.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace idconform::binding {
struct SuiteBinding;  // the resource bindings of a pack instance's calls (binding/operations.hpp)
}

namespace idconform::suite {

struct Positioned {
    SourcePos pos;
};

// ---------------------------------------------------------------- target

// The Kafka cluster of `kafka` steps: `target: {kafka: {brokers: ..., properties: {...}}}`.
// Interpolated when the first kafka step runs, so a suite whose kafka cases
// are skipped (requires: [env:...]) needs no broker variable.
struct KafkaTarget : Positioned {
    std::string brokers;                                          // template: bootstrap.servers
    std::vector<std::pair<std::string, std::string>> properties;  // librdkafka properties, templates
};

// TLS files and timeouts of a target: the same for suites (`target:`) and
// profiles (top level), read by suite/target_reader.hpp for both.
struct TargetTls {
    std::string ca_file, cert_file, key_file;  // `tls: {cacert, cert, key}`, paths as written
    bool insecure = false;
};
struct TargetTimeouts {
    std::optional<long> connect_timeout_ms, read_timeout_ms;  // `timeout: {connect, read}`
};

struct Target : Positioned, TargetTls, TargetTimeouts {
    std::string base_url;                 // template, e.g. "${env:BASE_URL:-http://127.0.0.1:8080}"
    std::vector<std::pair<std::string, std::string>> headers;  // templates
    KafkaTarget kafka;
    struct Grpc : Positioned {
        std::string address;                    // template, "host:port" (or grpc://, grpcs://)
        std::vector<std::string> protos;        // .proto files, relative to the suite file
        std::vector<std::string> import_paths;  // relative to the suite file
        bool reflection = true;                 // ask the server; default: only when no `protos` are named
        bool tls = false;                       // grpcs
        std::string ca_file, cert_file, key_file;  // relative to the file; empty: the target's tls
    };
    std::optional<Grpc> grpc;             // `grpc:` section; grpc steps need it
};

struct Principal : Positioned {
    std::string name;
    std::vector<std::pair<std::string, std::string>> headers;  // templates, e.g. Authorization
    // `authenticated: false`: a caller the API does not know (no or a bad
    // credential on purpose). Every other principal is authenticated: a 401
    // answer to it says nothing about the contract (runner/auth.hpp).
    bool authenticated = true;
};

// The statuses with which an API refuses another principal access to an
// entity (`refused:` of a suite or profile; `status: refused` in an
// expectation): 403 and 404 unless the API says otherwise.
[[nodiscard]] inline std::vector<int> default_refused() { return {403, 404}; }

struct Variable : Positioned {
    std::string name;
    boost::json::value value;  // string leaves may hold placeholders
    bool secret = false;       // redacted in every report
    bool deferred = false;     // interpolated each time it is used, not at suite start (a body
                               // template naming ids that setup captures); set by profiles only
};

// ----------------------------------------------------------- expectations

// A 2xx answer that means "nothing there" ({"found": false}, `[]`, a 204
// with no body): that status with exactly `body`, or (with `at`) that status
// with `equals` at the JSON pointer `at`, or (`empty`) that status with no
// body. Written in a suite's `expect: {not_found: ...}`, or given by the
// profile's endpoint (`not_found:` there) to the refusal checks of its steps.
struct NotFound : Positioned {
    int status = 200;
    boost::json::value body;
    std::string at;             // "" = the whole body is `body`
    boost::json::value equals;  // with `at`: the member's value
    bool empty = false;         // an answer of `status` with no body (`empty: true`)
};

struct StatusExpect : Positioned {
    using NotFound = suite::NotFound;
    std::vector<int> exact;      // 200, 201
    std::vector<int> classes;    // 4 for "4xx"
    std::vector<int> grpc_codes; // NOT_FOUND (5), or a number 0..16: the gRPC status code of a grpc step
    bool negate = false;         // `status_not:` - none of these may match
    bool refused = false;        // `refused` in the list: the suite's `refused:` statuses (Suite::refused)
    // A refusal check of an API whose "nothing there" is a 2xx: that answer
    // matches too (the suite's `not_found:` or the profile's endpoint).
    std::optional<NotFound> not_found;
};

// A check that wants a refusal: only 4xx statuses (404, [403, 404], 4xx, refused).
[[nodiscard]] inline bool is_refusal(const StatusExpect& s) {
    if (s.negate || (s.exact.empty() && s.classes.empty() && !s.refused)) return false;
    for (int c : s.exact)
        if (c / 100 != 4) return false;
    for (int c : s.classes)
        if (c != 4) return false;
    return true;
}

struct HeaderExpect : Positioned {
    std::string name;
    std::optional<std::string> equals;   // template
    std::optional<std::string> regex;    // RE2, full match
    bool absent = false;
    bool present = false;
};

enum class JsonOp { equals, absent, present, null, type, regex, one_of };

struct JsonExpect : Positioned {
    std::string pointer;           // RFC 6901
    JsonOp op = JsonOp::equals;
    boost::json::value operand;    // equals/one_of: value(s) (templates allowed); type: "string" ...; regex: pattern
};

struct BodyExpect : Positioned {
    std::vector<std::string> contains;      // templates
    std::vector<std::string> not_contains;  // templates
    // Templates: values the step sent (a mutated id) that the answer may
    // quote back; not_contains looks for its texts outside those quotes
    // (an error naming the rejected input is not a leak, runner/echo.hpp).
    std::vector<std::string> allow_echo;
};

// An identifier check; calls the identifier module.
struct IdExpect : Positioned {
    std::optional<std::string> at;      // JSON pointer into the body, or
    std::optional<std::string> header;  // header name (Location: last path segment)
    std::string kind = "uuid";          // an ids::IdKind name (uuid ... uuidv8-legacy, existing, any) or a variable
    bool canonical = true;              // must be in the canonical form of its kind
    bool minted = false;                // v7/ULID time inside send/receive window +/- skew
    bool allow_null = false;            // null or absent is fine
    std::optional<std::string> equals;  // template: must be this id (canonical compare)
    bool unique = false;                // never seen before in this suite run (distinct ids, no reuse)
    std::string time_field;             // JSON pointer: advisory DATA-ID-005 check that this time
                                        // field is not merely the id's own timestamp
    // Packs db-identifiers / viewable-id / uuidv8-legacy:
    std::string collect;                // append the id text to the case's list of this name (`collected:`)
    std::optional<std::string> pattern; // template: RE2 full match replacing the kind's built-in form check
    struct Legacy : Positioned {        // kind uuidv8-legacy: what the bits must say (templates; "" = unchecked)
        std::string layout;             // ids::format_layout() spec; "" = the default layout
        std::string legacy_id;          // decoded legacy id must be this number
        std::string entity_type;        // decoded entity type must be this number
        std::string salt;               // hash bits must verify with this salt
    };
    std::optional<Legacy> legacy;
};

struct Expect : Positioned {
    std::optional<StatusExpect> status;
    std::vector<HeaderExpect> headers;
    std::vector<JsonExpect> json;
    std::optional<BodyExpect> body;
    std::vector<IdExpect> ids;
    std::string rule;  // overrides the case's rules for these checks when set
    bool advisory = false;  // failing checks become warnings (reported, never fail the case)
    std::string id_members;  // a kind: every id-named member of the JSON body holds an id of it (R1)
    // (pointer in the entity, kind) of members declared on purpose: judged by
    // their own kind, not by id_members' (`id_members: {kind, declared}`; the
    // profile expander fills in what a profile declares)
    std::vector<std::pair<std::string, std::string>> id_members_declared;
    // Non-empty: these checks are what the rest of the case needs to mean
    // anything (the owner's list shows the entity before another principal's
    // list is searched for it). When they fail, the case is skipped with this
    // reason instead of passing vacuously or failing for the wrong rule.
    std::string precondition;
};

struct Capture : Positioned {
    std::string var;
    // header_id: the id a header names, its last path segment (Location:
    // /v1/x/ID?q -> ID; a bare id header is the id itself): `{header_id:
    // Location}` in a suite, and what the profile expander captures for a
    // resource whose new id is only in a header.
    enum class From { json, header, status, header_id } from = From::json;
    std::string path;  // JSON pointer or header name
};

// ------------------------------------------------------------------ steps

struct HttpRequest : Positioned {
    std::string method = "GET";
    std::string path;  // template; joined to the target's base_url unless absolute
    std::vector<std::pair<std::string, std::string>> query;    // templates, percent-encoded at run time
    std::vector<std::pair<std::string, std::string>> headers;  // templates
    std::optional<boost::json::value> json;  // body sent as application/json
    std::optional<std::string> raw;          // body sent as is (template)
    std::string principal;                   // name in Suite::principals, may be empty
    // `{name}` in the path taken from these (templates, percent-encoded) before
    // variables; lets a path template come from a variable: path: "${res.read}",
    // path_params: {id: "${m}"}.
    std::vector<std::pair<std::string, std::string>> path_params;
    // Edits of the JSON body after interpolation: set the value at a pointer
    // (pointer and value are templates), remove a member.
    std::vector<std::pair<std::string, boost::json::value>> set;
    std::vector<std::string> unset;
};

// An operation on the resource a pack is instantiated for (create, read,
// update, delete, list, put), written once in a pack suite. It stays a call
// in the expanded suite and is bound, when the suite runs or is shown,
// through the suite's binding (binding::bind_calls, binding/operations.hpp)
// to the request the target profile declares for that operation, on its
// transport; one the profile does not declare stays a call and fails as
// one (runner/steps/call.cpp).
struct OpCall : Positioned {
    Operation op = Operation::read;
    std::string id;          // template: the entity id (read, update, delete, put)
    std::vector<std::pair<std::string, std::string>> filter;  // list: filters by reference (templates)
    std::optional<boost::json::value> json;  // body instead of the profile's (create, update, put)
    std::vector<std::pair<std::string, boost::json::value>> set;  // edits of the body, as in http
    std::vector<std::string> unset;
    std::string principal;
    bool via_other = false;  // `via: other`: on the resource's other transport (cross-transport checks)
};
// One condition a consumed message must meet (all of a step's must hold).
struct KafkaMatch : Positioned {
    enum class Kind { key, header, json } kind = Kind::key;
    std::string name;   // header name, or JSON pointer into the payload
    std::string value;  // template: the wanted text (a JSON string compares as its text)
};

// `kafka: {produce: {...}}` or `kafka: {consume: {...}}` (see docs/suite-format.md).
struct KafkaRequest : Positioned {
    enum class Op { produce, consume } op = Op::produce;
    std::string topic;  // template
    // produce
    std::optional<std::string> key;                            // template; none = null key
    std::vector<std::pair<std::string, std::string>> headers;  // templates
    std::optional<boost::json::value> json;                    // payload as JSON
    std::optional<std::string> raw;                            // payload as text (template)
    std::optional<int> partition;                              // none = the partitioner's choice
    // consume
    std::vector<int> partitions;  // empty = every partition
    std::vector<KafkaMatch> match;
    // Where reading starts: the start of the current case (minus the clock
    // skew; an event an earlier step caused is never missed), the end, the
    // beginning, a time (RFC 3339, template) or an offset.
    enum class From { case_start, end, beginning, time, offset } from = From::case_start;
    std::string from_time;
    std::int64_t from_offset = 0;
    std::optional<long> timeout_ms;  // how long to wait for a match; default: the read timeout
    bool absent = false;             // the check is that no matching message arrives in that time
};

// A unary gRPC call (a `grpc:` step): the message is JSON converted with
// the method's descriptor; principal headers become metadata (lower-case).
struct GrpcCall : Positioned {
    std::string method;                         // template, "package.Service/Method"
    boost::json::value message = boost::json::object();  // string leaves may hold placeholders
    std::vector<std::pair<std::string, std::string>> metadata;  // templates
    std::string principal;
    std::vector<std::pair<std::string, boost::json::value>> set;  // as HttpRequest::set
    std::vector<std::string> unset;
};

// What a step created, so the run can delete it at the end.
struct Cleanup : Positioned {
    std::string path;     // template of the delete path; `{id}` is the created id
    std::string id_at = "/id";  // JSON pointer of the created id in the answer
    // (A step bound to a target profile's resource is deleted as its binding
    // says, binding::StepBinding::deletion; this is then that deletion's
    // path and pointer, for `list` and the plan.)
};

// A file to scan (an export the target wrote): every violation of the
// identifier rules in it becomes a failed check of the step (scan/scan.hpp).
struct FileScan : Positioned {
    std::string path;    // template, e.g. "${export_dir}/products.ndjson"
    std::string format;  // "ndjson", "json", "csv"; empty: from the extension
    // Declared id fields: JSON pointer relative to the record (array indices
    // written '*') or CSV column name -> "KIND" or "KIND,nullable".
    std::vector<std::pair<std::string, std::string>> fields;
    bool shape = true;                // also shape-scan every value
    std::size_t max_violations = 1000;  // kept as checks; a scan stops after this many
};

// The request of a step, one alternative per step kind. A new kind adds its
// request struct here; the compiler then names every std::visit over steps
// that must handle it (runner/steps/, the loader, `idconform list`).
using StepRequest = std::variant<HttpRequest, OpCall, KafkaRequest, FileScan, GrpcCall>;

struct Step : Positioned {
    StepRequest request;  // an HttpRequest unless the suite says otherwise
    std::string name;  // defaults to "METHOD path" ("kafka produce TOPIC", "scan path", "grpc Service/Method")
    Expect expect;
    std::vector<Capture> captures;
    std::optional<Cleanup> cleanup;  // a 2xx answer created an entity: delete it at the end of the suite
    int repeat = 1;                  // sent this many times in a row, each with its checks and captures

    template <class T> [[nodiscard]] bool is() const noexcept { return std::holds_alternative<T>(request); }
    // The request as kind T (throws std::bad_variant_access when it is another kind: check is<T>() first).
    template <class T> [[nodiscard]] T& as() { return std::get<T>(request); }
    template <class T> [[nodiscard]] const T& as() const { return std::get<T>(request); }
};

// The name of a step the suite does not name: "METHOD path", "kafka produce
// TOPIC", "scan PATH", "grpc Service/Method"; "" for a call (named when bound).
[[nodiscard]] std::string default_step_name(const StepRequest& r);
// The principal a step sends as ("" = the suite's default or none: Kafka and
// file steps have no principal).
[[nodiscard]] const std::string& principal_of(const StepRequest& r);
// What a step waits for besides its answer, as `idconform list` says it ("a
// message on TOPIC", "no message on TOPIC" for a Kafka consume); "" for
// the other kinds.
[[nodiscard]] std::string awaited(const StepRequest& r);
// Whether the step sends a message whose members the schema types (a gRPC
// call), so a value a field cannot hold is told before sending.
[[nodiscard]] bool typed_message(const StepRequest& r) noexcept;
// Why a step of this kind may not have `cleanup:` (message, hint); nullopt
// where it may (an http step; a call, which the profile binds).
struct Refusal {
    std::string message, hint;
};
[[nodiscard]] std::optional<Refusal> cleanup_refused(const StepRequest& r);

struct ForEach : Positioned {
    enum class Source { vectors, mutations, count } source = Source::vectors;
    int count = 0;                   // Source::count: elements 1..count
    std::string set;                 // vector set name, or a template naming a captured id
    std::string as = "item";         // variable name bound per element
    std::vector<std::string> only;   // element names to keep (empty = all)
    std::vector<std::string> except; // element names to drop
    // Source::mutations: the id kind whose mutations are made (an ids::IdKind
    // name, or a template such as "${res.id_kind}" resolved when the case is
    // expanded); empty: the kind the live id's text reads as (ids::kind_of_text).
    std::string kind;
    // kind viewable: the format of the ids, prefix and symbols after it
    // (`prefix:` and `length:` in a suite; a profile's `viewable:` section
    // gives them to the packs).
    std::string viewable_prefix = "TR-";
    std::size_t viewable_length = 7;
};

// A check over the values a case's id checks collected (`collect:`), in the
// order the steps ran; evaluated after the last step when no step failed.
struct CollectedExpect : Positioned {
    std::string list;              // the `collect:` name
    bool distinct = false;         // no value twice
    bool same = false;             // every value equal (deterministic ids)
    bool time_ordered = false;     // ULIDs: 48-bit times non-decreasing in order
    std::optional<std::string> random;  // template: prefix to strip; then no sequential or low-entropy
                                        // pattern in the Crockford symbols (runner/sequence_checks.hpp)
    int min_count = 0;             // fewer collected values is a failure (0 = at least 2)
};

struct Case : Positioned {
    std::string name;
    std::string description;
    std::vector<std::string> rules;
    std::vector<std::string> tags;
    std::optional<ForEach> for_each;
    std::vector<Step> steps;
    std::string skip;  // non-empty: skipped with this reason
    // Why, for the summaries: a suite's own `skip:` (a rule nothing outside
    // can observe) is not applicable; profile expansion sets the others.
    SkipCause skip_cause = SkipCause::not_applicable;
    std::vector<std::string> needs;    // variables that must be defined (not null), else skipped
    std::vector<CollectedExpect> collected;  // checks over collected ids, after the steps
    // `fresh:` what each run of the case (each for_each element) makes anew in
    // its own scope before its steps: suite variables by name, evaluated again
    // (a `${gen:...}` gives a new value), and setup steps by name, run again
    // (their captures rebind the live ids, their creates are cleaned up like
    // any other). An element that deleted or changed the entity then leaves
    // the next one a known state. `fresh: setup` names every setup step.
    std::vector<std::string> fresh;
    bool fresh_all_setup = false;  // `fresh: setup`: every setup step, named or not
};

// --------------------------------------------------------------- vectors

struct Vector : Positioned {
    std::string name;
    boost::json::value value;          // usually a string; may be null, 0, ""
    boost::json::object fields;        // every other key of the entry
};

struct VectorSet : Positioned {
    std::string name;
    std::string description;
    std::vector<Vector> vectors;
};

// ----------------------------------------------------------------- suite

struct Suite : Positioned {
    std::string name;
    std::string description;
    std::string file;
    std::vector<std::string> tags;
    std::vector<Variable> vars;
    Target target;
    std::map<std::string, Principal> principals;
    std::map<std::string, VectorSet> vector_sets;  // own and included
    std::vector<Step> setup;      // run once before the cases; captures become suite vars
    std::vector<Step> teardown;   // run once after, always (cleanup)
    std::vector<Case> cases;
    bool scan = false;  // shape-based scan of every 2xx JSON answer (see runner/checks.hpp)
    // `refused: [403, 404]`: what `status: refused` matches (4xx codes).
    std::vector<int> refused = default_refused();
    // `preflight: true`: the suite checks that the target can be tested at
    // all (the principals are let in). It runs before every other suite,
    // whatever --filter, --tags or --shard select; a case of it answered 401,
    // 403 to the owner, or not at all stops the run (runner/preflight.hpp).
    bool preflight = false;
    // A pack instance's resource over its transports (binding/operations.hpp),
    // which its `call` steps are bound through when the suite runs or is
    // shown (binding::bind_calls); null for a suite written by hand.
    std::shared_ptr<const binding::SuiteBinding> binding;
};

}  // namespace idconform::suite
