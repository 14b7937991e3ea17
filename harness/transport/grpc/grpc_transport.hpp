// The gRPC transport: dynamic unary calls of any method, no generated code.
// Request.method is "package.Service/Method", Request.url "grpc://host:port"
// (or grpcs:// for TLS), Request.headers the metadata, Request.body the
// request message as JSON. See README.md beside this file.
#pragma once

#include "transport/transport.hpp"

#include <memory>

namespace idconform::transport::grpcdyn {

// Creates the transport; schemas and channels are made on first use (per
// target) and problems with them are reported by the exchanges, never thrown.
[[nodiscard]] std::unique_ptr<Transport> make_grpc_transport(boost::asio::any_io_executor ex, const Options& opts);

// The Response for a finished call with gRPC status `code`: HTTP-equivalent
// status, the code name as reason, grpc-status/grpc-message headers. Exposed
// for tests. nullopt for the codes that are transport errors (UNAVAILABLE,
// DEADLINE_EXCEEDED), which `error` then describes.
struct CallOutcome {
    std::optional<Response> response;
    std::optional<TransportError> error;
};
[[nodiscard]] CallOutcome classify(int code, const std::string& message, bool tls);

}  // namespace idconform::transport::grpcdyn
