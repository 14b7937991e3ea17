// The subcommands of the idconform CLI. Each registers its options on the
// CLI11 app and returns the function that runs it; main() dispatches.
#pragma once

#include "cli/exit_codes.hpp"

#include <CLI/CLI.hpp>

#include <functional>

namespace idconform::cli {

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
Runner add_db(CLI::App& app);

}  // namespace idconform::cli
