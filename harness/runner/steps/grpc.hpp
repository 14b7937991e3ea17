// The grpc step kind: its request (the message as JSON after set/unset, the
// target's and principal's headers plus the step's metadata, all with
// lower-case names), description, case properties and reproduce command
// (grpcurl).
#pragma once

#include "core/result.hpp"
#include "runner/scope.hpp"
#include "runner/steps/env.hpp"
#include "suite/model.hpp"
#include "transport/transport.hpp"

#include <string>
#include <vector>

namespace idconform::runner::steps {

[[nodiscard]] Result<Request> build(const suite::GrpcCall& g, const Env& env, const Scope& scope);
[[nodiscard]] std::string describe(const suite::GrpcCall& g);
void add_properties(const suite::GrpcCall& g, std::vector<Property>& out);
[[nodiscard]] std::string scan_site(const suite::GrpcCall& g, const Request& sent);

// The grpcurl command reproducing a grpc request (protos and TLS files from `g`).
[[nodiscard]] std::string grpcurl_command(const Request& r, const transport::GrpcOptions& g);

}  // namespace idconform::runner::steps
