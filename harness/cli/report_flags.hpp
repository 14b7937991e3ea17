// The report flags of a command (`--junit FILE`, `--json FILE`, `--html FILE`),
// taken from the one registry of file reporters (reporters/registry.hpp), and
// the reporters they ask for. Shared by `run`, `scan` and `lint`; `merge`
// takes --junit-flavor from here too.
#pragma once

#include "reporters/reporter.hpp"
#include "reporters/registry.hpp"

#include <CLI/CLI.hpp>

#include <deque>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace idconform::cli {

// `--junit-flavor full|strict` (reporters::JunitFlavor) on a command that
// writes JUnit; `value` is checked by the option.
void add_junit_flavor_option(CLI::App* cmd, std::string& value);
[[nodiscard]] reporters::JunitFlavor junit_flavor(const std::string& value);

class ReportFlags {
public:
    // Registers --NAME FILE for each of `names` (registry names), with the
    // registry's help text followed by `extra[name]` when given
    // ("(one testsuite per scanned file)"). With "junit" among them, also
    // --junit-flavor.
    void add_flags(CLI::App* cmd, const std::vector<std::string_view>& names,
                   const std::map<std::string_view, std::string>& extra = {});
    // The reporters asked for on the command line, in registry order, with
    // `opts` and the --junit-flavor given.
    void add_to(reporters::MultiReporter& multi, const reporters::ReportOptions& opts = {}) const;
    [[nodiscard]] bool any() const;
    // The output paths asked for.
    [[nodiscard]] std::vector<std::string> paths() const;

private:
    struct Flag {
        const reporters::FileReporterKind* kind;
        std::string path;  // empty: not asked for
    };
    std::deque<Flag> flags_;  // deque: CLI11 keeps a pointer to each path
    std::string junit_flavor_ = "full";
};

}  // namespace idconform::cli
