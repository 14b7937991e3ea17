// The rule catalogue (core/rules.hpp): every rule the rule table of
// docs/rules.md lists has its statement, and an unknown id has none.
#include "core/rules.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <regex>
#include <set>
#include <string>

TEST_CASE("rule catalogue: every rule of docs/rules.md has its statement, an unknown id none") {
    std::ifstream in(std::string(IDCONFORM_SOURCE_DIR) + "/docs/rules.md");
    REQUIRE(in);
    const std::regex row(R"(^\| `?([A-Za-z][A-Za-z0-9 .-]*[A-Za-z0-9])`? \|)");
    std::set<std::string> rules;
    for (std::string line; std::getline(in, line);) {
        std::smatch m;
        if (std::regex_search(line, m, row) && m[1] != "rule") rules.insert(m[1]);
    }
    REQUIRE(rules.count("DATA-ID-001") == 1);
    for (const auto& r : rules) CHECK_MESSAGE(!idconform::rule_statement(r).empty(), r << " has no statement");
    CHECK(idconform::rule_statement("DATA-ID-999").empty());
    CHECK(idconform::rule_statement("").empty());
}
