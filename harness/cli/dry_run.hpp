// `idconform run --dry-run`: what a run would do to the target, told from
// the loaded suites (the profile already expanded, --shard, --filter and
// --tags applied) without sending anything: per suite the transport and the
// base URL it would reach (expanded, credentials masked), what its setup
// sends, how many cases it runs, and which endpoints it would create at,
// change and delete at (with what the cleanup deletes afterwards).
#pragma once

#include "runner/runner.hpp"
#include "suite/model.hpp"

#include <ostream>
#include <vector>

namespace idconform::cli {

struct DryRunTotals {
    std::size_t suites = 0;       // suites that would run
    std::size_t cases = 0;        // cases they would run (for_each over mutations: as many as a UUID has)
    std::size_t filtered_out = 0; // cases --filter/--tags leave out
};

// Prints the plan to `out`; returns what it counted.
DryRunTotals print_dry_run(std::ostream& out, const std::vector<suite::Suite>& suites,
                           const runner::RunOptions& options);

}  // namespace idconform::cli
