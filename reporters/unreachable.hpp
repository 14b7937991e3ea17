// An error case whose cause is a target that cannot be reached (name not
// resolved, connection refused, TLS handshake failed): the same cause makes
// every case an error, so the console says it once with a count and JUnit
// gives each <error> the short form of the cause.
#pragma once

#include "core/result.hpp"

#include <optional>
#include <string>

namespace idconform::reporters {

// "connect: connection refused to 127.0.0.1:1" for an error case one of
// whose steps could not reach its target (resolve/connect/tls), else nullopt.
// The text names the address, so two unreachable targets stay two causes.
[[nodiscard]] std::optional<std::string> unreachable_cause(const CaseResult& c);

}  // namespace idconform::reporters
