// ThreadedReporter: one queue, one consumer thread. The producer (the
// runner) does not signal per event: a futex wake per case cost more than
// rendering it. The consumer wakes every few milliseconds, or at once when
// the queue grows long or the run ends, and handles everything queued.
#include "reporters/threaded_reporter.hpp"

#include <chrono>
#include <exception>

namespace idconform::reporters {

namespace {
constexpr std::size_t wake_at = 512;  // queued events that wake the consumer at once
constexpr auto poll_interval = std::chrono::milliseconds(2);
}  // namespace

ThreadedReporter::ThreadedReporter(std::unique_ptr<Reporter> inner) : inner_(std::move(inner)) {
    thread_ = std::thread([this] { loop(); });
}

ThreadedReporter::~ThreadedReporter() { stop(); }

void ThreadedReporter::push(Event e) {
    bool wake = false;
    {
        std::lock_guard lock(mu_);
        queue_.push_back(std::move(e));
        wake = queue_.size() >= wake_at;
    }
    if (wake) wake_.notify_one();
}

void ThreadedReporter::run_started(const RunInfo& info) { push(info); }
void ThreadedReporter::suite_started(const std::string& suite, const std::string& file) {
    push(SuiteStarted{suite, file});
}
void ThreadedReporter::case_finished(const CaseResult& c) { push(c); }
void ThreadedReporter::take_case(CaseResult&& c) { push(std::move(c)); }
void ThreadedReporter::suite_finished(const SuiteResult& s) { push(s); }
void ThreadedReporter::audit_finished(const AuditSummary& a) { push(a); }

void ThreadedReporter::loop() {
    std::deque<Event> batch;
    for (;;) {
        {
            std::unique_lock lock(mu_);
            wake_.wait_for(lock, poll_interval, [this] { return stopping_ || queue_.size() >= wake_at; });
            batch.swap(queue_);
            if (batch.empty() && stopping_) return;
        }
        for (auto& e : batch) {
            try {
                if (auto* c = std::get_if<CaseResult>(&e)) inner_->take_case(std::move(*c));
                else if (auto* i = std::get_if<RunInfo>(&e)) inner_->run_started(*i);
                else if (auto* s = std::get_if<SuiteStarted>(&e)) inner_->suite_started(s->suite, s->file);
                else if (auto* r = std::get_if<SuiteResult>(&e)) inner_->suite_finished(*r);
                else if (auto* a = std::get_if<AuditSummary>(&e)) inner_->audit_finished(*a);
            } catch (const std::exception& ex) {  // reporters should not throw; never lose the run over it
                std::lock_guard lock(mu_);
                if (error_.empty()) error_ = std::string("reporter failed: ") + ex.what();
            } catch (...) {
                std::lock_guard lock(mu_);
                if (error_.empty()) error_ = "reporter failed";
            }
        }
        batch.clear();
    }
}

void ThreadedReporter::stop() {
    {
        std::lock_guard lock(mu_);
        stopping_ = true;
    }
    wake_.notify_one();
    if (thread_.joinable()) thread_.join();
}

bool ThreadedReporter::run_finished(const RunSummary& summary, std::string& error) {
    stop();
    bool ok = inner_->run_finished(summary, error);
    if (!error_.empty()) {
        error += (error.empty() ? "" : "; ") + error_;
        ok = false;
    }
    return ok;
}

}  // namespace idconform::reporters
