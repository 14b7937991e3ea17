// idconform entry point: parses the command line and runs one subcommand.
#include "cli/commands.hpp"
#include "cli/install_paths.hpp"

#include <exception>
#include <iostream>

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
    for (auto* sub : app.get_subcommands({}))
        sub->set_version_flag("--version", version_text());
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
    } catch (const std::exception& e) {
        std::cerr << "idconform: internal error: " << e.what() << '\n';
        return exit_internal;
    }
    return exit_usage;
}
