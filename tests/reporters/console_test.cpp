// Tests of the console reporter: plain log lines, the TTY progress line,
// colour on request only, NO_COLOR, the per-rule table and redaction.
#include "reporters/console_reporter.hpp"
#include "sample_run.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <sstream>

using namespace idconform;
using namespace idconform::reporters;
using namespace idconform::test;

namespace {

// Feeds the sample run through a reporter the way the runner does.
// The clock stands still unless a test moves it: no time-left estimate.
std::string feed(bool tty, bool color, ConsoleOptions opts = {}) {
    if (!opts.now) opts.now = [] { return ProgressClock::time_point{}; };
    std::ostringstream out;
    ConsoleReporter r(out, tty, color, std::move(opts));
    const RunSummary run = sample_run();
    RunInfo info;
    info.total_cases = 5;
    r.run_started(info);
    for (const auto& s : run.suites) {
        r.suite_started(s.name, s.file);
        for (const auto& c : s.cases) r.case_finished(c);
        r.suite_finished(s);
    }
    std::string error;
    CHECK(r.run_finished(run, error));
    return out.str();
}

// Sets or unsets an environment variable for one scope.
class EnvGuard {
public:
    EnvGuard(const char* name, const char* value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old;
        if (value) ::setenv(name, value, 1);
        else ::unsetenv(name);
    }
    ~EnvGuard() {
        if (old_) ::setenv(name_, old_->c_str(), 1);
        else ::unsetenv(name_);
    }
    EnvGuard(const EnvGuard&) = delete;
    EnvGuard& operator=(const EnvGuard&) = delete;

private:
    const char* name_;
    std::optional<std::string> old_;
};

}  // namespace

TEST_CASE("console, not a TTY, no colour: one line per problem, then the rule table") {
    // A failure is shown and counted under the rule of each failing check:
    // two failed DATA-ID-002 checks count 2; the nil-max case (rules
    // DATA-ID-007 and NIL-MAX) broke only a DATA-ID-007 check.
    const std::string expected =
        "FAIL data-id \xE2\x80\xBA upper-case id <rejected> & \"never\" normalised [DATA-ID-002] GET with an "
        "upper-case id was answered 200\n"
        "    and FAIL [DATA-ID-002] json /id: expected absent, actual \"x\" (at suites/data-id.yaml:43:7)\n"
        "ERROR data-id \xE2\x80\xBA ids are unique across creates [DATA-ID-006] connect: connection refused\n"
        "FAIL nil-max \xE2\x80\xBA nil never emitted [DATA-ID-007]\n"
        "rule         passed  failed  errors  skipped  warnings\n"
        "(no rule)         0       0       0        1         0\n"
        "DATA-ID-001       1       0       0        0         0\n"
        "DATA-ID-002       0       2       0        0         0\n"
        "DATA-ID-005       0       0       0        0         1\n"
        "DATA-ID-006       0       0       1        0         0\n"
        "DATA-ID-007       0       1       0        0         0\n"
        "FAILED 5 tests: passed 1, failed 2, errors 1, skipped 1 (1 precondition not met), warnings 1 in 2.346 s\n";
    const std::string out = feed(false, false);
    CHECK(out == expected);
    CHECK(out.find('\x1b') == std::string::npos);
    CHECK(out.find('\r') == std::string::npos);
}

TEST_CASE("console, verbose: passed and skipped lines, evidence under failures, secrets redacted") {
    ConsoleOptions opts;
    opts.verbose = true;
    opts.report = sample_options();
    const std::string out = feed(false, false, opts);
    CHECK(out.find("PASS data-id \xE2\x80\xBA create returns a v7 id [DATA-ID-001]\n") != std::string::npos);
    CHECK(out.find("SKIP nil-max \xE2\x80\xBA nil as path id precondition not met") != std::string::npos);
    CHECK(out.find("    FAIL [DATA-ID-002] status: expected 4xx, actual 200 (at suites/data-id.yaml:42:7)\n") !=
          std::string::npos);
    CHECK(out.find("      Cookie: [REDACTED]\n") != std::string::npos);
    CHECK(out.find("reproduce: curl -sS 'http://127.0.0.1:8080/items/017F22E2-79B0-7CC3-98C4-DC0C0C07398F' -H "
                   "'Cookie: [REDACTED]'") != std::string::npos);
    // The response's ESC and other controls are shown, never sent raw.
    CHECK(out.find('\x1b') == std::string::npos);
    CHECK(out.find("\\u001B[31mred") != std::string::npos);
    for (const char* secret : {secret_token, secret_cookie, secret_api_key, secret_password}) {
        CAPTURE(secret);
        CHECK(out.find(secret) == std::string::npos);
    }
}

TEST_CASE("console, TTY: live progress line, cleared before each failure and at the end") {
    const std::string out = feed(true, false);
    const std::string erase = "\r\x1b[2K";
    CHECK(out.find(erase + "[0/5] passed 0 failed 0 errors 0 skipped 0") == 0);
    CHECK(out.find(erase + "[1/5] passed 1 failed 0 errors 0 skipped 0") != std::string::npos);
    // The failure is printed on a cleared line, then progress is redrawn.
    CHECK(out.find("[1/5] passed 1 failed 0 errors 0 skipped 0" + erase + "FAIL data-id") != std::string::npos);
    CHECK(out.find("normalised [DATA-ID-002] GET with an upper-case id was answered 200\n"
                   "    and FAIL [DATA-ID-002] json /id: expected absent, actual \"x\" (at suites/data-id.yaml:43:7)\n" +
                   erase +
                   "[2/5] passed 1 failed 1 errors 0 skipped 0") != std::string::npos);
    CHECK(out.find(erase + "[5/5] passed 1 failed 2 errors 1 skipped 1" + erase + "rule") != std::string::npos);
    // No colour was asked for: only the erase sequence uses ESC.
    std::string without_erase = out;
    for (auto at = without_erase.find(erase); at != std::string::npos; at = without_erase.find(erase))
        without_erase.erase(at, erase.size());
    CHECK(without_erase.find('\x1b') == std::string::npos);
}

// A clock the test moves: each case of the sample run takes `per_case`.
struct SteppedRun {
    ProgressClock::time_point t{};
    std::string out;
    SteppedRun(bool tty, ProgressClock::duration per_case, ProgressClock::duration every, std::size_t total) {
        ConsoleOptions opts;
        opts.progress_every = every;
        opts.now = [this] { return t; };
        std::ostringstream os;
        ConsoleReporter r(os, tty, false, opts);
        const RunSummary run = sample_run();
        RunInfo info;
        info.total_cases = total;
        r.run_started(info);
        for (const auto& s : run.suites)
            for (const auto& c : s.cases) {
                t += per_case;
                r.case_finished(c);
            }
        std::string error;
        CHECK(r.run_finished(run, error));
        out = os.str();
    }
};

TEST_CASE("console, TTY: the live line says the time left at the pace so far") {
    const std::string erase = "\r\x1b[2K";
    const SteppedRun run(true, std::chrono::seconds(30), {}, 5);
    // 1 of 5 done in 30 s: 4 left at 30 s each.
    CHECK(run.out.find(erase + "[1/5] passed 1 failed 0 errors 0 skipped 0, about 2m00s left") != std::string::npos);
    CHECK(run.out.find("[4/5] passed 1 failed 1 errors 1 skipped 1, about 30s left") != std::string::npos);
    // Done: no estimate.
    CHECK(run.out.find("[5/5] passed 1 failed 2 errors 1 skipped 1" + erase) != std::string::npos);
    // Under a second of run time the pace is noise: nothing is said.
    const SteppedRun quick(true, std::chrono::milliseconds(100), {}, 5);
    CHECK(quick.out.find("left") == std::string::npos);
}

TEST_CASE("console, log: a plain progress line every progress_every, none with zero") {
    // 4 s a case, a line every 10 s: due at the 3rd case (12 s); the 5th is the end.
    const SteppedRun run(false, std::chrono::seconds(4), std::chrono::seconds(10), 5);
    CHECK(run.out.find('\r') == std::string::npos);
    CHECK(run.out.find("\nprogress: 3/5 cases (60%), passed 1 failed 1 errors 1 skipped 0, 12s elapsed, about 8s left\n") !=
          std::string::npos);
    std::size_t lines = 0;
    for (auto at = run.out.find("progress: "); at != std::string::npos; at = run.out.find("progress: ", at + 1)) ++lines;
    CHECK(lines == 1);
    // The interval counts from the last line: 20 s a case gives a line at each case but the last.
    const SteppedRun slow(false, std::chrono::seconds(20), std::chrono::seconds(10), 5);
    CHECK(slow.out.find("progress: 1/5 cases (20%), passed 1 failed 0 errors 0 skipped 0, 20s elapsed, about 1m20s left") !=
          std::string::npos);
    CHECK(slow.out.find("progress: 4/5") != std::string::npos);
    CHECK(slow.out.find("progress: 5/5") == std::string::npos);
    // An unknown total: counts without a percentage or an estimate.
    const SteppedRun unknown(false, std::chrono::seconds(20), std::chrono::seconds(10), 0);
    CHECK(unknown.out.find("progress: 1 cases, passed 1 failed 0 errors 0 skipped 0, 20s elapsed\n") != std::string::npos);
    // --no-progress: zero interval, no line however long the run.
    const SteppedRun off(false, std::chrono::hours(1), {}, 5);
    CHECK(off.out.find("progress") == std::string::npos);
}

TEST_CASE("short_duration: seconds, minutes, hours") {
    using namespace std::chrono;
    CHECK(short_duration(milliseconds(999)) == "0s");
    CHECK(short_duration(seconds(59)) == "59s");
    CHECK(short_duration(seconds(65)) == "1m05s");
    CHECK(short_duration(seconds(3599)) == "59m59s");
    CHECK(short_duration(seconds(3720)) == "1h02m");
    CHECK(short_duration(seconds(-3)) == "0s");
}

TEST_CASE("console colour: ANSI only when asked") {
    const std::string coloured = feed(false, true);
    CHECK(coloured.find("\x1b[1;31mFAIL\x1b[0m data-id") != std::string::npos);
    CHECK(coloured.find("\x1b[1;35mERROR\x1b[0m data-id") != std::string::npos);
    CHECK(coloured.find("\x1b[1;31mFAILED\x1b[0m 5 tests") != std::string::npos);
    CHECK(coloured.find("\x1b[33m       1\x1b[0m") != std::string::npos);  // the warning cell

    const std::string plain = feed(false, false);
    CHECK(plain.find('\x1b') == std::string::npos);
}

TEST_CASE("color_wanted follows the TTY and NO_COLOR") {
    {
        EnvGuard g("NO_COLOR", nullptr);
        CHECK(color_wanted(true));
        CHECK_FALSE(color_wanted(false));
    }
    {
        EnvGuard g("NO_COLOR", "1");
        CHECK_FALSE(color_wanted(true));
        CHECK_FALSE(color_wanted(false));
    }
    {
        EnvGuard g("NO_COLOR", "");  // set but empty does not count (no-color.org)
        CHECK(color_wanted(true));
    }
}

TEST_CASE("console: a passing run says OK, case text cannot inject escapes") {
    std::ostringstream out;
    ConsoleReporter r(out, false, false);
    CaseResult c;
    c.suite = "s\x1b[2J";
    c.name = "n\nfake line";
    c.outcome = Outcome::failed;
    c.message = "m\r";
    r.case_finished(c);
    RunSummary run;
    std::string error;
    CHECK(r.run_finished(run, error));
    // The rule table is counted from the events, the totals from the summary.
    CHECK(out.str() == "FAIL s\\u001B[2J \xE2\x80\xBA n\\nfake line m\\r\n"
                       "rule       passed  failed  errors  skipped  warnings\n"
                       "(no rule)       0       1       0        0         0\n"
                       "OK 0 tests: passed 0, failed 0, errors 0, skipped 0, warnings 0 in 0.000 s\n");
}

TEST_CASE("console: an unreachable target is said once, with the count of the cases it made errors") {
    auto unreachable_case = [](const std::string& name, const std::string& address) {
        CaseResult c;
        c.suite = "packs";
        c.name = name;
        c.rules = {"DATA-ID-001"};
        c.outcome = Outcome::error;
        c.message = "connect: connection refused to " + address + " (POST http://" + address + "/v1/items, 1 attempt)";
        StepRecord st;
        st.exchange.request.method = "POST";
        st.exchange.request.url = "http://" + address + "/v1/items";
        TransportError e;
        e.kind = TransportErrorKind::connect;
        e.message = "connection refused to " + address;
        st.exchange.error = e;
        c.steps.push_back(st);
        return c;
    };
    auto timeout_case = [] {
        CaseResult c;
        c.suite = "packs";
        c.name = "slow";
        c.outcome = Outcome::error;
        c.message = "timeout: no answer after 300 ms";
        StepRecord st;
        TransportError e;
        e.kind = TransportErrorKind::timeout;
        e.message = "no answer after 300 ms";
        st.exchange.error = e;
        c.steps.push_back(st);
        return c;
    };
    auto feed_cases = [&](bool verbose) {
        std::ostringstream out;
        ConsoleOptions opts;
        opts.verbose = verbose;
        ConsoleReporter r(out, false, false, opts);
        r.run_started({});
        SuiteResult s;
        s.name = "packs";
        std::vector<CaseResult> cases;
        for (int i = 0; i < 51; ++i) cases.push_back(unreachable_case("case " + std::to_string(i), "127.0.0.1:1"));
        cases.push_back(unreachable_case("grpc case", "127.0.0.1:2"));  // another target: its own cause
        cases.push_back(timeout_case());
        cases.push_back(timeout_case());  // timeouts are per case: each listed
        for (const auto& c : cases) {
            r.case_finished(c);
            s.cases.push_back(c);
        }
        RunSummary run;
        run.suites.push_back(s);
        std::string error;
        CHECK(r.run_finished(run, error));
        return out.str();
    };
    auto occurrences = [](const std::string& text, const std::string& what) {
        std::size_t n = 0;
        for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
        return n;
    };
    const std::string out = feed_cases(false);
    CHECK(occurrences(out, "ERROR packs \xE2\x80\xBA case 0 ") == 1);
    CHECK(occurrences(out, "case 1 ") == 0);
    CHECK(occurrences(out, "connection refused to 127.0.0.1:1") == 2);  // the first case, then the count line
    CHECK(out.find("UNREACHABLE 51 cases are errors (the first is listed above): connect: connection refused to "
                   "127.0.0.1:1\n") != std::string::npos);
    CHECK(occurrences(out, "ERROR packs \xE2\x80\xBA grpc case") == 1);
    CHECK(out.find("UNREACHABLE 1 ") == std::string::npos);  // nothing left out for that one
    CHECK(occurrences(out, "ERROR packs \xE2\x80\xBA slow") == 2);
    CHECK(out.find("errors 54") != std::string::npos);  // every case still counts as an error
    // Nothing failed: the headline says what happened, not FAILED (issue #13).
    CHECK(out.find("FAILED") == std::string::npos);
    CHECK(out.find("ERROR 54 tests: passed 0, failed 0, errors 54") != std::string::npos);
    // verbose lists every case and needs no count line
    const std::string all = feed_cases(true);
    CHECK(occurrences(all, "ERROR packs \xE2\x80\xBA case ") == 51);
    CHECK(all.find("UNREACHABLE") == std::string::npos);
}

TEST_CASE("console with a baseline: the lines are the diff (new, still failing, fixed, not run)") {
    std::ostringstream out;
    ConsoleReporter r(out, false, false);
    r.run_started(RunInfo{});
    const auto make = [](std::string name, Outcome o, const char* state) {
        CaseResult c;
        c.suite = "s";
        c.name = std::move(name);
        c.rules = {"DATA-ID-002"};
        c.outcome = o;
        if (o == Outcome::failed) c.message = "status: expected 4xx, got 200";
        if (state) c.properties.push_back({"baseline", state});
        return c;
    };
    r.suite_started("s", "s.yaml");
    r.case_finished(make("a", Outcome::failed, "new"));
    r.case_finished(make("b", Outcome::failed, "still-failing"));
    r.case_finished(make("c", Outcome::passed, "fixed"));
    r.case_finished(make("d", Outcome::passed, nullptr));  // passed before and now: nothing to say
    r.suite_finished(SuiteResult{});
    AuditSummary a;
    a.baseline_file = "before.json";
    a.added = a.fixed = a.still = 1;
    a.gone = 12;
    for (int i = 0; i < 12; ++i) a.gone_cases.push_back("s \xE2\x80\xBA gone " + std::to_string(i));
    r.audit_finished(a);
    std::string error;
    CHECK(r.run_finished(RunSummary{}, error));
    const std::string text = out.str();
    CHECK(text.find("FAIL (new) s \xE2\x80\xBA a [DATA-ID-002] status: expected 4xx, got 200\n") != std::string::npos);
    CHECK(text.find("FAIL (still failing) s \xE2\x80\xBA b [DATA-ID-002]") != std::string::npos);
    CHECK(text.find("FIXED s \xE2\x80\xBA c [DATA-ID-002]\n") != std::string::npos);
    CHECK(text.find("\xE2\x80\xBA d") == std::string::npos);
    CHECK(text.find("baseline before.json: 1 new, 1 fixed, 1 still failing, 12 not run this time\n") != std::string::npos);
    CHECK(text.find("  NOT RUN s \xE2\x80\xBA gone 9\n") != std::string::npos);
    CHECK(text.find("gone 10") == std::string::npos);
    CHECK(text.find("  ... and 2 more not run this time") != std::string::npos);
}

TEST_CASE("console: a run whose only errors are an unreachable target says UNREACHABLE, not FAILED") {
    std::ostringstream out;
    ConsoleReporter r(out, false, false);
    CaseResult c;
    c.suite = "packs";
    c.name = "a create mints a v7 id";
    c.outcome = Outcome::error;
    c.message = "connect: connection refused";
    StepRecord st;
    st.exchange.request.method = "POST";
    st.exchange.request.url = "http://127.0.0.1:1/v1/items";
    st.exchange.error = TransportError{TransportErrorKind::connect, "connection refused to 127.0.0.1:1"};
    c.steps.push_back(st);
    SuiteResult s;
    s.name = "packs";
    for (int i = 0; i < 3; ++i) {
        r.case_finished(c);
        s.cases.push_back(c);
    }
    RunSummary run;
    run.suites.push_back(s);
    std::string error;
    CHECK(r.run_finished(run, error));
    CHECK(out.str().find("UNREACHABLE 3 tests: passed 0, failed 0, errors 3") != std::string::npos);
    CHECK(out.str().find("FAILED") == std::string::npos);
}

TEST_CASE("console: every failed check of a case is shown, the first few and then how many more") {
    std::ostringstream out;
    ConsoleReporter r(out, false, false);
    CaseResult c;
    c.suite = "s";
    c.name = "many";
    c.outcome = Outcome::failed;
    c.message = "check 0: expected a, got b";
    StepRecord st;
    for (int i = 0; i < 7; ++i) {
        CheckResult k;
        k.what = "check " + std::to_string(i);
        k.expected = "a";
        k.actual = "b";
        st.checks.push_back(k);
    }
    CheckResult advisory;
    advisory.what = "advisory";
    advisory.warning = true;
    st.checks.push_back(advisory);
    c.steps.push_back(st);
    r.case_finished(c);
    const std::string text = out.str();
    CHECK(text.find("check 0: expected a") != std::string::npos);
    for (int i = 1; i <= 4; ++i) CHECK(text.find("    and FAIL check " + std::to_string(i) + ": expected a, actual b") != std::string::npos);
    CHECK(text.find("check 5") == std::string::npos);
    CHECK(text.find("    and 2 more failed checks (--verbose lists them)\n") != std::string::npos);
    CHECK(text.find("advisory") == std::string::npos);
}

TEST_CASE("console: skipped cases split by cause, adding up, what the selection left out is counted, not tested") {
    std::ostringstream out;
    ConsoleReporter r(out, false, false);
    RunSummary run;
    SuiteResult s;
    s.name = "s";
    for (const SkipCause k :
         {SkipCause::not_described, SkipCause::not_applicable, SkipCause::not_described, SkipCause::stopped}) {
        CaseResult c;
        c.suite = "s";
        c.name = std::string("c ") + to_string(k);
        skip(c, k, "why");
        r.case_finished(c);
        s.cases.push_back(c);
    }
    run.suites.push_back(s);
    run.filtered_out = 12;
    std::string error;
    CHECK(r.run_finished(run, error));
    CHECK(
        out.str().find("OK 4 tests: passed 0, failed 0, errors 0, skipped 4 (1 not applicable, 2 not described, 1 run "
                       "stopped), warnings 0, 12 filtered out in 0.000 s\n") != std::string::npos);
}

TEST_CASE("console: a selection that picked nothing is not a pass") {
    std::ostringstream out;
    ConsoleReporter r(out, false, false);
    RunSummary run;
    run.filtered_out = 57;
    std::string error;
    CHECK(r.run_finished(run, error));
    CHECK(out.str() ==
          "NOTHING SELECTED 0 tests: passed 0, failed 0, errors 0, skipped 0, warnings 0, 57 filtered out in "
          "0.000 s\n");
}

TEST_CASE("console: --color always and never win, auto needs a terminal, no NO_COLOR and no TERM=dumb") {
    using reporters::ColorMode;
    const char* term = std::getenv("TERM");
    const std::string saved_term = term ? term : "";
    ::unsetenv("NO_COLOR");
    ::setenv("TERM", "xterm-256color", 1);
    CHECK(reporters::color_wanted(true));
    CHECK_FALSE(reporters::color_wanted(false));
    CHECK(reporters::color_wanted(false, ColorMode::always));
    CHECK_FALSE(reporters::color_wanted(true, ColorMode::never));
    ::setenv("TERM", "dumb", 1);
    CHECK_FALSE(reporters::color_wanted(true));
    CHECK(reporters::color_wanted(true, ColorMode::always));
    ::setenv("TERM", "xterm", 1);
    ::setenv("NO_COLOR", "1", 1);
    CHECK_FALSE(reporters::color_wanted(true));
    CHECK(reporters::color_wanted(true, ColorMode::always));  // the flag overrides the environment
    ::setenv("NO_COLOR", "", 1);
    CHECK(reporters::color_wanted(true));  // set but empty: not a request
    ::unsetenv("NO_COLOR");
    if (term) ::setenv("TERM", saved_term.c_str(), 1);
    else ::unsetenv("TERM");
    CHECK(reporters::parse_color_mode("auto") == ColorMode::automatic);
    CHECK_FALSE(reporters::parse_color_mode("yes"));
}
