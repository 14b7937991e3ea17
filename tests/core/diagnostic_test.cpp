// Rendering of diagnostics and the did-you-mean / edit-distance helpers.
#include "core/diagnostic.hpp"

#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>

using namespace idconform;

TEST_CASE("render: position, source line, caret, hint") {
    const Diagnostic d{SourcePos{"suites/x.yaml", 12, 5}, "unknown key 'stauts' in expect",
                       "did you mean 'status'?", "    stauts: 200"};
    CHECK(render(d) ==
          "suites/x.yaml:12:5: error: unknown key 'stauts' in expect\n"
          "   12 |     stauts: 200\n"
          "      |     ^\n"
          "hint: did you mean 'status'?\n");
}

TEST_CASE("render: the gutter widens for long line numbers") {
    const Diagnostic d{SourcePos{"f.yaml", 123456, 1}, "t", "", "x"};
    CHECK(render(d) ==
          "f.yaml:123456:1: error: t\n"
          " 123456 | x\n"
          "        | ^\n");
}

TEST_CASE("render: tabs before the column are kept so the caret lines up") {
    const Diagnostic d{SourcePos{"f.yaml", 2, 3}, "t", "h", "\t\tabc"};
    CHECK(render(d) == "f.yaml:2:3: error: t\n    2 | \t\tabc\n      | \t\t^\nhint: h\n");
}

TEST_CASE("render: a column past the end of the line puts the caret after it") {
    const Diagnostic d{SourcePos{"f.yaml", 1, 40}, "t", "", "ab"};
    CHECK(render(d) == "f.yaml:1:40: error: t\n    1 | ab\n      |   ^\n");
}

TEST_CASE("render: without a position or without a source line") {
    CHECK(render(Diagnostic{SourcePos{"dir", 0, 0}, "no such file or directory", "check the path", ""}) ==
          "dir: error: no such file or directory\nhint: check the path\n");
    CHECK(render(Diagnostic{SourcePos{}, "bad", "", ""}) == "error: bad\n");
    // A file that cannot be read: no excerpt, but still the position.
    CHECK(render(Diagnostic{SourcePos{"/nonexistent/f.yaml", 3, 2}, "t", "h", ""}) ==
          "/nonexistent/f.yaml:3:2: error: t\nhint: h\n");
}

TEST_CASE("render: reads the source line from the file when it is not given") {
    const std::string path = std::string(IDCONFORM_BINARY_DIR) + "/diagnostic_test_source.yaml";
    {
        std::ofstream out(path, std::ios::binary);
        out << "name: x\r\ncases:\r\n  - nmae: y\r\n";
    }
    const Diagnostic d{SourcePos{path, 3, 5}, "unknown key 'nmae' in case", "did you mean 'name'?", ""};
    CHECK(render(d) == path + ":3:5: error: unknown key 'nmae' in case\n"
                              "    3 |   - nmae: y\n"
                              "      |     ^\n"
                              "hint: did you mean 'name'?\n");
    std::remove(path.c_str());
}

TEST_CASE("edit_distance") {
    CHECK(edit_distance("", "") == 0);
    CHECK(edit_distance("abc", "") == 3);
    CHECK(edit_distance("", "ab") == 2);
    CHECK(edit_distance("kitten", "sitting") == 3);
    CHECK(edit_distance("stauts", "status") == 2);
    CHECK(edit_distance("same", "same") == 0);
    CHECK(edit_distance("flaw", "lawn") == 2);
}

TEST_CASE("did_you_mean") {
    const std::vector<std::string> keys{"rule", "status", "status_not", "headers", "json", "body", "id"};
    CHECK(did_you_mean("stauts", keys) == "status");
    CHECK(did_you_mean("status_nto", keys) == "status_not");
    CHECK(did_you_mean("header", keys) == "headers");
    CHECK(did_you_mean("jsno", keys) == "json");
    CHECK(did_you_mean("xyz", keys) == "");
    CHECK(did_you_mean("", keys) == "");
    CHECK(did_you_mean("anything", {}) == "");
    // Case-only differences always match, even for long edits.
    CHECK(did_you_mean("options", {"GET", "OPTIONS"}) == "OPTIONS");
    // Short words allow one edit only; a full replacement is no suggestion.
    CHECK(did_you_mean("ix", {"id"}) == "id");
    CHECK(did_you_mean("ab", {"id"}) == "");
    CHECK(did_you_mean("x", {"y"}) == "");
    // The closest candidate wins; on a tie, the first listed.
    CHECK(did_you_mean("uuidv77", {"uuid", "uuidv7"}) == "uuidv7");
    CHECK(did_you_mean("cat", {"bat", "cap"}) == "bat");
    // Swapped neighbours count as one typo.
    CHECK(did_you_mean("GTE", {"GET", "PUT"}) == "GET");
    CHECK(did_you_mean("ab", {"ba"}) == "ba");
    // transpositions and edits far into a word, beside candidates of other lengths
    CHECK(did_you_mean("documentatoin", {"doc", "documentation", "documentations_of_it"}) == "documentation");
    CHECK(did_you_mean("statusx", {"status", "statuses"}) == "status");
    CHECK(did_you_mean("abcdefgh", {"bacdefhg", "abcdefghijkl"}) == "bacdefhg");
    CHECK(did_you_mean("abcdefgh", {"badcfehg"}) == "");  // four transpositions: over the limit
}

TEST_CASE("did_you_mean: a key of a hostile file megabytes long gets no suggestion (and no table of its size)") {
    const std::vector<std::string> keys = {"status", "headers", "json"};
    CHECK(did_you_mean(std::string(4 << 20, 'x'), keys) == "");
    std::string longer(2001, 'k');
    longer[1000] = 'q';
    CHECK(did_you_mean(std::string(2000, 'k'), {"k", longer}) == longer);
}

TEST_CASE("render: control characters, C1 and invalid bytes of an input file are shown escaped") {
    // a waivers or suite file holding ESC sequences (retitle, clear screen), a C1 CSI and a stray byte
    const Diagnostic d{SourcePos{"w.yaml", 3, 13}, "unknown key '\x1b]0;pwned\x07'", "remove \x1b[2J",
                       "    \x1b[2J: \xc2\x9b" "31m \xff x"};
    const std::string r = render(d);
    for (const char bad : {'\x1b', '\x07'}) CHECK(r.find(bad) == std::string::npos);
    CHECK(r.find("\xc2\x9b") == std::string::npos);
    CHECK(r.find('\xff') == std::string::npos);
    CHECK(r == std::string(
          "w.yaml:3:13: error: unknown key '\\u001B]0;pwned\\u0007'\n"
          "    3 |     \\u001B[2J: \\u009B31m \\xFF x\n"
          "      | ") + std::string(21, ' ') + "^\n"   // under the escaped column 13
          "hint: remove \\u001B[2J\n");
}

TEST_CASE("render: a hint of several lines keeps them, indented under the first, each terminal-safe") {
    const Diagnostic d{SourcePos{"p.yaml", 1, 1}, "missing key 'principals'",
                       "name one, e.g.\n  principals:\n    alice: {headers: {X: \x1b[2Jy}}", ""};
    CHECK(render(d) ==
          "p.yaml:1:1: error: missing key 'principals'\n"
          "hint: name one, e.g.\n"
          "        principals:\n"
          "          alice: {headers: {X: \\u001B[2Jy}}\n");
}
