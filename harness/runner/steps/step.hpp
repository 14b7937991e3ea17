// Dispatch over the step kinds (suite::StepRequest): each function visits
// the step's request and calls the function of that kind's module in this
// folder (http, grpc, kafka, file, call). A new kind adds its module and the
// compiler points at every visit here that must handle it.
#pragma once

#include "core/result.hpp"
#include "runner/scope.hpp"
#include "binding/entity_view.hpp"
#include "binding/operations.hpp"
#include "runner/steps/env.hpp"
#include "runner/step_outcome.hpp"
#include "suite/model.hpp"

#include <optional>
#include <string>
#include <vector>

namespace idconform::runner::steps {

// The request a step sends (not for file steps: they send nothing).
// `bound` (null: as written): what the suite's binding gave the step
// besides its request (binding::BoundSteps::of).
[[nodiscard]] Result<Request> build(const suite::Step& st, const binding::StepBinding* bound, const Env& env,
                                    const Scope& scope);

// The step as one line of `idconform list` ("POST /v1/products as alice").
[[nodiscard]] std::string describe(const suite::Step& st);

// The "transport" and "endpoint" properties of a case, from its first step
// (a case without steps is "http" without an endpoint). The endpoint is a
// site_template: the profile's `${res.*}` filled in from `scope`.
void add_properties(const suite::Step* first, const Scope& scope, std::vector<Property>& out);

// The endpoint under which the shape scan files this step's answer fields
// (its folded findings, DATA-ID-003's versions): "METHOD path template",
// "METHOD topic", the gRPC method. The same for every answer of one
// endpoint, whatever ids were sent: the profile's variables (`res.*`) are
// filled in, every other variable stays a placeholder `{name}`.
[[nodiscard]] std::string scan_site(const suite::Step& st, const Request& sent, const Scope& scope);

// `tmpl` with `${res.*}` variables replaced by their text and every other
// `${name}` by `{name}` ("${res.read}" -> "/v1/orders/{id}",
// "/v1/products/${product_id}" -> "/v1/products/{product_id}").
[[nodiscard]] std::string site_template(std::string_view tmpl, const Scope& scope);

// The step's name in reports: its own, or one made from its kind (an
// unbound call: "call OPERATION").
[[nodiscard]] std::string name(const suite::Step& st);
// Whether the step sends nothing and is run where it is (a file scan) by
// run_local instead of build() and a transport.
[[nodiscard]] bool runs_locally(const suite::Step& st) noexcept;
// Runs a step that sends nothing (runs_locally): a file scan.
[[nodiscard]] StepOutcome run_local(const suite::Step& st, const Scope& scope, const std::string& rule);
// The checks a step kind adds to its expectations' (a Kafka consume: the
// message it waited for was there, or was not), under `rule`.
void add_kind_checks(const suite::Step& st, const Exchange& x, const std::string& rule,
                     std::vector<CheckResult>& checks);
// How the answer is judged when the step reads an entity out of an array
// (an http read whose binding::Access, in `bound`, says so); nullopt for
// every other step.
[[nodiscard]] std::optional<binding::EntityView> view_entity(const suite::Step& st, const binding::StepBinding* bound,
                                                             const Exchange& x, const std::string& rule);
// Which tool sends the step's request again.
[[nodiscard]] Wire wire(const suite::Step& st) noexcept;

// The command line that sends `r` (already redacted) again: curl, grpcurl
// or kcat; "" for a file scan.
[[nodiscard]] std::string reproduce(Wire w, const Request& r, const Env& env);

}  // namespace idconform::runner::steps
