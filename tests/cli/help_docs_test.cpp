// The man page and completion writers (harness/cli/help_docs.cpp) over a
// small CLI11 tree: markers, escaping, value sets, files, and the errors of
// a bad template. The real binary's outputs are checked by help_docs.sh.
#include "cli/help_docs.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace {

using idconform::cli::completion_script;
using idconform::cli::man_page;

struct Tree {
    CLI::App app{"idconform: test tree", "idconform"};
    std::string s;
    std::vector<std::string> many;
    bool flag = false;
    int n = 0;
    explicit Tree(bool with_inspect = true) {
        app.footer("Exit codes: 0 fine");
        if (with_inspect) {
            auto* inspect = app.add_subcommand("inspect", "Explain identifiers");
            inspect->add_option("--kind,-k", s, "Judge every id as this kind");
            inspect->add_option("ID", many, "Identifiers");
        }
        auto* run = app.add_subcommand("run", ".Run suites; it's \\ fast (really)");
        run->add_option("--color", s, "Colour: auto (a terminal) or never")
            ->check(CLI::IsMember({"auto", "always", "never"}));
        run->add_option("--junit", s, "Write a JUnit XML report to FILE");
        run->add_option("--packs-dir", s, "Where the packs are");
        run->add_option("-j,--concurrency", n, "Cases at once")->check(CLI::Range(1, 8));
        run->add_option("--tags", many, "Only these tags");
        run->add_flag("--no-progress", flag, "No progress line");
        run->add_option("SUITE", many, "Suites");
        run->footer("Run exits 0 or 1");
    }
};

const std::string prose =
    ".TH IDCONFORM 1 \"2026\" \"idconform @VERSION@\"\n"
    ".SH NAME\n"
    ".\\\" generated: name\n"
    ".SH SYNOPSIS\n"
    ".\\\" generated: synopsis\n"
    ".\\\" about: run\n"
    "Prose about run.\n"
    ".\\\" end\n"
    ".SH COMMANDS\n"
    ".\\\" generated: commands\n"
    ".SH EXIT STATUS\n"
    ".\\\" generated: exit-status\n";

TEST_CASE("the man page holds every command and option of the tree, with the template's prose") {
    Tree t;
    std::string error;
    const auto page = man_page(t.app, prose, "9.8.7", error);
    REQUIRE_MESSAGE(page, error);
    CHECK(page->find("\"idconform 9.8.7\"") != std::string::npos);
    CHECK(page->find("idconform \\- test tree\n") != std::string::npos);
    CHECK(page->find(".SS \\fBinspect\\fR\n") != std::string::npos);
    CHECK(page->find(".SS \\fBrun\\fR\n") != std::string::npos);
    CHECK(page->find(".SS \\fBhelp\\fR\n") != std::string::npos);  // answered by main.cpp, documented too
    CHECK(page->find("\\fB\\-\\-color\\fR \\fIauto\\fR|\\fIalways\\fR|\\fInever\\fR\n") != std::string::npos);
    CHECK(page->find("\\fB\\-j\\fR, \\fB\\-\\-concurrency\\fR \\fIINT\\fR\n") != std::string::npos);
    CHECK(page->find("\\fB\\-\\-tags\\fR \\fITEXT\\fR ...\n") != std::string::npos);
    CHECK(page->find("\\fB\\-\\-no\\-progress\\fR\nNo progress line") != std::string::npos);
    CHECK(page->find("\\fBidconform run\\fR [\\fIOPTIONS\\fR] [\\fISUITE\\fR ...]\n") != std::string::npos);
    // the about block moved into run's entry, after its summary, before its options
    const auto run_at = page->find(".SS \\fBrun\\fR");
    const auto prose_at = page->find("Prose about run.");
    const auto color_at = page->find("\\-\\-color\\fR");
    CHECK(run_at < prose_at);
    CHECK(prose_at < color_at);
    CHECK(page->find("about: run") == std::string::npos);
    // a summary starting with '.' does not become a request; a backslash is printed
    CHECK(page->find("\\&.Run suites; it's \\e fast (really).\n") != std::string::npos);
    // a command's own footer, not the app's
    CHECK(page->find("Run exits 0 or 1") != std::string::npos);
    CHECK(page->find("Exit codes: 0 fine") == std::string::npos);
    CHECK(page->find(".\\\" exit-codes:begin") != std::string::npos);
    CHECK(page->find(".B 130\n") != std::string::npos);
}

TEST_CASE("a bad template is refused, positioned where it can be") {
    Tree t;
    std::string error;
    CHECK_FALSE(man_page(t.app, ".TH X\n.\\\" generated: name\n", "1", error));
    CHECK(error.find("lacks the line '.\\\" generated: commands'") != std::string::npos);
    CHECK_FALSE(man_page(t.app, prose + ".\\\" generated: options\n", "1", error));
    CHECK(error.find("unknown marker") != std::string::npos);
    CHECK_FALSE(man_page(t.app, ".TH X\n\n.\\\" about: frob\n", "1", error));
    CHECK(error == "3:1: about block for 'frob', which is no command");
    CHECK_FALSE(man_page(t.app, prose + ".\\\" about: run\nno end\n", "1", error));
    CHECK(error.find("has no '.\\\" end'") != std::string::npos);
    CHECK_FALSE(man_page(t.app, prose + ".\\\" end\n", "1", error));
    CHECK(error.find("13:1:") == 0);
}

TEST_CASE("bash: value sets, files, folders and nothing for numbers") {
    Tree t;
    const auto s = completion_script(t.app, "bash");
    REQUIRE(s);
    CHECK(s->find("--color) COMPREPLY=($(compgen -W 'auto always never' -- \"$cur\")); return 0 ;;") !=
          std::string::npos);
    CHECK(s->find("--junit|--tags) COMPREPLY=($(compgen -f -- \"$cur\")); return 0 ;;") != std::string::npos);
    CHECK(s->find("--packs-dir) COMPREPLY=($(compgen -d -- \"$cur\")); return 0 ;;") != std::string::npos);
    CHECK(s->find("-j|--concurrency) return 0 ;;") != std::string::npos);
    CHECK(s->find("--no-progress)") == std::string::npos);  // a flag takes no value
    // inspect --kind: the id kinds, checked in cmd_inspect.cpp rather than by CLI11
    CHECK(s->find("-k|--kind) COMPREPLY=($(compgen -W 'uuid uuidv1 ") != std::string::npos);
    CHECK(s->find(" v7 v8' -- \"$cur\"))") != std::string::npos);
    CHECK(s->find("compgen -W 'inspect run help'") != std::string::npos);
    CHECK(s->find("complete -o filenames -F _idconform idconform\n") != std::string::npos);
}

TEST_CASE("zsh and fish: the same tree, quoted for each shell") {
    Tree t;
    const auto z = completion_script(t.app, "zsh");
    REQUIRE(z);
    CHECK(z->rfind("#compdef idconform\n", 0) == 0);
    CHECK(z->find("'--color=[Colour\\: auto or never]:TEXT:(auto always never)'") != std::string::npos);
    CHECK(z->find("'(-j --concurrency)-j+[Cases at once]:INT: '") != std::string::npos);
    CHECK(z->find("'*--tags=[Only these tags]:TEXT:_files'") != std::string::npos);
    CHECK(z->find("'--packs-dir=[Where the packs are]:TEXT:_files -/'") != std::string::npos);
    CHECK(z->find("'run:.Run suites'") != std::string::npos);
    CHECK(z->find("'*:SUITE:_files'") != std::string::npos);
    const auto f = completion_script(t.app, "fish");
    REQUIRE(f);
    CHECK(
        f->find("-n '__fish_seen_subcommand_from run' -l color -x -a 'auto always never' -d 'Colour: auto or never'") !=
        std::string::npos);
    CHECK(f->find("-n '__fish_seen_subcommand_from run' -s j -l concurrency -x -d 'Cases at once'") !=
          std::string::npos);
    CHECK(f->find("-n '__fish_seen_subcommand_from run' -l junit -r -F ") != std::string::npos);
    CHECK(f->find("-n '__fish_seen_subcommand_from help' -x -a 'inspect run' ") != std::string::npos);
    CHECK_FALSE(completion_script(t.app, "tcsh"));
}

TEST_CASE("the table of values checked in code may not outlive its option") {
    Tree t(false);  // no inspect --kind
    CHECK_FALSE(completion_script(t.app, "bash"));
    std::string error;
    CHECK_FALSE(man_page(t.app, prose, "1", error));
    CHECK(error.find("no option inspect --kind") != std::string::npos);
}

}  // namespace
