// The exit codes of idconform, written once: the codes, what each means for
// the whole tool, and the texts made from them (the --help footers, README's
// table and the man page's EXIT STATUS, which a test compares with
// `idconform list --exit-codes markdown|man`). A command whose codes mean
// something narrower (scan: "1 violations found") passes its own meanings to
// exit_codes_footer(), in the same form.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace idconform::cli {

enum Exit : int {
    exit_ok = 0,         // everything passed / every id valid
    exit_broken = 1,     // a contract was broken / an id is not valid
    exit_usage = 2,      // usage error or suite/profile error
    exit_transport = 3,  // target unreachable or transport errors (nothing broken)
    exit_internal = 4,   // internal error
    exit_sigint = 130,   // interrupted by SIGINT (128 + 2): cleaned up, reports written
    exit_sigterm = 143,  // interrupted by SIGTERM (128 + 15)
};

struct ExitMeaning {
    Exit code;
    std::string_view text;
};

// The tool's exit codes and their meanings, 0 to 4, 130 and 143.
[[nodiscard]] const std::vector<ExitMeaning>& exit_codes();

// "Exit codes: 0 ...; 1 ...; ..." wrapped for a --help footer; the tool's
// meanings, or a command's own.
[[nodiscard]] std::string exit_codes_footer(const std::vector<ExitMeaning>& meanings = exit_codes());
// README's table (markdown) and the man page's EXIT STATUS entries (roff).
[[nodiscard]] std::string exit_codes_markdown();
[[nodiscard]] std::string exit_codes_man();

}  // namespace idconform::cli
