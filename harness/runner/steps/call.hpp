// The call step kind: a pack's operation on its resource (create, read, ...)
// that the profile expander binds to an http or grpc step. One that reaches
// the runner unbound is an error naming the fix; `idconform list` shows it as
// written.
#pragma once

#include "core/result.hpp"
#include "runner/scope.hpp"
#include "runner/steps/env.hpp"
#include "suite/model.hpp"

#include <string>
#include <vector>

namespace idconform::runner::steps {

[[nodiscard]] Result<Request> build(const suite::OpCall& c, const Env& env, const Scope& scope);
[[nodiscard]] std::string describe(const suite::OpCall& c);
void add_properties(const suite::OpCall& c, std::vector<Property>& out);

}  // namespace idconform::runner::steps
