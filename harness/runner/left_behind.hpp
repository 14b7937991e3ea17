// Entities the profile says the API cannot delete (`cannot_delete:`): the
// cleanup leaves them, and the run says once, in its notes, what it left
// behind and why (never an error, never exit 3).
#pragma once

#include "runner/suite_run.hpp"

#include <string>
#include <vector>

namespace idconform::runner {

// One note per reason (a resource and the profile line saying it cannot be
// deleted), in the order the reasons were first met: how many entities were
// left and their ids (the first 20, then how many more).
[[nodiscard]] std::vector<std::string> left_behind_notes(const std::vector<SuiteRun::LeftBehind>& left);

}  // namespace idconform::runner
