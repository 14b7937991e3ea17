// JSON reporter (cumulative): the same content as the JUnit report, for
// machines, as one document written atomically at run_finished. Each case is
// serialised when it finishes and kept in a scratch file until then, so
// memory stays flat however many cases a run has. Field names
// are stable and listed in reporters/README.md.
#pragma once

#include "reporters/cumulative_reporter.hpp"
#include "reporters/options.hpp"

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

// The "audit" member of a JSON report (waivers and baseline; see README).
[[nodiscard]] boost::json::object audit_json(const AuditSummary& a);

// Indented text of a JSON value, two spaces per level, keys in insertion
// order; doubles (all of them times) with exactly three decimals, so output
// is stable and diffable.
[[nodiscard]] std::string pretty_json(const boost::json::value& v);

// Writes what the events reported: suites from suite_started/suite_finished,
// cases from case_finished (the cases in the RunSummary given to
// run_finished are not read; its `seconds`, notes and counts of what was
// filtered out are).
class JsonReporter final : public CumulativeReporter {
public:
    explicit JsonReporter(std::string path, ReportOptions opts = {});
    ~JsonReporter() override;

private:
    void render_case(std::string& out, const CaseResult& c, std::size_t suite_index) override;
    void write_report(AtomicFileWriter& out, const RunSummary& run) override;

    RuleTotals rules_;  // per-rule totals of the summary
};

}  // namespace idconform::reporters
