// `idconform report --html OUT.html IN.json`: renders a JSON report written
// earlier (by `run --json`, a shard, or a merge of shards) as the HTML report
// the run would have written, through the same reporter and events.
#include "cli/commands.hpp"

#include "reporters/atomic_file.hpp"
#include "reporters/registry.hpp"
#include "reporters/json_replay.hpp"

#include <iostream>
#include <memory>

namespace idconform::cli {

Runner add_report(CLI::App& app) {
    struct Opts {
        std::string input, html;
    };
    auto o = std::make_shared<Opts>();
    auto* cmd = app.add_subcommand("report", "Render a JSON report (run --json, shards, merges) as another format");
    cmd->add_option("IN.json", o->input, "A JSON report written by idconform run --json")->required();
    cmd->add_option("--html", o->html, "Write a self-contained HTML report to FILE")->required();
    cmd->footer("Exit codes: 0 report written; 2 the input is not an idconform JSON report, or the output cannot be written.");
    return [o]() -> int {
        // Streamed: one case of the JSON report in memory at a time; the
        // HTML reporter spools what it renders (memory, then a temp file).
        if (const std::string why = reporters::output_overwrites_input({o->html}, {o->input}); !why.empty()) {
            std::cerr << "idconform report: " << why << '\n';
            return exit_usage;
        }
        const auto html = reporters::make_file_reporter("html", o->html);  // the registry's, as for run --html
        std::string error;
        if (!reporters::replay_json_report(o->input, *html, error)) {
            std::cerr << "idconform report: " << error << '\n';
            return exit_usage;
        }
        return exit_ok;
    };
}

}  // namespace idconform::cli
