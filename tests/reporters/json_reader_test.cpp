// Tests of the one streaming JSON report reader (json_report_reader.hpp) and
// the replay built on it (json_replay.hpp): the same events whatever the
// pieces the text comes in, the order of events, refusals with
// file:line:col, outline-only reading, and a replay that stops before
// run_finished on a damaged report.
#include "reporters/json_replay.hpp"
#include "reporters/json_report_reader.hpp"
#include "reporters/json_reporter.hpp"
#include "reporters/junit_reporter.hpp"
#include "sample_run.hpp"
#include "reports.hpp"
#include "test_util.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <limits>

using namespace idconform;
using namespace idconform::reporters;
using namespace idconform::test;

namespace {

AuditSummary sample_audit() {
    AuditSummary a;
    a.waivers_file = "w.yaml";
    a.waivers.push_back({"DATA-ID-002", "suite=data-id*", "alice", "legacy \"clients\"", "2099-12-31", "w.yaml:2:5",
                         "active", 1, 0});
    a.baseline_file = "old.json";
    a.baseline.push_back({"DATA-ID-002", 1, 2, 3});
    a.added = 1;
    a.fixed = 2;
    a.still = 3;
    a.gone = 1;
    a.gone_cases = {"s \xE2\x80\xBA gone"};
    return a;
}

// A JSON report of the sample run, with a "run" object and an audit.
std::string sample_report(const fs::path& dir) {
    JsonReporter r((dir / "report.json").string(), sample_options());
    RunInfo info;
    info.tool_version = "0.0.0-test";
    info.plan = "0123456789abcdef";
    info.profile = "api.target.yaml";
    info.metadata = {{"target", "shop http://127.0.0.1:8080"}, {"clock skew", "5000 ms"}};
    r.run_started(info);
    const RunSummary run = sample_run();
    for (const auto& s : run.suites) {
        r.suite_started(s.name, s.file);
        for (const auto& c : s.cases) r.case_finished(c);
        r.suite_finished(s);
    }
    r.audit_finished(sample_audit());
    std::string error;
    REQUIRE_MESSAGE(r.run_finished(run, error), error);
    return read_file(dir / "report.json");
}

// Every event and every field the reader fills, as text.
class Trace final : public ReportVisitor {
public:
    std::string out;
    std::size_t cases = 0;
    void head(const ReportHead& h) override {
        out += "head " + h.info.tool_version + " " + h.info.plan + " " + h.info.profile + " run=" +
               std::to_string(h.has_run) + " tests=" + std::to_string(h.tests) + " seconds=" + std::to_string(h.seconds) +
               " started=" + std::to_string(!h.started.empty()) + "\n";
        for (const auto& p : h.metadata) out += "  meta " + p.name + "=" + p.value + "\n";
    }
    void suite_started(const SuiteResult& s) override {
        out += "suite " + s.name + " " + s.file + " " + std::to_string(s.seconds) + " " + s.timestamp + "\n";
    }
    void take_case(CaseResult&& c) override {
        ++cases;
        out += "case " + c.suite + " / " + c.name + " " + c.classname + " " + std::string(to_string(c.outcome)) + " [" +
               c.message + "] " + c.pos.str() + " " + std::to_string(c.seconds) + "\n  detail " + c.detail + "\n";
        for (const auto& r : c.rules) out += "  rule " + r + "\n";
        for (const auto& p : c.properties) out += "  prop " + p.name + "=" + p.value + "\n";
        for (const auto& st : c.steps) {
            const Exchange& x = st.exchange;
            out += "  step " + st.name + " " + x.request.method + " " + x.request.url + " body=" + x.request.body +
                   " attempts=" + std::to_string(x.attempts) + " reproduce=" + st.reproduce + "\n";
            for (const auto& h : x.request.headers) out += "    > " + h.name + ": " + h.value + "\n";
            if (x.response) {
                out += "    status " + std::to_string(x.response->status) + " " + x.response->reason + " " +
                       std::to_string(x.response->body_bytes) + " " + std::to_string(x.response->body_truncated) +
                       " body=" + x.response->body + "\n";
                for (const auto& h : x.response->headers) out += "    < " + h.name + ": " + h.value + "\n";
            }
            if (x.error) out += "    error " + std::string(to_string(x.error->kind)) + " " + x.error->message + "\n";
            for (const auto& ch : st.checks)
                out += "    check " + ch.rule + " " + ch.what + " " + ch.expected + " " + ch.actual + " " +
                       std::to_string(ch.ok) + std::to_string(ch.warning) + " " + ch.pos.str() + "\n";
        }
    }
    void suite_finished(const SuiteResult& s) override {
        out += "end " + s.name;
        for (std::size_t o = 0; o < outcome_count; ++o) out += " " + std::to_string(s.streamed[o]);
        out += "\n";
    }
    void audit(const AuditSummary& a) override {
        out += "audit " + a.waivers_file + " " + a.baseline_file + " " + std::to_string(a.added) + "/" +
               std::to_string(a.fixed) + "/" + std::to_string(a.still) + " gone " + std::to_string(a.gone) + "\n";
        for (const auto& w : a.waivers)
            out += "  waiver " + w.rule + " " + w.covers + " " + w.owner + " " + w.reason + " " + w.expires + " " +
                   w.position + " " + w.state + " " + std::to_string(w.waived) + "\n";
        for (const auto& r : a.baseline) out += "  row " + r.rule + " " + std::to_string(r.added) + "\n";
        for (const auto& g : a.gone_cases) out += "  gone " + g + "\n";
    }
};

std::string trace_of(std::string_view text, std::size_t chunk, std::string& error) {
    Trace t;
    ReadOptions o;
    o.chunk = chunk;
    if (!read_json_report_text(text, "r.json", t, error, o)) return {};
    return t.out;
}

}  // namespace

TEST_CASE("json reader: the same events whatever pieces the report comes in") {
    const fs::path dir = scratch_dir("json-reader-pieces");
    const std::string text = sample_report(dir);
    std::string error;
    const std::string whole = trace_of(text, text.size() + 1, error);
    REQUIRE_MESSAGE(!whole.empty(), error);
    // every kind of event is there, in document order
    CHECK(whole.rfind("head 0.0.0-test 0123456789abcdef api.target.yaml run=1", 0) == 0);
    CHECK(whole.find("  meta target=shop http://127.0.0.1:8080\n  meta clock skew=5000 ms\n") != std::string::npos);
    const auto at = [&](const std::string& what) { return whole.find(what); };
    CHECK(at("suite data-id ") < at("case data-id / "));
    CHECK(at("case data-id / ") < at("end data-id"));
    CHECK(at("end data-id") < at("suite nil-max"));
    CHECK(at("end nil-max") < at("audit w.yaml old.json 1/2/3 gone 1"));
    CHECK(at("  waiver DATA-ID-002 suite=data-id* alice legacy \"clients\" 2099-12-31 w.yaml:2:5 active 1") !=
          std::string::npos);
    // keys, strings (escapes, U+FFFD, control characters) and numbers split anywhere
    for (const std::size_t chunk : {1u, 2u, 3u, 7u, 64u, 4096u}) {
        CAPTURE(chunk);
        CHECK(trace_of(text, chunk, error) == whole);
    }
    // and from the file, in small and in the default pieces
    for (const std::size_t chunk : {5u, 65536u}) {
        Trace t;
        ReadOptions o;
        o.chunk = chunk;
        REQUIRE_MESSAGE(read_json_report((dir / "report.json").string(), t, error, o), error);
        // positions and the path differ from the text trace only by nothing: same events
        CHECK(t.out == whole);
    }
}

TEST_CASE("json reader: outline only keeps what a baseline needs and drops the evidence") {
    const fs::path dir = scratch_dir("json-reader-outline");
    const std::string text = sample_report(dir);
    struct Outline final : ReportVisitor {
        std::vector<CaseResult> cases;
        void take_case(CaseResult&& c) override { cases.push_back(std::move(c)); }
    } full, outline;
    std::string error;
    REQUIRE(read_json_report_text(text, "r.json", full, error));
    REQUIRE(read_json_report_text(text, "r.json", outline, error, {.case_outline_only = true}));
    REQUIRE(full.cases.size() == outline.cases.size());
    REQUIRE_FALSE(full.cases.empty());
    bool some_steps = false;
    for (std::size_t i = 0; i < full.cases.size(); ++i) {
        CHECK(outline.cases[i].name == full.cases[i].name);
        CHECK(outline.cases[i].suite == full.cases[i].suite);
        CHECK(outline.cases[i].outcome == full.cases[i].outcome);
        CHECK(outline.cases[i].rules == full.cases[i].rules);
        CHECK(outline.cases[i].steps.empty());
        CHECK(outline.cases[i].detail.empty());
        some_steps = some_steps || !full.cases[i].steps.empty();
    }
    CHECK(some_steps);
}

TEST_CASE("json reader: what is not a complete idconform report is refused at file:line:col") {
    struct Case {
        const char* text;
        const char* error;  // the start of the error
    };
    const Case cases[] = {
        {"", "r.json:1:1: the report ends too early"},
        {"[1, 2]", "r.json:1:1: not an idconform JSON report"},
        {"\"idconform\"", "r.json:1:11: not an idconform JSON report"},
        {"{}", "r.json:1:2: not an idconform JSON report"},
        {"{\"tool\": \"other\", \"suites\": []}", "r.json:1:29: not an idconform JSON report"},
        {"{\"suites\": [], \"tool\": \"idconform\"}", "r.json:1:12: not an idconform JSON report"},
        {"{\"tool\": \"idconform\", \"suites\": {}}", "r.json:1:33: \"suites\" is not a list"},
        {"{\"tool\": \"idconform\", \"suites\": 3}", "r.json:1:3"},  // "suites" is not a list at 34 or 35: a number ends when the next byte comes
        {"{\"tool\": \"idconform\", \"suites\": [3]}", "r.json:1:35: a suite that is not an object"},
        {"{\"tool\": \"idconform\", \"suites\": [{\"name\": 1}]}", "r.json:1:44: a suite whose \"name\" is not a string"},
        {"{\"tool\": \"idconform\", \"suites\": [{\"cases\": []}]}", "r.json:1:44: a suite whose \"cases\" come before"},
        {"{\"tool\": \"idconform\", \"suites\": [{\"file\": \"f\"}]}", "r.json:1:46: a suite without a \"name\""},
        {"{\"tool\": \"idconform\", \"suites\": [{\"name\": \"s\", \"cases\": [1]}]}",
         "r.json:1:59: a case of suite 's' that is not an object"},
        {"{\"tool\": \"idconform\", \"suites\": [{\"name\": \"s\", \"cases\": [{\"name\": \"c\"}]}]}",
         "r.json:1:70: a case without a \"name\" or an \"outcome\""},
        {"{\"tool\": \"idconform\", \"suites\": [{\"name\": \"s\", \"cases\": [{\"name\": \"c\", \"outcome\": \"great\"}]}]}",
         "r.json:1:90: case 'c' has the unknown outcome 'great'"},
        {"{\"tool\": \"idconform\",\n  \"suites\": [\n    {\"name\": \"s\", \"cases\": [\n", "r.json:4:1: the report ends too early"},
        {"{\"tool\": \"idconform\", \"suites\": []} {}", "r.json:1:37: text after the end of the report"},
        {"{\"tool\": \"idconform\",\n \"suites\": [}", "r.json:2:13: not JSON ("},
        {"{\"tool\": \"idconform\", \"suites\": [], \"x\": \"\xC3\"}", "r.json:1:"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.text);
        for (const std::size_t chunk : {1u, 65536u}) {
            CAPTURE(chunk);
            Trace t;
            std::string error;
            ReadOptions o;
            o.chunk = chunk;
            CHECK_FALSE(read_json_report_text(c.text, "r.json", t, error, o));
            CHECK_MESSAGE(error.rfind(c.error, 0) == 0, error);
        }
    }
    Trace t;
    std::string error;
    CHECK_FALSE(read_json_report("/nonexistent/r.json", t, error));
    CHECK(error == "/nonexistent/r.json: cannot read the file: no such file or directory");
    // a report with no suites at all is a report
    CHECK(read_json_report_text("{\"tool\": \"idconform\", \"version\": \"1\", \"suites\": []}", "r.json", t, error));
    CHECK(t.out.rfind("head 1 ", 0) == 0);
}

namespace {

// Keeps the reporter events a replay sends.
struct Events final : Reporter {
    std::vector<std::string> seen;
    RunInfo info;
    void run_started(const RunInfo& i) override {
        info = i;
        seen.push_back("run_started");
    }
    void suite_started(const std::string& s, const std::string&) override { seen.push_back("suite " + s); }
    void take_case(CaseResult&& c) override { seen.push_back("case " + c.name); }
    void suite_finished(const SuiteResult& s) override {
        seen.push_back("end " + s.name + " " + std::to_string(s.total()));
    }
    void audit_finished(const AuditSummary& a) override { seen.push_back("audit " + a.baseline_file); }
    bool run_finished(const RunSummary& r, std::string&) override {
        seen.push_back("run_finished " + std::to_string(r.total()));
        return true;
    }
};

}  // namespace

TEST_CASE("json replay: the report's events in order, metadata with its times, a damaged report never finishes") {
    const fs::path dir = scratch_dir("json-replay");
    const std::string text = sample_report(dir);
    Events ev;
    std::string error;
    REQUIRE_MESSAGE(replay_json_report((dir / "report.json").string(), ev, error), error);
    REQUIRE(ev.seen.size() > 5);
    CHECK(ev.seen.front() == "run_started");
    CHECK(ev.seen[1] == "suite data-id");
    CHECK(ev.seen[ev.seen.size() - 2] == "audit old.json");
    const RunSummary run = sample_run();
    CHECK(ev.seen.back() == "run_finished " + std::to_string(run.total()));
    CHECK(ev.info.total_cases == run.total());
    REQUIRE(ev.info.metadata.size() == 5);
    CHECK(ev.info.metadata[0].name == "started");
    CHECK(ev.info.metadata[1].name == "target");
    CHECK(ev.info.metadata[3].name == "finished");
    CHECK(ev.info.metadata[4].name == "rendered from");
    CHECK(ev.info.metadata[4].value == (dir / "report.json").string());

    // cut in the middle of the second suite: events so far, but no run_finished
    const std::string cut = text.substr(0, text.find("\"nil-max\"") + 200);
    Events partial;
    CHECK_FALSE(replay_json_report_text(cut, "cut.json", partial, error));
    CHECK(error.find("cut.json:") == 0);
    CHECK(error.find("ends too early") != std::string::npos);
    CHECK(std::find(partial.seen.begin(), partial.seen.end(), "suite nil-max") != partial.seen.end());
    CHECK(partial.seen.back().rfind("run_finished", 0) != 0);
}

TEST_CASE("json reader: many cases arrive one by one") {
    std::string text = "{\"tool\": \"idconform\", \"summary\": {\"tests\": 20000}, \"suites\": [{\"name\": \"s\", \"cases\": [";
    for (int i = 0; i < 20000; ++i)
        text += std::string(i ? "," : "") + "{\"name\": \"c" + std::to_string(i) + "\", \"outcome\": \"" +
                (i % 3 ? "passed" : "failed") + "\", \"steps\": [{\"name\": \"s\", \"checks\": []}]}";
    text += "]}]}";
    struct Count final : ReportVisitor {
        std::size_t n = 0, failed = 0, live_steps = 0;
        std::size_t streamed_failed = 0;
        void take_case(CaseResult&& c) override {
            ++n;
            failed += c.outcome == Outcome::failed;
            live_steps = c.steps.size();
        }
        void suite_finished(const SuiteResult& s) override { streamed_failed = s.count(Outcome::failed); }
    } count;
    std::string error;
    REQUIRE(read_json_report_text(text, "big.json", count, error));
    CHECK(count.n == 20000);
    CHECK(count.failed == 6667);
    CHECK(count.streamed_failed == 6667);
    CHECK(count.live_steps == 1);
}

TEST_CASE("json reader: a whole report in a ReadReport keeps the run's metadata and times (what merge carries on)") {
    const fs::path dir = scratch_dir("json-reader-whole");
    (void)sample_report(dir);
    ReadReport r;
    std::string error;
    REQUIRE_MESSAGE(read_json_report((dir / "report.json").string(), r, error), error);
    CHECK(r.has_run);
    CHECK(r.info.plan == "0123456789abcdef");
    CHECK_FALSE(r.started.empty());
    CHECK(r.started <= r.finished);
    REQUIRE(r.metadata.size() == 2);
    CHECK(r.metadata[0].name == "target");
    CHECK(r.metadata[1].value == "5000 ms");
    REQUIRE(r.audit);
    CHECK(r.audit->baseline_file == "old.json");
    CHECK(r.summary.suites.size() == sample_run().suites.size());
    CHECK(r.summary.total() == sample_run().total());
}

TEST_CASE("json reader: skip causes and the filtered-out count make the round trip (merge, report)") {
    const fs::path dir = scratch_dir("json-reader-skips");
    RunSummary run;
    SuiteResult s;
    s.name = "s";
    const std::pair<SkipCause, const char*> skips[] = {
        {SkipCause::not_applicable, "not applicable: the profile declares uuidv4"},
        {SkipCause::not_described, "not described in the profile: add `update:` to resource `orders`"},
        {SkipCause::precondition, "not run: the suite's setup did not succeed (x)"},
        {SkipCause::stopped, "not run: --max-failures 1 reached"},
        {SkipCause::not_described, "a message that says nothing of its cause"},
    };
    for (const auto& [cause, message] : skips) {
        CaseResult c;
        c.suite = "s";
        c.name = message;
        skip(c, cause, message);
        s.cases.push_back(c);
    }
    CaseResult passed;
    passed.suite = "s";
    passed.name = "ok";
    s.cases.push_back(passed);
    run.suites.push_back(s);
    run.filtered_out = 7;
    JsonReporter r((dir / "report.json").string());
    r.run_started({});
    r.suite_started("s", "");
    for (const auto& c : s.cases) r.case_finished(c);
    r.suite_finished(s);
    std::string error;
    REQUIRE_MESSAGE(r.run_finished(run, error), error);
    const std::string text = read_file(dir / "report.json");
    CHECK(text.find("\"skipped_by_cause\": {\n      \"not_applicable\": 1,\n      \"not_described\": 2,\n"
                    "      \"precondition\": 1,\n      \"stopped\": 1\n    },\n    \"filtered_out\": 7,") !=
          std::string::npos);
    CHECK(text.find("\"outcome\": \"skipped\",\n          \"skip_cause\": \"not_described\",") != std::string::npos);

    ReadReport back;
    REQUIRE_MESSAGE(read_json_report((dir / "report.json").string(), back, error), error);
    CHECK(back.summary.filtered_out == 7);
    REQUIRE(back.summary.suites.size() == 1);
    const auto& cases = back.summary.suites[0].cases;
    REQUIRE(cases.size() == std::size(skips) + 1);
    for (std::size_t i = 0; i < std::size(skips); ++i) CHECK(cases[i].skip_cause == skips[i].first);
    CHECK(cases.back().skip_cause == SkipCause::none);
    for (const SkipCause k : skip_causes) CHECK(back.summary.skipped(k) == run.skipped(k));

    // the replay (idconform report) hands the counts on to the reporters
    struct Summary final : Reporter {
        RunSummary got;
        bool run_finished(const RunSummary& s, std::string&) override {
            got = s;
            return true;
        }
    } to;
    REQUIRE_MESSAGE(replay_json_report((dir / "report.json").string(), to, error), error);
    CHECK(to.got.filtered_out == 7);
    CHECK(to.got.skipped(SkipCause::not_described) == 2);
    CHECK(to.got.count(Outcome::skipped) == 5);

    // a report written before causes were recorded: the message says it
    std::string old = text;
    for (std::size_t at; (at = old.find("          \"skip_cause\": ")) != std::string::npos;)
        old.erase(at, old.find('\n', at) + 1 - at);
    ReadReport older;
    const fs::path old_path = dir / "old.json";
    { std::ofstream(old_path) << old; }
    REQUIRE_MESSAGE(read_json_report(old_path.string(), older, error), error);
    const auto& oc = older.summary.suites[0].cases;
    CHECK(oc[0].skip_cause == SkipCause::none);
    CHECK(counted_skip_cause(oc[0]) == SkipCause::not_applicable);
    CHECK(counted_skip_cause(oc[1]) == SkipCause::not_described);
    CHECK(counted_skip_cause(oc[3]) == SkipCause::stopped);
    CHECK(counted_skip_cause(oc[4]) == SkipCause::precondition);  // it said nothing: precondition

    // an unknown cause is refused, naming the case
    std::string bad = text;
    bad.replace(bad.find("\"not_described\","), 16, "\"deselected\",");
    Trace refused;
    CHECK_FALSE(read_json_report_text(bad, "bad.json", refused, error));
    CHECK(error.find("unknown skip_cause 'deselected'") != std::string::npos);
}

TEST_CASE("json reader: error causes make the round trip, JUnit says them as the error's type") {
    const fs::path dir = scratch_dir("json-reader-errors");
    RunSummary run;
    SuiteResult s;
    s.name = "s";
    for (std::size_t i = 1; i < error_cause_count; ++i) {
        CaseResult c;
        c.suite = "s";
        c.name = std::string("error ") + to_string(static_cast<ErrorCause>(i));
        set_error(c, static_cast<ErrorCause>(i), "why");
        s.cases.push_back(c);
    }
    run.suites.push_back(s);
    JsonReporter r((dir / "report.json").string());
    r.run_started({});
    r.suite_started("s", "");
    for (const auto& c : s.cases) r.case_finished(c);
    r.suite_finished(s);
    std::string error;
    REQUIRE_MESSAGE(r.run_finished(run, error), error);
    const std::string text = read_file(dir / "report.json");
    CHECK(text.find("\"outcome\": \"error\",\n          \"error_cause\": \"authentication\",") != std::string::npos);
    ReadReport back;
    REQUIRE_MESSAGE(read_json_report((dir / "report.json").string(), back, error), error);
    const auto& cases = back.summary.suites[0].cases;
    REQUIRE(cases.size() == error_cause_count - 1);
    for (std::size_t i = 0; i < cases.size(); ++i) CHECK(cases[i].error_cause == static_cast<ErrorCause>(i + 1));
    CHECK(target_error(ErrorCause::transport));
    CHECK(target_error(ErrorCause::authentication));
    CHECK(target_error(ErrorCause::harness_limit));
    CHECK_FALSE(target_error(ErrorCause::suite));
    CHECK_FALSE(target_error(ErrorCause::input));
    CHECK_FALSE(target_error(ErrorCause::cleanup));

    std::string bad = text;
    bad.replace(bad.find("\"authentication\","), 17, "\"none\",");
    Trace refused;
    CHECK_FALSE(read_json_report_text(bad, "bad.json", refused, error));
    CHECK(error.find("unknown error_cause 'none'") != std::string::npos);

    const std::string junit = junit_text(run, "");
    CHECK(junit.find("type=\"suite\"") != std::string::npos);
    CHECK(junit.find("type=\"cleanup\"") != std::string::npos);
    CHECK(junit.find("type=\"transport\"") != std::string::npos);
}

TEST_CASE("json reader: what a hostile report claims is clamped, and its text is escaped in errors") {
    struct Keep final : ReportVisitor {
        std::vector<CaseResult> cases;
        void take_case(CaseResult&& c) override { cases.push_back(std::move(c)); }
    };
    // numbers past every range: seconds, ints, positions
    const std::string huge = R"({"tool": "idconform", "suites": [{"name": "s", "cases": [{"name": "c", "outcome": "failed",
        "time": 1e308, "position": {"file": "f", "line": 18446744073709551615, "column": -5},
        "steps": [{"name": "st", "time": 1e308, "attempts": 1000000000000,
                   "response": {"status": 9223372036854775807, "body_bytes": 18446744073709551615}}]}]}]})";
    Keep keep;
    std::string error;
    REQUIRE_MESSAGE(read_json_report_text(huge, "r.json", keep, error), error);
    REQUIRE(keep.cases.size() == 1);
    const CaseResult& c = keep.cases[0];
    CHECK(c.seconds <= 10.0 * 365 * 24 * 3600);
    CHECK(c.pos.line == std::numeric_limits<int>::max());
    CHECK(c.pos.column == 0);
    const Exchange& x = c.steps[0].exchange;
    CHECK(x.attempts == std::numeric_limits<int>::max());
    CHECK(x.response->status == std::numeric_limits<int>::max());
    CHECK(x.received > x.sent);  // no overflow of the duration
    // ESC, BEL and a C1 CSI in a quoted value reach the error escaped
    const std::string esc =
        "{\"tool\": \"idconform\", \"suites\": [{\"name\": \"s\", \"cases\": [{\"name\": \"c\\u001b[2J\", "
        "\"outcome\": \"\\u001b]0;pwned\\u0007\\u009b31m\"}]}]}";
    Keep none;
    CHECK_FALSE(read_json_report_text(esc, "r.json", none, error));
    CHECK(error.find("has the unknown outcome") != std::string::npos);
    for (const char* bad : {"\x1b", "\x07", "\xc2\x9b"}) CHECK(error.find(bad) == std::string::npos);
    CHECK(error.find("\\u001B]0;pwned\\u0007\\u009B31m") != std::string::npos);
}
