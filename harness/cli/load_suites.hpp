// The suites a command works on: suite files and directories, and the
// built-in packs expanded for a target profile (`run` and `list` alike).
#pragma once

#include "suite/model.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace idconform::cli {

struct SuiteSources {
    const std::vector<std::string>& paths;  // suite files and directories
    const std::string& target;              // a target profile, "-" for standard input, or ""
    const std::string& packs_dir;           // --packs-dir, or "" for the installed packs
    std::string_view command;               // "run", "list": in messages
};

// What the profile says that the run reports: its clock skew, and audit
// metadata (the target with its base URL expanded and credentials masked,
// the profile with its sha256, the packs folder), and the profile's text as
// it was read, once (standard input cannot be read twice).
struct LoadedTarget {
    std::optional<long> clock_skew_ms;
    std::vector<std::pair<std::string, std::string>> metadata;
    std::string profile_name;  // the path, or "<stdin>"; "" without a profile
    std::string profile_text;
};

// Loads everything; diagnostics go to stderr, with a line naming where they
// are and that nothing was run. exit_ok, or the exit code (exit_usage).
[[nodiscard]] int load_suites(const SuiteSources& from, std::vector<suite::Suite>& suites, LoadedTarget& loaded);

// The profile's base URL as the run reaches it: its template filled in from
// the environment, credentials masked; the template itself, saying why, when
// a variable is not set.
[[nodiscard]] std::string expanded_url(const std::string& tmpl);

}  // namespace idconform::cli
