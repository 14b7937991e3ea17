// The subcommands of the idconform CLI. Each registers its options on the
// CLI11 app and returns the function that runs it; main() dispatches.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>

namespace idconform::cli {

// Exit codes, documented in --help and README.
enum Exit : int {
    exit_ok = 0,          // everything passed / every id valid
    exit_broken = 1,      // a contract was broken / an id is not valid
    exit_usage = 2,       // usage error or suite/profile error
    exit_transport = 3,   // target unreachable or transport errors (nothing broken)
    exit_internal = 4,    // internal error
};

using Runner = std::function<int()>;

Runner add_inspect(CLI::App& app);
Runner add_gen(CLI::App& app);
Runner add_run(CLI::App& app);
Runner add_list(CLI::App& app);
Runner add_scan(CLI::App& app);
Runner add_lint(CLI::App& app);
Runner add_init(CLI::App& app);
Runner add_merge(CLI::App& app);
Runner add_report(CLI::App& app);

}  // namespace idconform::cli
