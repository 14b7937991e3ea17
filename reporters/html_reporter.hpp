// HTML reporter (cumulative): one self-contained file an auditor can read:
// the verdict and counts, the run's metadata, waivers and baseline, a matrix
// of suite (resource, endpoint or file) x rule with per-outcome counts that
// link to their cases, and every case, with the evidence of each non-passing
// one (rule statement, what was sent, what came back, failed expectations,
// reproduce command), redacted exactly as JUnit is. No network, no external
// file; everything but filtering works without JavaScript. Cases are
// rendered as they finish into a Spool (memory stays flat on 100,000 cases)
// and copied into the file at run_finished, written atomically.
#pragma once

#include "reporters/options.hpp"
#include "reporters/reporter.hpp"
#include "reporters/spool.hpp"

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/rules.hpp"

namespace idconform::reporters {

class HtmlReporter final : public Reporter {
public:
    explicit HtmlReporter(std::string path, ReportOptions opts = {});
    ~HtmlReporter() override;
    void run_started(const RunInfo& info) override;
    void suite_started(const std::string& suite, const std::string& file) override;
    void case_finished(const CaseResult& c) override;
    void suite_finished(const SuiteResult& s) override;
    void audit_finished(const AuditSummary& a) override;
    bool run_finished(const RunSummary& run, std::string& error) override;

private:
    using Counts = std::array<std::size_t, outcome_count>;
    struct SuiteEntry {
        std::string name, file;
        double seconds = 0;
        Counts counts{};
        std::size_t begin = 0, end = 0;  // its cases in spool_
    };
    struct Cell {
        Counts counts{};
        std::string anchor;  // id of the cell's first case
    };
    std::string path_;
    ReportOptions opts_;
    RunInfo info_;
    std::string started_;
    std::vector<SuiteEntry> suites_;
    std::map<std::string, std::size_t> rule_index_;           // rule -> column
    std::map<std::pair<std::size_t, std::size_t>, Cell> cells_;  // (suite, rule column) -> counts
    std::optional<AuditSummary> audit_;
    std::size_t cases_ = 0;
    std::array<std::size_t, skip_cause_count> skipped_by_{};  // skipped cases per SkipCause
    Spool spool_;
    std::string scratch_;
    std::string error_;
};

}  // namespace idconform::reporters
