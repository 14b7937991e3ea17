// A reporter that hands every event to another reporter on a thread of its
// own. Rendering reports (JUnit text, JSON, console lines) then no longer
// takes the runner's thread: on a 2-core machine it uses what the target
// leaves idle, and at concurrency 1 it never delays the next request. Events
// keep their order (one FIFO, one consumer), so reports stay byte-identical.
#pragma once

#include "reporters/reporter.hpp"

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <variant>

namespace idconform::reporters {

class ThreadedReporter final : public Reporter {
public:
    explicit ThreadedReporter(std::unique_ptr<Reporter> inner);
    // Drains the queue and stops the thread (if run_finished did not).
    ~ThreadedReporter() override;
    ThreadedReporter(const ThreadedReporter&) = delete;
    ThreadedReporter& operator=(const ThreadedReporter&) = delete;

    void run_started(const RunInfo& info) override;
    void suite_started(const std::string& suite, const std::string& file) override;
    void case_finished(const CaseResult& c) override;
    void take_case(CaseResult&& c) override;
    void suite_finished(const SuiteResult& s) override;
    void audit_finished(const AuditSummary& a) override;
    // Waits until every queued event has been handled, stops the thread,
    // then calls the inner reporter's run_finished on the caller's thread.
    bool run_finished(const RunSummary& summary, std::string& error) override;

private:
    struct SuiteStarted {
        std::string suite, file;
    };
    using Event = std::variant<RunInfo, SuiteStarted, CaseResult, SuiteResult, AuditSummary>;

    void push(Event e);
    void stop();
    void loop();

    std::unique_ptr<Reporter> inner_;
    std::mutex mu_;
    std::condition_variable wake_;
    std::deque<Event> queue_;
    bool stopping_ = false;
    std::string error_;  // what a reporter threw, reported by run_finished
    std::thread thread_;
};

}  // namespace idconform::reporters
