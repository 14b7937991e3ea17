// idconform entry point: parses the command line and runs one subcommand.
#include "cli/commands.hpp"
#include "cli/help_docs.hpp"
#include "cli/install_paths.hpp"

#include "core/diagnostic.hpp"

#include <algorithm>
#include <exception>
#include <optional>
#include <string>
#include <vector>
#include <iostream>

namespace {

using namespace idconform::cli;

std::vector<std::string> command_names(CLI::App& app) {
    std::vector<std::string> names;
    for (auto* sub : app.get_subcommands({})) names.push_back(sub->get_name());
    return names;
}

// What CLI11 would say badly, said before it parses: `idconform help
// [COMMAND]` (help on stdout, as --help), a command that does not exist
// (with the nearest one), an option before any command ("A subcommand is
// required" would not name it). nullopt: parse as usual.
std::optional<int> before_parse(CLI::App& app, int argc, char** argv) {
    if (argc < 2) {  // no command: the help, as a usage error
        std::cerr << app.help();
        return exit_usage;
    }
    const std::string first = argv[1];
    const auto names = command_names(app);
    auto unknown = [&](const std::string& word, const char* what) {
        std::cerr << "idconform: unknown " << what << " '" << word << "'";
        if (const std::string near = idconform::did_you_mean(word, names); !near.empty())
            std::cerr << "; did you mean '" << near << "'?";
        std::string all;
        for (const auto& n : names) all += (all.empty() ? "" : ", ") + n;
        std::cerr << " (commands: " << all << "; idconform help COMMAND)\n";
        return exit_usage;
    };
    if (first == "help") {
        // hidden: the build makes the man page and the completions with these
        if (argc > 2 && (std::string(argv[2]) == "--man" || std::string(argv[2]) == "--completion"))
            return help_docs_main(app, argc, argv);
        if (argc == 2) {
            std::cout << app.help();
            return exit_ok;
        }
        const std::string cmd = argv[2];
        for (auto* sub : app.get_subcommands({}))
            if (sub->get_name() == cmd) {
                std::cout << sub->help();
                return exit_ok;
            }
        return unknown(cmd, "command");
    }
    if (first.empty() || first[0] != '-') {
        if (std::find(names.begin(), names.end(), first) == names.end()) return unknown(first, "command");
        return std::nullopt;
    }
    if (first == "-h" || first == "--help" || first == "--version") return std::nullopt;
    std::cerr << "idconform: unknown option '" << first << "' before the command: options go after it "
              << "(idconform COMMAND --help lists them; idconform --help lists the commands)\n";
    return exit_usage;
}

}  // namespace

int main(int argc, char** argv) {
    using namespace idconform::cli;
    CLI::App app{"idconform: contract-conformance tests for entity identifiers (RFC 9562 UUIDs, ULIDs, ...)", "idconform"};
    app.set_version_flag("--version", version_text());
    app.require_subcommand(1);
    app.footer(exit_codes_footer());
    const Runner inspect = add_inspect(app);
    const Runner gen = add_gen(app);
    const Runner run = add_run(app);
    const Runner list = add_list(app);
    const Runner scan = add_scan(app);
    const Runner lint = add_lint(app);
    const Runner init = add_init(app);
    const Runner merge = add_merge(app);
    const Runner report = add_report(app);
    const Runner db = add_db(app);
    for (auto* sub : app.get_subcommands({}))
        sub->set_version_flag("--version", version_text());
    if (const auto early = before_parse(app, argc, argv)) return *early;
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? exit_ok : exit_usage;
    }
    try {
        if (app.got_subcommand("inspect")) return inspect();
        if (app.got_subcommand("gen")) return gen();
        if (app.got_subcommand("run")) return run();
        if (app.got_subcommand("list")) return list();
        if (app.got_subcommand("scan")) return scan();
        if (app.got_subcommand("lint")) return lint();
        if (app.got_subcommand("init")) return init();
        if (app.got_subcommand("merge")) return merge();
        if (app.got_subcommand("report")) return report();
        if (app.got_subcommand("db")) return db();
    } catch (const std::exception& e) {
        std::cerr << "idconform: internal error: " << e.what() << '\n';
        return exit_internal;
    }
    return exit_usage;
}
