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

#include <boost/json/value.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace idconform::suite {

struct Positioned {
    SourcePos pos;
};

// ---------------------------------------------------------------- target

struct Target : Positioned {
    std::string base_url;                 // template, e.g. "${env:BASE_URL:-http://127.0.0.1:8080}"
    std::vector<std::pair<std::string, std::string>> headers;  // templates
    std::string ca_file, cert_file, key_file;
    bool insecure = false;
    std::optional<long> connect_timeout_ms, read_timeout_ms;
    struct Grpc : Positioned {
        std::string address;                    // template, "host:port" (or grpc://, grpcs://)
        std::vector<std::string> protos;        // .proto files, relative to the suite file
        std::vector<std::string> import_paths;  // relative to the suite file
        bool reflection = true;                 // ask the server for services not in `protos`
        bool tls = false;                       // grpcs
        std::string ca_file, cert_file, key_file;  // relative to the suite file; empty: the target's tls
    };
    std::optional<Grpc> grpc;             // `grpc:` section; grpc steps need it
};

struct Principal : Positioned {
    std::string name;
    std::vector<std::pair<std::string, std::string>> headers;  // templates, e.g. Authorization
};

struct Variable : Positioned {
    std::string name;
    boost::json::value value;  // string leaves may hold placeholders
    bool secret = false;       // redacted in every report
    bool deferred = false;     // interpolated each time it is used, not at suite start (a body
                               // template naming ids that setup captures); set by profiles only
};

// ----------------------------------------------------------- expectations

struct StatusExpect : Positioned {
    std::vector<int> exact;      // 200, 201
    std::vector<int> classes;    // 4 for "4xx"
    std::vector<int> grpc_codes; // NOT_FOUND (5), or a number 0..16: the gRPC status code of a grpc step
    bool negate = false;         // `status_not:` - none of these may match
};

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
};

// An identifier check; calls the identifier module.
struct IdExpect : Positioned {
    std::optional<std::string> at;      // JSON pointer into the body, or
    std::optional<std::string> header;  // header name (Location: last path segment)
    std::string kind = "uuid";          // uuid, uuidv1..uuidv8, ulid, viewable, uuidv8-legacy
    bool canonical = true;              // must be in the canonical form of its kind
    bool minted = false;                // v7/ULID time inside send/receive window +/- skew
    bool allow_null = false;            // null or absent is fine
    std::optional<std::string> equals;  // template: must be this id (canonical compare)
    bool unique = false;                // never seen before in this suite run (distinct ids, no reuse)
    std::string time_field;             // JSON pointer: advisory DATA-ID-005 check that this time
                                        // field is not merely the id's own timestamp
};

struct Expect : Positioned {
    std::optional<StatusExpect> status;
    std::vector<HeaderExpect> headers;
    std::vector<JsonExpect> json;
    std::optional<BodyExpect> body;
    std::vector<IdExpect> ids;
    std::string rule;  // overrides the case's rules for these checks when set
    bool advisory = false;  // failing checks become warnings (reported, never fail the case)
};

struct Capture : Positioned {
    std::string var;
    enum class From { json, header, status } from = From::json;
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

// A unary gRPC call (Step::Kind::grpc): the message is JSON converted with
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
};

struct Step : Positioned {
    // Which transport the step talks to; the member of that name holds the
    // request. A new transport adds its kind, its request struct and a
    // request builder in the runner.
    enum class Kind { http, grpc } kind = Kind::http;
    std::string name;  // defaults to "METHOD path" ("grpc Service/Method")
    HttpRequest http;
    GrpcCall grpc;
    Expect expect;
    std::vector<Capture> captures;
    std::optional<Cleanup> cleanup;  // a 2xx answer created an entity: delete it at the end of the suite
};

struct ForEach : Positioned {
    enum class Source { vectors, mutations, count } source = Source::vectors;
    int count = 0;                   // Source::count: elements 1..count
    std::string set;                 // vector set name, or a template naming a captured id
    std::string as = "item";         // variable name bound per element
    std::vector<std::string> only;   // element names to keep (empty = all)
    std::vector<std::string> except; // element names to drop
};

struct Case : Positioned {
    std::string name;
    std::string description;
    std::vector<std::string> rules;
    std::vector<std::string> tags;
    std::optional<ForEach> for_each;
    std::vector<Step> steps;
    std::string skip;  // non-empty: skipped with this reason
    std::vector<std::string> needs;    // variables that must be defined (not null), else skipped
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
};

}  // namespace idconform::suite
