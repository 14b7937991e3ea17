// The file step kind: scans an exported file (scan/scan.hpp) and turns each
// violation into a failed check positioned in the file. An unreadable file
// is an error; a malformed one a failed check. It sends nothing, so it has
// no reproduce command; the engine runs it on its file thread.
#pragma once

#include "runner/scope.hpp"
#include "runner/step_outcome.hpp"
#include "suite/model.hpp"

#include <string>
#include <vector>

namespace idconform::runner::steps {

// Synchronous: reads the whole file.
[[nodiscard]] StepOutcome run_file_step(const suite::FileScan& f, const std::string& step_name, const Scope& scope,
                                        const std::string& rule);
[[nodiscard]] std::string describe(const suite::FileScan& f);
void add_properties(const suite::FileScan& f, std::vector<Property>& out);

}  // namespace idconform::runner::steps
