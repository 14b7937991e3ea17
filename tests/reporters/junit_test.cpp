// Tests of the JUnit reporter: approved output, schema validity (and that
// the schema can fail), structure, redaction and unwritable paths.
#include "reporters/junit_reporter.hpp"
#include "sample_run.hpp"
#include "reports.hpp"
#include "test_util.hpp"

#include <pugixml.hpp>

#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

using namespace idconform;
using namespace idconform::reporters;
using namespace idconform::test;

namespace {

std::string write_sample(const fs::path& dir) {
    JunitReporter r((dir / "junit.xml").string(), sample_options());
    RunInfo info;
    info.tool_version = "0.0.0-test";
    info.total_cases = 5;
    r.run_started(info);
    std::string error;
    REQUIRE_MESSAGE(replay(r, sample_run(), error), error);
    return read_file(dir / "junit.xml");
}

}  // namespace

TEST_CASE("JUnit output matches the approved file") {
    const fs::path dir = scratch_dir("junit-golden");
    check_golden("run.junit.xml", write_sample(dir));
}

TEST_CASE("JUnit output validates against reporters/schema/junit.xsd") {
    const fs::path dir = scratch_dir("junit-schema");
    write_sample(dir);
    const auto r = validate_junit(dir / "junit.xml");
    CHECK_MESSAGE(r.exit_code == 0, r.output);

    // The approved file is a valid example as well.
    const auto g = validate_junit(source_path("tests/reporters/golden/run.junit.xml"));
    CHECK_MESSAGE(g.exit_code == 0, g.output);

    // An empty run is valid too.
    write_file(dir / "empty.xml", junit_text(RunSummary{}, "2024-05-01T12:00:00.000Z"));
    const auto e = validate_junit(dir / "empty.xml");
    CHECK_MESSAGE(e.exit_code == 0, e.output);
}

TEST_CASE("the JUnit schema rejects broken documents") {
    const fs::path dir = scratch_dir("junit-broken");
    const std::string good = junit_text(sample_run(), "2024-05-01T12:00:00.000Z", sample_options());
    struct Breakage {
        std::string what;
        std::string from, to;
    };
    const Breakage breakages[] = {
        {"testcase without classname", R"(classname="data-id.DATA-ID-001" )", ""},
        {"unknown element", "<system-out>", "<bogus/><system-out>"},
        {"negative count", R"(<testsuite name="data-id" tests="3")", R"(<testsuite name="data-id" tests="-3")"},
        {"failure after system-out", "<testcase name=\"ids are unique across creates\"",
         "<testcase name=\"x\" classname=\"y\"><system-out>o</system-out><failure message=\"m\"/></testcase>"
         "<testcase name=\"ids are unique across creates\""},
    };
    for (const auto& b : breakages) {
        CAPTURE(b.what);
        std::string doc = good;
        const auto at = doc.find(b.from);
        REQUIRE(at != std::string::npos);
        doc.replace(at, b.from.size(), b.to);
        const fs::path file = dir / "broken.xml";
        write_file(file, doc);
        CHECK(xmllint("--noout", file).exit_code == 0);  // still well-formed...
        CHECK(validate_junit(file).exit_code != 0);       // ...but not our JUnit
    }
}

TEST_CASE("JUnit structure: counts, attributes, outcomes, properties") {
    pugi::xml_document doc;
    const std::string xml = junit_text(sample_run(), "2024-05-01T12:00:00.000Z", sample_options());
    REQUIRE(doc.load_string(xml.c_str()));
    const auto root = doc.child("testsuites");
    CHECK(std::string(root.attribute("name").value()) == "idconform");
    CHECK(root.attribute("tests").as_int() == 5);
    CHECK(root.attribute("failures").as_int() == 2);
    CHECK(root.attribute("errors").as_int() == 1);
    CHECK(root.attribute("skipped").as_int() == 1);
    CHECK(std::string(root.attribute("time").value()) == "2.346");

    const auto suite = root.child("testsuite");
    CHECK(std::string(suite.attribute("name").value()) == "data-id");
    CHECK(std::string(suite.attribute("file").value()) == "suites/data-id.yaml");
    CHECK(std::string(suite.attribute("time").value()) == "1.500");
    CHECK(suite.attribute("tests").as_int() == 3);

    const auto passed = suite.child("testcase");
    CHECK(std::string(passed.attribute("classname").value()) == "data-id.DATA-ID-001");
    CHECK(std::string(passed.attribute("time").value()) == "0.012");
    CHECK(std::string(passed.attribute("line").value()) == "10");
    CHECK(std::string(passed.attribute("file").value()) == "suites/data-id.yaml");
    CHECK_FALSE(passed.child("failure"));
    auto prop = passed.child("properties").child("property");
    CHECK(std::string(prop.attribute("name").value()) == "target");
    CHECK(std::string(prop.attribute("value").value()) == "http://127.0.0.1:8080");
    CHECK(passed.child("properties").find_child_by_attribute("property", "name", "rule"));
    const std::string out = passed.child("system-out").text().get();
    CHECK(out.find("ok status: expected 201, actual 201") != std::string::npos);
    CHECK(out.find("warn [DATA-ID-005]") != std::string::npos);

    const auto failed = passed.next_sibling("testcase");
    CHECK(std::string(failed.attribute("name").value()) == "upper-case id <rejected> & \"never\" normalised");
    const auto failure = failed.child("failure");
    CHECK(std::string(failure.attribute("type").value()) == "contract");
    CHECK(std::string(failure.attribute("message").value()) == "GET with an upper-case id was answered 200");
    const std::string detail = failure.text().get();
    CHECK(detail.find("rule: DATA-ID-002") == 0);
    CHECK(detail.find("FAIL [DATA-ID-002] status: expected 4xx, actual 200 (at suites/data-id.yaml:42:7)") !=
          std::string::npos);
    CHECK(detail.find("request: GET http://127.0.0.1:8080/items/017F22E2") != std::string::npos);
    CHECK(detail.find("response: 200 OK") != std::string::npos);
    CHECK(detail.find("reproduce: curl") != std::string::npos);
    CHECK(detail.find("step 'create'") == std::string::npos);  // only the step that failed
    CHECK(detail.find("\\u0000\\u0001\\u001B[31mred\\u007F") != std::string::npos);

    const auto errored = failed.next_sibling("testcase");
    const auto error = errored.child("error");
    CHECK(std::string(error.attribute("type").value()) == "transport");
    // an unreachable target: the short form of the cause, the request still in the detail
    CHECK(std::string(error.attribute("message").value()) == "target unreachable: connect: connection refused");
    CHECK(std::string(error.text().get()).find("error: connect: connection refused") != std::string::npos);
    CHECK(std::string(error.text().get()).find("attempts: 3") != std::string::npos);

    const auto suite2 = suite.next_sibling("testsuite");
    const auto skipped = suite2.child("testcase");
    CHECK(std::string(skipped.child("skipped").attribute("message").value()) ==
          "precondition not met: no list endpoint configured");
    // why it was skipped, as a property (name and classname stay as they are)
    const auto cause = skipped.child("properties").child("property");
    CHECK(std::string(cause.attribute("name").value()) == "idconform.skip_cause");
    CHECK(std::string(cause.attribute("value").value()) == "precondition");
    CHECK_FALSE(cause.next_sibling("property"));  // no empty placeholder elements
    CHECK_FALSE(skipped.child("system-out"));

    // No runner message: the first failed check stands in, both rules listed.
    const auto truncated = skipped.next_sibling("testcase");
    const auto f2 = truncated.child("failure");
    CHECK(std::string(f2.attribute("message").value()).find("[DATA-ID-007] no Nil in id fields: expected") == 0);
    CHECK(std::string(f2.text().get()).find("rules: DATA-ID-007, NIL-MAX") == 0);
    CHECK(std::string(f2.text().get()).find("(36 more bytes, 100000 received in total") == std::string::npos);
    CHECK(std::string(f2.text().get()).find("(99938 more bytes, 100000 received in total; body truncated by the transport)") !=
          std::string::npos);
}

TEST_CASE("JUnit output never contains a secret") {
    const std::string xml = junit_text(sample_run(), "", sample_options());
    for (const char* secret : {secret_token, secret_cookie, secret_api_key, secret_password, "YWRtaW46cGFzcw=="}) {
        CAPTURE(secret);
        CHECK(xml.find(secret) == std::string::npos);
    }
    CHECK(xml.find("[REDACTED]") != std::string::npos);
    CHECK(xml.find(" timestamp=\"\"") == std::string::npos);  // empty timestamp left out
}

TEST_CASE("JUnit reporter: an unwritable path fails cleanly") {
    JunitReporter r("/nonexistent-idconform-dir/sub/junit.xml");
    std::string error;
    CHECK_FALSE(r.run_finished(sample_run(), error));
    CHECK(error.find("cannot write JUnit report '/nonexistent-idconform-dir/sub/junit.xml'") == 0);
}

TEST_CASE("JUnit: missing names fall back so required attributes are never empty") {
    RunSummary run;
    SuiteResult s;
    s.file = "suites/x.yaml";
    CaseResult unnamed;
    unnamed.pos = SourcePos{"suites/x.yaml", 3, 1};
    unnamed.properties = {{"", "dropped"}};
    s.cases.push_back(unnamed);
    s.cases.push_back(CaseResult{});
    run.suites.push_back(s);
    const std::string xml = junit_text(run, "");
    pugi::xml_document doc;
    REQUIRE(doc.load_string(xml.c_str()));
    const auto suite = doc.child("testsuites").child("testsuite");
    CHECK(std::string(suite.attribute("name").value()) == "suites/x.yaml");
    const auto first = suite.child("testcase");
    CHECK(std::string(first.attribute("name").value()) == "case at suites/x.yaml:3:1");
    CHECK(std::string(first.attribute("classname").value()) == "suites/x.yaml");
    CHECK_FALSE(first.child("properties"));
    CHECK(std::string(first.next_sibling("testcase").attribute("name").value()) == "unnamed case");

    const fs::path dir = scratch_dir("junit-unnamed");
    write_file(dir / "unnamed.xml", xml);
    const auto r = validate_junit(dir / "unnamed.xml");
    CHECK_MESSAGE(r.exit_code == 0, r.output);
}

TEST_CASE("JUnit reporter: the run's summary cases are not what it reports") {
    // The runner keeps no cases; a reporter that read them would write an
    // empty report. Events only: a summary holding cases adds nothing.
    const fs::path dir = scratch_dir("junit-events");
    JunitReporter r((dir / "junit.xml").string());
    std::string error;
    REQUIRE(r.run_finished(sample_run(), error));
    CHECK(read_file(dir / "junit.xml").find("<testcase") == std::string::npos);
}

TEST_CASE("JUnit: passed testcases printed directly are what pugixml prints") {
    // Passed testcases with plain ASCII text skip pugixml (junit_reporter.cpp,
    // passed_testcase_text); each must still be byte for byte pugixml's
    // printing of the same element, escapes included. Names with '>' or
    // non-ASCII text take the pugixml path and must agree as well.
    RunSummary run;
    SuiteResult s;
    s.name = "escapes";
    s.file = "suites/e.yaml";
    const std::vector<std::string> names = {"a & b <c> \"q\"", "it's", "caf\xc3\xa9", "tab\there", "plain"};
    for (const auto& name : names) {
        CaseResult c;
        c.name = name;
        c.classname = "escapes.DATA-ID-001";
        c.pos = SourcePos{"suites/e.yaml", 7, 3};
        c.rules = {"DATA-ID-001"};
        c.properties = {{"endpoint", "GET /v1/x?a=1&b=\"2\""}, {"", "dropped"}};
        StepRecord st;
        st.name = "get 'x' & <y>";
        st.exchange.request.method = "GET";
        st.exchange.request.url = "http://127.0.0.1:1/v1/x?a=1&b=2";
        st.exchange.response = Response{};
        st.exchange.response->status = 200;
        st.exchange.response->reason = "OK";
        st.checks.push_back(check("DATA-ID-001", "id /id", "canonical \"v7\"", "'a' -> <b> & c", true, pos("suites/e.yaml", 9, 5)));
        c.steps.push_back(st);
        s.cases.push_back(c);
    }
    CaseResult bare;  // no properties, rules or steps: a self-closed element
    bare.name = "bare";
    s.cases.push_back(bare);
    run.suites.push_back(s);
    const std::string xml = junit_text(run, "");
    pugi::xml_document doc;
    REQUIRE(doc.load_string(xml.c_str()));
    std::size_t n = 0;
    for (auto tc : doc.child("testsuites").child("testsuite").children("testcase")) {
        std::ostringstream one;
        tc.print(one, "  ", pugi::format_indent, pugi::encoding_utf8, 2);
        CHECK_MESSAGE(xml.find(one.str()) != std::string::npos, one.str());
        ++n;
    }
    CHECK(n == names.size() + 1);
    const auto first = doc.child("testsuites").child("testsuite").child("testcase");
    CHECK(std::string(first.attribute("name").value()) == names.front());
    CHECK(std::string(first.child("system-out").text().get()).find("'a' -> <b> & c") != std::string::npos);
}

TEST_CASE("JUnit with a baseline or waivers: each testsuite carries its summary as properties, and stays valid") {
    const fs::path dir = scratch_dir("junit-baseline");
    JunitReporter r((dir / "junit.xml").string(), sample_options());
    r.run_started(RunInfo{});
    const auto make = [](std::string suite, std::string name, std::vector<std::string> rules, Outcome o,
                         const char* state) {
        CaseResult c;
        c.suite = std::move(suite);
        c.name = std::move(name);
        c.rules = std::move(rules);
        c.outcome = o;
        if (state) c.properties.push_back({"baseline", state});
        return c;
    };
    r.suite_started("data-id products", "p.yaml");
    r.case_finished(make("data-id products", "a", {"DATA-ID-002"}, Outcome::failed, "new"));
    r.case_finished(make("data-id products", "b", {"DATA-ID-002", "DATA-ID-007"}, Outcome::waived, "still-failing"));
    r.case_finished(make("data-id products", "c", {"DATA-ID-007"}, Outcome::passed, "fixed"));
    r.case_finished(make("data-id products", "d", {}, Outcome::failed, "new"));
    r.case_finished(make("data-id products", "e", {"DATA-ID-001"}, Outcome::passed, nullptr));
    r.suite_finished(SuiteResult{});
    r.suite_started("empty & <odd>", "e.yaml");  // no cases: the properties make it a non-empty element
    r.suite_finished(SuiteResult{});
    AuditSummary a;
    a.baseline_file = "reports/before \"1\".json";
    r.audit_finished(a);
    std::string error;
    REQUIRE_MESSAGE(r.run_finished(RunSummary{}, error), error);

    const auto v = validate_junit(dir / "junit.xml");
    CHECK_MESSAGE(v.exit_code == 0, v.output);
    pugi::xml_document doc;
    REQUIRE(doc.load_file((dir / "junit.xml").c_str()));
    const auto props_of = [](pugi::xml_node suite) {
        std::vector<std::string> out;
        for (auto p : suite.child("properties").children("property"))
            out.push_back(std::string(p.attribute("name").value()) + "=" + p.attribute("value").value());
        return out;
    };
    const auto suites = doc.child("testsuites");
    const auto first = suites.find_child_by_attribute("testsuite", "name", "data-id products");
    REQUIRE(first);
    CHECK(props_of(first) == std::vector<std::string>{
                                 "baseline=reports/before \"1\".json", "baseline.new=2", "baseline.fixed=1",
                                 "baseline.still_failing=1", "baseline.(no rule).new=1",
                                 "baseline.DATA-ID-002.new=1", "baseline.DATA-ID-002.still_failing=1",
                                 "baseline.DATA-ID-007.fixed=1", "baseline.DATA-ID-007.still_failing=1"});
    // Ant order: the suite's properties before its testcases
    CHECK(std::string(first.first_child().name()) == "properties");
    CHECK(std::distance(first.children("testcase").begin(), first.children("testcase").end()) == 5);
    const auto empty = suites.find_child_by_attribute("testsuite", "name", "empty & <odd>");
    REQUIRE(empty);
    CHECK(props_of(empty) == std::vector<std::string>{"baseline=reports/before \"1\".json", "baseline.new=0",
                                                      "baseline.fixed=0", "baseline.still_failing=0"});
    CHECK(std::string(empty.attribute("tests").value()) == "0");

    // waivers without a baseline: the waived count only; neither: no testsuite properties
    for (const bool waivers : {true, false}) {
        CAPTURE(waivers);
        JunitReporter plain((dir / "plain.xml").string(), sample_options());
        plain.run_started(RunInfo{});
        plain.suite_started("s", "s.yaml");
        plain.case_finished(make("s", "a", {"R"}, Outcome::failed, nullptr));
        plain.case_finished(make("s", "b", {"R"}, Outcome::waived, nullptr));
        plain.case_finished(make("s", "c", {"R"}, Outcome::skipped, nullptr));
        plain.suite_finished(SuiteResult{});
        AuditSummary w;
        if (waivers) w.waivers_file = "w.yaml";
        plain.audit_finished(w);
        REQUIRE(plain.run_finished(RunSummary{}, error));
        const auto pv = validate_junit(dir / "plain.xml");
        CHECK_MESSAGE(pv.exit_code == 0, pv.output);
        pugi::xml_document p;
        REQUIRE(p.load_file((dir / "plain.xml").c_str()));
        const auto suite = p.child("testsuites").child("testsuite");
        CHECK(std::string(suite.attribute("skipped").value()) == "2");  // waived and skipped, as JUnit has it
        if (waivers) CHECK(props_of(suite) == std::vector<std::string>{"waivers=w.yaml", "waived=1"});
        else CHECK_FALSE(suite.child("properties"));
    }
}

TEST_CASE("JUnit reporter: runs of every shape validate against the schema") {
    for (const RunSummary& run : {sample_run(), wider_run(), RunSummary{}}) {
        const fs::path dir = scratch_dir("junit-shapes");
        write_file(dir / "junit.xml", junit_text(run, "2024-05-01T12:00:00.000Z", sample_options()));
        const auto v = validate_junit(dir / "junit.xml");
        CHECK_MESSAGE(v.exit_code == 0, v.output);
    }
}
