// The `file:` step kind: what loads, and every mistake reported at its node.
#include "test_support.hpp"

using namespace idconform;
using namespace idconform::suite;
using namespace idconform::suite::testing;

namespace {
std::string with_step(const std::string& step_lines) {
    return "name: t\n"
           "cases:\n"
           "  - name: c\n"
           "    steps:\n" +
           step_lines;
}
}  // namespace

TEST_CASE("a file step loads with its path, format, fields and options") {
    const auto r = load_text(with_step("      - file:\n"
                                       "          path: \"${dir}/p.ndjson\"\n"
                                       "          fields: {/id: uuidv7, /parent_id: \"uuidv7,nullable\"}\n"
                                       "          scan: false\n"
                                       "          max_violations: 5\n"
                                       "      - file: {path: /tmp/x.dat, format: csv}\n"),
                             "inline.yaml");
    REQUIRE(r.ok());
    const auto& steps = r.suite->cases.at(0).steps;
    REQUIRE(steps.size() == 2);
    CHECK(steps[0].is<FileScan>());
    CHECK(steps[0].as<FileScan>().path == "${dir}/p.ndjson");
    CHECK(steps[0].name == "scan ${dir}/p.ndjson");
    REQUIRE(steps[0].as<FileScan>().fields.size() == 2);
    CHECK(steps[0].as<FileScan>().fields[1] == std::pair<std::string, std::string>{"/parent_id", "uuidv7,nullable"});
    CHECK_FALSE(steps[0].as<FileScan>().shape);
    CHECK(steps[0].as<FileScan>().max_violations == 5);
    CHECK(steps[1].as<FileScan>().format == "csv");
    CHECK(steps[0].as<FileScan>().pos.line == 6);  // the mapping under file:
}

TEST_CASE("file step mistakes are reported where they are written") {
    SUBCASE("unknown format") {
        const Diagnostic d = only_error(with_step("      - file: {path: /x.ndjson, format: ndjosn}\n"));
        CHECK(d.pos.str() == "inline.yaml:5:41");
        CHECK(d.title == "unknown file format 'ndjosn'");
        CHECK(d.hint == "did you mean 'ndjson'?");
    }
    SUBCASE("format not known from the extension") {
        const Diagnostic d = only_error(with_step("      - file: {path: /x.txt}\n"));
        CHECK(d.pos.str() == "inline.yaml:5:22");
        CHECK(d.title == "cannot tell the format of '/x.txt' from its extension");
    }
    SUBCASE("unknown id kind") {
        const Diagnostic d = only_error(with_step("      - file: {path: /x.csv, fields: {owner_id: uuidv9}}\n"));
        CHECK(d.pos.str() == "inline.yaml:5:49");
        CHECK(d.title.find("unknown id kind 'uuidv9'") == 0);
    }
    SUBCASE("bad flag") {
        const Diagnostic d = only_error(with_step("      - file: {path: /x.csv, fields: {owner_id: \"uuidv7,optional\"}}\n"));
        CHECK(d.title.find("unknown flag 'optional'") == 0);
    }
    SUBCASE("missing path") {
        const Diagnostic d = only_error(with_step("      - file: {format: csv}\n"));
        CHECK(d.title == "missing required key 'path' in file");
    }
    SUBCASE("http and file together") {
        const Diagnostic d = only_error(with_step("      - http: {path: /x}\n        file: {path: /x.csv}\n"));
        CHECK(d.pos.str() == "inline.yaml:6:9");
        CHECK(d.title == "a step has one request: 'http' and 'file' cannot both be set");
    }
    SUBCASE("expect on a file step") {
        const Diagnostic d = only_error(with_step("      - file: {path: /x.csv}\n        expect: {status: 200}\n"));
        CHECK(d.pos.str() == "inline.yaml:6:9");
        CHECK(d.title == "a file step takes no 'expect'");
    }
    SUBCASE("max_violations") {
        const Diagnostic d = only_error(with_step("      - file: {path: /x.csv, max_violations: 0}\n"));
        CHECK(d.title == "max_violations must be a positive integer");
    }
    SUBCASE("unknown key") {
        const Diagnostic d = only_error(with_step("      - file: {path: /x.csv, feilds: {}}\n"));
        CHECK(d.title == "unknown key 'feilds' in file");
        CHECK(d.hint == "did you mean 'fields'?");
    }
}
