// Tests of the reporters' redaction safety net.
#include "reporters/redact.hpp"

#include <doctest/doctest.h>

using namespace idconform;
using namespace idconform::reporters;

TEST_CASE("default sensitive headers are masked, case-insensitively") {
    for (const char* name : {"Authorization", "authorization", "PROXY-AUTHORIZATION", "Cookie", "set-cookie"}) {
        CAPTURE(name);
        CHECK(is_sensitive_header(name));
    }
    CHECK_FALSE(is_sensitive_header("X-Authorization-Hint"));
    CHECK_FALSE(is_sensitive_header("Content-Type"));
    CHECK(is_sensitive_header("x-api-key", {"X-Api-Key"}));
    CHECK(is_sensitive_header("x-api-key"));  // one list with the runner's: X-Api-Key is always masked
}

TEST_CASE("redact_headers keeps order and duplicates") {
    const std::vector<Header> in{{"Accept", "*/*"}, {"Authorization", "Bearer abc"}, {"Set-Cookie", "a=1"},
                                 {"Set-Cookie", "b=2"}, {"X-Token", "t"}};
    const auto out = redact_headers(in, {"x-token"});
    REQUIRE(out.size() == 5);
    CHECK(out[0].value == "*/*");
    CHECK(out[1].name == "Authorization");
    CHECK(out[1].value == "[REDACTED]");
    CHECK(out[2].value == "[REDACTED]");
    CHECK(out[3].value == "[REDACTED]");
    CHECK(out[4].value == "[REDACTED]");
}

TEST_CASE("redact_url masks the userinfo password only") {
    CHECK(redact_url("https://user:secret@host:8443/p?q=1") == "https://user:[REDACTED]@host:8443/p?q=1");
    CHECK(redact_url("https://host/p@x") == "https://host/p@x");
    CHECK(redact_url("https://user@host/") == "https://user@host/");
    CHECK(redact_url("http://127.0.0.1:8080/items") == "http://127.0.0.1:8080/items");
}

TEST_CASE("redact_text masks header values in commands and messages") {
    CHECK(redact_text("curl -H 'Authorization: Bearer abc' -H 'Accept: x' http://h/") ==
          "curl -H 'Authorization: [REDACTED]' -H 'Accept: x' http://h/");
    CHECK(redact_text("curl -H \"cookie: a=1; b=2\" http://h/") == "curl -H \"cookie: [REDACTED]\" http://h/");
    CHECK(redact_text("Set-Cookie: s=1\nX-Other: 2\n") == "Set-Cookie: [REDACTED]\nX-Other: 2\n");
    CHECK(redact_text("X-Api-Key: k1", {"X-Api-Key"}) == "X-Api-Key: [REDACTED]");
    CHECK(redact_text("X-Api-Key: k1") == "X-Api-Key: [REDACTED]");
    // Another header whose name ends in a sensitive one is left alone.
    CHECK(redact_text("X-Authorization: hint") == "X-Authorization: hint");
    CHECK(redact_text("curl http://u:p@h/ -H 'Proxy-Authorization: Basic eA=='") ==
          "curl http://u:[REDACTED]@h/ -H 'Proxy-Authorization: [REDACTED]'");
    CHECK(redact_text("nothing secret here") == "nothing secret here");
    CHECK(redact_text("authorization:") == "authorization:");
    // Any case, at the very start, several per text, and a name right after
    // the previous value's separator.
    CHECK(redact_text("AUTHORIZATION:x\nauthorization: y") == "AUTHORIZATION:[REDACTED]\nauthorization: [REDACTED]");
    CHECK(redact_text("'Cookie: a' 'x-api-key: b'", {"X-Api-Key"}) == "'Cookie: [REDACTED]' 'x-api-key: [REDACTED]'");
}

TEST_CASE("append_redacted and append_redacted_url append what redact_text and redact_url return") {
    const std::vector<std::string> extra{"X-Api-Key"};
    const char* texts[] = {
        "",
        "no colon at all",
        "ok status: expected 200, actual 200 (at s/suite.yaml:15:19)",
        "curl -H 'Authorization: Bearer abc' -H 'Accept: x' http://h/",
        "X-Api-Key: k1",
        "x-api-key:k2 and Cookie: c=1",
        "GET http://user:secret@h:8080/p?q=1 -> 200",
        "http://h/p@not-userinfo",
        "X-Authorization: not-a-secret",
    };
    for (const char* t : texts) {
        CAPTURE(t);
        std::string out = "prefix|";
        append_redacted(out, t, extra);
        CHECK(out == "prefix|" + redact_text(t, extra));
        out = "prefix|";
        append_redacted_url(out, t);
        CHECK(out == "prefix|" + redact_url(t));
    }
}

// Issue #12: the runner and the reporters once had two lists (the runner's
// knew X-Api-Key, the reporters' did not). With the one module, every
// report masks it without being told.
#include "reporters/console_reporter.hpp"
#include "reporters/json_reporter.hpp"
#include "reporters/junit_reporter.hpp"
#include "reports.hpp"
#include "sample_run.hpp"

#include <sstream>

TEST_CASE("X-Api-Key is redacted in every report with the default options (JUnit, JSON, console)") {
    const reporters::ReportOptions defaults;  // no extra header names
    REQUIRE(defaults.redact_headers.empty());
    const idconform::RunSummary run = test::sample_run();
    const std::string xml = test::junit_text(run, "", defaults);
    const std::string js = test::json_text(run, "x", defaults);
    std::ostringstream out;
    reporters::ConsoleOptions copts;
    copts.verbose = true;
    copts.report = defaults;
    {
        reporters::ConsoleReporter console(out, false, false, copts);
        console.run_started({});
        for (const auto& s : run.suites) {
            console.suite_started(s.name, s.file);
            for (const auto& c : s.cases) console.case_finished(c);
            console.suite_finished(s);
        }
        std::string error;
        CHECK(console.run_finished(run, error));
    }
    for (const std::string* report : {&xml, &js}) CHECK(report->find(test::secret_api_key) == std::string::npos);
    CHECK(out.str().find(test::secret_api_key) == std::string::npos);
    CHECK(xml.find("[REDACTED]") != std::string::npos);
}

// Issue 24 item 8: a server that reflects the request's Basic credentials in
// its body (base64, unpadded, decoded pair, password alone): none of them
// reaches any format, nor a report read back and merged (JSON again).
#include "core/redact.hpp"
#include "reporters/html_reporter.hpp"
#include "reporters/json_report_reader.hpp"

#include <cstdio>
#include <fstream>
#include <iterator>
#include <unistd.h>

TEST_CASE("an echoed Authorization: Basic credential is masked in JSON, JUnit, HTML, console and a re-read report") {
    const std::string b64 = "YWxpY2U6Y29ycmVjdC1ob3JzZS1iYXR0ZXJ5";  // alice:correct-horse-battery
    const std::string pair = "alice:correct-horse-battery", password = "correct-horse-battery";
    idconform::CaseResult c;
    c.suite = "s";
    c.name = "echo";
    c.outcome = idconform::Outcome::failed;
    c.message = "the server said " + pair;
    idconform::StepRecord st;
    st.name = "get";
    st.exchange.request.method = "GET";
    st.exchange.request.url = "http://h/echo";
    st.exchange.request.headers = {{"Authorization", "Basic " + b64}};
    idconform::Response resp;
    resp.status = 200;
    resp.body = "{\"auth\":\"Basic " + b64 + "\",\"raw\":\"" + b64.substr(0, b64.size()) + "\",\"user\":\"" + pair +
                "\",\"pw\":\"" + password + "\",\"url\":\"http%3A//" + pair + "@h\"}";
    st.exchange.response = resp;
    st.checks.push_back({"DATA-ID-002", "status", "404", "200 " + password, false, false, {}});
    st.reproduce = "curl -H 'Authorization: Basic " + b64 + "' http://h/echo # " + pair;
    c.steps.push_back(st);
    idconform::redact::scrub_case(c, {});

    idconform::RunSummary run;
    idconform::SuiteResult s;
    s.name = "s";
    s.cases.push_back(c);
    run.suites.push_back(s);
    const std::string xml = test::junit_text(run, "", {});
    const std::string js = test::json_text(run, "x");
    std::ostringstream console_out;
    {
        reporters::ConsoleOptions copts;
        copts.verbose = true;
        reporters::ConsoleReporter console(console_out, false, false, copts);
        console.run_started({});
        console.suite_started("s", "");
        console.case_finished(c);
        console.suite_finished(s);
        std::string error;
        CHECK(console.run_finished(run, error));
    }
    char dir[] = "/tmp/redact-basic.XXXXXX";
    REQUIRE(::mkdtemp(dir));
    const std::string html_path = std::string(dir) + "/r.html";
    {
        reporters::HtmlReporter html(html_path);
        html.run_started({});
        html.suite_started("s", "");
        html.case_finished(c);
        html.suite_finished(s);
        std::string error;
        REQUIRE(html.run_finished(run, error));
    }
    std::ifstream in(html_path);
    const std::string html((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::remove(html_path.c_str());
    ::rmdir(dir);
    // read back (report, merge): the text as read, rendered again
    reporters::ReadReport back;
    struct Keep final : reporters::ReportVisitor {
        idconform::RunSummary run;
        void suite_started(const idconform::SuiteResult& x) override { run.suites.push_back(x); }
        void take_case(idconform::CaseResult&& k) override { run.suites.back().cases.push_back(std::move(k)); }
    } keep;
    std::string error;
    REQUIRE(reporters::read_json_report_text(js, "r.json", keep, error));
    const std::string again = test::json_text(keep.run, "x");
    const std::string console = console_out.str();
    for (const std::string* report : {&xml, &js, &html, &console, &again}) {
        CHECK(report->find(b64.substr(0, 24)) == std::string::npos);
        CHECK(report->find(pair) == std::string::npos);
        CHECK(report->find(password) == std::string::npos);
        CHECK(report->find("[REDACTED]") != std::string::npos);
    }
}
