// A hand-built RunSummary covering every outcome, properties, hostile body
// bytes (control characters, invalid UTF-8), a transport-truncated body and
// secrets that must come out redacted. Shared by the reporter tests.
#pragma once

#include "core/result.hpp"
#include "reporters/options.hpp"
#include "reporters/reporter.hpp"

#include <string>

namespace idconform::test {

inline constexpr const char* secret_token = "secret-token-123";
inline constexpr const char* secret_cookie = "session=cookie-456";
inline constexpr const char* secret_api_key = "api-key-789";
inline constexpr const char* secret_password = "pw-0000";

// The options the golden files were approved with: X-Api-Key is a
// caller-listed secret header; a small excerpt so truncation shows.
inline reporters::ReportOptions sample_options() {
    reporters::ReportOptions o;
    o.redact_headers = {"X-Api-Key"};
    o.body_excerpt_bytes = 64;
    return o;
}

inline Clock::time_point at_ms(long long ms) { return Clock::time_point(std::chrono::milliseconds(ms)); }

inline SourcePos pos(const std::string& file, int line, int column) { return SourcePos{file, line, column}; }

inline CheckResult check(std::string rule, std::string what, std::string expected, std::string actual, bool ok,
                         SourcePos p, bool warning = false) {
    CheckResult c;
    c.rule = std::move(rule);
    c.what = std::move(what);
    c.expected = std::move(expected);
    c.actual = std::move(actual);
    c.ok = ok;
    c.warning = warning;
    c.pos = std::move(p);
    return c;
}

inline RunSummary sample_run() {
    const std::string f1 = "suites/data-id.yaml";
    const std::string f2 = "suites/nil-max.yaml";
    RunSummary run;
    run.seconds = 2.34567;

    // ---------------------------------------------------------- suite data-id
    SuiteResult s1;
    s1.name = "data-id";
    s1.file = f1;
    s1.seconds = 1.5;
    s1.timestamp = "2024-05-01T12:00:00.000Z";

    {  // passed, with properties, an advisory warning and secrets everywhere
        CaseResult c;
        c.suite = "data-id";
        c.name = "create returns a v7 id";
        c.classname = "data-id.DATA-ID-001";
        c.rules = {"DATA-ID-001"};
        c.outcome = Outcome::passed;
        c.properties = {{"target", "http://127.0.0.1:8080"}, {"transport", "http"}};
        c.seconds = 0.0123;
        c.pos = pos(f1, 10, 3);
        StepRecord st;
        st.name = "create";
        st.exchange.request.method = "POST";
        st.exchange.request.url = "http://127.0.0.1:8080/items";
        st.exchange.request.headers = {{"Content-Type", "application/json"},
                                       {"Authorization", std::string("Bearer ") + secret_token},
                                       {"X-Api-Key", secret_api_key}};
        st.exchange.request.body = R"({"name":"a"})";
        Response r;
        r.status = 201;
        r.reason = "Created";
        r.headers = {{"Location", "/items/017f22e2-79b0-7cc3-98c4-dc0c0c07398f"}, {"Set-Cookie", secret_cookie}};
        r.body = R"({"id":"017f22e2-79b0-7cc3-98c4-dc0c0c07398f","created_at":"2022-02-22T19:22:22Z"})";
        r.body_bytes = r.body.size();
        st.exchange.response = r;
        st.exchange.sent = at_ms(1714564800000);
        st.exchange.received = at_ms(1714564800012);
        st.checks = {check("", "status", "201", "201", true, pos(f1, 14, 7)),
                     check("DATA-ID-001", "id /id uuidv7", "UUIDv7, RFC variant", "v7", true, pos(f1, 15, 7)),
                     check("DATA-ID-005", "time /created_at not derived from id", "independent of the id",
                           "equals the id's timestamp", false, pos(f1, 16, 7), true)};
        st.reproduce = std::string("curl -sS -X POST 'http://127.0.0.1:8080/items' -H 'Authorization: Bearer ") +
                       secret_token + "' -H 'X-Api-Key: " + secret_api_key + "' --data-raw '{\"name\":\"a\"}'";
        c.steps.push_back(st);
        s1.cases.push_back(c);
    }
    {  // failed: hostile body, a second (passing) step, XML specials in names
        CaseResult c;
        c.suite = "data-id";
        c.name = "upper-case id <rejected> & \"never\" normalised";
        c.classname = "data-id.DATA-ID-002";
        c.rules = {"DATA-ID-002"};
        c.outcome = Outcome::failed;
        c.message = "GET with an upper-case id was answered 200";
        c.detail = "the target normalised the id instead of rejecting it";
        c.properties = {{"mutation", "upper-case"}};
        c.seconds = 0.25;
        c.pos = pos(f1, 30, 3);
        StepRecord ok_step;
        ok_step.name = "create";
        ok_step.exchange.request.method = "POST";
        ok_step.exchange.request.url = "http://127.0.0.1:8080/items";
        Response r0;
        r0.status = 201;
        r0.reason = "Created";
        r0.body = R"({"id":"017f22e2-79b0-7cc3-98c4-dc0c0c07398f"})";
        r0.body_bytes = r0.body.size();
        ok_step.exchange.response = r0;
        ok_step.checks = {check("", "status", "201", "201", true, pos(f1, 34, 7))};
        c.steps.push_back(ok_step);

        StepRecord st;
        st.name = "get upper-case";
        st.exchange.request.method = "GET";
        st.exchange.request.url = "http://127.0.0.1:8080/items/017F22E2-79B0-7CC3-98C4-DC0C0C07398F";
        st.exchange.request.headers = {{"Accept", "application/json"}, {"Cookie", secret_cookie}};
        Response r;
        r.status = 200;
        r.reason = "OK";
        r.headers = {{"Content-Type", "application/json"}};
        // NUL, SOH, ESC (an ANSI colour), DEL, invalid UTF-8 (0xFF, 0xFE, a
        // cut-off 0xC3), U+FFFE, and a tab/newline that must survive.
        r.body = std::string("{\"id\":\"x") + std::string(1, '\0') + "\x01\x1b[31mred\x7f\xff\xfe\xc3\",\t\"n\":\"\xEF\xBF\xBE\"}\nend";
        r.body_bytes = r.body.size();
        st.exchange.response = r;
        st.checks = {check("DATA-ID-002", "status", "4xx", "200", false, pos(f1, 42, 7)),
                     check("DATA-ID-002", "json /id", "absent", "\"x\"", false, pos(f1, 43, 7))};
        st.reproduce = "curl -sS 'http://127.0.0.1:8080/items/017F22E2-79B0-7CC3-98C4-DC0C0C07398F' -H 'Cookie: " +
                       std::string(secret_cookie) + "'";
        c.steps.push_back(st);
        s1.cases.push_back(c);
    }
    {  // error: transport failure after retries
        CaseResult c;
        c.suite = "data-id";
        c.name = "ids are unique across creates";
        c.classname = "data-id.DATA-ID-006";
        c.rules = {"DATA-ID-006"};
        c.outcome = Outcome::error;
        c.message = "connect: connection refused";
        c.seconds = 3.0;
        c.pos = pos(f1, 50, 3);
        StepRecord st;
        st.name = "create";
        st.exchange.request.method = "POST";
        st.exchange.request.url = std::string("http://admin:") + secret_password + "@127.0.0.1:9/items";
        st.exchange.request.headers = {{"Proxy-Authorization", "Basic YWRtaW46cGFzcw=="}};
        TransportError e;
        e.kind = TransportErrorKind::connect;
        e.message = "connection refused";
        st.exchange.error = e;
        st.exchange.attempts = 3;
        c.steps.push_back(st);
        s1.cases.push_back(c);
    }
    run.suites.push_back(s1);

    // --------------------------------------------------------- suite nil-max
    SuiteResult s2;
    s2.name = "nil-max";
    s2.file = f2;
    s2.seconds = 0.75;
    s2.timestamp = "2024-05-01T12:00:01.500Z";
    {  // skipped
        CaseResult c;
        c.suite = "nil-max";
        c.name = "nil as path id";
        c.classname = "nil-max.nil-max";
        skip(c, SkipCause::precondition, "precondition not met: no list endpoint configured");
        c.pos = pos(f2, 5, 3);
        s2.cases.push_back(c);
    }
    {  // failed with a transport-truncated body, two rules, no message
        CaseResult c;
        c.suite = "nil-max";
        c.name = "nil never emitted";
        c.classname = "nil-max.DATA-ID-007";
        c.rules = {"DATA-ID-007", "NIL-MAX"};
        c.outcome = Outcome::failed;
        c.seconds = 0.5;
        c.pos = pos(f2, 12, 3);
        StepRecord st;
        st.name = "list";
        st.exchange.request.method = "GET";
        st.exchange.request.url = "http://127.0.0.1:8080/items?limit=1000";
        Response r;
        r.status = 200;
        r.reason = "OK";
        // 62 ASCII bytes then a 3-byte character across the 64-byte cut.
        r.body = std::string(62, 'a') + "\xE2\x82\xAC" + std::string(35, 'b');
        r.body_bytes = 100000;
        r.body_truncated = true;
        st.exchange.response = r;
        st.checks = {check("DATA-ID-007", "no Nil in id fields", "no 00000000-0000-0000-0000-000000000000",
                           "/items/3/id", false, pos(f2, 16, 7))};
        c.steps.push_back(st);
        s2.cases.push_back(c);
    }
    run.suites.push_back(s2);
    return run;
}

// Feeds a run's events to a reporter the way the runner does (the runner
// keeps no cases: reporters see them only here), then run_finished with a
// summary that keeps none either, as the runner's does.
inline bool replay(reporters::Reporter& r, const RunSummary& run, std::string& error) {
    RunSummary counted;
    counted.seconds = run.seconds;
    counted.notes = run.notes;
    counted.filtered_out = run.filtered_out;
    counted.interrupted = run.interrupted;
    for (const auto& s : run.suites) {
        r.suite_started(s.name, s.file);
        SuiteResult kept = s;
        kept.cases.clear();
        for (const auto& c : s.cases) {
            r.case_finished(c);
            kept.count_streamed(c);
        }
        r.suite_finished(kept);
        counted.suites.push_back(std::move(kept));
    }
    return r.run_finished(counted, error);
}

// The sample run with more shapes around it: a suite with no cases (printed
// self-closed in JUnit, "cases": [] in JSON) and one whose case has no rules,
// no name and no steps.
inline RunSummary wider_run() {
    RunSummary run = sample_run();
    SuiteResult empty;
    empty.name = "empty";
    empty.file = "suites/empty.yaml";
    empty.timestamp = "2024-05-01T12:00:03.000Z";
    run.suites.push_back(empty);
    SuiteResult bare;
    bare.seconds = 0.25;
    CaseResult c;
    c.outcome = Outcome::skipped;
    c.message = "not run";
    bare.cases.push_back(c);
    c.outcome = Outcome::passed;
    c.message.clear();
    bare.cases.push_back(c);
    run.suites.push_back(bare);
    return run;
}

}  // namespace idconform::test
