// The preflight suite (`preflight: true`, suites/packs/preflight.yaml): run
// before every other suite, it says whether the target can be tested with
// the principals the run was given. Its results are judged again here
// before they are reported:
//  - a principal the API does not let in (a 401 the step does not expect,
//    runner/auth.hpp) or a target that cannot be reached (resolve, connect,
//    TLS) stops the run: no other suite starts, exit 3;
//  - an owner that is let in but not allowed to do what the checks need
//    (403, gRPC PERMISSION_DENIED) is an error that stops the run too, naming
//    the principal and its credential;
//  - any other failure (a create refused as malformed, a read answering 500)
//    is not the preflight's to judge: it is reported as not checked, and the
//    contract cases judge the same answers under their rules.
#pragma once

#include "core/result.hpp"
#include "suite/model.hpp"

#include <optional>
#include <string>

namespace idconform::runner {

// Judges one result of a preflight suite `s` (a case, or its setup's
// testcase) in place; returns why the run stops, or nullopt.
[[nodiscard]] std::optional<std::string> judge_preflight(const suite::Suite& s, CaseResult& r);

// The run's note when a preflight stopped it.
[[nodiscard]] std::string preflight_stop_note(const std::string& reason, std::size_t suites_not_started);

}  // namespace idconform::runner
