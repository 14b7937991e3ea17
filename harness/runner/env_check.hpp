// Before the first request: the environment variables a run cannot do
// without. A `${env:NAME}` with no default in what a suite uses at its start
// (its variables, the target's base URL, gRPC address, headers and Kafka
// properties) or in the headers of a principal one of its selected steps
// sends as would fail every suite and case that reaches it, after other
// suites already sent requests; told once per variable, at the position of
// its first use, the run starts nothing (exit 2).
#pragma once

#include "core/diagnostic.hpp"
#include "runner/runner.hpp"
#include "suite/model.hpp"

#include <vector>

namespace idconform::runner {

// One diagnostic per unset variable (set but empty is set), in the order of
// first use, for the suites the options would run (as the engine selects
// them: --filter and --tags, the preflight when any contract case runs).
[[nodiscard]] std::vector<Diagnostic> missing_environment(const std::vector<suite::Suite>& suites,
                                                          const RunOptions& options);

}  // namespace idconform::runner
