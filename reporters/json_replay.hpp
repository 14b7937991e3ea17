// Reading a JSON report back into reporter events: `idconform report`
// renders an earlier (or merged, or sharded) run's JSON report as HTML by
// replaying it through the HTML reporter, exactly as a live run would feed
// it. Streaming (json_report_reader.hpp): one case in memory at a time.
#pragma once

#include "reporters/reporter.hpp"

#include <string>
#include <string_view>

namespace idconform::reporters {

// Replays run_started (metadata: the report's "started", its metadata,
// "finished", then "rendered from" PATH), per suite suite_started /
// take_case... / suite_finished, audit_finished (when the report has an
// "audit" member) and run_finished. Returns false with `error` set when the
// file is not a complete idconform JSON report ("PATH:LINE:COL: why"), and
// then never calls run_finished (so no cumulative reporter writes a file), or
// when a reporter fails.
[[nodiscard]] bool replay_json_report(const std::string& path, Reporter& to, std::string& error);
[[nodiscard]] bool replay_json_report_text(std::string_view text, const std::string& path, Reporter& to,
                                           std::string& error);

}  // namespace idconform::reporters
