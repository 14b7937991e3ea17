// Reads a JSON report (JsonReporter's format, reporters/README.md) back into
// a RunSummary with every case, step and check, and its "run" object into a
// RunInfo: what `idconform merge` needs to combine shard reports and replay
// them through the same reporters a run uses.
#pragma once

#include "reporters/reporter.hpp"

#include <string>

namespace idconform::reporters {

struct ReadReport {
    std::string path;
    RunInfo info;        // tool_version, profile, plan, shard fields
    bool has_run = false;  // the report had a "run" object
    RunSummary summary;  // suites with their cases kept
};

// False with `error` ("FILE: why") when the file cannot be read, is not
// JSON, or is not an idconform report.
[[nodiscard]] bool read_json_report(const std::string& path, ReadReport& out, std::string& error);

}  // namespace idconform::reporters
