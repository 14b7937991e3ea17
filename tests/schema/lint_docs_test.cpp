// docs/lint.md is the page SARIF's helpUri points at: every finding kind has
// its section (`### kind`, the anchor GitHub and the docs use) with the fix
// the SARIF help carries, word for word, and no section names a kind that
// does not exist. Each example of the page is linted: the part marked
// "reported" gives the kind of its section, the part marked "clean" nothing.
#include "schema/lint.hpp"
#include "schema/lint_output.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

using namespace idconform::schema;

namespace {

struct Section {
    std::string body;                    // the text under the heading
    std::string reported, clean, lang;   // the example's two parts, if it has one
};

std::map<std::string, Section> sections() {
    std::ifstream in(std::string(IDCONFORM_SOURCE_DIR) + "/docs/lint.md");
    REQUIRE(in);
    std::map<std::string, Section> out;
    Section* cur = nullptr;
    std::string line, *part = nullptr;
    bool in_code = false;
    while (std::getline(in, line)) {
        if (line.rfind("### ", 0) == 0) {
            cur = &out[line.substr(4)];
            continue;
        }
        if (line.rfind("## ", 0) == 0) cur = nullptr;
        if (!cur) continue;
        if (line.rfind("```", 0) == 0) {
            in_code = !in_code;
            if (in_code) cur->lang = line.substr(3);
            part = nullptr;
            continue;
        }
        if (in_code) {
            if (line == "# reported" || line == "// reported") part = &cur->reported;
            else if (line == "# clean" || line == "// clean") part = &cur->clean;
            else if (part) *part += line + "\n";
            continue;
        }
        cur->body += line + "\n";
    }
    return out;
}

std::string indent(const std::string& text, const std::string& by) {
    std::string out, line;
    std::istringstream in(text);
    while (std::getline(in, line)) out += by + line + "\n";
    return out;
}

LintResult lint_example(const Section& s, const std::string& part) {
    if (s.lang == "proto")
        return lint_proto_text("syntax = \"proto3\";\npackage docs.v1;\nmessage Example {\n" + indent(part, "  ") + "}\n",
                               "example.proto");
    return lint_openapi_text("example.yaml", "openapi: 3.1.0\ninfo: {title: example, version: '1'}\npaths: {}\n"
                                             "components:\n  schemas:\n    Example:\n      type: object\n"
                                             "      properties:\n" + indent(part, "        "));
}

std::set<std::string> kinds_of(const LintResult& r) {
    std::set<std::string> k;
    for (const auto& f : r.findings) k.insert(f.kind);
    return k;
}

}  // namespace

TEST_CASE("docs/lint.md has a section for every finding kind, with its fix") {
    const auto docs = sections();
    std::set<std::string> known;
    for (const auto& k : finding_kinds()) {
        known.insert(k.kind);
        const auto it = docs.find(k.kind);
        if (it == docs.end()) {
            FAIL_CHECK("docs/lint.md has no section '### " << k.kind << "'");
            continue;
        }
        CHECK_MESSAGE(it->second.body.find(k.fix) != std::string::npos, k.kind << ": the section does not give the fix: " << k.fix);
        CHECK_MESSAGE(it->second.body.find(k.rule) != std::string::npos, k.kind << ": the section does not name " << k.rule);
    }
    for (const auto& [name, s] : docs) CHECK_MESSAGE(known.count(name), "docs/lint.md has a section for an unknown kind: " << name);
}

TEST_CASE("the examples of docs/lint.md: the reported part gives its kind, the clean part nothing") {
    std::size_t examples = 0;
    for (const auto& [kind, s] : sections()) {
        if (s.reported.empty() && s.clean.empty()) continue;
        ++examples;
        CAPTURE(kind);
        REQUIRE_MESSAGE(!s.reported.empty(), "an example without its reported part");
        REQUIRE_MESSAGE(!s.clean.empty(), "an example without its clean part");
        const LintResult bad = lint_example(s, s.reported);
        CHECK(bad.errors.empty());
        CHECK_MESSAGE(kinds_of(bad).count(kind), "the reported example gives " << bad.findings.size() << " findings, none of its kind");
        const LintResult good = lint_example(s, s.clean);
        CHECK(good.errors.empty());
        for (const auto& f : good.findings) FAIL_CHECK("the clean example gives " << format_finding(f));
        CHECK(good.id_fields > 0);  // the clean part was looked at, as an id
    }
    CHECK(examples >= 8);
}

TEST_CASE("SARIF rules carry help text and markdown, helpUri at their section, informationUri on the tool") {
    const std::string sarif = lint_sarif({}, "1.2.3", SarifLinks{"https://docs.example/idconform/lint.md", "https://idconform.example/"});
    const auto doc = boost::json::parse(sarif);
    const auto& driver = doc.at("runs").at(0).at("tool").at("driver").as_object();
    CHECK(driver.at("informationUri").as_string() == "https://idconform.example/");
    const auto& rules = driver.at("rules").as_array();
    REQUIRE(rules.size() == finding_kinds().size());
    for (std::size_t i = 0; i < rules.size(); ++i) {
        const auto& k = finding_kinds()[i];
        const auto& r = rules[i].as_object();
        CAPTURE(k.kind);
        CHECK(r.at("helpUri").as_string() == "https://docs.example/idconform/lint.md#" + k.kind);
        const std::string text(r.at("help").at("text").as_string());
        const std::string md(r.at("help").at("markdown").as_string());
        CHECK(text.find(k.fix) != std::string::npos);
        CHECK(md.find(k.fix) != std::string::npos);
        CHECK(md.find("(https://docs.example/idconform/lint.md#" + k.kind + ")") != std::string::npos);
    }
    // without links: no empty URIs (SARIF requires an absolute URI where there is one)
    const auto bare = boost::json::parse(lint_sarif({}, "1.2.3"));
    const auto& d2 = bare.at("runs").at(0).at("tool").at("driver").as_object();
    CHECK(!d2.contains("informationUri"));
    CHECK(!d2.at("rules").at(0).as_object().contains("helpUri"));
    CHECK(d2.at("rules").at(0).as_object().contains("help"));
}
