// What one request/response exchange looked like, for any transport. The
// runner records these; rule checks read them; reporters print them. Requests
// are stored after interpolation and after secret redaction.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace idconform {

// 1-based position in a source file; line 0 means "no position".
struct SourcePos {
    std::string file;
    int line = 0;
    int column = 0;
    [[nodiscard]] std::string str() const {  // "file:line:col"
        std::string out;
        append_to(out);
        return out;
    }
    void append_to(std::string& out) const {  // str(), appended
        out += file;
        if (line == 0) return;
        out += ':';
        out += std::to_string(line);
        out += ':';
        out += std::to_string(column);
    }
};

struct Header {
    std::string name;
    std::string value;
};

struct Request {
    std::string transport = "http";  // registry name
    std::string method;              // HTTP method, gRPC full method, ...
    std::string url;                 // absolute URL (scheme://host:port/path?query)
    std::vector<Header> headers;
    std::string body;
    // Names of headers whose value holds a secret (redact::mark_secret_headers):
    // like credentials, never sent on to another origin by a redirect.
    std::vector<std::string> secret_headers;
};

struct Response {
    int status = 0;                  // HTTP status
    std::string reason;
    std::vector<Header> headers;
    std::string body;                // at most the configured body cap
    std::uint64_t body_bytes = 0;    // bytes received in total
    bool body_truncated = false;     // body_bytes > body.size()
    [[nodiscard]] const std::string* header(std::string_view name) const;  // case-insensitive
};

// unauthenticated: the target answered 401 to a principal that should be let
// in, where the check does not expect a 401 (runner/auth.hpp): not a contract result.
enum class TransportErrorKind { resolve, connect, tls, timeout, protocol, body_too_large, unauthenticated, other };
[[nodiscard]] const char* to_string(TransportErrorKind k) noexcept;

struct TransportError {
    TransportErrorKind kind = TransportErrorKind::other;
    std::string message;
    // False when another attempt cannot help (the request names a method the
    // schema does not have, a message that does not fit it): no retries.
    bool retryable = true;
};

// A problem a transport sees in the contract itself rather than in one
// answer (a gRPC schema carrying an id as bytes or as an integer). The runner
// reports each as a failed check under `rule`.
struct ContractFinding {
    std::string rule;      // e.g. DATA-ID-002
    std::string what;      // e.g. "schema field products.v1.LegacyProduct.id"
    std::string expected;
    std::string actual;
    std::string field;     // what it is about, e.g. "products.v1.LegacyProduct.id": one finding per field in a run
    std::string schema;    // the schema file declaring it, by its name in the schema: "products/v1/legacy.proto"
    SourcePos pos;         // the field's position in the file read, when the schema gives one (.proto files, not reflection)
};

using Clock = std::chrono::system_clock;

struct Exchange {
    Request request;
    std::optional<Response> response;     // set when an answer arrived
    std::optional<TransportError> error;  // set when it did not
    Clock::time_point sent{};             // just before the first byte went out
    Clock::time_point received{};         // after the last byte came in (or the error)
    int attempts = 1;
    std::vector<ContractFinding> findings;  // about the contract of this exchange (see above)
};

}  // namespace idconform
