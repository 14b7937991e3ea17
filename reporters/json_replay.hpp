// Reading a JSON report back into reporter events: `idconform report`
// renders an earlier (or merged, or sharded) run's JSON report as HTML by
// replaying it through the HTML reporter, exactly as a live run would feed it.
#pragma once

#include "reporters/reporter.hpp"

#include <string>
#include <string_view>

namespace idconform::reporters {

// Replays run_started, per suite suite_started / case_finished... /
// suite_finished, audit_finished (when the report has an "audit" member) and
// run_finished. Returns false with `error` set when the text is not an
// idconform JSON report (nothing is sent then) or a reporter fails.
[[nodiscard]] bool replay_json_report(std::string_view text, const std::string& path, Reporter& to, std::string& error);

}  // namespace idconform::reporters
