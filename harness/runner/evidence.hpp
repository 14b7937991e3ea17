// The evidence of a step and a case: what a report shows of a request (its
// secrets masked), the command that sends it again, the one-line message of
// a case that did not pass, and what a passed case keeps.
#pragma once

#include "core/result.hpp"
#include "runner/steps/env.hpp"

#include <set>
#include <string>
#include <vector>

namespace idconform::runner {

// The evidence of a step that sent something: its request, answer, error
// and checks scrubbed of secrets in place (core/redact.hpp, the one
// redaction module) and the command line that sends the request again.
void add_evidence(StepRecord& rec, steps::Wire wire, const steps::Env& env, const std::set<std::string>& secrets);

// "timeout: no answer after 300 ms (GET http://..., 2 attempts)"
[[nodiscard]] std::string describe_transport_error(const Exchange& x);

// The first check that fails (not ok, not a warning), or nullptr.
[[nodiscard]] const CheckResult* first_failure(const std::vector<CheckResult>& checks);
[[nodiscard]] const CheckResult* first_failure(const std::vector<StepRecord>& steps);
// The message of a case that this check failed: "WHAT: expected E, got A".
[[nodiscard]] std::string failure_message(const CheckResult& c);

// The reproduce line of the collected checks: the case's first n requests
// sent again, in order (a run of identical requests, e.g. from `repeat`, as
// one shell loop).
[[nodiscard]] std::string replay_steps(const std::vector<StepRecord>& steps, std::size_t n);

// A passed case keeps what its report shows (request line, status, checks)
// and drops headers, bodies and the reproduce command, so that runs of
// 100,000 cases stay small. Failed and errored cases keep all.
void compact_passed(CaseResult& r);

}  // namespace idconform::runner
