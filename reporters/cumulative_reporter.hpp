// The one base of the file reporters that write their document at the end
// (JUnit, JSON, HTML), in the spirit of Catch2's CumulativeReporterBase: it
// keeps what every such report needs and each used to keep for itself - the
// run's information and start time, the suites in order with their counts,
// the audit, each case rendered when it finishes into a Spool (memory stays
// flat however many cases a run has), the first rendering error - and at
// run_finished opens the output file (written atomically, AtomicFileWriter),
// hands it to the format's write_report and commits it. A format says only
// how a case is rendered (render_case) and how the document is assembled
// (write_report, with copy_cases for each suite's rendered cases).
#pragma once

#include "reporters/atomic_file.hpp"
#include "reporters/options.hpp"
#include "reporters/reporter.hpp"
#include "reporters/spool.hpp"

#include <array>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace idconform::reporters {

class CumulativeReporter : public Reporter {
public:
    ~CumulativeReporter() override;
    void run_started(const RunInfo& info) final;
    void suite_started(const std::string& suite, const std::string& file) final;
    void case_finished(const CaseResult& c) final;
    void suite_finished(const SuiteResult& s) final;
    void audit_finished(const AuditSummary& a) final;
    bool run_finished(const RunSummary& run, std::string& error) final;

protected:
    // `kind` names the report in errors ("JUnit": "cannot write JUnit report 'PATH': ...").
    CumulativeReporter(std::string path, ReportOptions opts, std::string kind);

    struct SuiteEntry {
        // name, file, seconds, timestamp (from suite_finished) and the
        // counts of its cases (SuiteResult::streamed); no cases
        SuiteResult suite;
        std::size_t begin = 0, end = 0;  // its rendered cases in the spool
    };

    // Renders `c`, a case of suite `suite_index` (suites()[suite_index], whose
    // counts do not include it yet), into `out` (empty); may keep what the
    // document needs of it (per-rule tallies). May throw: the error is
    // reported by run_finished.
    virtual void render_case(std::string& out, const CaseResult& c, std::size_t suite_index) = 0;
    // Called by run_started after the base has kept `info`.
    virtual void started(const RunInfo& /*info*/) {}
    // Writes the whole document into `out`; throws ReportError (or any
    // std::exception) when it cannot.
    virtual void write_report(AtomicFileWriter& out, const RunSummary& run) = 0;

    // Copies the rendered cases of suite `i` into `out`; throws ReportError.
    void copy_cases(std::size_t i, AtomicFileWriter& out);

    [[nodiscard]] const std::vector<SuiteEntry>& suites() const noexcept { return suites_; }
    [[nodiscard]] const RunInfo& info() const noexcept { return info_; }
    [[nodiscard]] const std::string& started_at() const noexcept { return started_; }  // ISO-8601; "" before run_started
    [[nodiscard]] const std::optional<AuditSummary>& audit() const noexcept { return audit_; }
    [[nodiscard]] const ReportOptions& opts() const noexcept { return opts_; }
    [[nodiscard]] const std::string& path() const noexcept { return path_; }
    // Every case of the run, per Outcome (indexed by its value).
    [[nodiscard]] std::array<std::size_t, outcome_count> totals() const noexcept;

    // What write_report throws for a failure it has words for.
    struct ReportError : std::runtime_error {
        using std::runtime_error::runtime_error;
    };

private:
    std::string path_;
    ReportOptions opts_;
    std::string kind_;
    RunInfo info_;
    std::string started_;
    std::optional<AuditSummary> audit_;
    std::vector<SuiteEntry> suites_;
    Spool spool_;
    std::string scratch_;  // the case being rendered; keeps its capacity from case to case
    std::string error_;    // first failure while rendering a case
};

}  // namespace idconform::reporters
