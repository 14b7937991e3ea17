// The audit stage: a step in the result flow between the runner (or scan)
// and the reporters. It applies waivers (a covered failure becomes waived,
// with "waived until DATE by OWNER: REASON" as its message) and compares
// with a baseline (property baseline = new | still-failing | fixed) before
// any reporter sees a case, so console, JUnit, JSON and HTML all show the
// same counts. At the end it reports expired and stale waivers as cases of
// a "waivers" suite, sends audit_finished, then run_finished with the
// counts the reporters saw.
#pragma once

#include "audit/baseline.hpp"
#include "audit/waivers.hpp"
#include "reporters/reporter.hpp"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

namespace idconform::audit {

struct AuditConfig {
    std::optional<WaiverFile> waivers;
    bool strict_waivers = false;  // a stale waiver (covers no failure) fails the run
    std::optional<Baseline> baseline;
    bool fail_on_new = false;     // only new failures (not in the baseline) fail the run
    long today = today_utc();     // days since 1970-01-01; a waiver expiring today still holds
    // Appended to RunInfo::metadata at run_started (what the CLI knows about
    // the run: target, profile and its SHA-256, options that change verdicts).
    std::vector<Property> metadata;
    [[nodiscard]] bool audits() const { return waivers.has_value() || baseline.has_value(); }
};

class AuditStage final : public reporters::Reporter {
public:
    AuditStage(std::unique_ptr<reporters::Reporter> inner, AuditConfig cfg);

    void run_started(const reporters::RunInfo& info) override;
    void suite_started(const std::string& suite, const std::string& file) override;
    void case_finished(const CaseResult& c) override;
    void take_case(CaseResult&& c) override;
    void suite_finished(const SuiteResult& s) override;
    void audit_finished(const reporters::AuditSummary& a) override;
    bool run_finished(const RunSummary& run, std::string& error) override;

    // After run_finished: the summary the reporters were given (per-suite
    // counts, waived included, and the waivers suite; no cases).
    [[nodiscard]] const RunSummary& summary() const { return summary_; }
    [[nodiscard]] const reporters::AuditSummary& audit() const { return audit_; }
    // Failed cases that fail the run: every failed case, or with fail_on_new
    // the new ones and the waivers suite's failures.
    [[nodiscard]] std::size_t failing() const { return failing_; }
    // Whether the stage has waivers or a baseline to apply.
    [[nodiscard]] bool audits() const { return cfg_.audits(); }

    // Whether a case the runner just finished will fail the run once the
    // stage has seen it: a failed case not waived by an active waiver (and,
    // with fail_on_new, not in the baseline). What the runner counts toward
    // --max-failures (RunOptions::failure_counts). Reads only the
    // configuration, never the stage's state: safe from the runner's thread
    // while the reporter thread runs the stage.
    [[nodiscard]] bool fails_run(const CaseResult& c) const;
    // Whether an active waiver covers a failed case (what apply() will mark
    // waived). Reads only the configuration, as fails_run.
    [[nodiscard]] bool waives(const CaseResult& c) const {
        return c.outcome == Outcome::failed && active_waiver(c) != nullptr;
    }

    // The stage's work on one case, for tests.
    void apply(CaseResult& c);

private:
    void emit(CaseResult c);
    void finish_waivers();
    void finish_baseline();
    [[nodiscard]] const Waiver* active_waiver(const CaseResult& c) const;

    std::unique_ptr<reporters::Reporter> inner_;
    AuditConfig cfg_;
    std::vector<SuiteResult> suites_;  // as reported, with the counts after the stage
    std::vector<reporters::WaiverStatus> waiver_status_;
    std::vector<std::set<std::string>> expired_rules_;  // per waiver: rule ids of the failures it covered expired
    std::map<std::string, reporters::BaselineRow> rows_;
    std::unordered_set<const Baseline::Entry*> seen_;  // baseline findings this run reported (not errored/skipped)
    RunSummary summary_;
    reporters::AuditSummary audit_;
    std::size_t failing_ = 0;
};

}  // namespace idconform::audit
