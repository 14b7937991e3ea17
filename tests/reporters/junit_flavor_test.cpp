// Tests of what a JUnit report holds beyond its cases: the strict flavor
// against the published schemas it claims (tests/published_schemas/junit/:
// the Jenkins xUnit plugin's junit-10.xsd and the Apache Ant JUnit.xsd), the
// full flavor rejected by them, `file` written relative to the working
// directory (or as the profile for a pack outside it), and the target
// property of each testsuite.
#include "reporters/junit_reporter.hpp"
#include "sample_run.hpp"
#include "reports.hpp"
#include "test_util.hpp"

#include <pugixml.hpp>

#include <string>
#include <vector>

#include <doctest/doctest.h>

using namespace idconform;
using namespace idconform::reporters;
using namespace idconform::test;

namespace {

const char* const strict_schemas[] = {"jenkins-xunit-junit-10.xsd", "ant-junit.xsd"};

CommandResult validate_with(const std::string& schema, const fs::path& file) {
    return xmllint("--noout --schema '" + source_path("tests/published_schemas/junit/" + schema).string() + "'", file);
}

ReportOptions strict_options() {
    ReportOptions o = sample_options();
    o.junit_flavor = JunitFlavor::strict;
    o.junit_hostname = "ci-runner-7";
    return o;
}

// What `run --target` gives the reporters: the profile and the metadata the
// JSON and HTML reports show (cli/load_suites.cpp makes the target line).
RunInfo target_info() {
    RunInfo info;
    info.tool_version = "0.0.0-test";
    info.profile = "api.target.yaml";
    info.metadata = {{"target", "my-api https://***:***@api.example.test/v1"}, {"profile", "api.target.yaml"}};
    return info;
}

std::string stream(const fs::path& file, const RunSummary& run, const ReportOptions& opts, const RunInfo& info) {
    JunitReporter r(file.string(), opts);
    r.run_started(info);
    std::string error;
    REQUIRE_MESSAGE(replay(r, run, error), error);
    return read_file(file);
}

RunSummary with_notes(RunSummary run) {
    run.notes = {"left 1 product on the target: DELETE answered 405"};
    return run;
}

CaseResult case_at(const std::string& file, int line, const char* name) {
    CaseResult c;
    c.suite = "s";
    c.name = name;
    c.classname = "s.DATA-ID-001";
    c.pos = SourcePos{file, line, 3};
    return c;
}

}  // namespace

TEST_CASE("strict JUnit matches the approved file") {
    const fs::path dir = scratch_dir("junit-strict-golden");
    check_golden("run.strict.junit.xml", stream(dir / "junit.xml", sample_run(), strict_options(), target_info()));
}

TEST_CASE("strict JUnit validates against the Jenkins xUnit and the Apache Ant JUnit schemas") {
    const fs::path dir = scratch_dir("junit-strict-schemas");
    int n = 0;
    for (const RunSummary& run : {sample_run(), wider_run(), with_notes(sample_run()), RunSummary{}}) {
        for (const RunInfo& info : {target_info(), RunInfo{}}) {
            const fs::path file = dir / ("strict-" + std::to_string(n++) + ".xml");
            stream(file, run, strict_options(), info);
            for (const char* schema : strict_schemas) {
                const auto r = validate_with(schema, file);
                CHECK_MESSAGE(r.exit_code == 0, schema << " rejects " << file.string() << ": " << r.output);
            }
            // and the project's own schema, which every flavor meets
            const auto own = validate_junit(file);
            CHECK_MESSAGE(own.exit_code == 0, own.output);
        }
    }
}

TEST_CASE("the full flavor is what the strict schemas reject, each for its own reasons") {
    const fs::path dir = scratch_dir("junit-full-vs-strict");
    const fs::path file = dir / "full.xml";
    stream(file, sample_run(), sample_options(), target_info());
    CHECK(validate_junit(file).exit_code == 0);
    const auto xunit = validate_with("jenkins-xunit-junit-10.xsd", file);
    CHECK(xunit.exit_code != 0);
    CHECK_MESSAGE(xunit.output.find("'file'") != std::string::npos, xunit.output);  // file on testcase
    const auto ant = validate_with("ant-junit.xsd", file);
    CHECK(ant.exit_code != 0);
    CHECK_MESSAGE(ant.output.find("testsuites") != std::string::npos, ant.output);  // attributes on the root
}

TEST_CASE("strict JUnit: testcases carry name, classname and time and at most one result") {
    const std::string xml = junit_text(with_notes(sample_run()), "2024-05-01T12:00:00.000Z", strict_options(),
                                         target_info());
    pugi::xml_document doc;
    REQUIRE(doc.load_string(xml.c_str()));
    const auto root = doc.child("testsuites");
    CHECK(root.first_attribute().empty());
    int id = 0, cases = 0, failures = 0;
    for (auto suite : root.children("testsuite")) {
        CHECK(std::string(suite.attribute("id").value()) == std::to_string(id++));
        CHECK(std::string(suite.attribute("hostname").value()) == "ci-runner-7");
        CHECK(std::string(suite.attribute("package").value()) == suite.attribute("name").value());
        CHECK(std::string(suite.attribute("timestamp").value()).size() == 19);  // no fraction, no zone
        CHECK(suite.child("properties"));
        CHECK(suite.child("system-out"));
        CHECK(suite.child("system-err"));
        CHECK(suite.attribute("file").empty());
        for (auto tc : suite.children("testcase")) {
            ++cases;
            std::vector<std::string> attrs;
            for (auto a : tc.attributes()) attrs.push_back(a.name());
            CHECK(attrs == std::vector<std::string>{"name", "classname", "time"});
            std::size_t children = 0;
            for (auto ch : tc.children()) {
                ++children;
                const std::string name = ch.name();
                CHECK_MESSAGE((name == "failure" || name == "error" || name == "skipped"), name);
                if (name == "failure") {
                    ++failures;
                    CHECK(std::string(ch.attribute("type").value()) == "contract");
                    CHECK(std::string(ch.text().get()).find("FAIL") != std::string::npos);  // the evidence stays
                }
            }
            CHECK(children <= 1);
        }
    }
    CHECK(id == 3);  // two suites and the notes
    CHECK(cases > 0);
    CHECK(failures > 0);
}

TEST_CASE("JUnit testsuites carry the target the run tested, credentials masked, as the metadata has it") {
    RunSummary run = with_notes(sample_run());
    const std::string xml = junit_text(run, "2024-05-01T12:00:00.000Z", sample_options(), target_info());
    pugi::xml_document doc;
    REQUIRE(doc.load_string(xml.c_str()));
    std::size_t suites = 0;
    for (auto suite : doc.child("testsuites").children("testsuite")) {
        const auto first = suite.child("properties").child("property");
        if (std::string(suite.attribute("name").value()) == "idconform notes") {
            CHECK(std::string(first.attribute("name").value()) == "note");
            continue;
        }
        ++suites;
        CHECK(std::string(first.attribute("name").value()) == "target");
        CHECK(std::string(first.attribute("value").value()) == "my-api https://***:***@api.example.test/v1");
    }
    CHECK(suites == run.suites.size());
    // without a target (suite files only) no suite says one
    const std::string plain = junit_text(run, "2024-05-01T12:00:00.000Z", sample_options());
    pugi::xml_document plain_doc;
    REQUIRE(plain_doc.load_string(plain.c_str()));
    for (auto suite : plain_doc.child("testsuites").children("testsuite"))
        for (auto p : suite.child("properties").children("property"))
            CHECK(std::string(p.attribute("name").value()) != "target");

    const fs::path dir = scratch_dir("junit-target");
    write_file(dir / "target.xml", xml);
    const auto v = validate_junit(dir / "target.xml");
    CHECK_MESSAGE(v.exit_code == 0, v.output);
}

TEST_CASE("JUnit file: relative to the working directory, a pack outside it is named by the profile") {
    ReportOptions opts;
    opts.junit_root = "/work/repo";
    RunSummary run;
    SuiteResult s;
    s.name = "s";
    s.file = "/usr/share/idconform/suites/packs/data-id-002.yaml";
    s.cases = {case_at("/work/repo/suites/a.yaml", 12, "inside"),
               case_at("/work/repo/./suites/../suites/b.yaml", 4, "inside, not normal"),
               case_at("suites/c.yaml", 5, "relative"),
               case_at("/usr/share/idconform/suites/packs/data-id-002.yaml", 30, "installed pack"),
               case_at("../elsewhere/d.yaml", 8, "relative, outside"),
               case_at("/work/repository/e.yaml", 9, "a sibling with the same prefix")};
    run.suites.push_back(s);

    const auto files = [&](const RunInfo& info) {
        const std::string xml = junit_text(run, "", opts, info);
        pugi::xml_document doc;
        REQUIRE(doc.load_string(xml.c_str()));
        std::vector<std::string> out;
        const auto suite = doc.child("testsuites").child("testsuite");
        out.push_back(suite.attribute("file").value());
        for (auto tc : suite.children("testcase"))
            out.push_back(std::string(tc.attribute("file").value()) + ":" + tc.attribute("line").value());
        return out;
    };

    RunInfo with_profile;
    with_profile.profile = "/work/repo/ci/api.target.yaml";
    CHECK(files(with_profile) == std::vector<std::string>{
                                     "ci/api.target.yaml",
                                     "suites/a.yaml:12",
                                     "suites/b.yaml:4",
                                     "suites/c.yaml:5",
                                     "ci/api.target.yaml:",  // the pack's line is not the profile's
                                     "ci/api.target.yaml:",
                                     "ci/api.target.yaml:",
                                 });
    // No profile, or one outside the working directory too: the path as given.
    for (const char* profile : {"", "/etc/api.target.yaml"}) {
        RunInfo info;
        info.profile = profile;
        CHECK(files(info) == std::vector<std::string>{
                                 "/usr/share/idconform/suites/packs/data-id-002.yaml",
                                 "suites/a.yaml:12",
                                 "suites/b.yaml:4",
                                 "suites/c.yaml:5",
                                 "/usr/share/idconform/suites/packs/data-id-002.yaml:30",
                                 "../elsewhere/d.yaml:8",
                                 "/work/repository/e.yaml:9",
                             });
    }
}
