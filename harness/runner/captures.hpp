// Captures: values of an answer (status, a header, a JSON member) bound to
// variables of the scope for the steps that follow. The one place a step
// writes into its scope; checks (checks.hpp) only read.
#pragma once

#include "core/exchange.hpp"
#include "runner/body_json.hpp"
#include "runner/scope.hpp"
#include "suite/model.hpp"

#include <vector>

namespace idconform::runner {

// Returns an error message for the first capture that finds nothing.
[[nodiscard]] Result<bool> apply_captures(const std::vector<suite::Capture>& caps, const Exchange& x, Scope& scope);
[[nodiscard]] Result<bool> apply_captures(const std::vector<suite::Capture>& caps, const Exchange& x, Scope& scope,
                                          BodyJson& body);

}  // namespace idconform::runner
