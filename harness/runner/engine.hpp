// The engine: runs suites (at -j N up to N side by side, engine_suites.cpp);
// in each, the setup, then the cases on N workers (coroutines on one
// io_context thread) with retries for transport errors only and one rate
// limit, results released to the reporter strictly in suite order, then
// teardown and cleanup. N bounds what is in flight across every suite
// (slots.hpp). Transports
// come from the factory it is constructed with (the registry, or a fake in
// tests); what a step kind does lives in steps/, checks in checks.*.
#pragma once

#include "reporters/reporter.hpp"
#include "runner/auth.hpp"
#include "runner/expansion.hpp"
#include "runner/rate_limiter.hpp"
#include "runner/shape_findings.hpp"
#include "runner/slots.hpp"
#include "runner/runner.hpp"
#include "runner/step_outcome.hpp"
#include "runner/suite_run.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/asio/thread_pool.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace idconform::runner {

class Engine {
public:
    Engine(const RunOptions& o, reporters::Reporter& r, TransportFactory factory)
        : opts_(o), reporter_(r), factory_(std::move(factory)), limiter_(o.rate_limit) {
        if (o.concurrency > 1) slots_.emplace(o.concurrency);
    }

    boost::asio::awaitable<void> run_all(const std::vector<suite::Suite>& suites);
    RunReport take() { return std::move(report_); }
    // The first SIGINT/SIGTERM (on the runner's thread): no new case or
    // suite starts, cases in flight stop at their next step, the cleanup of
    // suites in flight runs within opts.interrupt_cleanup.
    void interrupt(int signo);
    [[nodiscard]] bool interrupted() const noexcept { return interrupted_ != 0; }
    // What the suites in flight created and have not deleted yet, one line
    // each (a second signal prints it before exiting).
    [[nodiscard]] std::vector<std::string> left_on_target() const;

private:
    using Collected = std::map<std::string, std::vector<std::string>>;

    // One suite, reported to `out` (the reporter, or a buffer when suites run
    // side by side); what its cleanup could not delete goes to `left`.
    boost::asio::awaitable<SuiteResult> run_suite(const suite::Suite& s, reporters::Reporter& out,
                                                  std::vector<SuiteRun::LeftBehind>& left);
    // The selected suites from `first` on, up to opts.concurrency at once,
    // reported in their order; a preflight suite runs alone (engine_suites.cpp).
    boost::asio::awaitable<void> run_side_by_side(const std::vector<suite::Suite>& suites,
                                                  const std::vector<bool>& selected,
                                                  std::size_t& not_started_by_preflight);
    // Whether suites[i] is left out (interrupted, not selected, stopped by the
    // preflight), counted where it belongs.
    bool left_out(const suite::Suite& s, bool selected, std::size_t& not_started_by_preflight);
    [[nodiscard]] Slots* slots() noexcept { return slots_ ? &*slots_ : nullptr; }
    // Runs the expanded cases on the workers; `report` gets each result in order.
    template <class Report>
    boost::asio::awaitable<void> run_cases(SuiteRun& run, const std::vector<Expanded>& cases, Report& report);
    // Runs setup or teardown steps in order on the suite scope. On the first
    // problem returns a CaseResult named after the phase (failed for a broken
    // expectation, error otherwise); nullopt when every step passed.
    boost::asio::awaitable<std::optional<CaseResult>> run_phase(SuiteRun& run, const std::vector<suite::Step>& steps,
                                                                const char* phase);
    boost::asio::awaitable<CaseResult> run_case(SuiteRun& run, const Expanded& e);
    // A case's `fresh:` (suite/model.hpp): its variables evaluated again and
    // its setup steps run again into the case's scope, their steps recorded
    // in `r`, the element's mutation made again from the new id. False when
    // that state could not be made: `r` is then skipped (or an error) saying why.
    boost::asio::awaitable<bool> make_fresh(SuiteRun& run, const Expanded& e, Scope& scope, const std::string& rule,
                                            CaseResult& r);
    // A failed case that had a DELETE, PUT or PATCH accepted: what it left
    // deleted or changed (that request's URL, and every URL answered 404 or
    // 410 after it) is noted in `gone_`, so that a later case answered 404 or
    // 410 at one of them (or at the canonical spelling of an id a
    // non-canonical one deleted) is skipped naming this finding, not failed.
    void note_gone(const SuiteRun& run, const CaseResult& r);
    // The earlier finding that removed what this failing step addressed, or "".
    [[nodiscard]] std::string gone_by(const SuiteRun& run, const StepRecord& st) const;
    // With defer_evidence the redaction and the reproduce line are left to
    // the caller (out.evidence_pending): run_case builds them only for cases
    // that do not pass, whose reports show them.
    boost::asio::awaitable<StepOutcome> run_step(SuiteRun& run, const suite::Step& st, Scope& scope,
                                                 const std::string& rule, Collected* collected = nullptr,
                                                 bool defer_evidence = false);
    // Sends with retries: another attempt only after a retryable transport error.
    boost::asio::awaitable<Exchange> send_with_retries(SuiteRun& run, const Request& req);
    // Checks, findings, shape scan, deletes, created entities and captures of an answered step.
    // Files the transport's contract findings (Exchange::findings) under
    // rule x schema x field with the shape scan's results.
    void add_schema_findings(SuiteRun& run, const suite::Step& st, const Request& req, const Exchange& x,
                             const Scope& scope, const std::string& step_name);
    // The evidence a shape result keeps of one answer (request, answer,
    // redacted, with its reproduce line), named "<suite> › <step>".
    static StepRecord shape_example(const SuiteRun& run, const suite::Step& st, const Request& req, const Exchange& x,
                                    const Scope& scope, const std::string& step_name);
    void judge_answer(SuiteRun& run, const suite::Step& st, const Request& req, const Exchange& x, Scope& scope,
                      const std::string& rule, Collected* collected, StepOutcome& out);
    // The testcases after the cases: field versions, teardown, cleanup.
    template <class Report>
    boost::asio::awaitable<void> finish_suite(SuiteRun& run, bool setup_failed, Report& report,
                                              std::vector<SuiteRun::LeftBehind>& left);
    // The "shape scan" suite after every other: the run's folded findings.
    SuiteResult report_shape_findings();

    const RunOptions& opts_;
    reporters::Reporter& reporter_;
    TransportFactory factory_;
    RateLimiter limiter_;
    std::optional<boost::asio::thread_pool> files_;  // file steps scan here, off the runner's thread
    RunReport report_;
    // Counts a case in error under its cause: the run's exit code follows
    // from these counts (a cleanup error alone counts in neither).
    void count_error(ErrorCause c) noexcept {
        if (target_error(c)) ++report_.transport_errors;
        else if (c != ErrorCause::cleanup) ++report_.suite_errors;
    }
    std::vector<SuiteRun::LeftBehind> left_behind_;  // of every suite, for the run's notes
    std::map<std::string, std::size_t> deleted_across_;  // of every suite (SuiteRun::deleted_across)
    ShapeFindings shape_;                            // of every suite, reported after them
    int interrupted_ = 0;                            // the signal that interrupted the run, 0: none
    std::size_t not_run_ = 0, suites_not_started_ = 0;  // what the interrupt left out
    std::vector<SuiteRun*> in_flight_;               // the suites in flight (interrupt, left_on_target)
    std::optional<Slots> slots_;                     // -j N > 1: what may be in flight across suites
    int failures_ = 0;
    struct Gone {
        std::string collection;  // the suite and the URL up to the entity's segment
        std::string folded;      // that segment's letters and digits, lower-case
        std::string finding;     // the earlier failed case and its step
    };
    std::vector<Gone> gone_;  // what failed cases deleted or changed (note_gone)
    Confirmed confirmed_;     // principals the preflight saw let in (auth.hpp)
    std::string stopped_;     // why the preflight stopped the run ("" = it did not)
};

}  // namespace idconform::runner
