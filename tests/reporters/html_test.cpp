// Tests of the HTML writer (html_text: hostile strings) and the HTML
// reporter: approved output, structure, redaction, waived cases and the
// audit sections, memory-bounded spooling and unwritable paths.
#include "reporters/html_reporter.hpp"
#include "reporters/text.hpp"
#include "sample_run.hpp"
#include "test_util.hpp"

#include <doctest/doctest.h>

using namespace idconform;
using namespace idconform::reporters;
using namespace idconform::test;

namespace {

std::string write_sample(const fs::path& dir, const RunSummary& run, const AuditSummary* audit = nullptr) {
    HtmlReporter r((dir / "report.html").string(), sample_options());
    RunInfo info;
    info.tool_version = "0.0.0-test";
    info.metadata = {{"target", "products http://127.0.0.1:8080"}, {"clock skew", "5000 ms"},
                     {"started", "2000-01-01T00:00:00.000Z"}, {"finished", "2000-01-01T00:00:00.000Z"}};
    r.run_started(info);
    if (audit != nullptr) {
        // the audit stage sends audit_finished after the last suite
        RunSummary counted;
        std::string error;
        for (const auto& s : run.suites) {
            r.suite_started(s.name, s.file);
            for (const auto& c : s.cases) r.case_finished(c);
            r.suite_finished(s);
        }
        r.audit_finished(*audit);
        counted.seconds = run.seconds;
        REQUIRE_MESSAGE(r.run_finished(counted, error), error);
    } else {
        std::string error;
        REQUIRE_MESSAGE(replay(r, run, error), error);
    }
    return read_file(dir / "report.html");
}

std::size_t count_of(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

}  // namespace

TEST_CASE("html_text: script tags, quotes and ampersands become character references") {
    CHECK(html_text("<script>alert('x')</script>") == "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;");
    CHECK(html_text("a \"b\" & c") == "a &quot;b&quot; &amp; c");
    CHECK(html_text("</pre></details><img src=x onerror=alert(1)>") ==
          "&lt;/pre&gt;&lt;/details&gt;&lt;img src=x onerror=alert(1)&gt;");
    CHECK(html_text("plain text, 100% ASCII") == "plain text, 100% ASCII");
}

TEST_CASE("html_text: invalid UTF-8 becomes U+FFFD, valid UTF-8 is kept") {
    CHECK(html_text("caf\xC3\xA9") == "caf\xC3\xA9");
    CHECK(html_text("a\xFF" "b") == "a\xEF\xBF\xBD" "b");
    CHECK(html_text("\xC0\xAF") == "\xEF\xBF\xBD\xEF\xBF\xBD");        // overlong '/'
    CHECK(html_text("\xED\xA0\x80") == "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // surrogate
    CHECK(html_text("cut \xE2\x82") == "cut \xEF\xBF\xBD\xEF\xBF\xBD");
}

TEST_CASE("html_text: control characters are visible escapes, TAB and LF kept, CR escaped") {
    CHECK(html_text(std::string("a\0b", 3)) == "a\\u0000b");
    CHECK(html_text("bell\x07 esc\x1b[31m") == "bell\\u0007 esc\\u001B[31m");
    CHECK(html_text("del\x7f c1\xC2\x85") == "del\\u007F c1\\u0085");
    CHECK(html_text("tab\tlf\n") == "tab\tlf\n");
    CHECK(html_text("cr\r") == "cr\\r");
    CHECK(html_text("\xEF\xBF\xBE") == "\\uFFFE");
    // every byte value: nothing below 0x20 but TAB/LF survives, no raw '<'
    std::string all;
    for (int b = 0; b < 256; ++b) all += static_cast<char>(b);
    const std::string out = html_text(all);
    for (const char ch : out) {
        const auto c = static_cast<unsigned char>(ch);
        CHECK((c >= 0x20 || c == '\t' || c == '\n'));
        CHECK(ch != '<');
        CHECK(ch != '>');
        CHECK(ch != '"');
        CHECK(ch != '\'');
    }
}

TEST_CASE("HTML output matches the approved file") {
    check_golden("run.html", write_sample(scratch_dir("html-golden"), wider_run()));
}

TEST_CASE("HTML report: self-contained, every case present, evidence of failures, no secrets") {
    const RunSummary run = wider_run();
    const std::string html = write_sample(scratch_dir("html-structure"), run);
    CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
    CHECK(html.find("Content-Security-Policy") != std::string::npos);
    // nothing is loaded from anywhere
    CHECK(html.find("src=\"http") == std::string::npos);
    CHECK(html.find("href=\"http") == std::string::npos);
    CHECK(html.find("@import") == std::string::npos);
    CHECK(count_of(html, "class=\"case ") == run.total());
    CHECK(count_of(html, "<details class=\"case o-failed\"") == run.count(Outcome::failed));
    CHECK(count_of(html, "<details class=\"case o-error\"") == run.count(Outcome::error));
    CHECK(html.find("Ids travel as lower-case") != std::string::npos);  // the rule's statement
    CHECK(html.find("request: ") != std::string::npos);
    CHECK(html.find("reproduce: ") != std::string::npos);
    for (const char* secret : {secret_token, secret_cookie, secret_api_key, secret_password})
        CHECK_MESSAGE(html.find(secret) == std::string::npos, "secret in the HTML report: " << secret);
    // the matrix links to cases that exist
    for (std::size_t at = html.find("<td><a href=\"#"); at != std::string::npos; at = html.find("<td><a href=\"#", at + 1)) {
        const std::size_t b = at + 14, e = html.find('"', b);
        CHECK_MESSAGE(html.find("id=\"" + html.substr(b, e - b) + "\"") != std::string::npos, html.substr(b, e - b));
    }
}

TEST_CASE("HTML report: hostile result text stays text") {
    RunSummary run;
    SuiteResult s;
    s.name = "<b>suite</b>";
    CaseResult c;
    c.suite = s.name;
    c.name = "<script>alert(1)</script>";
    c.rules = {"R\"><img src=x>"};
    c.outcome = Outcome::failed;
    c.message = std::string("bad \x1b[31m\0 body", 15) + "\xFF</details>";
    StepRecord st;
    st.name = "</h4><script>";
    st.exchange.request.method = "GET";
    st.exchange.request.url = "http://h/<x>";
    Response resp;
    resp.status = 200;
    resp.body = "<script>document.write('owned')</script>\r\n\x01";
    st.exchange.response = resp;
    st.checks.push_back(check("R", "status", "4xx", "200 <i>", false, pos("s.yaml", 1, 1)));
    c.steps.push_back(st);
    s.cases.push_back(c);
    run.suites.push_back(s);
    const std::string html = write_sample(scratch_dir("html-hostile"), run);
    CHECK(count_of(html, "<script>") == 1);  // only the report's own
    CHECK(html.find("<img") == std::string::npos);
    CHECK(html.find("<b>suite") == std::string::npos);
    CHECK(html.find("\x1b") == std::string::npos);
    CHECK(html.find(std::string("\0", 1)) == std::string::npos);
    CHECK(html.find("\xFF") == std::string::npos);
    CHECK(html.find("&lt;script&gt;alert(1)&lt;/script&gt;") != std::string::npos);
}

TEST_CASE("HTML report: waived cases and the audit sections") {
    RunSummary run;
    SuiteResult s;
    s.name = "data-id-002 products";
    CaseResult c;
    c.suite = s.name;
    c.name = "upper-case id rejected";
    c.rules = {"DATA-ID-002"};
    c.outcome = Outcome::waived;
    c.message = "waived until 2099-12-31 by alice: legacy clients";
    c.properties = {{"waiver", "w.yaml:2:5"}, {"baseline", "still-failing"}};
    s.cases.push_back(c);
    run.suites.push_back(s);
    AuditSummary a;
    a.waivers_file = "w.yaml";
    WaiverStatus w;
    w.rule = "DATA-ID-002";
    w.covers = "every case";
    w.owner = "alice";
    w.reason = "legacy clients";
    w.expires = "2099-12-31";
    w.position = "w.yaml:2:5";
    w.state = "active";
    w.waived = 1;
    a.waivers.push_back(w);
    a.baseline_file = "old.json";
    a.baseline.push_back({"DATA-ID-002", 0, 1, 1});
    a.fixed = 1;
    a.still = 1;
    const std::string html = write_sample(scratch_dir("html-audit"), run, &a);
    CHECK(html.find("<details class=\"case o-waived\"") != std::string::npos);
    CHECK(html.find("waived until 2099-12-31 by alice: legacy clients") != std::string::npos);
    CHECK(html.find("<section id=\"waivers\">") != std::string::npos);
    CHECK(html.find("<section id=\"baseline\">") != std::string::npos);
    CHECK(html.find("1 fixed") != std::string::npos);
    CHECK(html.find("1W</span>") != std::string::npos);  // the matrix cell counts it as waived
    CHECK(html.find("<span class=\"verdict v-ok\">OK</span>") != std::string::npos);  // waived does not fail
}

TEST_CASE("HTML reporter: 100,000 cases spool to disk, the report is complete") {
    const fs::path dir = scratch_dir("html-many");
    HtmlReporter r((dir / "report.html").string());
    r.run_started(RunInfo{});
    r.suite_started("big", "big.yaml");
    CaseResult c;
    c.suite = "big";
    c.rules = {"DATA-ID-002"};
    for (int i = 0; i < 100000; ++i) {
        c.name = "case " + std::to_string(i);
        c.outcome = i % 1000 == 0 ? Outcome::failed : Outcome::passed;
        r.case_finished(c);
    }
    SuiteResult s;
    s.name = "big";
    r.suite_finished(s);
    std::string error;
    REQUIRE_MESSAGE(r.run_finished(RunSummary{}, error), error);
    const std::string html = read_file(dir / "report.html");
    CHECK(count_of(html, "class=\"case o-passed\"") == 99900);
    CHECK(count_of(html, "class=\"case o-failed\"") == 100);
    CHECK(html.find("case 99999<") != std::string::npos);
    CHECK(html.size() > (8u << 20));  // more than the spool keeps in memory
    CHECK(html.find("</html>\n") == html.size() - 8);
}

TEST_CASE("HTML reporter: an unwritable path is an error, not a crash") {
    HtmlReporter r("/nonexistent-dir/report.html");
    std::string error;
    r.run_started(RunInfo{});
    CHECK_FALSE(r.run_finished(RunSummary{}, error));
    CHECK(error.find("HTML report") != std::string::npos);
}
