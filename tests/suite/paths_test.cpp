// expand_suite_paths: directories become their suite files, sorted; vector
// sets, fragment files and fragments/ folders are skipped.
#include "test_support.hpp"

using namespace idconform;
using namespace idconform::suite;
using namespace idconform::suite::testing;

TEST_CASE("a directory expands to its suite files, sorted") {
    std::vector<Diagnostic> diags;
    const auto paths = expand_suite_paths({fixture("expand")}, diags);
    INFO(dump(diags));
    CHECK(diags.empty());
    CHECK(paths == std::vector<std::string>{fixture("expand/a_suite.yml"), fixture("expand/b_suite.yaml")});
}

TEST_CASE("files are returned as given, missing paths are diagnosed") {
    std::vector<Diagnostic> diags;
    const auto paths =
        expand_suite_paths({fixture("good/basic.yaml"), fixture("nowhere"), fixture("expand/ids.yaml")}, diags);
    CHECK(paths == std::vector<std::string>{fixture("good/basic.yaml"), fixture("expand/ids.yaml")});
    REQUIRE(diags.size() == 1);
    CHECK(diags[0].pos.file == fixture("nowhere"));
    CHECK(diags[0].title == "no such file or directory: '" + fixture("nowhere") + "'");
    CHECK(diags[0].hint.find("suite file") != std::string::npos);
}

TEST_CASE("a directory without suites is diagnosed") {
    std::vector<Diagnostic> diags;
    const auto paths = expand_suite_paths({fixture("empty_dir")}, diags);
    CHECK(paths.empty());
    REQUIRE(diags.size() == 1);
    CHECK(diags[0].title == "no suite files in directory '" + fixture("empty_dir") + "'");
}

TEST_CASE("every suite file under tests/suite/fixtures/good loads") {
    std::vector<Diagnostic> diags;
    for (const auto& p : expand_suite_paths({fixture("good")}, diags)) {
        const LoadResult r = load_file(p);
        INFO(p << "\n" << dump(r.diagnostics));
        CHECK(r.ok());
    }
    CHECK(diags.empty());
}
