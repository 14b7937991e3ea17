// JSON reporter (cumulative): the same content as the JUnit report, for
// machines, as one document written atomically at run_finished. Each case is
// serialised when it finishes and kept in a scratch file until then, so
// memory stays flat however many cases a run has. Field names
// are stable and listed in reporters/README.md.
#pragma once

#include "reporters/options.hpp"
#include "reporters/reporter.hpp"
#include "reporters/spool.hpp"

#include <boost/json/value.hpp>

#include <boost/json/object.hpp>

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace idconform::reporters {

// Per rule, the count of each Outcome (indexed by its value).
using RuleTotals = std::map<std::string, std::array<std::size_t, outcome_count>>;
// Skipped cases per SkipCause (indexed by its value).
using SkipTotals = std::array<std::size_t, skip_cause_count>;

// The "run" object of a report for `info` (profile, plan, shard, units);
// null when info.plan is empty (the report then has no "run" member).
[[nodiscard]] boost::json::value run_json(const RunInfo& info);

// The report as a JSON value (tool_version goes into "version").
[[nodiscard]] boost::json::value json_report(const RunSummary& run, const std::string& tool_version,
                                             const ReportOptions& opts = {});

// The "audit" member of a JSON report (waivers and baseline; see README).
[[nodiscard]] boost::json::object audit_json(const AuditSummary& a);

// Indented text of a JSON value, two spaces per level, keys in insertion
// order; doubles (all of them times) with exactly three decimals, so output
// is stable and diffable.
[[nodiscard]] std::string pretty_json(const boost::json::value& v);

// The report text for a run: pretty_json(json_report(...)), built piece by
// piece the way JsonReporter streams it.
[[nodiscard]] std::string render_json(const RunSummary& run, const std::string& tool_version,
                                      const ReportOptions& opts = {});

// Writes what the events reported: suites from suite_started/suite_finished,
// cases from case_finished (the cases in the RunSummary given to
// run_finished are not read; its `seconds` is). Its output for a run is
// byte for byte render_json's for the RunSummary holding the same cases.
class JsonReporter final : public Reporter {
public:
    explicit JsonReporter(std::string path, ReportOptions opts = {});
    ~JsonReporter() override;
    void run_started(const RunInfo& info) override;
    void suite_started(const std::string& suite, const std::string& file) override;
    void case_finished(const CaseResult& c) override;
    void suite_finished(const SuiteResult& s) override;
    void audit_finished(const AuditSummary& a) override;
    bool run_finished(const RunSummary& run, std::string& error) override;

private:
    struct SuiteEntry {
        SuiteResult suite;               // name, file, time, timestamp, counts; no cases
        std::size_t begin = 0, end = 0;  // its cases in spool_
    };
    std::string path_;
    ReportOptions opts_;
    std::string tool_version_;
    RunInfo info_;  // for the "run" object (merge plan and shard; audit metadata)
    std::string started_;
    std::optional<boost::json::object> audit_;
    std::vector<SuiteEntry> suites_;
    Spool spool_;
    std::string error_;  // first failure while serialising a case
    RuleTotals rules_;   // per-rule totals of the summary
};

}  // namespace idconform::reporters
