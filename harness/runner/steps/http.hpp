// The http step kind: its request (method, path with `{name}` parameters,
// query, headers, JSON or raw body), its one-line description, its case
// properties and its reproduce command (curl).
#pragma once

#include "binding/access.hpp"
#include "core/result.hpp"
#include "runner/scope.hpp"
#include "runner/steps/env.hpp"
#include "suite/model.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace idconform::runner::steps {

// `access` (null: as written): how the step's binding says it reaches its
// entity (binding::StepBinding::access): at a Location the book holds.
[[nodiscard]] Result<Request> build(const suite::HttpRequest& h, const Env& env, const Scope& scope,
                                    const binding::Access* access = nullptr);

// A path template (suite/scope.hpp).
using suite::build_path;

// "POST /v1/products ?a=b body/x=1 as alice" (`idconform list`).
[[nodiscard]] std::string describe(const suite::HttpRequest& h);
// The case properties "transport" and "endpoint" of a case starting with this step.
void add_properties(const suite::HttpRequest& h, std::vector<Property>& out);

// A shell command reproducing the request (secrets already redacted in `r`).
// max_redirects: set when the run follows redirects (-L): the command does
// too (-L --max-redirs N), so it reproduces what was sent and answered.
[[nodiscard]] std::string curl_command(const Request& r, std::optional<int> max_redirects = std::nullopt);

}  // namespace idconform::runner::steps
