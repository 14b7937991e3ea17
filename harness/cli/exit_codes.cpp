// The exit codes and their texts (exit_codes.hpp).
#include "cli/exit_codes.hpp"

namespace idconform::cli {

const std::vector<ExitMeaning>& exit_codes() {
    static const std::vector<ExitMeaning> codes = {
        {exit_ok, "every case passed (inspect: every id valid)"},
        {exit_broken, "a contract was broken: at least one failure (inspect: an id is not valid)"},
        {exit_usage, "usage error, a suite or profile that does not load (or fails as it runs: an undefined variable, a "
                     "file to scan that cannot be read), reports that do not merge, or a --filter/--tags that selects "
                     "no case (run: nothing was run or created)"},
        {exit_transport, "target unreachable, transport errors (timeouts, TLS, refused) or a principal the target does not "
                         "let in (401) or allow to create (403) (db: the database server unreachable, the login refused, a "
                         "privilege the role lacks or a table gone): errors of the run, and nothing broken"},
        {exit_internal, "internal error"},
        {exit_sigint, "run interrupted by SIGINT: no new case started, what it created deleted, reports written and "
                      "marked interrupted (a second signal exits at once, 128 + the signal, without reports)"},
        {exit_sigterm, "run interrupted by SIGTERM (as for SIGINT)"},
    };
    return codes;
}

std::string exit_codes_footer(const std::vector<ExitMeaning>& meanings) {
    constexpr std::size_t width = 110;
    const std::string indent(12, ' ');  // under the text after "Exit codes: "
    std::string out = "Exit codes:";
    std::size_t line_start = 0;
    for (std::size_t i = 0; i < meanings.size(); ++i) {
        const std::string item = std::to_string(static_cast<int>(meanings[i].code)) + " " +
                                 std::string(meanings[i].text) + (i + 1 < meanings.size() ? ";" : ".");
        if (out.size() - line_start + 1 + item.size() > width && out.size() - line_start > indent.size()) {
            out += "\n" + indent;
            line_start = out.size() - indent.size();
        } else {
            out += " ";
        }
        out += item;
    }
    return out;
}

std::string exit_codes_markdown() {
    std::string out = "| code | meaning |\n|---|---|\n";
    for (const auto& m : exit_codes())
        out += "| " + std::to_string(static_cast<int>(m.code)) + " | " + std::string(m.text) + " |\n";
    return out;
}

std::string exit_codes_man() {
    std::string out;
    for (const auto& m : exit_codes())
        out += ".TP\n.B " + std::to_string(static_cast<int>(m.code)) + "\n" + std::string(m.text) + "\n";
    return out;
}

}  // namespace idconform::cli
