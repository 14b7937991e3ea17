// ThreadedReporter: every event reaches the inner reporter in order, cases
// arrive moved, run_finished waits for the queue, and a reporter that throws
// is reported instead of ending the process.
#include "reporters/threaded_reporter.hpp"

#include <doctest/doctest.h>

#include <stdexcept>
#include <thread>

using namespace idconform;
using namespace idconform::reporters;

namespace {

// Records events as text, and on which thread they came.
class Recorder final : public Reporter {
public:
    explicit Recorder(std::vector<std::string>& log, std::thread::id& on, bool throw_on_case = false)
        : log_(log), on_(on), throw_(throw_on_case) {}
    void run_started(const RunInfo& i) override { log_.push_back("run " + std::to_string(i.total_cases)); on_ = std::this_thread::get_id(); }
    void suite_started(const std::string& s, const std::string& f) override { log_.push_back("suite " + s + " " + f); }
    void case_finished(const CaseResult& c) override {
        if (throw_ && c.name == "boom") throw std::runtime_error("cannot render 'boom'");
        log_.push_back("case " + c.name + " steps " + std::to_string(c.steps.size()));
    }
    void suite_finished(const SuiteResult& s) override { log_.push_back("end " + s.name); }
    bool run_finished(const RunSummary&, std::string& error) override {
        log_.push_back("finished");
        if (throw_) error = "inner error";
        return !throw_;
    }

private:
    std::vector<std::string>& log_;
    std::thread::id& on_;
    bool throw_;
};

CaseResult make_case(std::string name) {
    CaseResult c;
    c.name = std::move(name);
    c.steps.resize(2);
    return c;
}

}  // namespace

TEST_CASE("ThreadedReporter: events arrive in order on another thread, run_finished waits for all of them") {
    std::vector<std::string> log;
    std::thread::id on;
    ThreadedReporter r(std::make_unique<Recorder>(log, on));
    r.run_started(RunInfo{"v", {}, 3000});
    r.suite_started("s1", "a.yaml");
    std::vector<std::string> want{"run 3000", "suite s1 a.yaml"};
    for (int i = 0; i < 3000; ++i) {  // more than one batch
        CaseResult c = make_case("c" + std::to_string(i));
        if (i % 2) r.take_case(std::move(c));
        else r.case_finished(c);
        want.push_back("case c" + std::to_string(i) + " steps 2");
    }
    SuiteResult s;
    s.name = "s1";
    r.suite_finished(s);
    want.push_back("end s1");
    std::string error;
    CHECK(r.run_finished(RunSummary{}, error));
    want.push_back("finished");
    CHECK(error.empty());
    CHECK(log == want);
    CHECK(on != std::this_thread::get_id());
}

TEST_CASE("ThreadedReporter: a reporter that throws is reported by run_finished, later events still arrive") {
    std::vector<std::string> log;
    std::thread::id on;
    ThreadedReporter r(std::make_unique<Recorder>(log, on, true));
    r.take_case(make_case("first"));
    r.take_case(make_case("boom"));
    r.take_case(make_case("last"));
    std::string error;
    CHECK_FALSE(r.run_finished(RunSummary{}, error));
    CHECK(error == "inner error; reporter failed: cannot render 'boom'");
    CHECK(log == std::vector<std::string>{"case first steps 2", "case last steps 2", "finished"});
}

TEST_CASE("ThreadedReporter: destroyed without run_finished, it still delivers what was queued") {
    std::vector<std::string> log;
    std::thread::id on;
    {
        ThreadedReporter r(std::make_unique<Recorder>(log, on));
        r.take_case(make_case("only"));
    }
    CHECK(log == std::vector<std::string>{"case only steps 2"});
}
