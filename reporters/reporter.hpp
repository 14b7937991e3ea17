// The one reporter interface. The runner feeds every reporter the same events
// in the same order; JUnit, JSON and console each implement it, and
// MultiReporter fans out to several at once. Events for cases arrive in suite
// order (the runner buffers out-of-order completions), so reports are
// deterministic whatever the concurrency.
#pragma once

#include "core/result.hpp"

#include <memory>
#include <string>
#include <vector>

namespace idconform::reporters {

struct RunInfo {
    std::string tool_version;
    std::vector<std::string> suite_files;
    std::size_t total_cases = 0;  // known up front, for progress display
    // What the run was asked to do, for `idconform merge` (the JSON report's
    // "run" object, written when `plan` is set): the profile, the plan digest
    // (shard::plan_digest), and for `--shard K/N` the shard and the indices of
    // its suites in the unsharded order.
    // (Default member initializers keep brace-initialised RunInfo{...} free of
    // -Wmissing-field-initializers.)
    std::string profile{};
    std::string plan{};
    std::size_t shard_index = 0, shard_count = 0;  // 1-based K of N; 0 when not sharded
    std::vector<std::size_t> units{};
    std::vector<std::size_t> every_shard{};        // of `units`, those every shard runs (the preflight)
    std::size_t total_units = 0;                   // suites of the whole (unsharded) run
    // What an auditor needs to know about the run, in display order: target
    // and base URL, profile file and its SHA-256, options that change
    // verdicts (clock skew, packs, filters, waivers, baseline), start time.
    // Shown by the HTML report, kept by the JSON report ("run"); empty for
    // runs that did not say.
    std::vector<Property> metadata{};
};

// One waiver as the audit stage (harness/audit/) judged it.
struct WaiverStatus {
    std::string rule;       // the rule it waives
    std::string covers;     // suite/resource/case globs, as one line
    std::string owner, reason;
    std::string expires;    // YYYY-MM-DD
    std::string position;   // file:line:col of the waiver
    std::string state;      // "active", "expired" or "stale" (matched no failure)
    std::size_t waived = 0;           // failures it waived
    std::size_t matched_expired = 0;  // failures it would have waived, had it not expired
};

// Baseline comparison of one rule: failures (failed or waived cases) of this
// run against those of the earlier report.
struct BaselineRow {
    std::string rule;
    std::size_t added = 0, fixed = 0, still = 0;  // new, fixed, still failing
};

// What the audit stage found: given to every reporter by audit_finished,
// just before run_finished, when a run has waivers or a baseline.
struct AuditSummary {
    std::string waivers_file;            // "" without --waivers
    std::vector<WaiverStatus> waivers;   // in file order
    std::string baseline_file;           // "" without --baseline
    std::vector<BaselineRow> baseline;   // per rule, sorted by rule ("(no rule)" for none)
    std::size_t added = 0, fixed = 0, still = 0;
    // Failures of the baseline whose case did not run this time ("suite ›
    // case"), at most the first 1000; `gone` counts them all. Not counted as
    // fixed: a case that did not run proves nothing.
    std::vector<std::string> gone_cases;
    std::size_t gone = 0;
    bool fail_on_new = false;            // --fail-on new: only new failures fail the run
};

class Reporter {
public:
    virtual ~Reporter() = default;
    virtual void run_started(const RunInfo&) {}
    virtual void suite_started(const std::string& /*suite*/, const std::string& /*file*/) {}
    virtual void case_finished(const CaseResult&) {}
    // case_finished for a result the caller gives away (the runner's own
    // copy): a reporter that keeps or forwards it can move it.
    virtual void take_case(CaseResult&& c) { case_finished(c); }
    virtual void suite_finished(const SuiteResult&) {}
    // After the last suite, before run_finished, only in runs with waivers
    // or a baseline (harness/audit/).
    virtual void audit_finished(const AuditSummary&) {}
    // Cumulative reporters (JUnit) write their file here. Returns false and
    // sets `error` when the report could not be written.
    virtual bool run_finished(const RunSummary&, std::string& /*error*/) { return true; }
};

class MultiReporter final : public Reporter {
public:
    void add(std::unique_ptr<Reporter> r) { reporters_.push_back(std::move(r)); }
    void run_started(const RunInfo& i) override { for (auto& r : reporters_) r->run_started(i); }
    void suite_started(const std::string& s, const std::string& f) override {
        for (auto& r : reporters_) r->suite_started(s, f);
    }
    void case_finished(const CaseResult& c) override { for (auto& r : reporters_) r->case_finished(c); }
    void take_case(CaseResult&& c) override {
        if (reporters_.size() == 1) reporters_.front()->take_case(std::move(c));
        else case_finished(c);
    }
    void suite_finished(const SuiteResult& s) override { for (auto& r : reporters_) r->suite_finished(s); }
    void audit_finished(const AuditSummary& a) override { for (auto& r : reporters_) r->audit_finished(a); }
    bool run_finished(const RunSummary& s, std::string& error) override {
        bool ok = true;
        for (auto& r : reporters_) {
            std::string e;
            if (!r->run_finished(s, e)) { ok = false; error += (error.empty() ? "" : "; ") + e; }
        }
        return ok;
    }
private:
    std::vector<std::unique_ptr<Reporter>> reporters_;
};

}  // namespace idconform::reporters
