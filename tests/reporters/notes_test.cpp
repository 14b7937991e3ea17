// The run's notes (RunSummary::notes: what a run left on the target and why)
// in every reporter: once, never as a failure or an error, redacted; absent
// from runs without notes (the approved files stay as they are).
#include "reporters/console_reporter.hpp"
#include "reporters/html_reporter.hpp"
#include "reporters/json_replay.hpp"
#include "reporters/json_report_reader.hpp"
#include "reporters/json_reporter.hpp"
#include "reporters/junit_reporter.hpp"
#include "sample_run.hpp"
#include "reports.hpp"
#include "test_util.hpp"

#include <boost/json/parse.hpp>
#include <pugixml.hpp>

#include <doctest/doctest.h>

#include <sstream>

using namespace idconform;
using namespace idconform::reporters;
using namespace idconform::test;

namespace {

const std::string note =
    "left on the target: 2 entities this run created, because the profile says 'jobs' cannot "
    "be deleted (kept <30> days, p.yaml:9:5); ids j1, j2";

RunSummary with_notes() {
    RunSummary run = sample_run();
    run.notes = {note, std::string("a second note naming X-Api-Key: ") + secret_api_key};
    return run;
}

std::size_t occurrences(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

}  // namespace

TEST_CASE("notes: JUnit has them once, in a testsuite of no tests that validates") {
    const fs::path dir = scratch_dir("notes-junit");
    JunitReporter r((dir / "junit.xml").string(), sample_options());
    r.run_started(RunInfo{});
    std::string error;
    REQUIRE_MESSAGE(replay(r, with_notes(), error), error);
    const std::string xml = read_file(dir / "junit.xml");
    const auto v = validate_junit(dir / "junit.xml");
    CHECK_MESSAGE(v.exit_code == 0, v.output);
    pugi::xml_document doc;
    REQUIRE(doc.load_string(xml.c_str()));
    const auto notes = doc.select_nodes("//testsuite[@name='idconform notes']");
    REQUIRE(notes.size() == 1);
    const pugi::xml_node s = notes.first().node();
    CHECK(std::string(s.attribute("tests").value()) == "0");
    CHECK(std::string(s.attribute("errors").value()) == "0");
    CHECK(std::string(s.select_node("properties/property[1]").node().attribute("value").value()) == note);
    CHECK(std::string(s.child("system-out").text().get()).rfind(note + "\n", 0) == 0);
    CHECK(xml.find(secret_api_key) == std::string::npos);
    // the totals do not count it
    CHECK(std::string(doc.child("testsuites").attribute("tests").value()) == std::to_string(sample_run().total()));
    CHECK(junit_text(with_notes(), "2024-05-01T12:00:00.000Z", sample_options()).find("idconform notes") !=
          std::string::npos);
    CHECK(junit_text(sample_run(), "2024-05-01T12:00:00.000Z").find("idconform notes") == std::string::npos);
}

TEST_CASE("notes: JSON has a top-level notes array, only when there are notes") {
    const fs::path dir = scratch_dir("notes-json");
    JsonReporter r((dir / "report.json").string(), sample_options());
    r.run_started(RunInfo{});
    std::string error;
    REQUIRE_MESSAGE(replay(r, with_notes(), error), error);
    const std::string text = read_file(dir / "report.json");
    const auto doc = boost::json::parse(text);
    const auto& notes = doc.at("notes").as_array();
    REQUIRE(notes.size() == 2);
    CHECK(notes[0].as_string() == note);
    CHECK(text.find(secret_api_key) == std::string::npos);
    CHECK(boost::json::parse(json_text(sample_run(), "t")).as_object().if_contains("notes") == nullptr);
}

TEST_CASE("notes: the console says each once, above the verdict") {
    std::ostringstream out;
    ConsoleReporter r(out, false, false, ConsoleOptions{});
    r.run_started(RunInfo{});
    std::string error;
    REQUIRE(replay(r, with_notes(), error));
    const std::string text = out.str();
    CHECK(occurrences(text, "NOTE " + note + "\n") == 1);
    CHECK(occurrences(text, "NOTE ") == 2);
    CHECK(text.find("NOTE ") < text.rfind("FAILED "));
    CHECK(text.find(secret_api_key) == std::string::npos);
}

TEST_CASE("notes: the HTML report has a notes section, escaped") {
    const fs::path dir = scratch_dir("notes-html");
    HtmlReporter r((dir / "report.html").string(), sample_options());
    r.run_started(RunInfo{});
    std::string error;
    REQUIRE_MESSAGE(replay(r, with_notes(), error), error);
    const std::string html = read_file(dir / "report.html");
    CHECK(occurrences(html, "<section id=\"notes\">") == 1);
    CHECK(html.find("kept &lt;30&gt; days") != std::string::npos);
    CHECK(html.find(secret_api_key) == std::string::npos);
}

TEST_CASE("notes: a JSON report read back (merge, report --html) keeps them") {
    const fs::path dir = scratch_dir("notes-read");
    const std::string text = json_text(with_notes(), "t", sample_options());
    write_file(dir / "run.json", text);
    ReadReport read;
    std::string error;
    REQUIRE_MESSAGE(read_json_report((dir / "run.json").string(), read, error), error);
    REQUIRE(read.summary.notes.size() == 2);
    CHECK(read.summary.notes[0] == note);

    class Last final : public Reporter {
    public:
        bool run_finished(const RunSummary& s, std::string&) override {
            notes = s.notes;
            return true;
        }
        std::vector<std::string> notes;
    } last;
    REQUIRE_MESSAGE(replay_json_report_text(text, "run.json", last, error), error);
    REQUIRE(last.notes.size() == 2);
    CHECK(last.notes[0] == note);
}
