// Checks over more than one answer: a case's `collected:` checks (over the
// ids its steps collected, in order) and the suite's one-UUID-version-per-
// field case (DATA-ID-003, from the shape scan's record).
#pragma once

#include "core/result.hpp"
#include "runner/scope.hpp"
#include "runner/suite_run.hpp"
#include "suite/model.hpp"

#include <map>
#include <string>
#include <vector>

namespace idconform::runner {

// The case's `collected:` checks, as one more step record of `r` (its
// reproduce line is left to the caller, see replay_steps); true when one
// failed (then `r` is failed with its message).
bool evaluate_collected(const suite::Case& c, const Scope& scope, const std::string& rule,
                        const std::map<std::string, std::vector<std::string>>& collected, CaseResult& r);

// DATA-ID-003: all values of one field seen in the run share one version.
[[nodiscard]] CaseResult field_versions_case(const SuiteRun& run);

}  // namespace idconform::runner
